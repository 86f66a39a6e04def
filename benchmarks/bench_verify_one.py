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
``valgrind --tool=callgrind`` (PYTHONHASHSEED=0), which the machine's load does not change:
each side runs twice in a child, over the warm-up's streams and over K more, and the difference
is divided by K. Only this process's own instructions are counted (the worker's side): not
PostgreSQL's or Redis's, nor the kernel's for its sockets. Here the work alone's child reads its
streams in the counted region too (in one query per table, as a batch's are read), so its count
is the reads and the work.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["CELERY_BROKER_URL"] = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/6")
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "false"

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from config.celery import app  # noqa: E402
from engines import registry  # noqa: E402
from matches.models import Match  # noqa: E402
from matches.tasks import verify_match  # noqa: E402
from matches.verification import _matches_read, _streams_read, verify_records  # noqa: E402

WARMUP = 10


def whole(ids: list[str]) -> tuple[float, float, float]:
    """CPU ms, wall ms and queries per verification, over ``ids`` after the warm-up."""
    Match.objects.filter(pk__in=ids).update(verdict=Match.Verdict.PENDING, verified_at=None)
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
    found, _ = _matches_read(ids)
    streams, published = _streams_read([found[m] for m in ids])
    counted = ids[WARMUP:]
    cpu, wall = time.process_time(), time.perf_counter()
    for match_id in counted:
        match = found[match_id]
        if not verify_records(match, streams.get(match.stream_id, []), published[match_id]).verified:
            raise SystemExit(f"{match_id} did not verify: the benchmark's streams are broken")
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return cpu / len(counted) * 1000, wall / len(counted) * 1000


def child(side: str, ids: list[str]) -> None:
    """What a counted run does: verify ``ids`` (``side`` "whole") or only their work ("alone")."""
    if side == "whole":
        Match.objects.filter(pk__in=ids).update(verdict=Match.Verdict.PENDING, verified_at=None)
        for match_id in ids:
            verify_match(match_id)
        app.control.purge()
        return
    found, _ = _matches_read(ids)
    streams, published = _streams_read([found[m] for m in ids])
    for match_id in ids:
        match = found[match_id]
        verify_records(match, streams.get(match.stream_id, []), published[match_id])


def instructions(args: argparse.Namespace, side: str, count: int) -> int:
    """Instructions callgrind counts for a child run of ``side`` over the first ``count`` streams."""
    with tempfile.TemporaryDirectory() as workdir:
        out = Path(workdir) / "callgrind.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}",
                sys.executable,
                str(Path(__file__).resolve()),
                "--game",
                args.game,
                "--matches",
                str(count),
                "--child",
                side,
            ],
            check=True,
            env={**os.environ, "PYTHONHASHSEED": "0"},
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        text = out.read_text()
    found = re.search(r"^summary:\s*(\d+)", text, re.M) or re.search(r"^totals:\s*(\d+)", text, re.M)
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="dueling-wizards")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--instructions", type=int, metavar="K", help="count instructions under callgrind instead")
    parser.add_argument("--child", choices=["whole", "alone"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    finished = Match.objects.filter(game=args.game, status=Match.Status.FINISHED).order_by("finished_at", "pk")
    wanted = WARMUP + args.instructions if args.instructions else args.matches
    ids = [str(pk) for pk in finished.values_list("pk", flat=True)[:wanted]]
    if args.child:
        # As a worker starts (config/celery.py ``freeze_start_up``): what start-up loaded is not
        # walked by the collector again. Without it a full collection falls in one counted run
        # and not in the other, and moves a side's count by millions of instructions.
        registry.preload()
        gc.collect()
        gc.freeze()
        child(args.child, ids)
        return
    if len(ids) < wanted or len(ids) <= WARMUP:
        raise SystemExit(f"only {len(ids)} finished {args.game} matches: run manage.py autoplay first")
    if args.instructions:
        per = {}
        for side in ("whole", "alone"):
            counts = [instructions(args, side, n) for n in (WARMUP, WARMUP + args.instructions)]
            per[side] = (counts[1] - counts[0]) / args.instructions
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
