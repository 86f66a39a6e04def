"""Time league standings and ratings rebuilds per thousand verified results.

Standings: a 24-club league fed N results (repeated double round robins from
``season_schedule``, Wizard Dodgeball-like scores from a fixed seed, some walkovers and
postponements), rebuilt by ``standings`` with the default tie-breaks. Ratings: N duel
results rebuilt with Glicko-2 and N four-player results with OpenSkill, by ``rebuild``.
The baseline, measured in the same run on the same results, is what any rebuild must do
at least: sort the results back into round or commit order.

    .venv/bin/python benchmarks/bench_league.py [sizes...] [--repeat N]
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from league.ratings import RatedResult, rebuild  # noqa: E402
from league.seasons.schedule import season_schedule  # noqa: E402
from league.seasons.table import Result, standings  # noqa: E402

CLUBS = [f"club-{i:02d}" for i in range(24)]


def league_results(count: int, seed: int = 2026) -> list[Result]:
    rng = random.Random(seed)
    season = season_schedule(CLUBS, double=True, start_date=dt.date(2026, 1, 3))
    results = []
    while len(results) < count:
        for f in season:
            if len(results) == count:
                break
            number = len(results) // len(season) * 46 + f.round
            roll = rng.random()
            if roll < 0.01:
                results.append(Result(f.home, f.away, round=number, postponed=True))
            elif roll < 0.02:
                results.append(Result(f.home, f.away, round=number, walkover_winner=f.home))
            elif roll < 0.52:
                results.append(Result(f.home, f.away, rng.randint(1, 5), 0, round=number))
            else:
                results.append(Result(f.home, f.away, 0, rng.randint(1, 5), round=number))
    return results


def rated_results(count: int, players: int, per_match: int, game: str, seed: int = 7) -> list[RatedResult]:
    rng = random.Random(seed)
    field = [f"p{i}" for i in range(players)]
    return [RatedResult(f"m{n}", game, [[p] for p in rng.sample(field, per_match)], sequence=n) for n in range(count)]


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    # The fastest run: on a shared machine the slower ones measure the neighbours.
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", nargs="*", type=int, default=[1000, 5000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    print(f"Python {sys.version.split()[0]}, fastest of {args.repeat} runs; times in ms per 1,000 results")
    print(f"{'what':<34}{'results':>9}{'rebuild':>10}{'baseline':>10}{'ratio':>8}")
    for size in args.sizes:
        cases = []
        results = league_results(size)
        shuffled = results[:]
        random.Random(1).shuffle(shuffled)
        cases.append(
            (
                "standings (24 clubs)",
                lambda: standings(CLUBS, shuffled),
                lambda: sorted(shuffled, key=lambda r: r.round),
            )
        )
        duels = rated_results(size, 200, 2, "duel")
        pods = rated_results(size, 200, 4, "pod")
        for label, stream, game in (
            ("ratings Glicko-2 (duels)", duels, "duel"),
            ("ratings OpenSkill (4 players)", pods, "pod"),
        ):
            mixed = stream[:]
            random.Random(2).shuffle(mixed)
            cases.append(
                (
                    label,
                    lambda mixed=mixed, game=game: rebuild(sorted(mixed, key=lambda r: r.sequence), game),
                    lambda mixed=mixed: sorted(mixed, key=lambda r: r.sequence),
                )
            )
        for label, work, baseline in cases:
            t_work = timed(work, args.repeat)
            t_base = timed(baseline, args.repeat)
            per_k = 1000 / size
            print(
                f"{label:<34}{size:>9}{t_work * 1000 * per_k:>10.2f}{t_base * 1000 * per_k:>10.3f}"
                f"{t_work / t_base:>8.0f}x"
            )


if __name__ == "__main__":
    main()
