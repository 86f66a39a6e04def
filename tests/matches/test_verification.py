"""Verification by replay (ARCHITECTURE.md "Verification"; issue 2, item 5)."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from matches import eventstore
from matches.autoplay import autoplay_match
from matches.models import Event, Match
from matches.verification import match_verify


@contextmanager
def triggers_disabled():
    """What a superuser with database access could do: switch the immutability off."""
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = origin")


def rehash_from(match: Match, seq: int) -> None:
    """A careful forger: after altering an event, recompute every hash from it onwards."""
    events = list(Event.objects.filter(stream_id=match.stream_id).order_by("seq"))
    prev = events[seq - 2].hash if seq > 1 else "0" * 64
    for event in events[seq - 1 :]:
        digest = eventstore.event_hash(prev, eventstore.event_payload(event))
        Event.objects.filter(pk=event.pk).update(prev_hash=prev, hash=digest)
        prev = digest


def finished_match() -> Match:
    match = autoplay_match(game="dueling-wizards", seats=2)
    assert match.status == Match.Status.FINISHED
    return match


def test_an_untouched_finished_match_is_verified_and_verification_is_repeatable(db):
    match = finished_match()
    first = match_verify(match_id=match.id)
    second = match_verify(match_id=match.id)
    assert first.verified and second.verified
    assert first.head_hash == match.head_hash == Event.objects.filter(stream_id=match.stream_id).last().hash
    match.refresh_from_db()
    assert match.verdict == Match.Verdict.VERIFIED and match.verdict_seq is None


def test_an_event_altered_in_the_database_is_disputed_at_its_seq(db):
    match = finished_match()
    target = Event.objects.filter(stream_id=match.stream_id, type="action").order_by("seq")[3]
    with triggers_disabled():
        data = dict(target.data)
        data["seat"] = 1 - data["seat"]
        Event.objects.filter(pk=target.pk).update(data=data)
    verdict = match_verify(match_id=match.id)
    assert not verdict.verified
    assert verdict.seq == target.seq
    assert "altered" in verdict.reason
    match.refresh_from_db()
    assert (match.verdict, match.verdict_seq) == (Match.Verdict.DISPUTED, target.seq)


def test_a_rehashed_forgery_of_a_draw_is_caught_by_the_revealed_seed(db):
    match = finished_match()
    shuffle = Event.objects.filter(stream_id=match.stream_id, type="chance").order_by("seq").first()
    with triggers_disabled():
        data = dict(shuffle.data)
        data["outcome"] = list(range(len(data["outcome"])))
        Event.objects.filter(pk=shuffle.pk).update(data=data)
        rehash_from(match, shuffle.seq)
    verdict = match_verify(match_id=match.id)
    assert (verdict.verified, verdict.seq) == (False, shuffle.seq)
    assert "seed" in verdict.reason


def test_a_revealed_seed_that_does_not_match_the_commitment_is_disputed(db):
    match = finished_match()
    closing = Event.objects.get(stream_id=match.stream_id, type="match.finished")
    with triggers_disabled():
        Event.objects.filter(pk=closing.pk).update(data={**closing.data, "seed": "00" * 32})
        rehash_from(match, closing.seq)
    verdict = match_verify(match_id=match.id)
    assert (verdict.verified, verdict.seq) == (False, closing.seq)
    assert "commitment" in verdict.reason


def test_a_published_result_that_differs_from_the_replay_is_disputed(db):
    match = finished_match()
    Match.objects.filter(pk=match.pk).update(result={**match.result, "winners": [9]})
    verdict = match_verify(match_id=match.id)
    assert not verdict.verified and "result" in verdict.reason


def test_verify_command_reports_one_match_and_all_matches(db, capsys):
    good, bad = finished_match(), finished_match()
    call_command("verify", str(good.id))
    assert "verified" in capsys.readouterr().out
    target = Event.objects.filter(stream_id=bad.stream_id, type="action").order_by("seq")[0]
    with triggers_disabled():
        Event.objects.filter(pk=target.pk).update(type="chance")
    with pytest.raises(CommandError) as failure:
        call_command("verify", all=True)
    out = capsys.readouterr().out
    assert f"{bad.id}: DISPUTED at event {target.seq}" in out
    assert "1 verified, 1 disputed." in out
    assert failure.value.returncode == 2


def test_verify_command_needs_a_match_or_all(db):
    with pytest.raises(CommandError, match="MATCH_ID"):
        call_command("verify")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_two_hundred_autoplayed_matches_are_all_verified(capsys):
    call_command("autoplay", game="dueling-wizards", matches=200)
    assert "200 matches played: 200 verified, 0 disputed, 0 pending." in capsys.readouterr().out
    assert Match.objects.filter(verdict=Match.Verdict.VERIFIED).count() == 200


def test_an_altered_log_line_is_disputed_at_its_event(db):
    """The readable log is a projection: a line that says something the event does not is caught."""
    from matches.models import MatchLog

    match = finished_match()
    line = MatchLog.objects.filter(match=match, seq__gt=1).order_by("seq")[3]
    MatchLog.objects.filter(pk=line.pk).update(text="Seat 0 concedes.")
    verdict = match_verify(match_id=match.id)
    assert (verdict.verified, verdict.seq) == (False, line.seq)
    assert "log" in verdict.reason


def test_an_altered_match_state_is_disputed(db):
    match = finished_match()
    state = dict(match.state)
    state["round"] = state["round"] + 5
    Match.objects.filter(pk=match.pk).update(state=state)
    verdict = match_verify(match_id=match.id)
    assert not verdict.verified and "state" in verdict.reason


def test_a_state_stored_without_the_engines_derived_keys_verifies_and_an_altered_one_does_not(db):
    # Wizarding Duels keeps a derived key (``board_key``, issue 17 P1): a match's state stored
    # before the engine kept it has none, and is still the state its events give.
    match = autoplay_match(game="wizarding-duels", seats=2)
    assert match.status == Match.Status.FINISHED and "board_key" in match.state
    old = {k: v for k, v in match.state.items() if k != "board_key"}
    Match.objects.filter(pk=match.pk).update(state=old)
    verdict = match_verify(match_id=match.id)
    assert verdict.verified, verdict.reason
    Match.objects.filter(pk=match.pk).update(state=dict(old, round=old["round"] + 1))
    verdict = match_verify(match_id=match.id)
    assert not verdict.verified and "state" in verdict.reason


def test_a_verdicts_broadcast_is_the_small_verdict_frame_at_the_head_not_every_seats_view(db):
    # A verdict adds no event: re-sending the last events, then every seat's view, was most of what
    # a verification's broadcast cost (issue 17, P7, P6); a socket behind the head still catches up
    # from the database. The frame itself is tested in test_live_batch.py.
    from matches.models import OutboxMessage

    match = finished_match()
    before = OutboxMessage.objects.filter(topic="match.broadcast").count()
    match_verify(match_id=match.id)
    match.refresh_from_db()

    (item,) = OutboxMessage.objects.filter(topic="match.broadcast_many").order_by("-pk").first().payload["matches"]
    assert item == {"match_id": str(match.pk), "head_seq": match.state_seq, "after": match.state_seq}
    assert OutboxMessage.objects.filter(topic="match.broadcast").count() == before
