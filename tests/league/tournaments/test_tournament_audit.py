"""Tournaments under audit (issue 14): the tournament verifier in `verify --all`, and a pairing
result whose platform match is later found disputed retracted by an event."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.standings import round_standings
from matches.commands import AT_HEAD
from matches.models import Event, Match
from matches.verification import match_verify
from tests.audit.helpers import alter_event, rehash_stream

from .helpers import field, open_tournament, pid, state
from .test_tournament_platform_matches import play_out

pytestmark = pytest.mark.django_db


def verify_all(capsys, *kinds) -> tuple[str, int]:
    try:
        call_command("verify", all=True, kind=list(kinds))
        code = 0
    except CommandError as exc:
        code = exc.returncode
    return capsys.readouterr().out, code


@pytest.fixture
def ruled(alice):
    """A two-player bracket whose final the organiser ruled on."""
    players = field(2)
    t = open_tournament(alice, "single_elimination", players, start=True)
    services.tournament_rule(
        tournament=t,
        pairing="M1",
        by=alice,
        result={"winner": pid(players[0])},
        reason="agreed at the table",
        expected_seq=AT_HEAD,
    )
    return t, players


def test_an_untouched_tournament_verifies(ruled, capsys):
    out, code = verify_all(capsys, "tournament")
    assert code == 0, out
    assert "1 verified, 0 disputed. (1 tournament)" in out


def test_an_altered_tournament_ruling_is_reported_at_its_seq_with_kind_tournament(ruled, capsys):
    t, players = ruled
    event = Event.objects.get(stream_id=t.stream_id, type="result.ruled")
    alter_event(event, data={**event.data, "result": {"winner": pid(players[1])}})
    out, code = verify_all(capsys)
    assert code == 2
    assert f"[tournament] {t.stream_id}: DISPUTED at event {event.seq}: " in out and "altered" in out


def test_a_rehashed_ruling_is_caught_by_a_fresh_fold_against_the_cached_bracket(ruled, capsys):
    t, players = ruled
    event = Event.objects.get(stream_id=t.stream_id, type="result.ruled")
    alter_event(event, data={**event.data, "result": {"winner": pid(players[1])}})
    rehash_stream(t.stream_id, event.seq)
    out, code = verify_all(capsys, "tournament")
    t.refresh_from_db()
    assert code == 2 and t.state_seq == event.seq
    assert f"[tournament] {t.stream_id}: DISPUTED at event {event.seq}: The stored projection differs" in out
    assert "pairings.M1" in out


def test_a_tampered_cached_projection_is_reported(ruled, capsys):
    t, players = ruled
    t.refresh_from_db()
    cached = t.state
    cached["pairings"]["M1"]["result"] = {"winner": pid(players[1])}
    Tournament.objects.filter(pk=t.pk).update(state=cached)
    out, code = verify_all(capsys, "tournament")
    assert code == 2 and "pairings.M1.result" in out


def _platform_result(alice, django_capture_on_commit_callbacks):
    """A Swiss round's pairing played as a platform match, verified and recorded (not drawn)."""
    for _ in range(5):
        players = field(2, prefix=f"s{Match.objects.count()}-")
        t = open_tournament(alice, "swiss", players, start=True, rounds=1)
        pairing = next(r for r in state(t)["pairings"].values() if len(r["players"]) == 2)
        out = services.tournament_match_create(tournament=t, pairing=pairing["id"], by=players[0], expected_seq=AT_HEAD)
        match = Match.objects.get(pk=out.state["pairings"][pairing["id"]]["match_id"])
        seats = {s.index: s.user for s in match.seats.all()}
        with django_capture_on_commit_callbacks(execute=True):
            match = play_out(match, seats)
        record = state(t)["pairings"][pairing["id"]]
        if record["status"] == "final" and record["result"].get("winner"):
            return t, match, record
    raise AssertionError("five drawn matches in a row")


def test_a_platform_result_is_checked_against_its_match(alice, capsys, django_capture_on_commit_callbacks):
    t, match, record = _platform_result(alice, django_capture_on_commit_callbacks)
    out, code = verify_all(capsys, "tournament")
    assert code == 0, out
    Match.objects.filter(pk=match.pk).update(head_hash="e" * 64)
    out, code = verify_all(capsys, "tournament")
    event = Event.objects.get(stream_id=t.stream_id, type="result.verified")
    assert code == 2
    assert f"DISPUTED at event {event.seq}: The head hash recorded with the result differs" in out


def test_a_match_found_disputed_after_its_result_was_recorded_is_retracted(
    alice, capsys, django_capture_on_commit_callbacks
):
    t, match, record = _platform_result(alice, django_capture_on_commit_callbacks)
    assert _counted(state(t))
    target = Event.objects.filter(stream_id=match.stream_id, type="action").order_by("seq")[1]
    alter_event(target, actor="user:999")
    with django_capture_on_commit_callbacks(execute=True):
        assert not match_verify(match_id=match.id).verified

    after = state(t)["pairings"][record["id"]]
    assert after["status"] == "disputed"
    assert after["history"][-1]["event"] == "match_disputed"
    assert after["history"][-1]["reason"].startswith("Result retracted: the match was disputed")
    retraction = Event.objects.get(stream_id=t.stream_id, type="result.match_disputed")
    assert retraction.data["retracted"] == record["result"]
    # Standings no longer count it, and the organiser can rule.
    assert not _counted(state(t))
    services.tournament_rule(
        tournament=t,
        pairing=record["id"],
        by=alice,
        result={"winner": record["players"][1]},
        reason="replayed at the table",
        expected_seq=AT_HEAD,
    )
    assert state(t)["pairings"][record["id"]]["status"] == "final"
    # Retracting again appends nothing; the tournament verifies (the result was retracted).
    assert services.tournament_retract_match(match_id=match.id) == "retracted"
    assert Event.objects.filter(stream_id=t.stream_id, type="result.match_disputed").count() == 1
    out, code = verify_all(capsys, "tournament")
    assert code == 0, out


def _counted(s) -> bool:
    """Does the standings table count any game played?"""
    return any(row["played"] for row in round_standings(s))
