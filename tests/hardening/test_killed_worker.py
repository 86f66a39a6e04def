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
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from config.celery import app
from matches.autoplay import autoplay_match
from matches.models import Event, Match, OutboxMessage
from tests.conftest import database_url

ROOT = Path(__file__).resolve().parents[2]
# The test command always has Redis (REDIS_URL); the broker's visibility timeout is Redis's behaviour.
BROKER = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def broker(tmp_path):
    """This process publishes to the real broker (tasks not eager), which starts empty."""
    previous = {key: app.conf[key] for key in ("task_always_eager", "broker_url")}
    app.conf.task_always_eager = False
    app.conf.broker_url = BROKER
    reset_broker_connections()
    # Messages and unacknowledged deliveries an earlier, interrupted run left on this broker.
    redis.Redis.from_url(BROKER).delete("celery", "unacked", "unacked_index", "unacked_mutex")
    try:
        yield redis.Redis.from_url(BROKER)
    finally:
        app.conf.update(previous)
        reset_broker_connections()


def reset_broker_connections():
    app.close()
    app.__dict__.pop("amqp", None)  # a cached property holding the producer pool


@pytest.fixture
def workers(tmp_path):
    """Start worker processes on the test database and the broker; every one is stopped at the end."""
    started: list[subprocess.Popen] = []

    def start(name: str, **env: str) -> subprocess.Popen:
        full = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": BROKER,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "CELERY_VISIBILITY_TIMEOUT": "2",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            **env,
        }
        with open(tmp_path / f"{name}.log", "w") as log:  # the child keeps its own copy of the descriptor
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "tests.hardening.celery_worker_app",
                    "worker",
                    "--pool=solo",
                    "--without-heartbeat",
                    "--without-gossip",
                    "--without-mingle",
                    "-n",
                    f"{name}@%h",
                    "--loglevel=INFO",
                ],
                cwd=ROOT,
                env=full,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        proc.log_path = tmp_path / f"{name}.log"
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_until(condition, timeout: float, what: str, worker: subprocess.Popen | None = None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        if worker is not None and worker.poll() is not None:
            raise AssertionError(f"the worker exited while waiting for {what}:\n{worker_log(worker)}")
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}" + (f":\n{worker_log(worker)}" if worker else ""))


def worker_log(worker: subprocess.Popen) -> str:
    return Path(worker.log_path).read_text()[-3000:]


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
