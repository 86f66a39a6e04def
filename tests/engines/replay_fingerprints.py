"""Fingerprints of recorded playouts: what replaying them gives, step by step, in one hash per game.

An engine version's events must replay to what they gave when they were played (a stream recorded
under a version is verified by replaying it), so a speed-up of apply may change nothing a replay
shows. Each game is a fixed-seed playout (the conformance suite's rng and chance derivation, the
random bot and the engine's best bot in turns); the fingerprint hashes, after every event, the
whole state, the seats to move, the result, the pending chance and every seat to move's legal
actions. The files were written from the engines as they were before the replay speed-ups of
issue 17 (P1). After a deliberate rules change in a new version, rewrite them with

    .venv/bin/python -m tests.engines.replay_fingerprints
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from engines import registry
from engines.base import CHANCE, canonical_json
from engines.chance import derive

from .test_conformance import Rng, seat_counts

HERE = Path(__file__).parent

#: game -> (file, events per version): enough for several whole games of each.
FILES = {
    "wizarding-duels": (HERE / "wizarding_duels" / "data" / "replay_fingerprints.json", 700),
    "spellcaster": (HERE / "spellcaster" / "data" / "replay_fingerprints.json", 2500),
}


def _snapshot(engine, state) -> bytes:
    to_move = engine.to_move(state)
    legal = {} if to_move == [CHANCE] else {str(s): engine.legal_actions(state, s) for s in to_move}
    return canonical_json([state, to_move, engine.result(state), engine.chance(state), legal])


def playout_fingerprints(name: str, version: str, events_wanted: int) -> list[dict]:
    """Play fixed-seed games until ``events_wanted`` events; per game its length and fingerprint.

    Also checks that no apply changed a state it was given: every state is hashed again at the end."""
    engine = registry.get(name, version)
    counts = seat_counts(engine)
    games, total, g = [], 0, 0
    while total < events_wanted:
        seats = counts[g % len(counts)]
        config = engine.validate_config({}, seats)
        state = engine.setup(config, seats)
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
            state = engine.apply(state, json.loads(json.dumps(event)))  # as the event store gives it back
            events += 1
            snapshot = _snapshot(engine, state)
            digest.update(snapshot)
            states.append(state)
            snapshots.append(hashlib.sha256(snapshot).digest())
        for i, (old, expected) in enumerate(zip(states, snapshots, strict=True)):
            assert hashlib.sha256(_snapshot(engine, old)).digest() == expected, f"game {g}: state {i} was changed later"
        games.append({"seats": seats, "events": events, "fingerprint": digest.hexdigest()})
        total += events
        g += 1
    return games


def expected(name: str) -> dict[str, list[dict]]:
    return json.loads(FILES[name][0].read_text())


def write() -> None:
    for name, (path, wanted) in FILES.items():
        versions = [e.version for e in registry.all_engines() if e.name == name]
        data = {version: playout_fingerprints(name, version, wanted) for version in versions}
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(path, {v: sum(g["events"] for g in games) for v, games in data.items()})


if __name__ == "__main__":
    write()
