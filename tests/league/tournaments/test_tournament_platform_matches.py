"""A pairing played as a platform match reports itself once the match is verified
(issue 6, item 6): the tournament listens to ``matches.signals.match_verified`` instead of
polling. The match carries its tournament origin."""

from __future__ import annotations

import random

import pytest

from engines import registry
from engines.base import CHANCE
from league.tournaments import services
from matches.commands import AT_HEAD
from matches.errors import Refusal
from matches.models import Match
from matches.services import match_act
from matches.signals import match_verified
from matches.verification import match_verify

from .helpers import field, open_tournament, state

pytestmark = pytest.mark.django_db


def play_out(match: Match, users):
    engine = registry.get(match.game, match.engine_version)
    rng = random.Random(7)
    for _ in range(3000):
        match = Match.objects.get(pk=match.pk)
        if match.status == Match.Status.FINISHED:
            return match
        seat = next(s for s in engine.to_move(match.state) if s != CHANCE)
        action = engine.bot_action("random", match.state, seat, rng)
        match_act(match_id=match.id, user=users[seat], seat=seat, action=action, expected_seq=match.state_seq)
    raise AssertionError("match did not end")


def test_a_pairings_platform_match_reports_its_verified_result(alice, django_capture_on_commit_callbacks):
    players = field(2)
    t = open_tournament(alice, "single_elimination", players, start=True)
    out = services.tournament_match_create(tournament=t, pairing="M1", by=players[0], expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"]["M1"]["match_id"])
    assert match.origin == {"tournament": str(t.id), "round": 1, "pairing": "M1"}
    seats = {s.index: s.user for s in match.seats.all()}
    with django_capture_on_commit_callbacks(execute=True):
        match = play_out(match, seats)
    match.refresh_from_db()
    assert match.verdict == Match.Verdict.VERIFIED
    record = state(t)["pairings"]["M1"]
    drawn = match.result["placements"][0] == match.result["placements"][1]  # equal health at a deck-out
    if drawn:  # rare with a random deal; then the bracket waits for the organiser (see the test below)
        assert record["result"] is None and record["status"] != "final"
    else:
        assert record["status"] == "final" and record["source"] == "match"
        winner_seat = match.result["placements"].index(1)
        assert record["result"] == {"winner": str(seats[winner_seat].pk)}
    # The verdict arriving again (a re-verification, a redelivered signal) records nothing more.
    head = state(t)["seq"]
    with django_capture_on_commit_callbacks(execute=True):
        match_verify(match_id=match.id)
    match_verified.send(sender=Match, match_id=match.id, game=match.game, verdict=match.verdict)
    assert services.tournament_record_match(match_id=match.id) == ("drawn" if drawn else "recorded")
    again = state(t)
    assert again["seq"] == head
    event = "match_disputed" if drawn else "verified"
    assert [h["event"] for h in again["pairings"]["M1"]["history"]].count(event) == 1


def test_a_drawn_platform_match_in_a_bracket_is_left_to_the_organiser(alice):
    players = field(2)
    t = open_tournament(alice, "single_elimination", players, start=True)
    out = services.tournament_match_create(tournament=t, pairing="M1", by=players[0], expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"]["M1"]["match_id"])
    seats = {s.index: s.user for s in match.seats.all()}
    match = play_out(match, seats)
    # As if the deck ran out with both duellists on equal health (Dueling Wizards, "The End").
    Match.objects.filter(pk=match.pk).update(
        result={**match.result, "placements": [1, 1], "winners": [0, 1]}, verdict=Match.Verdict.VERIFIED
    )
    assert services.tournament_record_match(match_id=match.id) == "drawn"
    record = state(t)["pairings"]["M1"]
    assert record["result"] is None and record["status"] != "final"
    assert "needs a winner" in record["history"][-1]["reason"]
    services.tournament_rule(
        tournament=t, pairing="M1", by=alice, result={"winner": str(seats[1].pk)}, expected_seq=AT_HEAD
    )
    assert state(t)["pairings"]["M1"]["result"] == {"winner": str(seats[1].pk)}


def test_a_disputed_platform_match_records_no_result_and_leaves_the_pairing_to_the_organiser(
    alice, django_capture_on_commit_callbacks
):
    players = field(2)
    t = open_tournament(alice, "single_elimination", players, start=True)
    out = services.tournament_match_create(tournament=t, pairing="M1", by=players[0], expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"]["M1"]["match_id"])
    seats = {s.index: s.user for s in match.seats.all()}
    match = play_out(match, seats)  # on-commit callbacks not run: no verdict yet
    assert state(t)["pairings"]["M1"]["status"] == "pending"
    # The published result no longer matches the replay, so verification disputes it.
    flipped = {**match.result, "placements": list(reversed(match.result["placements"]))}
    Match.objects.filter(pk=match.pk).update(result=flipped)
    with django_capture_on_commit_callbacks(execute=True):
        verdict = match_verify(match_id=match.id)
    assert not verdict.verified
    record = state(t)["pairings"]["M1"]
    assert record["result"] is None and record["status"] != "final"
    assert [h["event"] for h in record["history"]].count("match_disputed") == 1
    # The organiser still rules on it from the table.
    services.tournament_rule(
        tournament=t, pairing="M1", by=alice, result={"winner": str(seats[0].pk)}, expected_seq=AT_HEAD
    )
    assert state(t)["pairings"]["M1"]["status"] == "final"


def test_a_match_without_a_verdict_is_not_recorded_yet(alice):
    players = field(2)
    t = open_tournament(alice, "swiss", players, start=True, rounds=1)
    out = services.tournament_match_create(tournament=t, pairing="r1-1", by=alice, expected_seq=AT_HEAD)
    match_id = out.state["pairings"]["r1-1"]["match_id"]
    assert services.tournament_record_match(match_id=match_id) == "pending"
    assert state(t)["pairings"]["r1-1"]["status"] == "pending"


def test_a_pairing_gets_one_match_and_only_its_players_or_the_organiser_create_it(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=1)
    s = state(t)
    outsider = next(p for p in players if str(p.pk) not in s["pairings"]["r1-1"]["players"])
    with pytest.raises(Refusal) as exc:
        services.tournament_match_create(tournament=t, pairing="r1-1", by=outsider, expected_seq=AT_HEAD)
    assert exc.value.code == "not_your_pairing"
    services.tournament_match_create(tournament=t, pairing="r1-1", by=alice, expected_seq=AT_HEAD)
    with pytest.raises(Refusal) as exc:
        services.tournament_match_create(tournament=t, pairing="r1-1", by=alice, expected_seq=AT_HEAD)
    assert exc.value.code == "match_exists"
