"""A draft create sent again under its ``event_id`` is a retry only if it asks for the same room:
its pick clock as well as its coaches and configuration. The draft stream's first event records no
clock (the room holds it), so the match create alone took a retry with another clock for the same
command and answered 200 with the first room's clock; now it is 409 ``event_id_reused``."""

from __future__ import annotations

import uuid

import pytest

from league.drafts.models import Draft
from matches.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(make_user, alice, bob):
    # An organiser seats the coaches directly: the create opens the room, with no invitation between.
    return make_user("org", staff=True)


def open_draft(client, **extra):
    return client.post("/api/drafts/", {"coaches": ["alice", "bob"], "clock_seconds": 60, **extra}, format="json")


def test_a_draft_create_with_another_clock_under_a_used_id_is_409_and_writes_nothing(organiser, client_for):
    client, eid = client_for(organiser), str(uuid.uuid4())
    assert open_draft(client, event_id=eid).status_code == 201
    events = Event.objects.count()
    refused = open_draft(client, event_id=eid, clock_seconds=3600)
    assert (refused.status_code, refused.json()["code"]) == (409, "event_id_reused"), refused.json()
    assert "already used for a different command" in refused.json()["detail"]
    assert [d.clock_seconds for d in Draft.objects.all()] == [60]
    assert Event.objects.count() == events


def test_the_same_draft_create_sent_again_returns_the_first_room(organiser, client_for):
    client, eid = client_for(organiser), str(uuid.uuid4())
    first = open_draft(client, event_id=eid)
    assert first.status_code == 201, first.json()
    again = open_draft(client, event_id=eid)
    assert (again.status_code, again.json()["id"]) == (200, first.json()["id"])
    assert Draft.objects.count() == 1
