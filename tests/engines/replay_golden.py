"""Golden replays: what an engine did along fixed random playouts, as one short hash per event.

A replay speed-up (issue 17, P1) must not change what any event does. The golden files beside
each game's tests (``<game>/data/replay_golden.json``) were written by this module with the
engine as it stood before the speed-up; the tests replay the same playouts with the engine as
it is now and compare every event's hash. An event's hash covers the whole state as JSON (key
order included), whose turn it is, the pending chance spec, every legal action of every seat
to move and the result, so a difference anywhere shows at the first event it appears.

Write a golden (only from an engine known to be right):

    .venv/bin/python -m tests.engines.replay_golden write wizard-dodgeball
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from engines import registry
from engines.base import CHANCE
from engines.chance import derive

ROOT = Path(__file__).resolve().parents[2]
SEED = b"replay-golden"
#: Hex digits kept per event: enough to catch a difference (which also changes every later
#: event, the chain hash and usually the playout's length) while the files stay small.
MARK = 4


class Rng:
    """random() only, from a hash counter (the conformance suite's): the same numbers everywhere."""

    def __init__(self, key: str):
        self._key = hashlib.sha256(key.encode()).digest()
        self._n = 0

    def random(self) -> float:
        self._n += 1
        digest = hashlib.sha256(self._key + self._n.to_bytes(8, "big")).digest()
        return int.from_bytes(digest[:7], "big") / float(1 << 56)


def _dump(value: Any) -> bytes:
    # Key order kept on purpose: a faster copy must give the very same dicts, not just equal ones.
    return json.dumps(value, separators=(",", ":")).encode()


def fingerprint(engine, state: dict) -> bytes:
    to_move = engine.to_move(state)
    legal = {} if to_move == [CHANCE] else {str(s): engine.legal_actions(state, s) for s in to_move}
    return hashlib.sha256(
        _dump(
            {
                "state": state,
                "to_move": to_move,
                "chance": engine.chance(state) if to_move == [CHANCE] else None,
                "legal": legal,
                "result": engine.result(state) if not to_move else None,
            }
        )
    ).digest()


def play(engine, seats: int, config: dict, key: str, bound: int) -> dict[str, Any]:
    """One random playout (the random bot, derived chance) of at most ``bound`` events."""
    rng = Rng(key)
    config = engine.validate_config(config, seats)
    state = engine.setup(config, seats)
    chain = hashlib.sha256(fingerprint(engine, state))
    marks = []
    n = 0
    while engine.to_move(state) and n < bound:
        to_move = engine.to_move(state)
        if to_move == [CHANCE]:
            event = {"kind": "chance", "outcome": derive(engine.chance(state), SEED, key, n + 2)}
        else:
            seat = to_move[int(rng.random() * len(to_move))]
            event = {"kind": "action", "seat": seat, "action": engine.random_action(state, seat, rng)}
        # Replayed as the server does: the event goes through JSON first.
        state = engine.apply(state, json.loads(json.dumps(event)))
        mark = fingerprint(engine, state)
        chain.update(mark)
        marks.append(mark.hex()[:MARK])
        n += 1
    return {"events": n, "ended": not engine.to_move(state), "chain": chain.hexdigest(), "marks": "".join(marks)}


def golden_path(name: str) -> Path:
    return ROOT / "tests" / "engines" / name.replace("-", "_") / "data" / "replay_golden.json"


def load(name: str) -> dict[str, Any]:
    return json.loads(golden_path(name).read_text())


def compute(name: str, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for case in cases:
        engine = registry.get(name, case["version"])
        got = play(engine, case["seats"], case["config"], case["key"], case["bound"])
        out.append({**case, **got})
    return out


def first_difference(expected: dict[str, Any], got: dict[str, Any]) -> str | None:
    """None when the replay matches; else a sentence naming the first event that differs."""
    a, b = expected["marks"], got["marks"]
    for i in range(0, max(len(a), len(b)), MARK):
        if a[i : i + MARK] != b[i : i + MARK]:
            return f"event {i // MARK + 1} of {expected['key']} differs (golden {expected['events']} events)"
    if (expected["events"], expected["ended"], expected["chain"]) != (got["events"], got["ended"], got["chain"]):
        return f"{expected['key']}: the chain hash differs"
    return None


def write(name: str, cases: list[dict[str, Any]]) -> None:
    path = golden_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    results = compute(name, cases)
    path.write_text(json.dumps({"engine": name, "cases": results}, indent=1) + "\n")
    for r in results:
        print(r["key"], r["events"], "ended" if r["ended"] else "cut", file=sys.stderr)


if __name__ == "__main__":
    import importlib

    _, command, game = sys.argv
    assert command == "write"
    module = importlib.import_module(f"tests.engines.{game.replace('-', '_')}.test_replay_golden")
    write(game, module.CASES)
