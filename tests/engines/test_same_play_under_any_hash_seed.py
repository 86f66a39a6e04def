"""Every engine plays the same in processes with different hash seeds: every bot's moves, every log
line, every seat's and a spectator's view, every list of legal actions and the final state.

A server deals and moves the bots in one process, the verifier replays in another, and a replay page
describes the events in a third; a string's hash differs between them (PYTHONHASHSEED), so anything
that iterates a set of strings, or orders by ``hash()`` or ``id()``, would show there and nowhere in
one process. The conformance suite compares the random bot's states and events with one other
process; this compares what people see, with every bot, between two processes seeded apart.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from engines import registry

ROOT = Path(__file__).resolve().parents[2]
#: Events played per seat count and bot: enough to reach every phase of a turn, in seconds.
BOUND = 150

_CHILD = """
import hashlib, json, sys
sys.path.insert(0, sys.argv[1])
from engines import registry
from engines.base import CHANCE
from engines.chance import derive
from tests.engines.test_conformance import Rng, seat_counts

engine = registry.get(sys.argv[2], sys.argv[3])
bound = int(sys.argv[4])
digest = hashlib.sha256()

def put(value):
    digest.update(json.dumps(value, sort_keys=True).encode())
    digest.update(b"\\n")

for seats in seat_counts(engine):
    for bot in engine.bots:
        rng = Rng(f"hash-seed:{engine.name}:{engine.version}:{seats}:{bot}")
        state = engine.setup(engine.validate_config({}, seats), seats)
        for k in range(bound):
            to_move = engine.to_move(state)
            if not to_move:
                break
            if to_move == [CHANCE]:
                spec = engine.chance(state)
                put(spec)
                event = {"kind": "chance", "outcome": derive(spec, b"hash-seed", "stream", k)}
            else:
                seat = to_move[int(rng.random() * len(to_move))]
                put(engine.legal_actions(state, seat))
                event = {"kind": "action", "seat": seat, "action": engine.bot_action(bot, state, seat, rng)}
            after = engine.apply(state, event)
            put([event, engine.describe(state, event, after)])
            for viewer in [None, *range(seats)]:
                put(engine.view(after, viewer))
            state = after
        put([state, engine.result(state) if not engine.to_move(state) else None])
print(digest.hexdigest())
"""


def _played(engine, hash_seed: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(ROOT), engine.name, engine.version, str(BOUND)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": hash_seed},
    )


ENGINES = registry.all_engines()


@pytest.mark.parametrize("engine", ENGINES, ids=[f"{e.name}@{e.version}" for e in ENGINES])
def test_every_bot_log_line_and_view_is_the_same_under_two_hash_seeds(engine):
    children = [_played(engine, seed) for seed in ("1", "2024")]
    outputs = []
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0, err
        outputs.append(out.strip())
    assert outputs[0] == outputs[1], f"{engine.name}@{engine.version} plays differently under another hash seed"
