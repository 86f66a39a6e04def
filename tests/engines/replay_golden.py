"""Golden replays: what each engine did along fixed playouts, kept as hashes, for every version.

A replay speed-up (issue 17, P1) must not change what any event does. The goldens were written
from the engines as they stood before the speed-ups; the tests replay the same playouts with the
engines as they are now, both ways an event can be applied: ``apply`` (a new state, as live play
does) and ``apply_in_place`` (one owned state, as ``engines.base.replay`` does), hashing the state
after every event. Two kinds of golden, written at different times, keep their meaning:

- marks (``<game>/data/replay_golden.json``): the random bot along the cases in ``MARK_CASES``,
  one short hash per event of the whole state as JSON (key order included), whose turn it is,
  the pending chance spec, every legal action of every seat to move and the result, so a
  difference shows at the first event it appears;
- fingerprints (``<game>/data/replay_fingerprints.json``): fixed-seed games of every version (the
  conformance suite's rng, the random bot and the best bot in turns) until ``FINGERPRINT_EVENTS``
  events, one hash per game over every step's whole state (sorted keys), seats to move, result,
  pending chance and legal actions.

An engine's derived keys (``Engine.derived_keys``: top-level keys of the state that are pure
functions of the rest of it, memo keys that carry nothing of the game) are left out of every hash
(``game_state``), so an engine may add one without a new golden: the goldens still prove that no
event changed what it does. Each engine's tests hold its derived keys to their recomputation.

Rewrite a game's golden (only from an engine known to be right, e.g. after a deliberate rules
change in a new version):

    .venv/bin/python -m tests.engines.replay_golden write wizard-dodgeball
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from engines import registry
from engines.base import CHANCE, canonical_json
from engines.chance import derive

from .test_conformance import Rng, seat_counts

HERE = Path(__file__).resolve().parent
#: The two ways of applying an event that must give the goldens.
MODES = ("in_place", "copy")
SEED = b"replay-golden"
#: Hex digits kept per event: enough to catch a difference (which also changes every later
#: event, the chain hash and usually the playout's length) while the files stay small.
MARK = 4

MARK_CASES: dict[str, list[dict[str, Any]]] = {
    "annihilageddon": [
        {"version": v, "seats": n, "config": {"max_rounds": r}, "key": f"v{v}-{n}p-rounds-{r}", "bound": 3000}
        for v in ("1", "2", "3", "4", "5")
        for (n, r) in ((2, 6), (3, 3), (5, 2), (4, None))
    ],
    "dueling-wizards": [
        {"version": v, "seats": n, "config": {"jokers": j}, "key": f"v{v}-{n}p-jokers-{j}-{k}", "bound": 5000}
        for v in ("1", "2", "3")
        for n in (2, 3)
        for j in (True, False)
        for k in range(8)
    ],
    "iwdl-draft": [
        {"version": "1", "seats": seats, "config": config, "key": f"{label}-{k}", "bound": 5000}
        for seats, config, label in (
            (2, {"format": "basic"}, "basic"),
            (2, {}, "schoolyard"),
            (2, {"pool_size": 4}, "schoolyard-pool-4"),
            (4, {}, "tournament"),
            (4, {"order": "straight"}, "tournament-straight"),
        )
        for k in range(4)
    ],
    "wizard-dodgeball": [
        {"version": "1", "seats": 2, "config": {"stall_turns": 10}, "key": "v1-2p-stall-10", "bound": 2000},
        {"version": "1", "seats": 4, "config": {}, "key": "v1-4p", "bound": 800},
        {"version": "2", "seats": 2, "config": {"turn_limit": 40}, "key": "v2-2p-limit-40", "bound": 2500},
        {
            "version": "2",
            "seats": 4,
            "config": {"team_control": "turns", "turn_limit": 10},
            "key": "v2-4p-turns",
            "bound": 800,
        },
        {"version": "2", "seats": 2, "config": {}, "key": "v2-2p", "bound": 1500},
    ],
}

#: game -> events per version: enough for several whole games of each.
FINGERPRINT_EVENTS = {"wizarding-duels": 700, "spellcaster": 2500}


def _start(engine, config: dict, seats: int, mode: str) -> dict:
    state = engine.setup(config, seats)
    return engine.owned_copy(state) if mode == "in_place" else state


def _apply(engine, state: dict, event: dict, mode: str) -> dict:
    # Replayed as the server does: the event goes through JSON first.
    event = json.loads(json.dumps(event))
    return engine.apply_in_place(state, event) if mode == "in_place" else engine.apply(state, event)


# -- marks ----------------------------------------------------------------------------------------


def _dump(value: Any) -> bytes:
    # Key order kept on purpose: a faster apply must give the very same dicts, not just equal ones.
    return json.dumps(value, separators=(",", ":")).encode()


def game_state(engine, state: dict) -> dict:
    """``state`` without the engine's derived keys (``Engine.derived_keys``), its keys in order."""
    derived = engine.derived_keys
    if not derived:
        return state
    return {k: v for k, v in state.items() if k not in derived}


