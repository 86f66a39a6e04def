"""The hash chain over a stream's events, as plain data (docs/AUDIT.md, "Hashes and salts").

An event is a dict with the stored fields: ``stream``, ``seq``, ``event_id``, ``type``,
``data``, ``actor``, ``recorded_at`` (ISO 8601 text), ``prev_hash``, ``hash`` and ``salt``
(hex text, or None in streams written before salts).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from engines.base import canonical_json
from engines.chance import event_salt

GENESIS_HASH = "0" * 64

#: Streams whose first event's data says ``"hash_scheme": 2`` salt every later event.
SALTED_SCHEME = 2

#: The stored fields every event has besides ``data`` (any JSON) and ``salt`` (hex text or null).
TEXT_FIELDS = ("stream", "event_id", "type", "actor", "recorded_at", "prev_hash", "hash")


def hash_payload(
    *,
    stream: str,
    seq: int,
    event_id: str,
    type: str,
    data: Any,
    actor: str,
    recorded_at: str,
    salt: str | None = None,
) -> dict[str, Any]:
    payload = {
        "stream": stream,
        "seq": seq,
        "event_id": event_id,
        "type": type,
        "data": data,
        "actor": actor,
        "recorded_at": recorded_at,
    }
    if salt is not None:
        payload["salt"] = salt
    return payload


def event_hash(prev_hash: str, payload: dict[str, Any]) -> str:
    return hashlib.sha256(prev_hash.encode("ascii") + canonical_json(payload)).hexdigest()


def payload_of(event: dict[str, Any]) -> dict[str, Any]:
    return hash_payload(
        stream=event["stream"],
        seq=event["seq"],
        event_id=event["event_id"],
        type=event["type"],
        data=event["data"],
        actor=event["actor"],
        recorded_at=event["recorded_at"],
        salt=event.get("salt"),
    )


def malformed(event: Any) -> str | None:
    """Why ``event`` cannot be a stored event (a field missing, or of the wrong JSON type), or None.
    An export read from a file can hold anything; this names what is wrong instead of failing on it."""
    if not isinstance(event, dict):
        return "The event is not a JSON object."
    if type(event.get("seq")) is not int:
        return "The event's seq is missing or not a whole number."
    for name in TEXT_FIELDS:
        if name not in event:
            return f"The event has no {name}."
        if not isinstance(event[name], str):
            return f"The event's {name} is not text."
    if not event["stream"].isascii():
        return "The event's stream id is not ASCII text (a salt's message is ASCII, docs/AUDIT.md 4)."
    if "data" not in event:
        return "The event has no data."
    if not isinstance(event.get("salt"), (str, type(None))):
        return "The event's salt is neither text nor null."
    return None


def hash_scheme(first_event: dict[str, Any] | None) -> int:
    if not first_event or not isinstance(first_event.get("data"), dict):
        return 1
    scheme = first_event["data"].get("hash_scheme", 1)
    return scheme if type(scheme) is int else 1


@dataclass
class ChainCheck:
    ok: bool
    seq: int | None = None
    reason: str = ""
    head_hash: str = GENESIS_HASH


def check_chain(events: Iterable[dict[str, Any]], secret: bytes | None = None) -> ChainCheck:
    """Every event has its stored fields; seqs run 1, 2, 3...; every hash covers its event and
    the one before; in a salted stream every event after the first carries a salt, and with the
    revealed ``secret`` each salt is the one the secret gives (so no salt was invented to fit an
    altered event)."""
    prev = GENESIS_HASH
    expected = 1
    scheme = 1
    for event in events:
        problem = malformed(event)
        if problem is not None:
            return ChainCheck(False, expected, problem, prev)
        seq = event["seq"]
        if seq != expected:
            return ChainCheck(False, expected, f"Event {expected} is missing from the stream.", prev)
        if seq == 1:
            scheme = hash_scheme(event)
        salt = event.get("salt")
        if scheme == SALTED_SCHEME and seq > 1:
            if not isinstance(salt, str):
                return ChainCheck(False, seq, "This salted stream's event carries no salt.", prev)
            if secret is not None and salt != event_salt(secret, event["stream"], seq):
                return ChainCheck(False, seq, "Its salt is not the one the revealed secret gives.", prev)
        elif salt is not None:
            return ChainCheck(False, seq, "An event carries a salt where the stream's scheme has none.", prev)
        if event.get("prev_hash") != prev:
            return ChainCheck(False, seq, "Its prev_hash does not match the hash of the event before it.", prev)
        if event_hash(prev, payload_of(event)) != event.get("hash"):
            return ChainCheck(False, seq, "Its content does not match its hash: the event was altered.", prev)
        prev = event["hash"]
        expected += 1
    return ChainCheck(True, head_hash=prev)
