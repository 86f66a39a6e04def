"""One finished match's verification in process, as a worker's child runs it, against the
verification work alone on the same streams (issue 17, P7).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wizard_duels REDIS_URL=redis://127.0.0.1:6379/6 \
        .venv/bin/python benchmarks/bench_verify_one.py [--game dueling-wizards] [--matches 100] [--rounds 5]

The database needs finished matches of the game, as bench_verify_workers.py's does
(``manage.py autoplay --game dueling-wizards --matches 112`` makes them); ``REDIS_URL`` is the
broker the follow-ups are queued on (purged at the end). Each round sets the matches back to
"pending" and calls the ``matches.verify_match`` task's function for each, one after another:
the stream and what is published beside it read, the replay, the verdict written, and the two
outbox messages delivered after the commit (the verdict frame, the results and ratings queued),
all in this process, without Celery's messaging. The first ten of each round are a warm-up, not
timed; its queries are the ones counted.

The baseline, in turns with it (which goes first alternates): ``verify_records`` over the same
streams read beforehand, which is the verification work alone (the hash chain, the replay, every
check of what is published), nothing read or written.

Reported per stream: CPU (``time.process_time``), wall and queries (``BEGIN`` and ``COMMIT``
included); each round's ratio of the whole verification to the work alone and their median.
To compare two commits, run each one's copy of this file from its own directory, in turns.

``--instructions K``: instead, the instructions this process runs per stream under
``valgrind --tool=callgrind`` (bench_replay_callgrind.py's runner), which the machine's load does
not change: each side runs twice in a child, over the warm-up's streams and over K more, and the
difference is divided by K. Only this process's own instructions are counted (the worker's side):
not PostgreSQL's or Redis's, nor the kernel's for its sockets. Here the work alone's child reads
its streams in the counted region too (in one round trip, as a batch's are read), so its
count is the reads and the work.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import tempfile
import time
from pathlib import Path

import _celery_django  # noqa: F401  (beside this script: sets up Django on the broker first)
from bench_replay_callgrind import instructions_per_item
from django.db import connection
from django.test.utils import CaptureQueriesContext

from config.celery import app
from engines import registry
from matches.models import Match
from matches.tasks import verify_match
from matches.verification import _chunk_read, verify_records

WARMUP = 10


def pending(ids: list[str]) -> None:
    Match.objects.filter(pk__in=ids).update(verdict=Match.Verdict.PENDING, verified_at=None)


def read(ids: list[str]) -> list[tuple]:
    """Each match with its stream's records and what is published beside it, in a batch's reads."""
    found, _, streams, published = _chunk_read(ids)
    return [(found[m], streams.get(found[m].stream_id, []), published[m]) for m in ids]


def check(items: list[tuple]) -> None:
    """The verification work alone over ``read``'s items."""
    for match, records, published in items:
        if not verify_records(match, records, published).verified:
            raise SystemExit(f"{match.pk} did not verify: the benchmark's streams are broken")


def whole(ids: list[str]) -> tuple[float, float, float]:
    """CPU ms, wall ms and queries per verification, over ``ids`` after the warm-up."""
    pending(ids)
    # The queries are counted in the warm-up (the same path, each verification alike), so that
    # logging them is not in the timed CPU.
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as queries:
        for match_id in ids[:WARMUP]:
            verify_match(match_id)
    counted = ids[WARMUP:]
    cpu, wall = time.process_time(), time.perf_counter()
    for match_id in counted:
        verify_match(match_id)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    labels = set(Match.objects.filter(pk__in=ids).values_list("verdict", flat=True))
    if labels != {Match.Verdict.VERIFIED}:
        raise SystemExit(f"verdicts {sorted(labels)}: the benchmark's streams are broken")
    return cpu / len(counted) * 1000, wall / len(counted) * 1000, len(queries) / WARMUP


def alone(ids: list[str]) -> tuple[float, float]:
    """CPU ms and wall ms per stream of the verification work alone, the streams read first."""
    items = read(ids)[WARMUP:]
    cpu, wall = time.process_time(), time.perf_counter()
    check(items)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu / len(items) * 1000, wall / len(items) * 1000


def child(side: str, ids: list[str]) -> None:
    """A counted run under callgrind: verify ``ids`` (``side`` "whole") or only their work ("alone")."""
    # As a worker starts (config/celery.py ``freeze_start_up``): what start-up loaded is not
    # walked by the collector again. Without it a full collection falls in one counted run and
    # not in the other, and moves a side's count by millions of instructions.
    registry.preload()
    gc.collect()
    gc.freeze()
    if side == "alone":
        check(read(ids))
        return
    pending(ids)
    for match_id in ids:
        verify_match(match_id)
    app.control.purge()


def per_stream(side: str, ids: list[str], more: int) -> float:
    """Instructions a stream of ``side``: a child over the warm-up's ids, one over ``more`` after them."""
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        files = (workdir / "ids-warmup.json", workdir / "ids-more.json")
        files[0].write_text(json.dumps(ids[:WARMUP]))
        files[1].write_text(json.dumps(ids[: WARMUP + more]))
        return instructions_per_item(side, files, more, workdir, script=__file__)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="dueling-wizards")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--instructions", type=int, metavar="K", help="count instructions under callgrind instead")
    parser.add_argument("--child", nargs=2, metavar=("SIDE", "IDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        side, path = args.child
        child(side, json.loads(Path(path).read_text()))
        return
    finished = Match.objects.filter(game=args.game, status=Match.Status.FINISHED).order_by("finished_at", "pk")
    wanted = WARMUP + args.instructions if args.instructions else args.matches
    ids = [str(pk) for pk in finished.values_list("pk", flat=True)[:wanted]]
    if len(ids) < wanted or len(ids) <= WARMUP:
        raise SystemExit(f"only {len(ids)} finished {args.game} matches: run manage.py autoplay first")
    if args.instructions:
        per = {}
        for side in ("whole", "alone"):
            per[side] = per_stream(side, ids, args.instructions)
            print(f"{side}: {per[side]:,.0f} instructions a stream", flush=True)
        print(f"ratio {per['whole'] / per['alone']:.2f}x")
        return
    print(f"{len(ids)} {args.game} streams ({WARMUP} a round not counted), {args.rounds} round(s)", flush=True)
    ratios, cpus, works = [], [], []
    try:
        for r in range(args.rounds):
            if r % 2 == 0:
                work = alone(ids)
                cpu, wall, queries = whole(ids)
            else:
                cpu, wall, queries = whole(ids)
                work = alone(ids)
            ratios.append(cpu / work[0])
            cpus.append(cpu)
            works.append(work[0])
            print(
                f"round {r + 1}: verification {cpu:6.2f} ms CPU {wall:6.2f} ms wall {queries:5.1f} queries;"
                f" the work alone {work[0]:6.2f} ms CPU {work[1]:6.2f} ms wall; CPU ratio {ratios[-1]:.2f}x",
                flush=True,
            )
    finally:
        app.control.purge()  # the follow-ups queued (idempotent: the ratings hold them already)
    print(
        f"medians: verification {statistics.median(cpus):.2f} ms CPU, the work alone {statistics.median(works):.2f} ms;"
        f" CPU ratio {statistics.median(ratios):.2f}x"
    )


if __name__ == "__main__":
    main()
