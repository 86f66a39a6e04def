"""Ratings on PostgreSQL: one new verified result, and a full rebuild, each against a bare
baseline measured in the same run (issue 17, P4a and P4b).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wizard_duels \
        .venv/bin/python benchmarks/bench_ratings.py [sizes...] [--new 20]

For each history size N (default 1,000, 10,000 and 100,000 verified results) it stores N
finished, verified matches directly (bulk inserts, 200 players; then ANALYZE, as autovacuum
would have), rebuilds the ratings, then:

- P4a, one new result: ``ratings_apply`` (what every verdict runs) on ``--new`` fresh results,
  median time, against the bare call of the rating library on the same two stored ratings plus
  one write (the new rating points inserted), the two taken in turns result by result. The old path (``ratings_refresh``: re-read the
  whole history and rebuild) is timed too, on 3 results, for comparison.
- P4b, full rebuild: ``ratings_rebuild`` (read, fold, bulk write) against a bare loop calling the
  library (``ledger.rebuild``) on the same results already in memory, in turns, best of three;
  in wall time, and (when PostgreSQL runs on this machine) in CPU time: this process's plus the
  database backend's for the rebuild, this process's for the bare loop.

Duels are rated by Glicko-2 (wizard-dodgeball), four-player games by OpenSkill (annihilageddon).
Runs on a scratch test database that it creates and drops.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

GAMES = {"wizard-dodgeball": 2, "annihilageddon": 4}


def store(game: str, users: list, count: int, rng: random.Random, *, verdict="verified") -> list:
    """``count`` finished matches of ``game`` with closing events in commit order."""
    from matches.models import Event, Match, Seat, Stream

    per = GAMES[game]
    now = timezone.now()
    made = []
    for start in range(0, count, 5000):
        chunk = range(start, min(count, start + 5000))
        ids = [uuid.uuid4() for _ in chunk]
        streams = [Stream(id=f"match:{i}", kind="match", head_seq=1) for i in ids]
        Stream.objects.bulk_create(streams)
        matches, seats, events = [], [], []
        for i, stream in zip(ids, streams):
            who = rng.sample(users, per)
            places = list(range(per))
            rng.shuffle(places)
            matches.append(
                Match(
                    id=i,
                    stream=stream,
                    game=game,
                    engine_version="1",
                    status="finished",
                    verdict=verdict,
                    result={"placements": places},
                    finished_at=now,
                )
            )
            seats += [Seat(match_id=i, index=n, user=u) for n, u in enumerate(who)]
            events.append(
                Event(
                    stream=stream,
                    seq=1,
                    type="match.finished",
                    data={},
                    actor="server",
                    recorded_at=now,
                    prev_hash="0" * 64,
                    hash="1" * 64,
                )
            )
        Match.objects.bulk_create(matches)
        Seat.objects.bulk_create(seats)
        Event.objects.bulk_create(events)
        made += matches
    return made


def timed(fn) -> float:
    gc.collect()  # as in cpu_timed
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def backend_cpu() -> float | None:
    """CPU seconds used so far by the PostgreSQL backend serving this connection, read from
    /proc when the server runs on this machine (else None). With this process's own CPU time it
    gives a cost that the other programs on a loaded machine do not inflate, as they do wall time."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    try:
        if Path(f"/proc/{pid}/comm").read_text().strip() != "postgres":
            return None
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def cpu_timed(fn) -> tuple[float, float, float | None]:
    """Wall seconds, this process's CPU seconds and the database backend's (or None)."""
    # A full pass of the garbage collector owed by what ran before would otherwise land in
    # whichever side is timed next (the two sides are taken in turns): about 0.1 s at 10k results,
    # as much as the bare loop itself.
    gc.collect()
    server = backend_cpu()
    start, cpu = time.perf_counter(), time.process_time()
    fn()
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    after = backend_cpu()
    return wall, cpu, None if server is None or after is None else after - server


