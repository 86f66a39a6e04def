"""How fast does a stored Dueling Wizards match replay?

Plays N random bot duels (shuffles derived with engines.chance.derive from a fixed
seed, so every run sees the same games), keeps each event as the JSON string the event
store would hold, then times

  (a) replay: json.loads + ``engines.base.replay``, the in-place fold every stream replay
      and verification runs;
  (b) json.loads + engine.apply over every event, from setup to the end: a new state per
      event, as live play makes them;
  (c) json.loads alone over the same strings,

and prints the rates in events per second and the ratios (a)/(c) and (b)/(c). (c) is the
floor any replay pays just to read its events; a ratio is what the engine adds on top.
Wall-clock times: on a busy machine compare the ratios (``bench_replay_callgrind.py`` counts
instructions instead, which the load does not change).

    .venv/bin/python benchmarks/bench_dueling_wizards_replay.py [--games 300] [--repeat 3]
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
from engines.dueling_wizards import ENGINE  # noqa: E402

SEED = b"bench-dueling-wizards-replay"


def play_games(count: int) -> list[tuple[dict, int, list[str], dict]]:
    """(config, seats, events as JSON strings, final state) for ``count`` bot duels."""
    games = []
    for g in range(count):
        seats = 2 + g % 2  # alternate two- and three-wizard duels
        config = {"jokers": g % 4 < 2}  # and half of them without Jokers
        state = ENGINE.setup(config, seats)
        rng = random.Random(g)  # the bots' choices, not the engine's
        events = []
        while True:
            to_move = ENGINE.to_move(state)
            if not to_move:
                break
            if to_move == [CHANCE]:
                outcome = derive(ENGINE.chance(state), SEED, f"bench-{g}", len(events) + 1)
                event = {"kind": "chance", "outcome": outcome}
            else:
                seat = to_move[0]
                event = {"kind": "action", "seat": seat, "action": ENGINE.random_action(state, seat, rng)}
            state = ENGINE.apply(state, event)
            events.append(json.dumps(event, separators=(",", ":")))
        games.append((config, seats, events, state))
    return games


def time_fold(games) -> float:
    loads = json.loads
    start = time.perf_counter()
    for config, seats, events, _ in games:
        fold(ENGINE, config, seats, [loads(text) for text in events])
    return time.perf_counter() - start


def time_replay(games) -> float:
    apply, loads, setup = ENGINE.apply, json.loads, ENGINE.setup
    start = time.perf_counter()
    for config, seats, events, _ in games:
        state = setup(config, seats)
        for text in events:
            state = apply(state, loads(text))
    return time.perf_counter() - start


def time_loads(games) -> float:
    loads = json.loads
    start = time.perf_counter()
    for _, _, events, _ in games:
        for text in events:
            loads(text)
    return time.perf_counter() - start


def check_replay(games) -> None:
    for config, seats, events, final in games:
        state = ENGINE.setup(config, seats)
        for text in events:
            state = ENGINE.apply(state, json.loads(text))
        if state != final or fold(ENGINE, config, seats, [json.loads(t) for t in events]) != final:
            raise SystemExit("replay diverged from play: the engine is not deterministic")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many timings")
    args = parser.parse_args()

    games = play_games(args.games)
    check_replay(games)
    total = sum(len(events) for _, _, events, _ in games)
    fold_s = min(time_fold(games) for _ in range(args.repeat))
    replay_s = min(time_replay(games) for _ in range(args.repeat))
    loads_s = min(time_loads(games) for _ in range(args.repeat))
    fold_rate, replay_rate, loads_rate = total / fold_s, total / replay_s, total / loads_s

    print(f"Dueling Wizards replay: {args.games} bot duels, {total:,} events (best of {args.repeat})")
    print(f"  json.loads alone       : {loads_rate:>12,.0f} events/s")
    print(f"  json.loads + fold      : {fold_rate:>12,.0f} events/s  (in place, as stream replay)")
    print(f"  json.loads + apply     : {replay_rate:>12,.0f} events/s  (copying, as live play)")
    print(f"  fold / loads ratio     : {fold_s / loads_s:>12.1f}x slower than parsing alone")
    print(f"  apply / loads ratio    : {replay_s / loads_s:>12.1f}x slower than parsing alone")


if __name__ == "__main__":
    main()
