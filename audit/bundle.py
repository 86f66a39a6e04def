"""An audit bundle: one stream's record, checkable offline (docs/AUDIT.md is the specification).

A bundle is a JSON object::

    {
      "format": "wizard-duels-audit-bundle", "version": 1,
      "stream": "match:<id>", "kind": "match" | "draft" | "season" | "tournament" | ...,
      "events": [<stored event: stream, seq, event_id, type, data, actor, recorded_at,
                  prev_hash, hash, salt>, ...],
      "secret": "<hex>" | null,          # the revealed stream secret (match and draft streams)
      "engine": {"name": ..., "version": ...} | null,
      "head": {"seq": n, "hash": "<hex>"},
      "inclusion": {"seq", "head_hash", "leaf_index", "tree_size", "proof": [<hex>, ...]} | null,
      "checkpoint": {"tree_size", "root_hash", "timestamp", "signature", "key_id"} | null,
      "public_key": "<base64>" | null
    }

``verify`` checks, and stops at the first failure: the format; the hash chain (with every
salt against the revealed secret); for match and draft streams a full replay under the
recorded engine version (audit.matchverify: seed commitment, every chance outcome, every
action legal, the result), and that the engine named is the one recorded; the head; the
checkpoint's Ed25519 signature (by the key the auditor trusts, if given); and the proof that
the checkpoint's tree holds the stream's head as the bundle's own events give it.

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
    if bundle.get("version") != VERSION:
        return bad(None, f"Bundle version {bundle.get('version')!r} is not one this verifier reads ({VERSION}).")
    events = bundle.get("events")
    stream = bundle.get("stream")
    if not isinstance(events, list) or not events or not all(isinstance(e, dict) for e in events):
        return bad(None, "The bundle holds no events.")
    if any(e.get("stream") != stream for e in events):
        first = next(e for e in events if e.get("stream") != stream)
        return bad(first.get("seq"), "An event belongs to another stream than the bundle's.")

    secret = None
    if bundle.get("secret"):
        try:
            secret = bytes.fromhex(bundle["secret"])
        except (TypeError, ValueError):
            return bad(None, "The bundle's secret is not hexadecimal.")
    chain = check_chain(progress(events, len(events)), secret)
    if not chain.ok:
        return bad(chain.seq, chain.reason)

    notes = []
    kind = bundle.get("kind")
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
    head = bundle.get("head") or {}
    if (head.get("seq"), head.get("hash")) != (last["seq"], chain.head_hash):
        return bad(last["seq"], "The bundle's head is not the hash of its last event.")

    anchored = _anchor(bundle, events, trusted_key, notes)
    if anchored is not None:
        return anchored
    return Outcome(True, notes=notes)


def _anchor(bundle: dict, events: list[dict], trusted_key: str | None, notes: list[str]) -> Outcome | None:
    inclusion, signed, key = bundle.get("inclusion"), bundle.get("checkpoint"), bundle.get("public_key")
    if not inclusion or not signed or not key:
        return Outcome(
            False,
            None,
            "The bundle carries no checkpoint: its head is not anchored outside the "
            "platform's database (export it again after the next checkpoint).",
        )
    if trusted_key is not None and key != trusted_key:
        return Outcome(False, None, "The checkpoint is signed by another key than the one you trust.")
    try:
        checkpoint = audit_checkpoint.Checkpoint.from_dict(signed)
        seq, head, index = int(inclusion["seq"]), str(inclusion["head_hash"]), int(inclusion["leaf_index"])
        proof = list(inclusion["proof"])
    except (KeyError, TypeError, ValueError):
        return Outcome(False, None, "The bundle's checkpoint or inclusion proof is malformed.")
    if not audit_checkpoint.signature_valid(checkpoint, key):
        return Outcome(
            False, None, "The checkpoint's signature does not verify: it was altered or not signed by this key."
        )
    if not 1 <= seq <= len(events) or events[seq - 1]["hash"] != head:
        return Outcome(
            False,
            seq,
            "The head the checkpoint logged is not the hash of this event in the bundle: "
            "the stream was rewritten after it was logged.",
        )
    if not audit_checkpoint.inclusion_valid(
        stream=bundle["stream"], seq=seq, head=head, index=index, proof=proof, checkpoint=checkpoint
    ):
        return Outcome(False, seq, "The inclusion proof does not place this head in the checkpoint's tree.")
    notes.append(
        f"event {seq}'s head is leaf {index} of checkpoint {checkpoint.tree_size} "
        f"({checkpoint.timestamp}), signed by key {audit_checkpoint.key_id(key)}"
    )
    if trusted_key is None:
        notes.append("the key came with the bundle: compare it with the platform's published key, or pass --key")
    return None
