"""A whole season's verification and its follow-ups, against the verification work alone on the
same streams (issue 17, P6).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wizard_duels REDIS_URL=redis://127.0.0.1:6379/N \
        .venv/bin/python benchmarks/bench_season_verify.py [--clubs 24] [--replay] [--workers 2]

On a scratch database, an IWDL double round robin (24 clubs: 552 fixtures, each a draft and a
match: 1,104 streams) is played by bots through the real services while no verification task
runs (the setup only: its commits go with ``synchronous_commit`` off, the handler of
``match.verify`` does nothing), so every stream ends finished and unverified. Then, in the same
process, with ``synchronous_commit`` back on:

- baseline: the verification work alone, nothing written: each stream read and replayed by
  ``matches_check`` one match at a time as ``match_verify`` calls it (three queries a stream), and ``matches_check``
  (``matches_verify``'s reads: a hundred streams a query); run before and after the project's
  path (the first pass pays for cold caches);
- project: ``matches_verify`` over every stream: the verdicts recorded in one transaction, then
  what its commit sends (Celery eager, as in a one-process run): the verdicts' broadcasts, the
  results landing in the season and the ratings (``verdicts_followups_apply``). Timed as a whole,
  with the follow-ups' share timed inside it;
- with ``--workers N``, on a second copy of the season: the same streams queued on the Redis
  broker by ``verify_matches_queue`` (even batches of at most a hundred a task) for N Celery
  worker processes (``--pool solo``, started and answering before the clock starts; their first
  task still pays their lazy imports), timed until every verdict, result, rating and broadcast
  is in; CPU is the workers'. Its fixtures, rating points, ratings and verdicts are checked
  equal to the one-process run's.

It checks that every fixture ends played and every verified match rated. Wall and CPU times:
this process's (the workers' for their run), and the PostgreSQL backends' on the season's copy
(read from /proc when the server is local).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from matches.commands import AT_HEAD  # noqa: E402


def play_unverified(clubs: int):
    """The season played by bots with verification held back; its stream ids, draft then match
    per fixture in the order played."""
    from league.seasons import services
    from matches import outbox
    from matches.models import Match

    league = services.league_load_iwdl()
    picked = list(league.clubs.order_by("slug")[:clubs])
    season = services.season_create(league=league, created_by=None, start_date=dt.date(2027, 1, 2), clubs=picked)
    fixtures = list(season.fixtures.order_by("round", "id"))
    verify = outbox._HANDLERS["match.verify"]
    outbox._HANDLERS["match.verify"] = lambda payload: None
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO off")
    start = time.monotonic()
    try:
        for n, fixture in enumerate(fixtures, 1):
            services.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)
            if n % 46 == 0:
                print(f"  played {n}/{len(fixtures)} fixtures ({time.monotonic() - start:.0f} s)", flush=True)
    finally:
        outbox._HANDLERS["match.verify"] = verify
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO on")
    assert not Match.objects.exclude(verdict=Match.Verdict.PENDING).exists()
    print(f"setup: {len(fixtures)} fixtures played in {time.monotonic() - start:.0f} s")


class Clock:
    """Wall seconds, this process's CPU seconds and the CPU seconds of the PostgreSQL backends on
    the database (a local server's, read from /proc: the reads and writes cost it as much as the
    replay costs Python; a backend that ends meanwhile is not counted)."""

    def __init__(self, others: bool = False):
        self.others = others  # only the other processes' backends (the workers'), not this one's
        self.wall, self.cpu, self.pg = time.perf_counter(), time.process_time(), self._postgres()

    def stop(self) -> tuple[float, float, float]:
        return time.perf_counter() - self.wall, time.process_time() - self.cpu, self._postgres() - self.pg

    def _postgres(self) -> float:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                + (" AND pid <> pg_backend_pid()" if self.others else "")
            )
            pids = [pid for (pid,) in cursor.fetchall()]
        total = 0.0
        for pid in pids:
            try:
                total += _cpu_seconds(pid)
            except OSError:  # ended, or not on this machine
                pass
        return total


def verification_alone(ids: list[str]) -> tuple[tuple[float, float, float], int]:
    from matches.verification import matches_check

    clock = Clock()
    events = 0
    for match_id in ids:
        checked = matches_check(match_ids=[match_id])[str(match_id)]
        events += checked.head_seq
        if not checked.verdict.verified:
            raise SystemExit(f"match {match_id} did not verify")
    return clock.stop(), events


def checked_alone(ids: list[str]) -> tuple[float, float, float]:
    from matches.verification import matches_check

    clock = Clock()
    checked = matches_check(match_ids=ids)
    if not all(c.verdict.verified for c in checked.values()):
        raise SystemExit("a match did not verify")
    return clock.stop()


def project_path(ids: list[str]) -> tuple[tuple[float, float, float], float, float]:
    from channels.layers import get_channel_layer

    from league.seasons import tasks
    from matches import live
    from matches.verification import matches_verify

    # A worker has its channel layer loaded long before (importing channels-redis took over a
    # second of this machine's wall clock): not a cost of the verdicts.
    get_channel_layer()
    spent = {"followups": 0.0, "broadcast": 0.0}

    def timed(what, fn):
        def run(**kwargs):
            start = time.perf_counter()
            try:
                return fn(**kwargs)
            finally:
                spent[what] += time.perf_counter() - start

        return run

    real_followups, real_broadcast = tasks.verdicts_followups_apply, live.broadcast_matches
    tasks.verdicts_followups_apply = timed("followups", real_followups)
    live.broadcast_matches = timed("broadcast", real_broadcast)
    try:
        clock = Clock()
        verdicts = matches_verify(match_ids=ids)
        took = clock.stop()
    finally:
        tasks.verdicts_followups_apply, live.broadcast_matches = real_followups, real_broadcast
    assert all(v.verified for v in verdicts.values())
    return took, spent["followups"], spent["broadcast"]


def season_ids() -> list[str]:
    """The season's streams, draft then match per fixture in the order played."""
    from league.seasons.models import Season
    from matches.models import Match

    season = Season.objects.get()
    ids = []
    for fixture in season.fixtures.order_by("round", "id"):
        ids += [str(fixture.draft_id), str(Match.objects.get(origin__draft=str(fixture.draft_id)).pk)]
    return ids


