"""A prefork Celery worker keeps its database connection pool from task to task (issue 17, P7).

Celery's Django fix-up closed a prefork child's pool before and after every task, so each
verification opened a new pool: about five PostgreSQL sessions a task, whose start-ups cost the
server more CPU than the verification cost the worker (two workers verified only 1.1-1.5x the
streams of one). The workers here are real processes on the test database and the real broker."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from django.db import connection

from matches.autoplay import autoplay_match
from matches.models import Match

from .workers import wait_until, worker_log

pytestmark = pytest.mark.django_db(transaction=True)

MATCHES = 12


def sessions_opened() -> int:
    """Sessions PostgreSQL has started on the test database (its cumulative statistics)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
        return cursor.fetchone()[0]


def verified(match, worker, what: str) -> None:
    wait_until(lambda: Match.objects.filter(pk=match.pk, verdict=Match.Verdict.VERIFIED).exists(), 90, what, worker)


def idle(worker, broker) -> bool:
    """Every task the worker took has ended and none waits or is held: the verdict is written
    before its task delivers the broadcasts and queues the ratings, so a verdict alone is not the
    task's end. A message the worker has taken but not yet logged has left the queue but is held
    (acknowledged late) until its task ends; and the whole is asked again half a second later, for
    the instant between the two."""

    def now() -> bool:
        log = Path(worker.log_path).read_text()
        taken = set(re.findall(r"Task [\w.]+\[([\w-]+)\] received", log))
        ended = set(re.findall(r"Task [\w.]+\[([\w-]+)\] succeeded", log))
        return bool(taken) and taken == ended and broker.llen("celery") == 0 and broker.hlen("unacked") == 0

    if not now():
        return False
    time.sleep(0.5)
    return now()


def test_a_prefork_worker_verifies_match_after_match_on_the_connections_it_opened_once(broker, workers):
    worker = workers("pooled", pool="prefork")
    verified(autoplay_match(game="dueling-wizards", seats=2), worker, "the first verdict (the worker's pool opened)")
    before = sessions_opened()
    played = [autoplay_match(game="dueling-wizards", seats=2) for _ in range(MATCHES)]
    wait_until(
        lambda: Match.objects.filter(pk__in=[m.pk for m in played], verdict=Match.Verdict.VERIFIED).count() == MATCHES,
        120,
        f"the worker to verify {MATCHES} more matches",
        worker,
    )
    opened = sessions_opened() - before
    # A closed session is counted when it ends, so a pool closed after each task shows here as
    # about five sessions a verification (sixty); the kept pool opens none, and this process
    # itself none. A few are allowed for a pool that replaces a connection it found broken.
    assert opened <= 3, f"{opened} PostgreSQL sessions were opened for {MATCHES} verifications"


def test_a_connection_the_database_ended_between_tasks_is_never_handed_to_the_next(broker, workers):
    # The kept pool must not keep a dead connection: PostgreSQL restarted, or an idle timeout, or
    # an operator's pg_terminate_backend. Each task takes a checked connection from the pool, so
    # the next verification runs first time, with no error and no retry.
    worker = workers("pooled", pool="prefork")
    verified(autoplay_match(game="dueling-wizards", seats=2), worker, "the first verdict")
    wait_until(lambda: idle(worker, broker), 60, "the worker to finish its tasks", worker)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        assert cursor.fetchone()[0] >= 1  # the worker's connections
    verified(autoplay_match(game="dueling-wizards", seats=2), worker, "the verdict after its connections were ended")
    log = worker_log(worker)
    assert "OperationalError" not in log and "Retry in" not in log, log
