"""How fast does Wizard Dodgeball replay, and how fast can bots play it?

1. Plays N long bot games (random legal bot against random legal bot: the longest games the
   engine sees; dice derived with engines.chance.derive from a fixed seed, so every run
   plays the same games) and keeps each event as the JSON string the event store would hold.
2. Times replay over those strings: (a) json.loads + ``engines.base.replay``, the in-place
   fold every stream replay and verification runs; (b) json.loads + engine.apply from setup
   to the end, a new state per event as live play makes them; (c) json.loads alone. Prints
   each in events per second and the ratios (a)/(c) and (b)/(c): the engine's cost per event
   against merely decoding it. Wall-clock times: on a busy machine compare the ratios
   (``bench_replay_callgrind.py`` counts instructions instead, which the load does not change).
3. Times whole random playouts (choosing actions with legal_actions, rolling, applying),
   and heuristic-vs-random games, in games per second.

    .venv/bin/python benchmarks/bench_wizard_dodgeball.py [--games 6] [--repeat 3] [--playouts 6]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines.base import CHANCE  # noqa: E402
from engines.base import replay as fold  # noqa: E402
from engines.chance import derive  # noqa: E402
from engines.wizard_dodgeball import ENGINE  # noqa: E402
from engines.wizard_dodgeball.bots import heuristic_action  # noqa: E402

SEED = b"bench-wizard-dodgeball"
CONFIG: dict = {}


def play(game: int, heuristic_seats=()) -> list[str]:
    state = ENGINE.setup(CONFIG, 2)
    rng = random.Random(game)
    events: list[str] = []
    while True:
        movers = ENGINE.to_move(state)
        if not movers:
            return events
        if movers == [CHANCE]:
            event = {"kind": "chance", "outcome": derive(ENGINE.chance(state), SEED, f"g{game}", len(events))}
        elif movers[0] in heuristic_seats:
            event = {"kind": "action", "seat": movers[0], "action": heuristic_action(ENGINE, state, movers[0], rng)}
        else:
            event = {"kind": "action", "seat": movers[0], "action": ENGINE.random_action(state, movers[0], rng)}
        state = ENGINE.apply(state, event)
        events.append(json.dumps(event, separators=(",", ":")))


def replay_in_place(games: list[list[str]]) -> None:
    loads = json.loads
    for events in games:
        state = fold(ENGINE, CONFIG, 2, [loads(raw) for raw in events])
        assert ENGINE.result(state) is not None


def replay_copying(games: list[list[str]]) -> None:
    for events in games:
        state = ENGINE.setup(CONFIG, 2)
        for raw in events:
            state = ENGINE.apply(state, json.loads(raw))
        assert ENGINE.result(state) is not None


def decode_only(games: list[list[str]]) -> None:
    for events in games:
        for raw in events:
            json.loads(raw)


def best_of(repeat: int, fn, *args) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="long random-vs-random games to record")
    parser.add_argument("--repeat", type=int, default=3, help="timing repeats (best is kept)")
    parser.add_argument("--playouts", type=int, default=6, help="games for the playout rates")
    args = parser.parse_args()

    start = time.perf_counter()
    games = [play(g) for g in range(args.games)]
    recorded = time.perf_counter() - start
    total = sum(len(g) for g in games)
    print(
        f"recorded {args.games} random-vs-random games: {total} events "
        f"(mean {total / args.games:.0f}, longest {max(len(g) for g in games)}) in {recorded:.1f} s"
    )

    t_fold = best_of(args.repeat, replay_in_place, games)
    t_copy = best_of(args.repeat, replay_copying, games)
    t_decode = best_of(args.repeat, decode_only, games)
    print(f"replay, in-place fold:       {total / t_fold:12,.0f} events/s  ({1e6 * t_fold / total:.1f} us/event)")
    print(f"replay, copying apply:       {total / t_copy:12,.0f} events/s  ({1e6 * t_copy / total:.1f} us/event)")
    print(f"json.loads alone:            {total / t_decode:12,.0f} events/s  ({1e6 * t_decode / total:.2f} us/event)")
    print(f"ratio fold / decode:         {t_fold / t_decode:12.1f} x")
    print(f"ratio copying / decode:      {t_copy / t_decode:12.1f} x")

    start = time.perf_counter()
    n_events = sum(len(play(1000 + g)) for g in range(args.playouts))
    elapsed = time.perf_counter() - start
    print(
        f"random playouts:             {args.playouts / elapsed:12.2f} games/s  "
        f"({n_events / elapsed:,.0f} events/s incl. legal_actions)"
    )

    start = time.perf_counter()
    n_events = sum(len(play(2000 + g, heuristic_seats=(g % 2,))) for g in range(args.playouts * 5))
    elapsed = time.perf_counter() - start
    print(
        f"heuristic vs random:         {args.playouts * 5 / elapsed:12.2f} games/s  "
        f"({n_events / elapsed:,.0f} events/s)"
    )


if __name__ == "__main__":
    main()
