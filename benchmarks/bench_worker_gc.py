"""A Celery worker's start-up left out of its garbage collections, or not: a full collection's time
and each prefork child's memory, with the start-up frozen (``config/celery.py``) and without, in
the same run (issue 17).

    .venv/bin/python benchmarks/bench_worker_gc.py [--children 2] [--events 1000]

A worker is built as ``celery worker`` builds it (``WorkController``: the task modules imported,
``worker_init`` sent, not started), then children are forked from it as prefork's pool forks
them. Each child replays ``--events`` events of Wizarding Duels playouts (the replay benchmark's
recorder: a verifier's work and its garbage), then runs one full collection, timed, as a
long-lived worker sooner or later does. Reported per child: its replay's CPU time (with what a
child's first task loads: the engines and their data, unless the worker loaded them before it
forked, ``registry.preload``), that collection's time, and from
/proc/PID/smaps_rollup its proportional set size (PSS) and private dirty memory: a page the
parent and its children still share is counted once among them; one a collection wrote to is a
copy in every child. "not frozen" is the same worker with ``gc.unfreeze()`` after its start-up:
how workers started before the freeze.
"""

from __future__ import annotations

import argparse
import ast
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def memory(pid: int) -> dict[str, int]:
    """kB by field of /proc/PID/smaps_rollup."""
    out = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[2] == "kB":
            out[parts[0].rstrip(":")] = int(parts[1])
    return out


def run_children(count: int, games: list) -> list[tuple[float, float, dict[str, int]]]:
    from engines import registry
    from engines.base import replay

    children = []
    for _ in range(count):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            began = time.process_time()
            # Asked in the child, as a task asks: what the worker did not load before it forked,
            # each child loads on its first task.
            engine = registry.get("wizarding-duels")
            for config, seats, texts in games:
                replay(engine, config, seats, [json.loads(t) for t in texts])
            replayed = time.process_time() - began
            started = time.perf_counter()
            gc.collect()
            os.write(write, repr((time.perf_counter() - started, replayed)).encode())
            os.close(write)
            time.sleep(600)  # measured from outside, then killed
            os._exit(0)
        os.close(write)
        children.append((pid, read))
    out = []
    for pid, read in children:
        took, replayed = ast.literal_eval(os.read(read, 100).decode())
        os.close(read)
        out.append((took, replayed, memory(pid)))
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--children", type=int, default=2)
    parser.add_argument("--events", type=int, default=1000)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.json"
        # Recorded in a process of its own: the worker loads no engine data before its children do.
        recorder = (
            "from pathlib import Path; from bench_replay_callgrind import record; "
            f"record('wizarding-duels', {args.events}, Path({str(path)!r}))"
        )
        subprocess.run([sys.executable, "-c", recorder], check=True, cwd=ROOT / "benchmarks")
        data = json.loads(path.read_text())
    games = [(g["config"], g["seats"], g["events"]) for g in data["games"]]

    from celery.worker import WorkController

    from config.celery import app

    WorkController(
        app=app, pool_cls="solo", concurrency=1, without_heartbeat=True, without_mingle=True, without_gossip=True
    )
    print(f"start-up frozen by the worker: {gc.get_freeze_count():,} objects")
    results = {}
    for label in ("frozen", "not frozen"):
        if label == "not frozen":
            gc.unfreeze()
        results[label] = run_children(args.children, games)
    print(
        f"{args.children} children, each after {sum(len(g[2]) for g in games):,} events replayed and one full collection"
    )
    print(f"{'':<12}{'replay CPU ms':>15}{'collection ms':>15}{'PSS MB':>10}{'private dirty MB':>18}")
    for label, rows in results.items():
        replayed = statistics.median(r for _, r, _ in rows) * 1000
        took = statistics.median(t for t, _, _ in rows) * 1000
        pss = statistics.median(m["Pss"] for _, _, m in rows) / 1024
        private = statistics.median(m["Private_Dirty"] for _, _, m in rows) / 1024
        print(f"{label:<12}{replayed:>15.1f}{took:>15.1f}{pss:>10.1f}{private:>18.1f}")


if __name__ == "__main__":
    main()
