"""The tournament verifier and a platform result retracted because its match was found disputed:
once retracted the result no longer counts, so the disputed match's published state is no
measure of it; but a retraction excuses only the result it names, recorded before it, of a
match that really is disputed."""

from __future__ import annotations

import pytest

from league.tournaments.services import result_from_match
from league.tournaments.services.commands import _run
from matches.commands import AT_HEAD
from matches.models import Event, Match
from matches.verification import match_verify
from tests.audit.helpers import alter_event, rehash_stream

from .helpers import state
from .test_tournament_audit import _platform_result, verify_all

pytestmark = pytest.mark.django_db


def _append(t, kind, data):
    """A fact appended to the tournament's stream as the platform appends its own."""
    _run(tournament=t, user=None, decide=lambda s: [(kind, data)], actor="system", expected_seq=AT_HEAD)
    return Event.objects.filter(stream_id=t.stream_id).order_by("-seq").first()


def _published_result_altered(match):
    """The README's demo: the match's published result turned round, found on re-verification."""
    flipped = {**match.result, "placements": list(reversed(match.result["placements"]))}
    Match.objects.filter(pk=match.pk).update(result=flipped)


def test_a_tournament_verifies_after_a_result_whose_match_result_was_altered_is_retracted(
    alice, capsys, django_capture_on_commit_callbacks
):
    t, match, record = _platform_result(alice, django_capture_on_commit_callbacks)
    _published_result_altered(match)
    with django_capture_on_commit_callbacks(execute=True):
        assert not match_verify(match_id=match.id).verified
    retraction = Event.objects.get(stream_id=t.stream_id, type="result.match_disputed")
    assert retraction.data["retracted"] == record["result"]
    assert state(t)["pairings"][record["id"]]["result"] is None
    out, code = verify_all(capsys, "tournament")
    assert code == 0, out
    assert "1 verified, 0 disputed. (1 tournament)" in out


def test_a_result_recorded_again_from_the_disputed_match_after_its_retraction_is_reported(
    alice, capsys, django_capture_on_commit_callbacks
):
    """The retraction covers the result before it, not one recorded after it from the same match."""
    t, match, record = _platform_result(alice, django_capture_on_commit_callbacks)
    _published_result_altered(match)
    with django_capture_on_commit_callbacks(execute=True):
        match_verify(match_id=match.id)
    match.refresh_from_db()
    again = _append(
        t,
        "result.verified",
        {
            "pairing": record["id"],
            "match_id": str(match.id),
            "result": result_from_match(record, match),
            "head_hash": match.head_hash,
        },
    )
    assert state(t)["pairings"][record["id"]]["status"] == "final"
    out, code = verify_all(capsys, "tournament")
    assert code == 2
    assert (
        f"DISPUTED at event {again.seq}: The match behind this result is disputed, not verified, "
        "and the result was never retracted."
    ) in out


def test_a_retraction_does_not_hide_a_forged_result_of_a_match_that_verifies(
    alice, capsys, django_capture_on_commit_callbacks
):
    """A forger who turns a recorded result round, rehashes the chain and appends a retraction
    naming the forged result: the match still verifies, so the result must still agree with it."""
    t, match, record = _platform_result(alice, django_capture_on_commit_callbacks)
    loser = next(p for p in record["players"] if p != record["result"]["winner"])
    event = Event.objects.get(stream_id=t.stream_id, type="result.verified")
    forged = {**event.data, "result": {"winner": loser}}
    alter_event(event, data=forged)
    rehash_stream(t.stream_id, event.seq)
    _append(
        t,
        "result.match_disputed",
        {"pairing": record["id"], "match_id": str(match.id), "retracted": forged["result"], "reason": "r"},
    )
    assert Match.objects.get(pk=match.pk).verdict == Match.Verdict.VERIFIED
    out, code = verify_all(capsys, "tournament")
    assert code == 2
    assert f"DISPUTED at event {event.seq}: The result recorded differs from the result of the match it cites." in out


def test_a_retraction_naming_another_result_does_not_excuse_the_one_recorded(
    alice, capsys, django_capture_on_commit_callbacks
):
    """A retraction says which result it takes back; it excuses that result and no other."""
    t, match, record = _platform_result(alice, django_capture_on_commit_callbacks)
    _published_result_altered(match)
    Match.objects.filter(pk=match.pk).update(verdict=Match.Verdict.DISPUTED)
    loser = next(p for p in record["players"] if p != record["result"]["winner"])
    _append(
        t,
        "result.match_disputed",
        {"pairing": record["id"], "match_id": str(match.id), "retracted": {"winner": loser}, "reason": "r"},
    )
    event = Event.objects.get(stream_id=t.stream_id, type="result.verified")
    out, code = verify_all(capsys, "tournament")
    assert code == 2
    assert f"DISPUTED at event {event.seq}: The match behind this result is disputed" in out