def run(sizes: list[int], new: int) -> None:
    from league.ratings.ledger import rate_one, rebuild
    from league.ratings.models import Rating, RatingPoint
    from league.ratings.projection import (
        _stored_rating,
        rated_results,
        rating_system,
        ratings_apply,
        ratings_rebuild,
        ratings_refresh,
    )
    from matches.models import Match

    rng = random.Random(17)
    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"wizard{n:03d}", password="!") for n in range(200)]
    )
    print(f"{'game':<18}{'history':>9}  {'what':<34}{'project':>11}{'baseline':>11}{'ratio':>8}")
    have = {game: 0 for game in GAMES}
    for size in sizes:
        for game in GAMES:
            started = time.perf_counter()
            store(game, users, size - have[game], rng)
            with connection.cursor() as cursor:
                # A deployed database has statistics (autovacuum); without them the planner
                # guesses one row per table and plans the rebuild's read differently.
                cursor.execute("ANALYZE")
            print(f"{game:<18}{size:>9}  stored in {time.perf_counter() - started:.0f} s", flush=True)
            have[game] = size
            system = rating_system(game)

            # P4b: rebuild vs a bare loop over the same results in memory.
            # Taken in turns (which goes first alternates), the best of three each.
            results, _ = rated_results(game)
            rebuilds, bares = [], []
            for turn in range(3):
                for which in (0, 1) if turn % 2 == 0 else (1, 0):
                    if which == 0:
                        rebuilds.append(cpu_timed(lambda: ratings_rebuild(game=game)))
                    else:
                        bares.append(cpu_timed(lambda: rebuild(results, game, system=system)))
            rebuild_s, bare_s = min(w for w, _, _ in rebuilds), min(w for w, _, _ in bares)
            print(
                f"{game:<18}{size:>9}  {'full rebuild (s)':<34}{rebuild_s:>11.3f}{bare_s:>11.3f}"
                f"{rebuild_s / bare_s:>7.1f}x",
                flush=True,
            )
            if all(server is not None for _, _, server in rebuilds):
                # The rebuild's CPU is this process's plus the database's; the bare loop's is
                # this process's alone (it makes no query), so the load does not enter either.
                rebuild_cpu = min(cpu + server for _, cpu, server in rebuilds)
                bare_cpu = min(cpu for _, cpu, _ in bares)
                print(
                    f"{game:<18}{size:>9}  {'full rebuild (CPU s, with server)':<34}{rebuild_cpu:>11.3f}"
                    f"{bare_cpu:>11.3f}{rebuild_cpu / bare_cpu:>7.1f}x",
                    flush=True,
                )

            # P4a: one new result through ratings_apply vs the bare call plus one write, taken in
            # turns result by result (which goes first alternates), so both see the same load.
            fresh = store(game, users, new, rng, verdict="pending")
            have[game] += new
            applied, bare = [], []
            for n, match in enumerate(fresh):
                Match.objects.filter(pk=match.pk).update(verdict="verified")
                [result], _ = rated_results(game, match_ids=[match.pk])
                rows = {
                    r.competitor: r
                    for r in Rating.objects.filter(game=game).filter(
                        competitor__in=[p for place in result.placements for p in place]
                    )
                }
                current = {k: _stored_rating(system, r.rating, r.deviation, r.volatility) for k, r in rows.items()}

                def bare_update():
                    out = rate_one(current, result, system)
                    with transaction.atomic():
                        RatingPoint.objects.bulk_create(
                            [
                                RatingPoint(
                                    game=game,
                                    competitor=k,
                                    match_id=uuid.uuid4(),  # not the match's: ratings_apply must not see it
                                    # Below every real one, and one per update: (competitor,
                                    # game, sequence) is the points' key.
                                    sequence=-1 - n,
                                    rating=v.rating,
                                    deviation=v.deviation,
                                    volatility=getattr(v, "volatility", None),
                                )
                                for k, v in out.items()
                            ]
                        )

                def apply():
                    assert ratings_apply(match_id=match.pk) is True

                if n % 2:
                    bare.append(timed(bare_update))
                    applied.append(timed(apply))
                else:
                    applied.append(timed(apply))
                    bare.append(timed(bare_update))
            RatingPoint.objects.filter(game=game, sequence__lt=0).delete()
            a_ms, b_ms = statistics.median(applied) * 1000, statistics.median(bare) * 1000
            print(
                f"{game:<18}{size:>9}  {'one new result (ms, median)':<34}{a_ms:>11.2f}{b_ms:>11.2f}"
                f"{a_ms / b_ms:>7.1f}x",
                flush=True,
            )

            # The old path, for comparison: every verdict re-read and rebuilt the whole history.
            old = store(game, users, 3, rng)
            have[game] += 3
            old_s = statistics.median([timed(lambda: ratings_refresh(game=game)) for _ in old[:1]])
            print(
                f"{game:<18}{size:>9}  {'old path: refresh per verdict (ms)':<34}{old_s * 1000:>11.2f}"
                f"{b_ms:>11.2f}{old_s * 1000 / b_ms:>7.1f}x",
                flush=True,
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 10000, 100000])
    parser.add_argument("--new", type=int, default=20)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL server.")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run(sorted(args.sizes), args.new)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
