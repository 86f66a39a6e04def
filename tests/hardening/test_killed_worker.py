"""A Celery worker killed in the middle of verifying a match (issue 15, "Why": the task's message
stayed unacknowledged for the broker's default visibility timeout, an hour, and the match stayed
pending that long; "Deliver" 6: a worker killed mid-task, nothing lost or duplicated, every finished
match ends verified).

Tasks are acknowledged late (CELERY_TASK_ACKS_LATE), so a worker that dies mid-task never acknowledges
its message; Redis hands it to another worker once the visibility timeout (CELERY_VISIBILITY_TIMEOUT,
five minutes in production, two seconds here) has passed. The workers are real processes on the real
broker, and the first is killed with SIGKILL: no handler of its own runs."""

from __future__ import annotations

import os
import signal

import pytest

from matches.autoplay import autoplay_match
from matches.models import Event, Match, OutboxMessage

from .workers import wait_until

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_worker_killed_while_verifying_leaves_the_match_to_the_next_worker_which_verifies_it_once(
    broker, workers, tmp_path
):
    stall_file = tmp_path / "stalled"
    first = workers("first", WD_TEST_STALL_FILE=str(stall_file))

    match = autoplay_match(game="dueling-wizards", seats=2)  # ends, and its verification is queued
    assert match.status == Match.Status.FINISHED
    events_before = list(Event.objects.filter(stream_id=match.stream_id).values_list("seq", "hash"))

    # The first worker has replayed the match and is about to record the verdict: kill it there.
    wait_until(
        lambda: stall_file.exists() and stall_file.read_text(), 90, "the first worker to replay the match", first
    )
    match.refresh_from_db()
    assert match.verdict == Match.Verdict.PENDING
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=10)
    # Acknowledged late: the message the dead worker held is still the broker's, not lost.
    assert broker.hlen("unacked") == 1

    second = workers("second")
    verdict = wait_until(
        lambda: Match.objects.filter(pk=match.pk, verdict=Match.Verdict.VERIFIED).exists(),
        90,
        "the second worker to verify the match",
        second,
    )
    assert verdict
    match.refresh_from_db()
    assert match.verified_at is not None
    # Nothing duplicated: the stream holds the same events, the verdict was recorded once (one
    # match.verified message for the league's receivers), and no copy of the task is left to run again.
    assert list(Event.objects.filter(stream_id=match.stream_id).values_list("seq", "hash")) == events_before
    assert OutboxMessage.objects.filter(topic="match.verified", payload__match_id=str(match.pk)).count() == 1
    wait_until(
        lambda: broker.hlen("unacked") == 0 and broker.llen("celery") == 0, 30, "the broker to hold no copy of the task"
    )
