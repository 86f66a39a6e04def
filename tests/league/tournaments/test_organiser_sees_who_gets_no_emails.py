"""The organiser sees which of the players they entered have not confirmed (so are sent no email),
in the detail's players list; the player sees it in their own row. Anyone else's answer is what it
was before: no new field (who made each entry is in the public events, but a spectator has nothing
to do about it)."""

from __future__ import annotations

import uuid

import pytest

from league.tournaments import services
from matches.commands import AT_HEAD

from .helpers import people, pid

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    org, ann, ben, cat = people("org", "ann", "ben", "cat")
    t = services.tournament_create(created_by=org, name="Cup", game="dueling-wizards", format="swiss", options={})
    services.tournament_register(tournament=t, user=ann, by=org, expected_seq=AT_HEAD)
    services.tournament_register(tournament=t, user=ben, expected_seq=AT_HEAD)
    return t, org, ann, ben, cat


def rows(client, t) -> dict[str, dict]:
    return {row["name"]: row for row in client.get(f"/api/tournaments/{t.id}/").json()["players"]}


def test_the_organisers_players_list_says_who_has_not_confirmed_their_entry(cup, client_for):
    t, org, ann, ben, _ = cup
    seen = rows(client_for(org), t)
    assert seen["ann"]["asked_to_play"] is False
    assert seen["ben"]["asked_to_play"] is True


def test_a_confirmed_entry_shows_as_asked_to_play_in_the_organisers_list(cup, client_for):
    t, org, ann, *_ = cup
    services.tournament_confirm_entry(tournament=t, user=ann, expected_seq=AT_HEAD)
    assert rows(client_for(org), t)["ann"]["asked_to_play"] is True


def test_a_player_sees_it_in_their_own_row_and_in_no_one_elses(cup, client_for):
    t, _, ann, ben, _ = cup
    seen = rows(client_for(ann), t)
    assert seen["ann"]["asked_to_play"] is False
    assert "asked_to_play" not in seen["ben"]
    seen = rows(client_for(ben), t)
    assert seen["ben"]["asked_to_play"] is True
    assert "asked_to_play" not in seen["ann"]


def test_a_spectators_players_list_has_no_such_field(cup, client_for):
    t, _, _, _, cat = cup
    for client in (client_for(cat), client_for(None)):
        assert all("asked_to_play" not in row for row in rows(client, t).values())


def test_a_command_answer_to_the_organiser_carries_it_too(cup, client_for):
    t, org, ann, *_ = cup
    head = client_for(org).get(f"/api/tournaments/{t.id}/").json()["head_seq"]
    answer = client_for(org).post(
        f"/api/tournaments/{t.id}/seed/",
        {"method": "rating", "expected_seq": head, "event_id": str(uuid.uuid4())},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    by_id = {row["id"]: row for row in answer.json()["players"]}
    assert by_id[pid(ann)]["asked_to_play"] is False
