"""Time one Swiss pairing round for 100, 500 and 2,000 players.

Each field plays rounds 1-4 with results drawn from ratings (Elo expectation, a share of
draws, a fixed seed), and then round 5 is paired and timed. The baseline, measured in the
same run on the same players, is what any pairing program must do anyway: rank the field
and build its score groups. Reference point: bbpPairings (C++) in Burstein mode is
reported at 0.4 s for 500 players and 3.1 s for 1,000.

    .venv/bin/python benchmarks/bench_swiss.py [sizes...] [--repeat N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from league.tournaments.swiss import SwissOptions, SwissPlayer, pair_round, rank_key  # noqa: E402

ROUNDS_BEFORE = 4


def field_after_rounds(size: int, rounds: int, seed: int = 2026) -> list[SwissPlayer]:
    rng = random.Random(seed)
    state = {
        i: {"score": Fraction(0), "rating": rng.randint(1200, 2600), "opp": [], "seats": [], "byes": 0}
        for i in range(size)
    }

    def players():
        return [
            SwissPlayer(
                id=i,
                score=s["score"],
                rating=s["rating"],
                opponents=tuple(s["opp"]),
                first_seats=tuple(s["seats"]),
                byes=s["byes"],
            )
            for i, s in state.items()
        ]

    for _ in range(rounds):
        for p in pair_round(players()).pairings:
            if p.second is None:
                state[p.first]["score"] += 1
                state[p.first]["byes"] += 1
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
            a["opp"].append(p.second)
            b["opp"].append(p.first)
            a["seats"].append(True)
            b["seats"].append(False)
    return players()


def baseline(players: list[SwissPlayer]) -> int:
    ranked = sorted(players, key=rank_key)
    groups: dict[Fraction, list[SwissPlayer]] = {}
    for p in ranked:
        groups.setdefault(Fraction(p.score), []).append(p)
    return len(groups)


def timed(fn, repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[100, 500, 2000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--exact-up-to",
        type=int,
        default=500,
        help="also time one complete-graph (exact) pairing for fields up to this size",
    )
    args = parser.parse_args()

    header = (
        f"{'players':>8} {'groups':>7} {'pair round 5 (s)':>17} {'baseline (s)':>13} {'ratio':>6}"
        f" {'method':>13} {'rematches':>9} {'floats':>6} {'score cost':>10}"
        f" {'exact graph (s)':>16} {'exact score cost':>17}"
    )
    print(header)
    print("-" * len(header))
    for size in args.sizes:
        players = field_after_rounds(size, ROUNDS_BEFORE)
        pair_time, rnd = timed(lambda: pair_round(players), args.repeat)
        base_time, groups = timed(lambda: baseline(players), max(args.repeat, 20))
        score = {p.id: p.score for p in players}
        floats = sum(1 for p in rnd.pairings if p.second is not None and score[p.first] != score[p.second])
        exact_time, exact_cost = "-", "-"
        if size <= args.exact_up_to:
            seconds, exact = timed(lambda: pair_round(players, SwissOptions(exact_limit=size)), 1)
            exact_time, exact_cost = f"{seconds:.3f}", exact.costs["score"]
        print(
            f"{size:>8} {groups:>7} {pair_time:>17.3f} {base_time:>13.5f} {pair_time / base_time:>6.0f}"
            f" {rnd.method:>13} {rnd.rematches:>9} {floats:>6} {rnd.costs['score']:>10}"
            f" {exact_time:>16} {exact_cost:>17}"
        )
    print()
    print("Reference: bbpPairings Burstein mode, 0.4 s for 500 players, 3.1 s for 1,000 (reported).")
    print(f"Python {sys.version.split()[0]}; median of {args.repeat} runs; baseline = rank + build score groups.")
    print("score cost: sum of squared score differences (in half points) over the pairs; the")
    print("exact columns pair the same players on one complete graph, for comparison.")


if __name__ == "__main__":
    main()