def outcome(ids: list[str]) -> dict[str, list]:
    """What the verdicts leave, to hold the workers' run against the one-process run."""
    from league.ratings.models import Rating, RatingPoint
    from league.seasons.models import Fixture
    from matches.models import Match

    return {
        "verdicts": sorted(
            (str(m), v, s, r)
            for m, v, s, r in Match.objects.filter(pk__in=ids).values_list(
                "pk", "verdict", "verdict_seq", "verdict_reason"
            )
        ),
        "fixtures": sorted(
            Fixture.objects.values_list("key", "status", "home_left", "away_left", "walkover_winner_id")
        ),
        "points": sorted(
            (g, c, str(m), s, r, d, v)
            for g, c, m, s, r, d, v in RatingPoint.objects.values_list(
                "game", "competitor", "match_id", "sequence", "rating", "deviation", "volatility"
            )
        ),
        "ratings": sorted(
            Rating.objects.values_list("game", "competitor", "rating", "deviation", "volatility", "matches")
        ),
    }


def measure(clubs: int, workers: int, copy: str) -> None:
    from league.ratings.models import RatingPoint
    from league.seasons.models import Fixture, Season

    ids = season_ids()
    base1, events = verification_alone(ids)
    checked1 = checked_alone(ids)
    project, followups, broadcast = project_path(ids)
    base2, _ = verification_alone(ids)
    checked2 = checked_alone(ids)
    season = Season.objects.get()
    fixtures = season.fixtures.count()
    played = season.fixtures.filter(status=Fixture.Status.PLAYED).count()
    rated = RatingPoint.objects.filter(match_id__in=ids).values("match_id").distinct().count()
    print(f"{clubs} clubs, {fixtures} fixtures, {len(ids)} streams ({events:,} events)")
    print(f"{'what':<62}{'wall s':>9}{'cpu s':>9}{'pg cpu s':>10}")

    def row(what, took):
        print(f"{what:<62}" + "".join(f"{t:>9.2f}" for t in took[:2]) + f"{took[2]:>10.2f}")

    row("baseline: verification alone, per stream (first pass, cold)", base1)
    row("baseline: matches_check, batched reads (first pass)", checked1)
    row("project: matches_verify + follow-ups", project)
    print(f"{'  of which the follow-ups task (results, ratings)':<62}{followups:>9.2f}")
    print(f"{'  of which the verdicts broadcast':<62}{broadcast:>9.2f}")
    row("baseline: verification alone, per stream (second pass)", base2)
    row("baseline: matches_check, batched reads (second pass)", checked2)
    fastest = min(base1[0], base2[0], checked1[0], checked2[0])
    print(
        f"ratio project / verification alone (wall, against the fastest pass): {project[0] / fastest:.2f}x; "
        f"fixtures played {played}/{fixtures}, matches rated {rated}"
    )
    if not workers:
        return
    expected = outcome(ids)
    second = f"{copy}_workers"
    _admin(f'DROP DATABASE IF EXISTS "{second}"')
    _admin(f'CREATE DATABASE "{second}" TEMPLATE "{copy.removesuffix("_run")}"')
    _use(second)
    try:
        spread = workers_path(ids, workers, second, len(expected["points"]))
        same = outcome(ids) == expected
        _use(copy)
        base3, _ = verification_alone(ids)
        checked3 = checked_alone(ids)
    finally:
        _use(copy)
        _disconnect(second)
        _admin(f'DROP DATABASE IF EXISTS "{second}"')
    row(f"project, {workers} Celery workers (solo pool; cpu: the workers')", spread)
    row("baseline: verification alone, per stream (third pass)", base3)
    row("baseline: matches_check, batched reads (third pass)", checked3)
    print(
        f"{workers} workers / one process (wall): {spread[0] / project[0]:.2f}x; / matches_check's fastest pass: "
        f"{spread[0] / min(checked1[0], checked2[0], checked3[0]):.2f}x; fixtures, rating points, ratings and "
        f"verdicts {'equal to' if same else 'DIFFERENT FROM'} the one-process run's"
    )
    if not same:
        raise SystemExit("the workers' run left a different outcome")


