"""A tournament result taken from a platform match carries the match's head hash (since the
tournament verifier came), and the verifier requires it wherever the tournament's own events
say results carry one: a head deleted from a result, the stream rehashed so that its chain holds,
is found; a tournament recorded before results carried one verifies as it did."""

from __future__ import annotations

import pytest

from league.tournaments.services import result_from_match
from matches.models import Event
from tests.audit.helpers import alter_event, rehash_stream

from .test_tournament_audit import _platform_result, verify_all
from .test_tournament_verification_after_retraction import _append

pytestmark = pytest.mark.django_db


def _without(event: Event, key: str) -> None:
    alter_event(event, data={k: v for k, v in event.data.items() if k != key})


def _as_created_before_the_flag(t) -> None:
    """The tournament's creation as it was written before it said its results carry a head."""
    created = Event.objects.get(stream_id=t.stream_id, seq=1)
    assert created.data["result_head_hashes"] is True
    _without(created, "result_head_hashes")


def test_a_result_whose_head_hash_was_deleted_and_the_stream_rehashed_is_reported_at_its_seq(
    alice, capsys, django_capture_on_commit_callbacks
):
    t, match, record = _platform_result(alice, django_capture_on_commit_callbacks)
    result = Event.objects.get(stream_id=t.stream_id, type="result.verified")
    assert result.data["head_hash"] == match.head_hash
    _without(result, "head_hash")
    rehash_stream(t.stream_id, result.seq)
    out, code = verify_all(capsys, "tournament")
    assert code == 2, out
    assert f"DISPUTED at event {result.seq}: The result records no head hash" in out


def test_a_tournament_recorded_before_results_carried_a_head_hash_verifies_as_before(
    alice, capsys, django_capture_on_commit_callbacks
):
    t, match, record = _platform_result(alice, django_capture_on_commit_callbacks)
    _as_created_before_the_flag(t)
    _without(Event.objects.get(stream_id=t.stream_id, type="result.verified"), "head_hash")
    rehash_stream(t.stream_id)
    out, code = verify_all(capsys, "tournament")
    assert code == 0, out
    assert "1 verified, 0 disputed. (1 tournament)" in out


def test_in_a_tournament_created_before_the_flag_a_result_after_one_with_a_head_hash_needs_one(
    alice, capsys, django_capture_on_commit_callbacks
):
    t, match, record = _platform_result(alice, django_capture_on_commit_callbacks)
    _as_created_before_the_flag(t)
    rehash_stream(t.stream_id)
    out, code = verify_all(capsys, "tournament")
    assert code == 0, out
    # The same result recorded again, without the head: it would pass but for the earlier one.
    again = _append(
        t,
        "result.verified",
        {"pairing": record["id"], "match_id": str(match.id), "result": result_from_match(record, match)},
    )
    out, code = verify_all(capsys, "tournament")
    assert code == 2, out
    assert f"DISPUTED at event {again.seq}: The result records no head hash" in out
