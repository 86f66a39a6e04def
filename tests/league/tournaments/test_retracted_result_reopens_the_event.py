"""A round-1 result taken from a platform match is retracted after later rounds are over (the
match is found disputed on re-verification: services/corrections.py puts the pairing back
before the organiser). Until the organiser rules on it, the standings lack that result, so
the event is not finished and no further round is paired on them (RULES.md "A retracted
result reopens the event")."""

from __future__ import annotations

import pytest

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.standings import progress, round_standings
from matches.commands import AT_HEAD
from matches.models import Event, Match
from matches.verification import match_verify
from tests.audit.helpers import alter_event

from .helpers import field, lower_id_wins, open_tournament, refused, settle, state
from .test_tournament_platform_matches import play_out

pytestmark = pytest.mark.django_db


def _round_one_retracted_after(alice, capture, *, rounds: int, played: int):
    """A four-player Swiss of ``rounds`` rounds whose r1-1 was a platform match; ``played``
    rounds are over when that match is found disputed. Returns the tournament and the
    retracted result."""
    t = open_tournament(alice, "swiss", field(4), start=True, rounds=rounds)
    out = services.tournament_match_create(tournament=t, pairing="r1-1", by=alice, expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"]["r1-1"]["match_id"])
    with capture(execute=True):
        play_out(match, {s.index: s.user for s in match.seats.all()})
    recorded = state(t)["pairings"]["r1-1"]
    assert recorded["status"] == "final" and recorded["source"] == "match", recorded
    settle(t, lower_id_wins)
    for _ in range(played - 1):
        services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
        settle(t, lower_id_wins)
    # Tampering with one of the match's moves: re-verification finds it disputed.
    alter_event(Event.objects.filter(stream_id=match.stream_id, type="action").order_by("seq")[1], actor="user:999")
    with capture(execute=True):
        assert not match_verify(match_id=match.id).verified
    s = state(t)
    assert s["pairings"]["r1-1"]["status"] == "disputed" and s["pairings"]["r1-1"]["result"] is None
    return t, recorded


def test_a_result_retracted_after_the_last_round_puts_the_event_back_to_running_until_ruled(
    alice, django_capture_on_commit_callbacks
):
    t, recorded = _round_one_retracted_after(alice, django_capture_on_commit_callbacks, rounds=2, played=2)
    info = progress(state(t))
    assert not info["finished"] and info["status"] == "running"
    assert info["reopened_pairings"] == ["r1-1"]
    assert not info["can_pair_next"]
    assert Tournament.objects.get(pk=t.pk).status == "running"

    b = recorded["players"][1]
    services.tournament_rule(
        tournament=t, pairing="r1-1", by=alice, result={"winner": b}, reason="replayed", expected_seq=AT_HEAD
    )
    info = progress(state(t))
    assert info["finished"] and info["reopened_pairings"] == []
    assert Tournament.objects.get(pk=t.pk).status == "finished"


def test_the_next_round_is_refused_while_an_earlier_result_waits_for_a_ruling(
    alice, django_capture_on_commit_callbacks
):
    t, recorded = _round_one_retracted_after(alice, django_capture_on_commit_callbacks, rounds=3, played=2)
    before = state(t)
    assert not progress(before)["can_pair_next"]
    names = [before["players"][p]["name"] for p in recorded["players"]]

    refusal = refused("earlier_result_open", services.tournament_pair_next, tournament=t, by=alice)
    assert refusal.message == (
        f"Round 1's result between {names[0]} and {names[1]} was retracted and waits for your ruling: "
        "rule on it before pairing the next round."
    )
    assert refusal.extra["open_pairings"] == ["r1-1"]
    after = state(t)
    assert after["seq"] == before["seq"] and len(after["rounds"]) == 2  # nothing written

    # Ruled on, the result counts again and round 3 is paired on standings that hold it.
    b = recorded["players"][1]
    services.tournament_rule(
        tournament=t, pairing="r1-1", by=alice, result={"winner": b}, reason="replayed", expected_seq=AT_HEAD
    )
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    assert len(s["rounds"]) == 3
    assert sum(row["played"] for row in round_standings(s)) == 8  # two rounds of four players, all counted
