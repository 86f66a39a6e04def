"""A message whose handler keeps failing goes dead after OUTBOX_MAX_ATTEMPTS instead of being tried
for ever: it is not tried again, ``manage.py outbox`` shows it apart from the pending ones, and an
operator puts it back (``retry``) once its cause is fixed, or gives up on it for good with a reason
(``discard``)."""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.utils import timezone

from matches import outbox
from matches.models import OutboxMessage
from matches.outbox import outbox_deliver, outbox_sweep

pytestmark = pytest.mark.django_db

TOPIC = "test.poisoned"


class Receiver:
    """A topic's handler that fails its first ``failures`` calls (all of them by default)."""

    def __init__(self, failures: int | None = None):
        self.failures = failures
        self.calls = 0
        self.delivered: list[dict] = []

    def __call__(self, payload: dict) -> None:
        self.calls += 1
        if self.failures is None or self.calls <= self.failures:
            raise RuntimeError(f"the receiver fell over (call {self.calls})")
        self.delivered.append(payload)


@pytest.fixture
def receiver(monkeypatch):
    def install(failures: int | None = None) -> Receiver:
        fn = Receiver(failures)
        monkeypatch.setitem(outbox._HANDLERS, TOPIC, fn)
        return fn

    return install


def a_message(**fields) -> OutboxMessage:
    return OutboxMessage.objects.create(topic=TOPIC, payload={"n": 1}, available_at=timezone.now(), **fields)


def sweep_past_every_backoff(times: int) -> int:
    """``times`` sweeps, each one later than any backoff: every pending message is due each time."""
    return sum(outbox_sweep(now=timezone.now() + timedelta(days=1)) for _ in range(times))


