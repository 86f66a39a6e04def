"""Verification throughput with two Celery workers against one, on the same streams (issue 17, P7).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wizard_duels \
    REDIS_URL=redis://127.0.0.1:6379/6 \
        .venv/bin/python benchmarks/bench_verify_workers.py [--game dueling-wizards] [--matches 112] [--rounds 2]

The database needs finished matches of the game (``manage.py autoplay --game dueling-wizards
--matches 112`` makes them). Each round, for one
worker and for two (separate ``celery worker --concurrency 1`` processes, as a deployment scales
out; which goes first alternates from round to round), the same matches are set back to
"pending", the workers are started, one ``matches.verify_match`` task per match is queued on the
Redis broker once every worker has answered a ping, and the run ends when every match has its
verdict again. Throughput
counts from the first verdict to the last (the workers' start-up is not in it): (matches - 1) /
(last verified_at - first verified_at). Reported: the best rate of each side and their ratio,
and each round's ratio of two workers to one with the median over the rounds.

Beside the wall-clock throughput it prints the CPU seconds the workers used per stream: when two
workers cost no more CPU per stream than one but do not finish in half the time, they are waiting
(on a lock, the database, or for a core the machine does not have free).

The machine's own ceiling, in the same rounds: the verification work alone on the same streams
(bench_verify_one.py's baseline: the streams read first, then the hash chain, the replay and every
check of what is published, nothing read or written during it), in one process and in two at
once, each of the two taking every other stream; ``--passes`` times over the streams on each side
(six by default, a few seconds), after a first pass untimed.
On these 2-core machines that ratio, pure CPU-bound work, moved between 1.65x and 2.27x from one
round to the next (session 36), so a worker ratio means little without it. Each round prints both
ratios and the workers' as a share of the machine's; the summary gives their medians.
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import os
import queue
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _celery_django import ROOT  # beside this script: sets up Django on the broker first
from bench_verify_one import check, read
from django.db import connections

from config.celery import app
from matches.models import Match
from matches.tasks import verify_match


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process and its children that were waited for (a prefork worker's
    child does the work and lives as long as the worker, so its time is read separately)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for p in [pid, *children(pid)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except FileNotFoundError:
        return []


def run(ids: list[str], workers: int, timeout: float, pool: str = "prefork") -> tuple[float, float]:
    """Streams per second and CPU seconds per stream for ``workers`` worker processes."""
    app.control.purge()
    Match.objects.filter(pk__in=ids).update(verdict=Match.Verdict.PENDING, verified_at=None)
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--concurrency",
                "1",
                "--pool",
                pool,
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "-n",
                f"bench{i}@%h",
                "--loglevel",
                "WARNING",
            ],
            cwd=ROOT,
            env=os.environ.copy(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for i in range(workers)
    ]
    cpu_start = None
    try:
        deadline = time.monotonic() + timeout
        # Every worker answers before the first task is queued: one that started later would
        # otherwise leave the others to verify alone for part of the timed span (a run of 112
        # streams takes one to three seconds, a worker's start-up about one).
        names = {f"bench{i}@{socket.gethostname()}" for i in range(workers)}
        while True:
            answered = {name for reply in app.control.ping(timeout=0.5) for name in reply}
            if names <= answered:
                break
            if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                raise SystemExit("the workers did not start: are Redis and the database up?")
        for match_id in ids:
            verify_match.delay(match_id)
        while True:
            done = Match.objects.filter(pk__in=ids, verified_at__isnull=False).count()
            if cpu_start is None and done:
                cpu_start = sum(cpu_seconds(p.pid) for p in procs)  # start-up and the first task
            if done == len(ids):
                break
            if time.monotonic() > deadline:
                raise SystemExit(f"timed out with {done} of {len(ids)} verified: are Redis and the database up?")
            time.sleep(0.2)
        cpu = sum(cpu_seconds(p.pid) for p in procs) - (cpu_start or 0.0)
    finally:
        for p in procs:
            p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()
        # What the verdicts queued after them (each one's ratings update, already in the ratings
        # from the first verification: idempotent) is not measured; it must not wait in the queue.
        app.control.purge()
    times = sorted(Match.objects.filter(pk__in=ids).values_list("verified_at", flat=True))
    span = (times[-1] - times[0]).total_seconds()
    disputed = Match.objects.filter(pk__in=ids).exclude(verdict=Match.Verdict.VERIFIED).count()
    if disputed:
        raise SystemExit(f"{disputed} matches were not verified: the benchmark's streams are broken")
    return (len(ids) - 1) / span, cpu / (len(ids) - 1)


def _alone_part(ids: list[str], passes: int, ready, start, out) -> None:
    """One process of the machine's ceiling: read its streams, wait for the start, verify them
    ``passes`` times."""
    items = read(ids)
    connections.close_all()
    check(items)  # a first pass untimed: the engine's content loaded and its code warm, as in a worker
    # As a worker does after start-up (config/celery.py ``freeze_start_up``).
    gc.collect()
    gc.freeze()
    ready.release()
    start.wait()
    began = time.perf_counter()
    for _ in range(passes):
        check(items)
    out.put((began, time.perf_counter()))


def alone(ids: list[str], processes: int, passes: int) -> float:
    """Streams per second of the verification work alone in ``processes`` processes at once, each
    over its share of the streams (every ``processes``-th), ``passes`` times."""
    # New processes, as workers are: a forked one inherits the broker's and the database's sockets
    # (a forked child once hung reading one of them).
    ctx = multiprocessing.get_context("spawn")
    ready, start, out = ctx.Semaphore(0), ctx.Event(), ctx.Queue()
    procs = [
        ctx.Process(target=_alone_part, args=(ids[i::processes], passes, ready, start, out)) for i in range(processes)
    ]
    for p in procs:
        p.start()
    for _ in procs:
        if not ready.acquire(timeout=300):
            raise SystemExit("a process of the work alone did not start")
    start.set()
    spans = []
    while len(spans) < len(procs):
        try:
            spans.append(out.get(timeout=1))
        except queue.Empty:
            if any(p.exitcode for p in procs):
                raise SystemExit("a process of the work alone failed") from None
    for p in procs:
        p.join()
    # perf_counter is the system's monotonic clock: the processes' readings compare.
    return len(ids) * passes / (max(e for _, e in spans) - min(b for b, _ in spans))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="dueling-wizards")
    parser.add_argument("--matches", type=int, default=112)
    parser.add_argument("--rounds", type=int, default=2, help="1-worker and 2-worker runs, alternated")
    parser.add_argument("--timeout", type=float, default=1800)
    parser.add_argument("--passes", type=int, default=6, help="passes over the streams of the work alone, each side")
    parser.add_argument(
        "--pool",
        choices=["prefork", "solo"],
        default="prefork",
        help="each worker's pool: a parent handing tasks to one child (prefork), or the tasks run in the worker itself",
    )
    args = parser.parse_args()
    finished = Match.objects.filter(game=args.game, status=Match.Status.FINISHED).order_by("finished_at", "pk")
    ids = [str(pk) for pk in finished.values_list("pk", flat=True)[: args.matches]]
    if len(ids) < args.matches:
        raise SystemExit(f"only {len(ids)} finished {args.game} matches: run manage.py autoplay first")
    print(
        f"{len(ids)} {args.game} streams, {args.rounds} round(s) of one worker and two, which goes first alternating",
        flush=True,
    )
    rates: dict[int, list[float]] = {1: [], 2: []}
    machine: list[float] = []
    for r in range(args.rounds):
        order = (1, 2) if r % 2 == 0 else (2, 1)
        # The machine's ceiling is measured next to the workers' rounds, the sides in turns.
        ceiling = {n: alone(ids, n, args.passes) for n in order}
        machine.append(ceiling[2] / ceiling[1])
        print(
            f"round {r + 1}: the work alone: 1 process {ceiling[1]:6.1f} streams/s, 2 processes"
            f" {ceiling[2]:6.1f} streams/s: {machine[-1]:.2f}x",
            flush=True,
        )
        for workers in order:
            rate, cpu = run(ids, workers, args.timeout, args.pool)
            rates[workers].append(rate)
            print(
                f"round {r + 1}: {workers} worker(s): {rate:6.1f} streams/s, {cpu * 1000:6.1f} ms CPU per stream",
                flush=True,
            )
    one, two = max(rates[1]), max(rates[2])
    print(f"best: 1 worker {one:.1f} streams/s, 2 workers {two:.1f} streams/s, ratio {two / one:.2f}x")
    # The best of each side can pair a round when the machine ran fast with one when it ran slow
    # (a single worker's CPU per stream moved by a quarter between rounds on an idle machine); the
    # two runs of one round are seconds apart, so their ratio is the steadier measure.
    ratios = [two / one for one, two in zip(rates[1], rates[2], strict=True)]
    by_round = " / ".join(f"{ratio:.2f}x" for ratio in ratios)
    print(f"by round: {by_round}; median {statistics.median(ratios):.2f}x{quartiles(ratios)}")
    by_round = " / ".join(f"{ratio:.2f}x" for ratio in machine)
    print(f"the machine's ceiling by round: {by_round}; median {statistics.median(machine):.2f}x{quartiles(machine)}")
    shares = [w / m for w, m in zip(ratios, machine, strict=True)]
    by_round = " / ".join(f"{share:.0%}" for share in shares)
    print(
        f"the workers' ratio as a share of the machine's by round: {by_round}; median {statistics.median(shares):.0%}"
    )


def quartiles(values: list[float]) -> str:
    if len(values) < 4:
        return ""
    q1, _, q3 = statistics.quantiles(values, n=4)
    return f" (quartiles {q1:.2f}x-{q3:.2f}x)"


if __name__ == "__main__":
    main()