def fingerprint(engine, state: dict) -> bytes:
    to_move = engine.to_move(state)
    legal = {} if to_move == [CHANCE] else {str(s): engine.legal_actions(state, s) for s in to_move}
    return hashlib.sha256(
        _dump(
            {
                "state": game_state(engine, state),
                "to_move": to_move,
                "chance": engine.chance(state) if to_move == [CHANCE] else None,
                "legal": legal,
                "result": engine.result(state) if not to_move else None,
            }
        )
    ).digest()


def play(engine, seats: int, config: dict, key: str, bound: int, mode: str = "copy") -> dict[str, Any]:
    """One random playout (the random bot, derived chance) of at most ``bound`` events."""
    rng = Rng(key)
    config = engine.validate_config(config, seats)
    state = _start(engine, config, seats, mode)
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
        state = _apply(engine, state, event, mode)
        mark = fingerprint(engine, state)
        chain.update(mark)
        marks.append(mark.hex()[:MARK])
        n += 1
    return {"events": n, "ended": not engine.to_move(state), "chain": chain.hexdigest(), "marks": "".join(marks)}


def compute(name: str, case: dict[str, Any], mode: str = "copy") -> dict[str, Any]:
    engine = registry.get(name, case["version"])
    return {**case, **play(engine, case["seats"], case["config"], case["key"], case["bound"], mode)}


def first_difference(expected: dict[str, Any], got: dict[str, Any]) -> str | None:
    """None when the replay matches; else a sentence naming the first event that differs."""
    a, b = expected["marks"], got["marks"]
    for i in range(0, max(len(a), len(b)), MARK):
        if a[i : i + MARK] != b[i : i + MARK]:
            return f"event {i // MARK + 1} of {expected['key']} differs (golden {expected['events']} events)"
    if (expected["events"], expected["ended"], expected["chain"]) != (got["events"], got["ended"], got["chain"]):
        return f"{expected['key']}: the chain hash differs"
    return None


# -- fingerprints ---------------------------------------------------------------------------------


def _snapshot(engine, state) -> bytes:
    to_move = engine.to_move(state)
    legal = {} if to_move == [CHANCE] else {str(s): engine.legal_actions(state, s) for s in to_move}
    return canonical_json([game_state(engine, state), to_move, engine.result(state), engine.chance(state), legal])


def playout_fingerprints(name: str, version: str, events_wanted: int, mode: str = "copy") -> list[dict]:
    """Play fixed-seed games until ``events_wanted`` events; per game its length and fingerprint.

    Copying, it also checks that no apply changed a state it was given: every state is hashed
    again at the end (in place, every step changes the one state by design)."""
    engine = registry.get(name, version)
    counts = seat_counts(engine)
    games, total, g = [], 0, 0
    while total < events_wanted:
        seats = counts[g % len(counts)]
        state = _start(engine, engine.validate_config({}, seats), seats, mode)
        rng = Rng(f"replay-fingerprint:{name}:{version}:{g}")
        digest = hashlib.sha256(_snapshot(engine, state))
        states, snapshots = [state], [hashlib.sha256(_snapshot(engine, state)).digest()]
        events = 0
        while engine.to_move(state) and events < 5000:
            to_move = engine.to_move(state)
            if to_move == [CHANCE]:
                event = {"kind": "chance", "outcome": derive(engine.chance(state), b"fingerprint", str(g), events + 2)}
            else:
                seat = to_move[int(rng.random() * len(to_move))]
                bot = engine.bots[0] if g % 2 else "random"
                event = {"kind": "action", "seat": seat, "action": engine.bot_action(bot, state, seat, rng)}
            state = _apply(engine, state, event, mode)
            events += 1
            snapshot = _snapshot(engine, state)
            digest.update(snapshot)
            if mode == "copy":
                states.append(state)
                snapshots.append(hashlib.sha256(snapshot).digest())
        if mode == "copy":
            for i, (old, expected) in enumerate(zip(states, snapshots, strict=True)):
                assert hashlib.sha256(_snapshot(engine, old)).digest() == expected, f"game {g}: state {i} changed later"
        games.append({"seats": seats, "events": events, "fingerprint": digest.hexdigest()})
        total += events
        g += 1
    return games


# -- the files ------------------------------------------------------------------------------------


def golden_path(name: str) -> Path:
    kind = "replay_golden" if name in MARK_CASES else "replay_fingerprints"
    return HERE / name.replace("-", "_") / "data" / f"{kind}.json"


def load(name: str) -> dict[str, Any]:
    """Marks: ``{key: case}``; fingerprints: ``{version: [game, ...]}``."""
    data = json.loads(golden_path(name).read_text())
    return {c["key"]: c for c in data["cases"]} if name in MARK_CASES else data


def write(name: str) -> None:
    path = golden_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    if name in MARK_CASES:
        results = [compute(name, case) for case in MARK_CASES[name]]
        path.write_text(json.dumps({"engine": name, "cases": results}, indent=1) + "\n")
        for r in results:
            print(r["key"], r["events"], "ended" if r["ended"] else "cut", file=sys.stderr)
    else:
        versions = [e.version for e in registry.all_engines() if e.name == name]
        data = {v: playout_fingerprints(name, v, FINGERPRINT_EVENTS[name]) for v in versions}
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(path, {v: sum(g["events"] for g in games) for v, games in data.items()}, file=sys.stderr)


if __name__ == "__main__":
    _, command, game = sys.argv
    assert command == "write"
    write(game)
