"""Time pairing a Swiss round 5, ours against bbpPairings' Dutch system on the same field.

Each field plays rounds 1-4 with our pairing and results drawn from ratings (Elo
expectation, a share of draws, a fixed seed). Round 5 is then paired by ``pair_round`` and,
in the same run, by a bbpPairings binary given with ``--bbp`` on the same field written as
a TRF(x) file (the layout of the project's TRF export: start numbers by rating, then id;
``XXR`` the planned rounds). bbp's time is its whole process (start, reading the file,
pairing, writing the pairs), each run bounded by ``--timeout``: a run stopped there is
shown as ``>T`` with its CPU until then, a lower bound, and the ratios as upper bounds
(``<r``), since its pairing would have cost at least that much. The two sides are taken in
turns (which goes first alternates), and each is reported as wall time and CPU time: ours
``time.process_time`` around ``pair_round``, bbp's the child's user and system time
(``RUSAGE_CHILDREN``), which on a loaded machine says more than the wall clock. Without
``--bbp`` only our side is timed and the ratio columns say so. bbp's pairing is read back and costed by our
own tiers, so the table shows whether either side bought speed with rematches, floats or
seat clashes.

    .venv/bin/python benchmarks/bench_swiss.py [sizes...] [--bbp PATH] [--repeat N]
        [--timeout S] [--bbp-up-to N] [--complete-up-to N]

``--complete-up-to`` also times our earlier path (complete graphs, ``prune=False``) for
fields up to that size and checks that it costs the same in every tier.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from league.tournaments.swiss import (  # noqa: E402
    SwissOptions,
    SwissPlayer,
    colour_conflict,
    pair_round,
    seat_limit_clash,
    start_order,
)

ROUNDS_BEFORE = 4
SIZES = [16, 32, 64, 100, 250, 500, 1000, 2000, 5000]


def play_rounds(size: int, rounds: int, seed: int = 2026) -> dict:
    """The field after ``rounds`` rounds: per player the rating, score, and one TRF cell
    (opponent id or None for the bye, first seat, result) per round."""
    rng = random.Random(seed)
    state = {i: {"score": Fraction(0), "rating": rng.randint(1200, 2600), "cells": []} for i in range(size)}
    for _ in range(rounds):
        for p in pair_round(players_of(state)).pairings:
            if p.second is None:
                state[p.first]["score"] += 1
                state[p.first]["cells"].append((None, None, "U"))
                continue
            a, b = state[p.first], state[p.second]
            expected = 1 / (1 + 10 ** ((b["rating"] - a["rating"]) / 400))
            roll = rng.random()
            if abs(roll - expected) < 0.1:
                points = Fraction(1, 2)
            else:
                points = Fraction(1) if roll < expected else Fraction(0)
            a["score"] += points
            b["score"] += 1 - points
            code = {Fraction(1): ("1", "0"), Fraction(0): ("0", "1")}.get(points, ("=", "="))
            a["cells"].append((p.second, True, code[0]))
            b["cells"].append((p.first, False, code[1]))
    return state


def players_of(state: dict) -> list[SwissPlayer]:
    return [
        SwissPlayer(
            id=i,
            score=s["score"],
            rating=s["rating"],
            opponents=tuple(c[0] for c in s["cells"] if c[0] is not None),
            first_seats=tuple(c[1] for c in s["cells"] if c[0] is not None),
            byes=sum(1 for c in s["cells"] if c[0] is None),
        )
        for i, s in state.items()
    ]


def field_after_rounds(size: int, rounds: int, seed: int = 2026) -> list[SwissPlayer]:
    return players_of(play_rounds(size, rounds, seed))


def trf(state: dict, planned: int) -> tuple[str, dict[int, int]]:
    """The field as TRF(x), and the start number of each player id."""
    start = {pid: n for n, pid in enumerate(start_order((i, s["rating"], 0) for i, s in state.items()), start=1)}
    lines = ["012 bench_swiss", f"062 {len(start):4d}", f"XXR {planned}"]
    for pid, number in sorted(start.items(), key=lambda kv: kv[1]):
        s = state[pid]
        line = f"001 {number:4d}      {f'Player {pid}':<33} {s['rating']:4d}" + " " * 28
        line += f"{float(s['score']):4.1f} {0:4d}"
        for opponent, first, code in s["cells"]:
            if opponent is None:
                line += "  0000 - U"
            else:
                line += f"  {start[opponent]:4d} {'w' if first else 'b'} {code}"
        lines.append(line)
    return "\n".join(lines) + "\n", start


class BbpRun(NamedTuple):
    wall: float | None  # None: no pairing came back (stopped, or failed: see note)
    cpu: float
    pairs: list[tuple[int, int]]  # (start, start or 0 for the bye)
    note: str
    timed_out: bool = False


def run_bbp(binary: str, text: str, timeout: float) -> BbpRun:
    """Wall and CPU seconds for one bbp process, its pairs, and a note."""
    with tempfile.TemporaryDirectory() as tmp:
        source, out = Path(tmp) / "field.trf", Path(tmp) / "pairs.txt"
        source.write_text(text)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        try:
            done = subprocess.run(
                [binary, "--dutch", str(source), "-p", str(out)], capture_output=True, timeout=timeout
            )
        except subprocess.TimeoutExpired:
            done = None
        seconds = time.perf_counter() - start
        # subprocess.run kills and reaps a child it stopped at the timeout, so its CPU until
        # then is counted here too: a lower bound on what its pairing would have cost.
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if done is None:
            return BbpRun(None, cpu, [], f"timed out after {timeout:g} s", timed_out=True)
        if done.returncode != 0:
            return BbpRun(None, cpu, [], f"exit {done.returncode}: {done.stderr.decode()[:200]}")
        rows = out.read_text().split("\n")[1:]
        pairs = [tuple(int(x) for x in row.split()) for row in rows if row.strip()]
        return BbpRun(seconds, cpu, pairs, "")


def quality(players: list[SwissPlayer], pairs: list[tuple[int, int | None]]) -> dict[str, int]:
    """Our own measures of a pairing, whoever made it: rematches, floats, the score tier's
    sum of squared score differences (in half points), seat-limit clashes and colour cost."""
    by_id = {p.id: p for p in players}
    out = {"rematches": 0, "floats": 0, "score": 0, "clashes": 0, "colour": 0}
    for a, b in pairs:
        if b is None:
            continue
        pa, pb = by_id[a], by_id[b]
        out["rematches"] += pa.opponents.count(b)
        diff = int(2 * (Fraction(pa.score) - Fraction(pb.score)))
        out["floats"] += diff != 0
        out["score"] += diff * diff
        out["clashes"] += seat_limit_clash(pa.first_seats, pb.first_seats)
        out["colour"] += colour_conflict(pa.first_seats, pb.first_seats)
    return out


def timed(fn) -> tuple[float, float, object]:
    """Wall and CPU (this process) seconds of one call, and its result."""
    cpu, start = time.process_time(), time.perf_counter()
    result = fn()
    return time.perf_counter() - start, time.process_time() - cpu, result


def share(ratio: float) -> str:
    """Two decimals, or two significant digits below 0.1, so that a ratio of a large field
    (ours 0.5 s against bbp's 900 s) does not print as 0.00."""
    return f"{ratio:.2f}" if ratio >= 0.1 else f"{ratio:.2g}"


def describe(q: dict[str, int]) -> str:
    return f"{q['rematches']}/{q['floats']}/{q['score']}/{q['clashes']}/{q['colour']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=SIZES)
    parser.add_argument("--bbp", help="path to a bbpPairings binary (bbpPairings.exe)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per side and size (median)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds allowed per bbp run")
    parser.add_argument("--bbp-up-to", type=int, default=10**9, help="run bbp only on fields up to this size")
    parser.add_argument("--complete-up-to", type=int, default=0, help="also time prune=False up to this size")
    args = parser.parse_args()
    if not args.bbp:
        print("No --bbp binary given: bbpPairings is skipped, only our side is timed.\n")

    header = (
        f"{'players':>7} {'ours (s)':>9} {'bbp (s)':>9} {'ours/bbp':>8} {'ours cpu':>9} {'bbp cpu':>9}"
        f" {'cpu ratio':>9} {'method':>13} {'ours r/f/s/c/col':>16} {'bbp r/f/s/c/col':>16} {'complete (s)':>12}"
    )
    print(header)
    print("-" * len(header))
    for size in args.sizes:
        state = play_rounds(size, ROUNDS_BEFORE)
        players = players_of(state)
        run_it = args.bbp and size <= args.bbp_up_to
        text, start = trf(state, ROUNDS_BEFORE + 1) if run_it else ("", {})
        ours_wall, ours_cpu, bbp_wall, bbp_cpu = [], [], [], []
        rnd, pairs, note = None, [], ""
        unfinished_cpu = None  # bbp's CPU when it was stopped at the timeout

        def ours() -> None:
            nonlocal rnd
            wall, cpu, rnd = timed(lambda: pair_round(players))
            ours_wall.append(wall)
            ours_cpu.append(cpu)

        def bbp() -> None:
            nonlocal pairs, note, unfinished_cpu
            if note:
                return
            run = run_bbp(args.bbp, text, args.timeout)
            note = run.note
            if run.timed_out:
                unfinished_cpu = run.cpu
            if run.wall is not None:
                bbp_wall.append(run.wall)
                bbp_cpu.append(run.cpu)
                pairs = run.pairs

        # In turns, the first side alternating, so that a burst of load on the shared
        # machine falls on both sides alike.
        for k in range(args.repeat):
            for side in (ours, bbp) if k % 2 == 0 else (bbp, ours):
                if side is ours or run_it:
                    side()
        ours_q = quality(players, [(p.first, p.second) for p in rnd.pairings])
        wall, cpu = statistics.median(ours_wall), statistics.median(ours_cpu)

        bbp_text, bbp_cpu_text, bbp_q, ratio, cpu_ratio = "-", "-", "-", "-", "-"
        if args.bbp and not run_it:
            bbp_text = "not run"
        elif args.bbp and bbp_wall and not note:
            their_wall, their_cpu = statistics.median(bbp_wall), statistics.median(bbp_cpu)
            bbp_text, ratio = f"{their_wall:.3f}", share(wall / their_wall)
            bbp_cpu_text = f"{their_cpu:.3f}"
            cpu_ratio = share(cpu / their_cpu) if their_cpu else "-"
            by_start = {n: pid for pid, n in start.items()}
            ids = [(by_start[a], by_start[b] if b else None) for a, b in pairs]
            bbp_q = describe(quality(players, ids))
        elif args.bbp and unfinished_cpu is not None:
            # Unfinished: its CPU so far bounds it from below, so our ratio is bounded above.
            bbp_text, bbp_cpu_text = f">{args.timeout:g}", f">{unfinished_cpu:.1f}"
            ratio = f"<{share(wall / args.timeout)}"
            cpu_ratio = f"<{share(cpu / unfinished_cpu)}" if unfinished_cpu else "-"
        elif args.bbp:
            bbp_text = note[:40]

        complete = "-"
        if size <= args.complete_up_to:
            seconds, _, old = timed(lambda: pair_round(players, SwissOptions(prune=False)))
            same = "same" if old.costs == rnd.costs else f"DIFFERENT {old.costs}"
            complete = f"{seconds:.3f} {same}"
        print(
            f"{size:>7} {wall:>9.3f} {bbp_text:>9} {ratio:>8} {cpu:>9.3f} {bbp_cpu_text:>9} {cpu_ratio:>9}"
            f" {rnd.method:>13} {describe(ours_q):>16} {bbp_q:>16} {complete:>12}",
            flush=True,
        )
    print()
    print(
        f"Python {sys.version.split()[0]}; median of {args.repeat} runs per side, taken in turns;"
        " ours/bbp < 1 means ours is faster."
    )
    print("wall: the clock around each run; cpu: our process_time, bbp's child user + system time.")
    print("r/f/s/c/col: rematches / floats / sum of squared score differences in half points /")
    print("seat-limit clashes (both players due the same seat absolutely) / colour cost, by our tiers.")
    print("'>T' / '<r': bbp did not finish within --timeout; its CPU until it was stopped bounds it below.")
    print("complete: our earlier path (complete graphs), and whether it costs the same in every tier.")


if __name__ == "__main__":
    main()
