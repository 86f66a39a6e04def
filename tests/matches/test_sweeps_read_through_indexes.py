"""The beat's sweeps run every minute: each reads the matches it looks for through an index, never
every match there is. A longer window (league/seasons/tasks.py ``followups_window``, drawn from the
outbox's death horizon) then costs the window's verdicts, not the table."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from league.seasons.tasks import requeue_followups
from league.tournaments.tasks import requeue_tournament_followups
from matches import tasks
from matches.models import Match, Stream

pytestmark = pytest.mark.django_db


@pytest.fixture
def a_year_of_verdicts():
    """Two thousand matches finished and verified over a year, the table's statistics taken: the
    planner weighs its reads as on a platform that has been running a while."""
    now = timezone.now()
    streams = Stream.objects.bulk_create(Stream(id=f"match:{uuid.uuid4()}", kind="match") for _ in range(2000))
    Match.objects.bulk_create(
        Match(
            stream=stream,
            game="wizard-dodgeball",
            engine_version="1",
            status=Match.Status.FINISHED,
            result={"placements": [0, 1]},
            finished_at=now - timedelta(hours=4 * n),
            verdict=Match.Verdict.VERIFIED,
            verified_at=now - timedelta(hours=4 * n),
        )
        for n, stream in enumerate(streams)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE matches_match")


#: What reads (nearly) every match: the table itself, or the index by status, where "finished" is
#: almost all of them.
WHOLE_TABLE = ("Seq Scan on matches_match", "matches_mat_status_14c80d_idx")


def plans_of_match_reads(sweep) -> list[str]:
    """The plans of the sweep's reads of matches, had PostgreSQL the choice (sequential scans
    disabled: one stays only where no index serves)."""
    with CaptureQueriesContext(connection) as ran:
        sweep()
    reads = {q["sql"] for q in ran.captured_queries if q["sql"].startswith("SELECT") and '"matches_match"' in q["sql"]}
    assert reads, "the sweep read no matches"
    plans = []
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        for sql in reads:
            cursor.execute("EXPLAIN " + sql)
            plans.append("\n".join(row[0] for row in cursor.fetchall()))
        cursor.execute("SET LOCAL enable_seqscan = on")
    return plans


@pytest.mark.parametrize(
    ("sweep", "index"),
    [
        (requeue_followups, "matches_match_verified_at_idx"),
        (requeue_tournament_followups, "matches_match_verified_at_idx"),
        (tasks.requeue_unverified, "matches_match_unverified_idx"),
    ],
    ids=["league.requeue_followups", "tournaments.requeue_followups", "matches.requeue_unverified"],
)
def test_a_sweep_reads_the_matches_it_looks_for_through_an_index_that_holds_only_those(
    sweep, index, monkeypatch, a_year_of_verdicts
):
    # EXPLAIN's plan is PostgreSQL's, as the suite's database is (tests/conftest.py).
    monkeypatch.setattr(tasks, "verify_matches_queue", lambda ids: 0)
    plans = plans_of_match_reads(sweep)
    assert [p for p in plans if any(whole in p for whole in WHOLE_TABLE)] == []
    assert any(index in p for p in plans), plans
