"""Whole match streams as the server records them, without a database: a random playout (the
conformance suite's random bot) dealt from a stream secret, with the creation, every event's
salt and hash, and the close revealing the secret. For the verifier's tests and benchmarks."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta
from typing import Any

from audit.chain import GENESIS_HASH, SALTED_SCHEME, event_hash, hash_payload, payload_of
from audit.matchverify import engine_event
from engines.base import CHANCE
from engines.chance import derive, event_salt, seed_commitment

from ..engines.test_conformance import Rng

START = datetime(2026, 1, 1, tzinfo=UTC)


def recorded_stream(
    engine, seats: int, key: str, *, config: dict[str, Any] | None = None, bound: int = 30_000
) -> list[dict[str, Any]]:
    """The events of one server-dealt match between random bots, as the event store gives them
    back (plain JSON). Ends with ``match.finished`` when the game ended within ``bound`` events."""
    secret = hashlib.sha256(f"secret:{key}".encode()).digest()
    stream = f"match:{hashlib.sha256(key.encode()).hexdigest()[:32]}"
    config = engine.validate_config(config or {}, seats)
    created = {
        "game": engine.name,
        "engine_version": engine.version,
        "mode": "server",
        "config": config,
        "seats": [{"seat": i, "user_id": None, "username": None, "bot": "random"} for i in range(seats)],
        "seed_commitment": seed_commitment(secret),
        "hash_scheme": SALTED_SCHEME,
        "origin": {},
    }
    records: list[dict[str, Any]] = []

    def record(type: str, data: dict[str, Any], actor: str) -> None:
        seq = len(records) + 1
        payload = hash_payload(
            stream=stream,
            seq=seq,
            event_id=f"{key}:{seq}",
            type=type,
            data=data,
            actor=actor,
            recorded_at=(START + timedelta(seconds=seq)).isoformat(),
            salt=event_salt(secret, stream, seq) if seq > 1 else None,
        )
        prev = records[-1]["hash"] if records else GENESIS_HASH
        records.append({**payload, "salt": payload.get("salt"), "prev_hash": prev, "hash": event_hash(prev, payload)})

    record("match.created", created, "system")
    rng = Rng(key)
    state = engine.setup(config, seats)
    while engine.to_move(state) and len(records) <= bound:
        to_move = engine.to_move(state)
        seq = len(records) + 1
        if to_move == [CHANCE]:
            spec = engine.chance(state)
            type, data, actor = "chance", {"spec": spec, "outcome": derive(spec, secret, stream, seq)}, "server"
        else:
            seat = to_move[int(rng.random() * len(to_move))]
            type, data, actor = "action", {"seat": seat, "action": engine.random_action(state, seat, rng)}, "bot:random"
        state = engine.apply(state, engine_event(type, data))
        record(type, data, actor)
    if not engine.to_move(state):
        record("match.finished", {"result": engine.result(state), "seed": secret.hex()}, "server")
    return json.loads(json.dumps(records))


def rehashed(events: list[dict[str, Any]], from_seq: int) -> list[dict[str, Any]]:
    """A careful forger's stream: every hash from ``from_seq`` on recomputed over the events as
    they now read (salts kept), so the chain holds and only the replay can tell."""
    out = [dict(e) for e in events]
    prev = out[from_seq - 2]["hash"] if from_seq > 1 else GENESIS_HASH
    for event in out[from_seq - 1 :]:
        event["prev_hash"], event["hash"] = prev, event_hash(prev, payload_of(event))
        prev = event["hash"]
    return out
