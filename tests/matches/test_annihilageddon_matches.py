"""Annihilageddon on the platform (issue 11, "Done means"): ``autoplay --game annihilageddon``
plays 2-5 wizards in one command and every match it plays is verified."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command

from matches.models import Match
from matches.services import SeatSpec, match_create

from .helpers import event_count, first_legal, fresh, post_action

pytestmark = pytest.mark.django_db(transaction=True)


def _autoplay(matches: int) -> str:
    out = StringIO()
    call_command("autoplay", game="annihilageddon", matches=matches, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_one_autoplay_command_plays_every_seat_count_from_two_to_five_and_verifies_each_match():
    said = _autoplay(4)
    assert "4 matches played: 4 verified, 0 disputed, 0 pending." in said
    played = Match.objects.all()
    assert sorted(m.seats.count() for m in played) == [2, 3, 4, 5]
    assert {m.engine_version for m in played} == {"5"}  # new matches play the newest version
    assert all(m.status == Match.Status.FINISHED and m.verdict == Match.Verdict.VERIFIED for m in played)


@pytest.mark.slow
def test_fifty_autoplayed_matches_across_two_to_five_players_are_all_verified():
    """The issue's own command: ``autoplay --game annihilageddon --matches 50``."""
    said = _autoplay(50)
    assert "50 matches played: 50 verified, 0 disputed, 0 pending." in said
    counts = sorted(m.seats.count() for m in Match.objects.all())
    assert counts.count(2) == counts.count(3) == 13 and counts.count(4) == counts.count(5) == 12


def test_an_answer_sent_as_true_for_an_offered_seat_is_refused_through_the_api_and_records_nothing(
    alice, bob, carol, client_for
):
    """The engine's answers compare as JSON: before, true passed its check as equal to 1 and was
    then taken as the seat (the platform refuses 1.0 itself, as in test_action_numbers)."""
    users = [alice, bob, carol]
    match = match_create(game="annihilageddon", seats=[SeatSpec(user=u) for u in users], created_by=alice)
    clients = {seat: client_for(user) for seat, user in enumerate(users)}
    for _ in range(300):  # first-legal play reaches a question of seats within about 40 moves
        seat = client_for(alice).get(f"/api/matches/{match.id}/").json()["to_move"][0]
        actions = first_legal(clients[seat], match, seat)
        ones = [a for a in actions if a["type"] in ("choose", "defend") and a["value"] in (0, 1)]
        if ones and all(type(a["value"]) is int for a in ones):
            break
        assert post_action(clients[seat], match, seat, actions[0]).status_code == 201
    else:
        raise AssertionError("no question with the answer 0 or 1 came up")
    before = (event_count(match), fresh(match).state_seq)
    offered = ones[0]
    said = {}
    for value in (bool(offered["value"]), str(offered["value"]), float(offered["value"])):
        refused = post_action(clients[seat], match, seat, {**offered, "value": value})
        assert refused.status_code == 422, refused.json()
        said[repr(value)] = (refused.json()["code"], refused.json()["detail"])
        assert (event_count(match), fresh(match).state_seq) == before
    word = "true" if offered["value"] else "false"
    assert said[repr(bool(offered["value"]))] == (
        "bad_choice",
        f"{word} is not one of the choices offered: give a choice exactly as offered "
        f"(the whole number {offered['value']}, not {word}).",
    )
    assert said[repr(str(offered["value"]))] == ("bad_choice", "That is not one of the choices offered.")
    assert said[repr(float(offered["value"]))][0] == "bad_action"
    taken = post_action(clients[seat], match, seat, offered)
    assert taken.status_code == 201, taken.json()
