"""An audit bundle: one stream's record, checkable offline (docs/AUDIT.md is the specification).

A bundle is a JSON object::

    {
      "format": "wizard-duels-audit-bundle", "version": 1,
      "stream": "match:<id>", "kind": "match" | "draft" | "season" | "tournament",
      "events": [<stored event: stream, seq, event_id, type, data, actor, recorded_at,
                  prev_hash, hash, salt>, ...],
      "secret": "<hex>" | null,          # the revealed stream secret (match and draft streams)
      "engine": {"name": ..., "version": ...} | null,
      "head": {"seq": n, "hash": "<hex>"},
      "inclusion": {"seq", "head_hash", "leaf_index", "tree_size", "proof": [<hex>, ...]} | null,
      "checkpoint": {"tree_size", "root_hash", "timestamp", "signature", "key_id"} | null,
      "public_key": "<base64>" | null
    }

``verify`` checks, and stops at the first failure (audit/README.md lists it all): the format,
and that every field has its JSON type; the hash chain (with every salt against the revealed
secret); the kind of stream, which the stream id's prefix and the type of its first event
decide (both covered by every event's hash): ``match:`` streams start with ``match.created``,
``season:`` with ``season.created``, ``tournament:`` with ``tournament.created``, and the
bundle's ``kind`` (covered by no hash or signature) must agree, ``draft`` for a match stream
whose recorded engine is a draft; for match and draft streams a full replay under the recorded
engine version (audit.matchverify: seed commitment, every chance outcome, every action legal,
the result), and that the engine named is the one recorded; the head; the checkpoint's Ed25519
signature (by the key the auditor trusts, if given); and that the checkpoint's tree holds the
stream's head as the bundle's own events give it: the inclusion proof must be for the bundle's
last event and its hash. A proof for an earlier event anchors only the events up to it, so it
is refused: the events after it could have been rewritten after that head was logged.

Seasons and tournaments are checked for their chain and anchor only here: their folds and
the matches they cite need the platform's database (``manage.py verify --all``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from . import checkpoint as audit_checkpoint
from .chain import check_chain

FORMAT = "wizard-duels-audit-bundle"
VERSION = 1
MATCH_KINDS = ("match", "draft")

#: Each kind of stream the platform keeps, by the prefix of its id, and the type of the event it
#: starts with. The bundle's ``kind`` is a label no hash covers; these decide what is checked.
STREAM_STARTS = {"match": "match.created", "season": "season.created", "tournament": "tournament.created"}

#: The bundle's fields besides events, and the JSON types each may have (None: null).
FIELD_TYPES: dict[str, tuple[type, ...]] = {
    "kind": (str,),
    "secret": (str, type(None)),
    "engine": (dict, type(None)),
    "head": (dict,),
    "inclusion": (dict, type(None)),
    "checkpoint": (dict, type(None)),
    "public_key": (str, type(None)),
}
_TYPE_NAMES = {str: "text", dict: "an object", type(None): "null"}


@dataclass
class Outcome:
    ok: bool
    seq: int | None = None
    reason: str = ""
    notes: list[str] = field(default_factory=list)


Progress = Callable[[Iterable[dict[str, Any]], int], Iterable[dict[str, Any]]]


def _no_progress(events, total):
    return events


def verify(bundle: Any, *, trusted_key: str | None = None, progress: Progress = _no_progress) -> Outcome:
    def bad(seq, reason):
        return Outcome(False, seq, reason)

    if not isinstance(bundle, dict) or bundle.get("format") != FORMAT:
        return bad(None, "This is not a wizard-duels audit bundle.")
    if type(bundle.get("version")) is not int or bundle["version"] != VERSION:
        return bad(None, f"Bundle version {bundle.get('version')!r} is not one this verifier reads ({VERSION}).")
    events = bundle.get("events")
    stream = bundle.get("stream")
    if not isinstance(stream, str) or not stream:
        return bad(None, "The bundle names no stream (its stream is not text).")
    if not isinstance(events, list) or not events:
        return bad(None, "The bundle holds no events.")
    for name, types in FIELD_TYPES.items():
        if not isinstance(bundle.get(name), types):
            what = " or ".join(_TYPE_NAMES[t] for t in types)
            return bad(None, f"The bundle's {name} is missing or not {what}.")
    for position, event in enumerate(events, start=1):
        if not isinstance(event, dict):
            return bad(position, "The event is not a JSON object.")
        if event.get("stream") != stream:
            return bad(position, "An event belongs to another stream than the bundle's.")

    secret = None
    if bundle.get("secret"):
        try:
            secret = bytes.fromhex(bundle["secret"])
        except ValueError:
            return bad(None, "The bundle's secret is not hexadecimal.")
    chain = check_chain(progress(events, len(events)), secret)
    if not chain.ok:
        return bad(chain.seq, chain.reason)

    kinds, problem = stream_kinds(stream, events[0])
    if problem:
        return bad(1, problem)
    kind = bundle["kind"]
    if kind not in kinds:
        return bad(
            None,
            f"The bundle says it is a {kind!r} stream, but {stream} is a {' or '.join(kinds)} stream "
            "(by its id and its first event, which the hashes cover): the label decides nothing.",
        )

    notes = []
    if kind in MATCH_KINDS:
        from .matchverify import verify_match_stream

        verdict = verify_match_stream(events)
        if not verdict.verified:
            return bad(verdict.seq, verdict.reason)
        engine = bundle.get("engine") or {}
        recorded = events[0]["data"]
        if (engine.get("name"), engine.get("version")) != (recorded.get("game"), recorded.get("engine_version")):
            return bad(1, "The engine the bundle names is not the one the match recorded at creation.")
        notes.append(f"replayed under {engine['name']} {engine['version']}: result {verdict.result}")
    else:
        notes.append(f"a {kind} stream: its chain is checked here, its projections by `manage.py verify --all`")

    last = events[-1]
    head = bundle["head"]
    if type(head.get("seq")) is not int or (head["seq"], head.get("hash")) != (last["seq"], chain.head_hash):
        return bad(last["seq"], "The bundle's head is not the hash of its last event.")

    anchored = _anchor(bundle, events, trusted_key, notes)
    if anchored is not None:
        return anchored
    return Outcome(True, notes=notes)


def stream_kinds(stream: str, first: dict[str, Any]) -> tuple[tuple[str, ...], str]:
    """(the kinds the stream may be labelled with, "") from what its events' hashes cover: its id
    and its first event; ((), why not) for a stream of no kind this verifier knows."""
    prefix = stream.split(":", 1)[0] if ":" in stream else ""
    starts = STREAM_STARTS.get(prefix)
    if starts is None:
        known = ", ".join(f"{p}:" for p in STREAM_STARTS)
        return (), f"The stream id {stream!r} names no kind of stream this verifier knows ({known})."
    if first["type"] != starts:
        return (), f"A {prefix} stream starts with {starts}, but this one starts with {first['type']!r}."
    if prefix != "match":
        return (prefix,), ""
    from engines import registry

    created = first["data"]
    try:
        draft = registry.get(created["game"], created["engine_version"]).draft
    except (KeyError, TypeError, registry.UnknownEngine):
        return MATCH_KINDS, ""  # the replay reports an engine that cannot be loaded
    return ("draft" if draft else "match",), ""


def _anchor(bundle: dict, events: list[dict], trusted_key: str | None, notes: list[str]) -> Outcome | None:
    inclusion, signed, key = bundle.get("inclusion"), bundle.get("checkpoint"), bundle.get("public_key")
    last = events[-1]
    if not inclusion or not signed or not key:
        return Outcome(
            False,
            None,
            "The bundle carries no checkpoint: its head is not anchored outside the platform's database "
            "(the platform signs checkpoints every few minutes: export it again after the next one).",
        )
    if trusted_key is not None and key != trusted_key:
        return Outcome(False, None, "The checkpoint is signed by another key than the one you trust.")
    if type(signed.get("tree_size")) is not int or not all(
        isinstance(signed.get(name), str) for name in ("root_hash", "timestamp", "signature")
    ):
        return Outcome(
            False, None, "The bundle's checkpoint is malformed (tree_size, root_hash, timestamp, signature)."
        )
    checkpoint = audit_checkpoint.Checkpoint.from_dict(signed)
    seq, head, index, proof = (inclusion.get(name) for name in ("seq", "head_hash", "leaf_index", "proof"))
    if not (
        type(seq) is int
        and seq >= 1
        and type(index) is int
        and isinstance(head, str)
        and isinstance(proof, list)
        and all(isinstance(p, str) for p in proof)
    ):
        return Outcome(False, None, "The bundle's inclusion proof is malformed (seq, head_hash, leaf_index, proof).")
    if not audit_checkpoint.signature_valid(checkpoint, key):
        return Outcome(
            False, None, "The checkpoint's signature does not verify: it was altered or not signed by this key."
        )
    if seq > last["seq"]:
        return Outcome(
            False,
            last["seq"] + 1,
            f"The checkpoint logged the stream's head at event {seq}, but the bundle ends at event "
            f"{last['seq']}: events were left out, or the stream was cut short after it was logged.",
        )
    if events[seq - 1]["hash"] != head:
        return Outcome(
            False,
            seq,
            "The head the checkpoint logged is not the hash of this event in the bundle: "
            "the stream was rewritten after it was logged.",
        )
    if seq < last["seq"]:
        return Outcome(
            False,
            seq + 1,
            f"The checkpoint holds the stream's head at event {seq}, not at its last event {last['seq']}: "
            f"events {seq + 1} to {last['seq']} are in no checkpoint the bundle carries, so nothing outside "
            "the platform's database vouches for them (export it again once a checkpoint holds the final head).",
        )
    if not audit_checkpoint.inclusion_valid(
        stream=bundle["stream"], seq=seq, head=head, index=index, proof=proof, checkpoint=checkpoint
    ):
        return Outcome(False, seq, "The inclusion proof does not place this head in the checkpoint's tree.")
    notes.append(
        f"the head (event {seq}) is leaf {index} of checkpoint {checkpoint.tree_size} "
        f"({checkpoint.timestamp}), signed by key {audit_checkpoint.key_id(key)}"
    )
    if trusted_key is None:
        notes.append("the key came with the bundle: compare it with the platform's published key, or pass --key")
    return None
