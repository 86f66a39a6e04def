"""A platform match's result the organiser corrected, whose match is later found disputed: the
correction is the organiser's ruling and stands (RULES.md "A corrected result stands when its match
is later disputed"): nothing is retracted, the pairing is not reopened, and the tournament verifies,
because the verifier sees that the correction replaced the match's result. A correction does not
excuse a wrong recording of a match that verifies."""

from __future__ import annotations

import pytest

from league.tournaments import services
from matches.commands import AT_HEAD
from matches.models import Event, Match
from matches.verification import match_verify
from tests.audit.helpers import alter_event, rehash_stream

from .helpers import state
from .test_tournament_audit import _platform_result, verify_all

pytestmark = pytest.mark.django_db


def _corrected(t, alice, record):
    """The organiser turns the recorded result round (the players told them the other one won)."""
    loser = next(p for p in record["players"] if p != record["result"]["winner"])
    services.tournament_correct(
        tournament=t,
        pairing=record["id"],
        by=alice,
        result={"winner": loser},
        reason="the players agreed the other one won",
        expected_seq=AT_HEAD,
    )
    return {"winner": loser}


def test_a_corrected_result_stands_when_its_match_is_later_disputed_and_the_tournament_verifies(
    alice, capsys, django_capture_on_commit_callbacks
):
    t, match, record = _platform_result(alice, django_capture_on_commit_callbacks)
    corrected = _corrected(t, alice, record)
    # The README's demo: the match's published result altered, found on re-verification.
    flipped = {**match.result, "placements": list(reversed(match.result["placements"]))}
    Match.objects.filter(pk=match.pk).update(result=flipped)
    with django_capture_on_commit_callbacks(execute=True):
        assert not match_verify(match_id=match.id).verified
    assert Match.objects.get(pk=match.pk).verdict == Match.Verdict.DISPUTED

    assert not Event.objects.filter(stream_id=t.stream_id, type="result.match_disputed").exists()
    after = state(t)["pairings"][record["id"]]
    assert (after["status"], after["source"], after["result"]) == ("final", "correction", corrected)
    out, code = verify_all(capsys, "tournament")
    assert code == 0, out
    assert "1 verified, 0 disputed. (1 tournament)" in out


def test_a_correction_does_not_hide_a_forged_recording_of_a_match_that_verifies(
    alice, capsys, django_capture_on_commit_callbacks
):
    t, match, record = _platform_result(alice, django_capture_on_commit_callbacks)
    event = Event.objects.get(stream_id=t.stream_id, type="result.verified")
    loser = next(p for p in record["players"] if p != record["result"]["winner"])
    alter_event(event, data={**event.data, "result": {"winner": loser}})
    rehash_stream(t.stream_id, event.seq)
    services.projection_rebuild(tournament=t)
    _corrected(t, alice, {**record, "result": {"winner": loser}})  # replaces the forged result
    assert Match.objects.get(pk=match.pk).verdict == Match.Verdict.VERIFIED
    out, code = verify_all(capsys, "tournament")
    assert code == 2
    assert f"DISPUTED at event {event.seq}: The result recorded differs from the result of the match it cites." in out
