"""A whole season's verification and its follow-ups, against the verification work alone on the
same streams (issue 17, P6).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wizard_duels REDIS_URL=redis://127.0.0.1:6379/N \
        .venv/bin/python benchmarks/bench_season_verify.py [--clubs 24]

On a scratch database, an IWDL double round robin (24 clubs: 552 fixtures, each a draft and a
match: 1,104 streams) is played by bots through the real services while no verification task
runs (the setup only: its commits go with ``synchronous_commit`` off, the handler of
``match.verify`` does nothing), so every stream ends finished and unverified. Then, in the same
process, with ``synchronous_commit`` back on:

- baseline: the verification work alone: each stream read and replayed by ``verify_events``
  (the checks ``match_verify`` runs), nothing written; run before and after the project's path
  (the first pass pays for cold caches);
- project: ``matches_verify`` over every stream: the verdicts recorded in one transaction, then
  what its commit sends (Celery eager, as in a one-process run): the verdicts' broadcasts, the
  results landing in the season and the ratings (``verdicts_followups_apply``). Timed as a whole,
  with the follow-ups' share timed inside it.

It checks that every fixture ends played and every verified match rated. Wall and CPU times
(this process; PostgreSQL's own work shows in wall time only).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
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


def verification_alone(ids: list[str]) -> tuple[float, float, int]:
    from matches import eventstore
    from matches.models import Match
    from matches.verification import verify_events

    wall, cpu = time.perf_counter(), time.process_time()
    matches = {str(pk): match for pk, match in Match.objects.in_bulk(ids).items()}
    events = 0
    for match in (matches[m] for m in ids):
        stream = eventstore.stream_events(stream_id=match.stream_id)
        events += len(stream)
        if not verify_events(match, stream).verified:
            raise SystemExit(f"match {match.pk} did not verify")
    return time.perf_counter() - wall, time.process_time() - cpu, events


def project_path(ids: list[str]) -> tuple[float, float, float, float]:
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
        wall, cpu = time.perf_counter(), time.process_time()
        verdicts = matches_verify(match_ids=ids)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        tasks.verdicts_followups_apply, live.broadcast_matches = real_followups, real_broadcast
    assert all(v.verified for v in verdicts.values())
    return wall, cpu, spent["followups"], spent["broadcast"]


def measure(clubs: int) -> None:
    from league.ratings.models import RatingPoint
    from league.seasons.models import Fixture, Season
    from matches.models import Match

    season = Season.objects.get()
    ids = []
    for fixture in season.fixtures.order_by("round", "id"):
        ids += [str(fixture.draft_id), str(Match.objects.get(origin__draft=str(fixture.draft_id)).pk)]
    base1 = verification_alone(ids)
    project = project_path(ids)
    base2 = verification_alone(ids)
    fixtures = season.fixtures.count()
    played = season.fixtures.filter(status=Fixture.Status.PLAYED).count()
    rated = RatingPoint.objects.filter(match_id__in=ids).values("match_id").distinct().count()
    print(f"{clubs} clubs, {fixtures} fixtures, {len(ids)} streams ({base1[2]:,} events)")
    print(f"{'what':<58}{'wall s':>9}{'cpu s':>9}")
    print(f"{'baseline: verification alone (first pass, cold)':<58}{base1[0]:>9.2f}{base1[1]:>9.2f}")
    print(f"{'project: matches_verify + follow-ups':<58}{project[0]:>9.2f}{project[1]:>9.2f}")
    print(f"{'  of which the follow-ups task (results, ratings)':<58}{project[2]:>9.2f}")
    print(f"{'  of which the verdicts broadcast':<58}{project[3]:>9.2f}")
    print(f"{'baseline: verification alone (second pass)':<58}{base2[0]:>9.2f}{base2[1]:>9.2f}")
    best = min(base1[0], base2[0])
    print(
        f"ratio project / verification alone (wall, against the faster pass): {project[0] / best:.2f}x; "
        f"fixtures played {played}/{fixtures}, matches rated {rated}"
    )


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
    connection.close()
    settings.DATABASES["default"]["NAME"] = connection.settings_dict["NAME"] = copy
    try:
        measure(args.clubs)
    finally:
        _disconnect(copy)
        _admin(f'DROP DATABASE IF EXISTS "{copy}"')


if __name__ == "__main__":
    main()
