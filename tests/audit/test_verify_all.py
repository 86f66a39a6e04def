"""`manage.py verify --all` over every kind of stream (issue 14, "Every stream kind has a verifier")."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from matches import stream_verifiers
from matches.autoplay import autoplay_match
from matches.checkpoints.services import checkpoint_sign
from matches.models import Event, Match, Stream
from matches.verification import match_verify

from .helpers import alter_event, new_signing_key, rehash_stream


@pytest.fixture(autouse=True)
def signing_key(settings):
    settings.CHECKPOINT_SIGNING_KEY = new_signing_key()


def verify_all(capsys) -> tuple[str, int]:
    try:
        call_command("verify", all=True)
        code = 0
    except CommandError as exc:
        code = exc.returncode
    return capsys.readouterr().out, code


def finished(game: str) -> Match:
    match = autoplay_match(game=game, seats=2, bot="random")
    match_verify(match_id=match.id)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.verdict == Match.Verdict.VERIFIED, match.verdict_reason
    return match


def test_an_altered_draft_event_is_reported_with_kind_draft(db, capsys):
    draft = finished("iwdl-draft")
    target = Event.objects.filter(stream_id=draft.stream_id, type="action").order_by("seq")[2]
    alter_event(target, data={**target.data, "seat": 1 - target.data["seat"]})
    out, code = verify_all(capsys)
    assert code == 2
    assert f"[draft] {draft.id}: DISPUTED at event {target.seq}: " in out


def test_a_rewrite_recomputed_after_a_checkpoint_is_reported_against_the_log(db, capsys):
    match = finished("dueling-wizards")
    checkpoint_sign()
    target = Event.objects.filter(stream_id=match.stream_id, type="action").order_by("seq")[2]
    alter_event(target, recorded_at=target.recorded_at.replace(year=target.recorded_at.year - 1))
    head = rehash_stream(match.stream_id, target.seq)
    Match.objects.filter(pk=match.pk).update(head_hash=head)
    out, code = verify_all(capsys)
    seq = Stream.objects.get(pk=match.stream_id).head_seq
    assert code == 2
    assert f"[match] {match.id}: DISPUTED at event {seq}: The transparency log recorded head" in out


def test_a_live_match_has_its_chain_checked(db, capsys, alice, bob):
    from matches.services import SeatSpec, match_create

    live = match_create(game="dueling-wizards", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
    assert live.status == Match.Status.LIVE
    out, code = verify_all(capsys)
    assert code == 0 and "1 verified, 0 disputed. (1 match)" in out
    first = Event.objects.get(stream_id=live.stream_id, seq=1)
    alter_event(first, actor="user:999")
    out, code = verify_all(capsys)
    assert code == 2 and f"[match] {live.id}: DISPUTED at event 1: " in out


def test_a_stream_kind_without_a_verifier_is_reported_not_skipped(db, capsys):
    Stream.objects.create(id="ledger:1", kind="ledger")
    assert "ledger" not in stream_verifiers.registered()
    out, code = verify_all(capsys)
    assert code == 2
    assert "[ledger] ledger:1: DISPUTED at event None: No verifier is registered for streams of kind 'ledger'." in out


def test_league_registers_the_season_and_tournament_verifiers():
    assert {"match", "season", "tournament"} <= set(stream_verifiers.registered())


def test_scheduled_reverification_checks_the_streams_checked_longest_ago_first(db, alice, bob):
    from config.celery import app
    from matches.checkpoints.models import StreamAudit
    from matches.checkpoints.tasks import reverify
    from matches.services import SeatSpec, match_create

    assert app.conf.beat_schedule["reverify-streams"]["task"] == "checkpoints.reverify"
    first, second = finished("dueling-wizards"), finished("dueling-wizards")
    live = match_create(game="dueling-wizards", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
    target = Event.objects.filter(stream_id=second.stream_id, type="action").order_by("seq")[1]
    alter_event(target, actor="user:999")

    # One at a time: the first run takes the oldest never-checked stream, the next the other;
    # a live match waits for its end.
    assert reverify.delay(batch=1).get() == []
    assert reverify.delay(batch=1).get() == [second.stream_id]
    audits = {a.stream_id: a for a in StreamAudit.objects.all()}
    assert set(audits) == {first.stream_id, second.stream_id} and live.stream_id not in audits
    assert (audits[second.stream_id].ok, audits[second.stream_id].seq) == (False, target.seq)
    second.refresh_from_db()
    assert second.verdict == Match.Verdict.DISPUTED
    # Then round again, oldest check first.
    assert reverify.delay(batch=1).get() == []
    assert StreamAudit.objects.get(stream_id=first.stream_id).checked_at > audits[first.stream_id].checked_at