def run(*args) -> str:
    out = StringIO()
    call_command("outbox", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_the_default_keeps_trying_for_a_day_and_a_poisoned_message_still_dies(settings):
    # A broker or Redis outage of hours must not kill messages: the default's attempts, spaced by
    # the backoff, span at least a day. (The sweeps that make up for a dead message look back past
    # its death however long that takes: tests/matches/test_outbox_sweep_windows.py.)
    from matches.outbox import BACKOFF_CAP, BACKOFF_START

    waits = [min(BACKOFF_CAP, BACKOFF_START * 2 ** (k - 1)) for k in range(1, settings.OUTBOX_MAX_ATTEMPTS)]
    assert sum(waits) >= timedelta(days=1).total_seconds()
    assert sum(waits) <= timedelta(days=2).total_seconds()  # and a poisoned message does die


def test_a_handler_that_always_fails_goes_dead_after_the_max_attempts_and_is_not_tried_again(settings, receiver):
    settings.OUTBOX_MAX_ATTEMPTS = 3
    fn = receiver()
    message = a_message()
    assert sweep_past_every_backoff(10) == 0
    assert fn.calls == 3
    message.refresh_from_db()
    assert message.dead_at is not None and message.delivered_at is None
    assert message.attempts == 3 and "fell over (call 3)" in message.last_error
    # Neither the sweeper nor a delivery after a commit tries it again.
    assert outbox_deliver(message_id=message.pk) is False
    sent = []
    assert outbox_deliver(message_id=message.pk, deliver=lambda: sent.append("from memory")) is False
    assert fn.calls == 3 and sent == []


def test_a_message_that_succeeds_on_its_last_allowed_attempt_is_delivered_not_dead(settings, receiver):
    settings.OUTBOX_MAX_ATTEMPTS = 3
    fn = receiver(failures=2)
    message = a_message()
    assert sweep_past_every_backoff(5) == 1
    message.refresh_from_db()
    assert message.delivered_at is not None and message.dead_at is None
    assert fn.calls == 3 and fn.delivered == [{"n": 1}]


def test_going_dead_is_logged_once_with_the_id_topic_and_last_error(settings, receiver, caplog):
    settings.OUTBOX_MAX_ATTEMPTS = 2
    receiver()
    message = a_message()
    with caplog.at_level(logging.WARNING, logger="matches.outbox"):
        sweep_past_every_backoff(6)
    dead = [r for r in caplog.records if "dead" in r.getMessage()]
    assert len(dead) == 1, [r.getMessage() for r in caplog.records]
    text = dead[0].getMessage()
    assert dead[0].levelno >= logging.WARNING
    assert f"#{message.pk}" in text and TOPIC in text and "fell over (call 2)" in text


def test_a_dead_topic_that_nothing_makes_up_for_says_so_and_one_a_sweep_redoes_names_it(
    settings, receiver, monkeypatch, caplog
):
    settings.OUTBOX_MAX_ATTEMPTS = 1
    receiver()
    monkeypatch.setitem(outbox._HANDLERS, "match.verify", outbox._HANDLERS[TOPIC])
    a_message()
    OutboxMessage.objects.create(topic="match.verify", payload={"match_id": "x"}, available_at=timezone.now())
    with caplog.at_level(logging.WARNING, logger="matches.outbox"):
        sweep_past_every_backoff(1)
    by_topic = {r.getMessage().split(" ")[1]: r for r in caplog.records if "dead" in r.getMessage()}
    assert "nothing makes up for it" in by_topic[TOPIC].getMessage()
    assert by_topic[TOPIC].levelno == logging.ERROR  # must happen, and will not unless someone acts
    assert "requeue_unverified" in by_topic["match.verify"].getMessage()


def test_status_lists_the_dead_messages_apart_from_the_pending_ones(settings, receiver):
    settings.OUTBOX_MAX_ATTEMPTS = 2
    receiver()
    dead = a_message()
    sweep_past_every_backoff(2)
    waiting = a_message()
    out = run("status")
    pending_part, dead_part = out[: out.index("1 dead")], out[out.index("1 dead") : out.index("0 discarded")]
    assert "1 pending." in out and f"#{waiting.pk}" in pending_part and f"#{dead.pk}" not in pending_part
    assert out.count("1 dead") == 1 and f"#{dead.pk}" in dead_part and "fell over (call 2)" in dead_part
    assert "2 attempts" in dead_part


def test_retry_puts_a_dead_message_back_and_a_fixed_handler_then_delivers_it_once(settings, receiver):
    settings.OUTBOX_MAX_ATTEMPTS = 2
    receiver()
    message = a_message()
    sweep_past_every_backoff(3)
    out = run("retry", str(message.pk))
    assert f"#{message.pk}" in out and "retried" in out and "2 attempts" in out  # the audit line
    message.refresh_from_db()
    assert message.dead_at is None and message.attempts == 0 and message.available_at <= timezone.now()

    fixed = receiver(failures=0)
    assert outbox_sweep() == 1
    assert sweep_past_every_backoff(2) == 0
    assert fixed.delivered == [{"n": 1}]
    message.refresh_from_db()
    assert message.delivered_at is not None


def test_retry_all_dead_puts_every_dead_message_back_and_leaves_the_pending_ones_alone(settings, receiver):
    settings.OUTBOX_MAX_ATTEMPTS = 1
    receiver()
    dead = [a_message(), a_message()]
    sweep_past_every_backoff(1)
    pending = a_message(attempts=0)
    out = run("retry", "--all-dead")
    assert all(f"#{m.pk}" in out for m in dead) and f"#{pending.pk}" not in out
    assert "2 retried" in out
    assert not OutboxMessage.objects.filter(dead_at__isnull=False).exists()


def test_retry_refuses_a_message_that_is_not_dead_and_changes_nothing(settings, receiver):
    settings.OUTBOX_MAX_ATTEMPTS = 5
    receiver()
    message = a_message()
    sweep_past_every_backoff(1)
    with pytest.raises(CommandError, match="not dead"):
        run("retry", str(message.pk))
    message.refresh_from_db()
    assert message.attempts == 1 and message.dead_at is None
    with pytest.raises(CommandError, match="No outbox message"):
        run("retry", str(message.pk + 1000))
    with pytest.raises(CommandError):
        run("retry")  # neither an id nor --all-dead


def test_discard_needs_a_reason_and_without_one_changes_nothing(settings, receiver):
    settings.OUTBOX_MAX_ATTEMPTS = 1
    receiver()
    message = a_message()
    sweep_past_every_backoff(1)
    for reason in ([], ["--reason", "   "]):
        with pytest.raises(CommandError, match="reason"):
            run("discard", str(message.pk), *reason)
    message.refresh_from_db()
    assert message.discarded_at is None and message.discard_reason == ""


def test_a_discarded_message_keeps_its_reason_and_is_given_up_for_good(settings, receiver):
    settings.OUTBOX_MAX_ATTEMPTS = 1
    fn = receiver()
    message = a_message()
    sweep_past_every_backoff(1)
    out = run("discard", str(message.pk), "--reason", "the match was deleted by hand")
    assert f"#{message.pk}" in out and "the match was deleted by hand" in out
    message.refresh_from_db()
    assert message.discarded_at is not None and message.discard_reason == "the match was deleted by hand"
    assert message.attempts == 1 and "fell over" in message.last_error
    with pytest.raises(CommandError, match="discarded"):
        run("retry", str(message.pk))
    assert run("retry", "--all-dead").startswith("0 retried")
    assert sweep_past_every_backoff(2) == 0 and fn.calls == 1
    status = run("status")
    assert "0 dead" in status and "1 discarded" in status and "the match was deleted by hand" in status


def test_a_pending_message_can_be_discarded_before_it_goes_dead(receiver):
    fn = receiver()
    message = a_message()
    run("discard", str(message.pk), "--reason", "known poison")
    assert sweep_past_every_backoff(2) == 0 and fn.calls == 0
    message.refresh_from_db()
    assert message.discarded_at is not None and message.delivered_at is None


# Two sweepers at once ----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_sweepers_never_both_try_a_message_on_its_last_attempt_and_it_goes_dead_once(settings, monkeypatch, caplog):
    settings.OUTBOX_MAX_ATTEMPTS = 3
    inside, release = threading.Event(), threading.Event()
    calls = []

    def slow_failure(payload):
        calls.append(payload)
        inside.set()
        release.wait(10)
        raise RuntimeError("the receiver fell over")

    monkeypatch.setitem(outbox._HANDLERS, TOPIC, slow_failure)
    message = a_message(attempts=2)
    results = {}

    def first_sweeper():
        try:
            results["first"] = outbox_sweep()
        finally:
            connection.close()

    thread = threading.Thread(target=first_sweeper)
    with caplog.at_level(logging.WARNING, logger="matches.outbox"):
        thread.start()
        try:
            assert inside.wait(10)
            # The first holds the row while its handler runs: the second skips it, without waiting.
            assert outbox_sweep() == 0
        finally:
            release.set()
            thread.join()
        assert outbox_sweep(now=timezone.now() + timedelta(days=1)) == 0
    assert results["first"] == 0 and len(calls) == 1
    message.refresh_from_db()
    assert message.dead_at is not None and message.attempts == 3
    assert len([r for r in caplog.records if "dead" in r.getMessage()]) == 1


@pytest.mark.django_db(transaction=True)
def test_two_processes_recording_the_last_failure_at_once_mark_the_message_dead_once(settings, caplog):
    settings.OUTBOX_MAX_ATTEMPTS = 3
    message = a_message(attempts=2)
    start = threading.Barrier(2)

    def record():
        try:
            start.wait(5)
            outbox._failed(message.pk, RuntimeError("the receiver fell over"))
        finally:
            connection.close()

    with caplog.at_level(logging.WARNING, logger="matches.outbox"):
        threads = [threading.Thread(target=record) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    message.refresh_from_db()
    assert message.dead_at is not None and message.attempts == 3  # never past the max
    assert len([r for r in caplog.records if "dead" in r.getMessage()]) == 1


@pytest.mark.django_db(transaction=True)
def test_two_sweepers_deliver_a_message_on_its_last_attempt_once(settings, monkeypatch):
    settings.OUTBOX_MAX_ATTEMPTS = 3
    inside, release = threading.Event(), threading.Event()
    calls = []

    def slow_success(payload):
        calls.append(payload)
        inside.set()
        release.wait(10)

    monkeypatch.setitem(outbox._HANDLERS, TOPIC, slow_success)
    message = a_message(attempts=2)
    results = {}

    def first_sweeper():
        try:
            results["first"] = outbox_sweep()
        finally:
            connection.close()

    thread = threading.Thread(target=first_sweeper)
    thread.start()
    try:
        assert inside.wait(10)
        assert outbox_sweep() == 0
    finally:
        release.set()
        thread.join()
    assert results["first"] == 1 and len(calls) == 1
    message.refresh_from_db()
    assert message.delivered_at is not None and message.dead_at is None and message.attempts == 2


def test_every_topic_says_what_makes_up_for_it_or_what_is_lost_when_it_is_given_up_on():
    # A tournament command's emails and webhooks (tournament.reach) are re-derived by no sweep: it
    # says what is lost, and its death is still logged as an error (tests/league/tournaments/
    # test_a_dead_command_followup.py). A new topic that says nothing fails here until it does.
    assert set(outbox._HANDLERS) - set(outbox._IF_GIVEN_UP) == set()
    assert outbox._LOST_IF_GIVEN_UP == {"tournament.reach"}


def test_a_dead_drafts_hand_off_names_the_sweep_that_makes_its_match():
    assert "league.hand_off_lost_drafts" in outbox._IF_GIVEN_UP["match.finished"]


# A handler whose writes are refused only at the commit -------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_handler_whose_writes_fail_at_the_commit_is_a_failed_attempt_and_the_sweep_delivers_the_rest(
    settings, monkeypatch
):
    # PostgreSQL checks Django's foreign keys at the commit (they are deferred): a handler that
    # writes a row for a user deleted meanwhile returns normally, and its delivery's commit is
    # refused. That is the handler's failure, not an outage: it must count as an attempt (and go
    # dead in the end), not stop every sweep at the oldest message with the ones behind it waiting.
    from django.contrib.admin.models import ADDITION, LogEntry

    settings.OUTBOX_MAX_ATTEMPTS = 2
    delivered = []

    def writes_for_a_user_gone(payload):
        LogEntry.objects.create(user_id=987654321, action_flag=ADDITION, object_repr="gone", change_message="")

    monkeypatch.setitem(outbox._HANDLERS, TOPIC, writes_for_a_user_gone)
    monkeypatch.setitem(outbox._HANDLERS, "test.fine", lambda payload: delivered.append(payload))
    poisoned = a_message()
    fine = OutboxMessage.objects.create(topic="test.fine", payload={"n": 2}, available_at=timezone.now())

    assert outbox_sweep() == 1
    assert delivered == [{"n": 2}]
    fine.refresh_from_db()
    poisoned.refresh_from_db()
    assert fine.delivered_at is not None
    assert poisoned.delivered_at is None and poisoned.attempts == 1
    assert "IntegrityError" in poisoned.last_error
    assert not LogEntry.objects.exists()  # the handler's writes were rolled back with the mark
    assert sweep_past_every_backoff(3) == 0
    poisoned.refresh_from_db()
    assert poisoned.dead_at is not None and poisoned.attempts == 2


def test_a_message_whose_topic_this_process_has_no_handler_for_is_a_failed_attempt_not_a_stuck_sweep(
    settings, receiver
):
    # During a rolling deploy a process still running the old code sweeps messages of a topic only
    # the new code handles (or, after one, rows of a topic since renamed): each is an attempt that
    # failed, tried again later (by a process that knows it), while the messages behind it are
    # delivered. It used to raise, and every sweep stopped at it.
    settings.OUTBOX_MAX_ATTEMPTS = 3
    fn = receiver(failures=0)
    unknown = OutboxMessage.objects.create(topic="test.newer", payload={"n": 0}, available_at=timezone.now())
    known = a_message()

    assert outbox_sweep() == 1
    assert fn.delivered == [{"n": 1}]
    known.refresh_from_db()
    unknown.refresh_from_db()
    assert known.delivered_at is not None
    assert unknown.delivered_at is None and unknown.attempts == 1
    assert "test.newer" in unknown.last_error


@pytest.mark.django_db(transaction=True)
def test_a_handler_that_swallows_a_database_error_is_a_failed_attempt_not_a_delivery_rolled_back_in_silence(
    settings, monkeypatch
):
    # A handler that catches a failed write of its own (an "it is there already" without a
    # savepoint) returns normally, but its transaction can only be rolled back, the delivered mark
    # with it: the message was counted delivered, stayed pending, and was run again by every sweep
    # for ever (its broadcasts and tasks sent again each time) without ever counting an attempt.
    from django.contrib.admin.models import LogEntry
    from django.db import IntegrityError

    settings.OUTBOX_MAX_ATTEMPTS = 2
    calls = []

    def swallows_its_failure(payload):
        calls.append(payload)
        try:
            LogEntry.objects.create(user_id=None, action_flag=1, object_repr="x", change_message="")
        except IntegrityError:
            pass  # "there already"

    monkeypatch.setitem(outbox._HANDLERS, TOPIC, swallows_its_failure)
    message = a_message()

    assert outbox_sweep() == 0
    message.refresh_from_db()
    assert message.delivered_at is None and message.attempts == 1
    assert message.last_error
    assert sweep_past_every_backoff(3) == 0
    message.refresh_from_db()
    assert message.dead_at is not None and len(calls) == 2