def _use(name: str) -> None:
    from django.conf import settings

    # The pool keeps connections to the database it was made for: a new one is made for ``name``.
    connection.close()
    connection.close_pool()
    settings.DATABASES["default"]["NAME"] = connection.settings_dict["NAME"] = name


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def workers_path(ids: list[str], workers: int, database: str, points: int) -> tuple[float, float, float]:
    """Wall, the workers' CPU seconds and their PostgreSQL backends' from queueing the season's streams until every verdict's
    follow-ups and broadcast are in (``points``: the rating points the one-process run left)."""
    import redis

    from config.celery import app
    from league.ratings.models import RatingPoint
    from league.seasons.models import Fixture
    from matches.models import Match, OutboxMessage
    from matches.tasks import verify_matches_queue

    broker = os.environ["REDIS_URL"]
    redis.Redis.from_url(broker).delete("celery", "unacked", "unacked_index", "unacked_mutex")
    app.conf.update(task_always_eager=False, broker_url=broker)
    app.close()
    app.__dict__.pop("amqp", None)  # a cached property holding the producer pool (of the memory broker)
    env = {
        **os.environ,
        "DATABASE_URL": urlsplit(os.environ["DATABASE_URL"])._replace(path=f"/{database}").geturl(),
        "CELERY_BROKER_URL": broker,
        "CELERY_TASK_ALWAYS_EAGER": "false",
    }
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "--without-gossip"]
            + ["--without-mingle", "--without-heartbeat", "-n", f"season{i}@%h", "--loglevel", "WARNING"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for i in range(workers)
    ]
    try:
        deadline = time.monotonic() + 120
        while len(app.control.ping(timeout=1.0)) < workers:
            if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                raise SystemExit("the workers did not start")
        cpu = sum(_cpu_seconds(p.pid) for p in procs)
        clock = Clock(others=True)
        verify_matches_queue(ids)
        deadline = time.monotonic() + 1800
        # Cheap questions, a few times a second: this process competes with the workers for the
        # two cores (the season's copy holds no other match, so no match id list is needed).
        while not (
            RatingPoint.objects.count() == points
            and not Fixture.objects.exclude(status=Fixture.Status.PLAYED).exists()
            and not Match.objects.filter(verdict=Match.Verdict.PENDING).exists()
            and not OutboxMessage.objects.filter(delivered_at__isnull=True).exists()
        ):
            if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                raise SystemExit("the workers did not finish")
            time.sleep(0.25)
        wall, polling, pg = clock.stop()
        cpu = sum(_cpu_seconds(p.pid) for p in procs) - cpu
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
    print(f"  (this process polling meanwhile: {polling:.2f} s CPU)")
    return wall, cpu, pg


def _admin(sql: str) -> None:
    import psycopg

    params = connection.get_connection_params()
    params["dbname"] = "postgres"
    with psycopg.connect(**{k: v for k, v in params.items() if k != "cursor_factory"}, autocommit=True) as admin:
        admin.execute(sql)


def _disconnect(name: str) -> None:
    # This process's connections to the scratch database, a thread's too (the channel layer's
    # sync bridge keeps its own), closed before the database is copied or dropped.
    connection.close()
    _admin(
        f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}' AND pid <> pg_backend_pid()"
    )


def main() -> None:
    from django.conf import settings

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clubs", type=int, default=24)
    parser.add_argument(
        "--replay",
        action="store_true",
        help="measure on a copy of the season kept by an earlier run (playing it takes about 20 minutes)",
    )
    parser.add_argument(
        "--workers", type=int, default=0, help="also verify the season with this many Celery worker processes"
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL server.")
    # The played season is kept as a template database; each measurement runs on a fresh copy.
    template = f"{settings.DATABASES['default']['NAME']}_season{args.clubs}"
    if not args.replay:
        old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
        try:
            play_unverified(args.clubs)
            scratch = connection.settings_dict["NAME"]
            _disconnect(scratch)
            _admin(f'DROP DATABASE IF EXISTS "{template}"')
            _admin(f'CREATE DATABASE "{template}" TEMPLATE "{scratch}"')
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
    copy = f"{template}_run"
    _admin(f'DROP DATABASE IF EXISTS "{copy}"')
    _admin(f'CREATE DATABASE "{copy}" TEMPLATE "{template}"')
    _use(copy)
    try:
        measure(args.clubs, args.workers, copy)
    finally:
        _disconnect(copy)
        _admin(f'DROP DATABASE IF EXISTS "{copy}"')


if __name__ == "__main__":
    main()
