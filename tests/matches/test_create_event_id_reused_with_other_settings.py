"""A match create sent again under its ``event_id`` is a retry only if it asks for the same match:
the same settings (configuration, clock) as well as the same seats. Under a used id, a create with
other settings is 409 ``event_id_reused``, not answered with the first match as if its settings had
been taken."""

from __future__ import annotations

import uuid

import pytest

from matches.models import Match

pytestmark = pytest.mark.django_db


def a_create(**extra):
    return {"game": "dueling-wizards", "seats": [{"username": "alice"}, {"bot": "random"}], **extra}


@pytest.mark.parametrize(
    "first, other",
    [
        ({}, {"time_control": {"kind": "fischer", "base": 300, "increment": 5}}),
        (
            {"time_control": {"kind": "fischer", "base": 300, "increment": 5}},
            {"time_control": {"kind": "fischer", "base": 600, "increment": 5}},
        ),
        ({}, {"config": {"jokers": False}}),
    ],
    ids=["clock-added", "clock-changed", "config-changed"],
)
def test_a_create_with_other_settings_under_a_used_id_is_409_and_makes_nothing(alice, client_for, first, other):
    eid = str(uuid.uuid4())
    made = client_for(alice).post("/api/matches/", a_create(event_id=eid, **first), format="json")
    assert made.status_code == 201, made.json()
    refused = client_for(alice).post("/api/matches/", a_create(event_id=eid, **other), format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "event_id_reused"), refused.json()
    assert "already used for a different command" in refused.json()["detail"]
    assert Match.objects.count() == 1


def test_the_same_create_with_its_settings_sent_again_returns_the_first_match(alice, client_for):
    # The settings are compared as the server reads them: defaults spelled out ask for the same match.
    clock = {"kind": "fischer", "base": 300, "increment": 5}
    eid = str(uuid.uuid4())
    first = client_for(alice).post(
        "/api/matches/", a_create(event_id=eid, time_control=clock, config={"jokers": True}), format="json"
    )
    assert first.status_code == 201, first.json()
    again = client_for(alice).post("/api/matches/", a_create(event_id=eid, time_control=clock), format="json")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    assert Match.objects.count() == 1
