"""A tournament create sent again under its ``event_id`` is a retry only if it asks for the same
tournament, its options included: another under a used id is 409 ``event_id_reused``, never the
first tournament handed back as if the new options had been taken."""

from __future__ import annotations

import uuid

import pytest

from league.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def create(client, eid, **options):
    body = {"name": "Spring Open", "game": "dueling-wizards", "format": "swiss", "options": options, "event_id": eid}
    return client.post("/api/tournaments/", body, format="json")


@pytest.mark.parametrize(
    "first, other",
    [({"rounds": 3}, {"rounds": 7}), ({}, {"cap": 16}), ({"seeding": "rating"}, {})],
    ids=["rounds-changed", "cap-added", "seeding-dropped"],
)
def test_a_create_with_other_options_under_a_used_id_is_409_and_makes_nothing(alice, client_for, first, other):
    eid = str(uuid.uuid4())
    made = create(client_for(alice), eid, **first)
    assert made.status_code == 201, made.json()
    refused = create(client_for(alice), eid, **other)
    assert (refused.status_code, refused.json()["code"]) == (409, "event_id_reused"), refused.json()
    assert "already used for a different command" in refused.json()["detail"]
    assert Tournament.objects.count() == 1
    assert Tournament.objects.get().state["options"] == made.json()["options"]


def test_the_same_create_sent_again_returns_the_first_tournament(alice, client_for):
    eid = str(uuid.uuid4())
    first = create(client_for(alice), eid, rounds=3, check_in_opens="2027-05-01T10:00+00:00")
    again = create(client_for(alice), eid, rounds=3, check_in_opens="2027-05-01T10:00+00:00")
    assert (first.status_code, again.status_code) == (201, 200), again.json()
    assert again.json()["id"] == first.json()["id"] and Tournament.objects.count() == 1
