"""Re-verify a finished match from its events alone.

Checks, in stream order, so the first problem found is the earliest bad seq:
the hash chain; the creation event; every action is legal when replayed under the
recorded engine version; every chance outcome is possible and, for server-dealt
matches, equals the one derived from the revealed seed; the seed matches its
commitment; the replayed result equals the one recorded in the stream and on the match.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from engines import registry
from engines.base import CHANCE, IllegalAction
from engines.chance import check_outcome, derive, seed_commitment

from . import eventstore
from .models import Match


@dataclass
class Verdict:
    verified: bool
    seq: int | None = None
    reason: str = ""
    head_hash: str = ""
    events: int = 0

    @property
    def label(self) -> str:
        return Match.Verdict.VERIFIED if self.verified else Match.Verdict.DISPUTED


def verify_events(match: Match, events: list) -> Verdict:
    def bad(seq, reason):
        return Verdict(False, seq, reason, events=len(events))

    chain = eventstore.chain_check(events)
    if not chain.ok:
        return bad(chain.seq, chain.reason)
    if not events or events[0].type != "match.created":
        return bad(1, "The stream does not start with the match's creation.")
    created = events[0].data
    try:
        engine = registry.get(created["game"], created["engine_version"])
    except (KeyError, registry.UnknownEngine) as exc:
        return bad(1, f"The recorded engine cannot be loaded: {exc}")
    if created.get("mode") != match.mode or created.get("config") != match.config:
        return bad(1, "The match's mode or configuration differs from the one recorded at creation.")
    if created["game"] != match.game or created["engine_version"] != match.engine_version:
        return bad(1, "The match's game or engine version differs from the one recorded at creation.")

    finished = events[-1] if events[-1].type == "match.finished" else None
    seed = None
    if created.get("mode") == Match.Mode.SERVER and finished is not None:
        seed_hex = finished.data.get("seed") or ""
        try:
            seed = bytes.fromhex(seed_hex)
        except ValueError:
            return bad(finished.seq, "The revealed seed is not hexadecimal.")
        if seed_commitment(seed) != created.get("seed_commitment"):
            return bad(finished.seq, "The revealed seed does not match the commitment published at creation.")

    try:
        state = engine.setup(created["config"], len(created["seats"]))
    except Exception as exc:  # a config the engine refuses is a dispute, not a crash
        return bad(1, f"The recorded configuration cannot be set up: {exc}")

    for event in events[1:]:
        if event.type == "match.finished":
            if event is not finished:
                return bad(event.seq, "The match was closed before its last event.")
            break
        try:
            if event.type == "action":
                seat = event.data["seat"]
                if event.actor == "server":
                    return bad(event.seq, "An action was recorded as made by the server.")
                state = engine.apply(state, {"kind": "action", "seat": seat, "action": event.data["action"]})
            elif event.type == "chance":
                if engine.to_move(state) != [CHANCE]:
                    return bad(event.seq, "A random outcome was recorded when none was due.")
                spec = engine.chance(state)
                outcome = event.data["outcome"]
                if event.data.get("spec") != spec:
                    return bad(event.seq, "The recorded draw is not the one the rules called for.")
                check_outcome(spec, outcome)
                if seed is not None and derive(spec, seed, event.stream_id, event.seq) != outcome:
                    return bad(event.seq, "This outcome is not the one the revealed seed produces.")
                state = engine.apply(state, {"kind": "chance", "outcome": outcome})
            else:
                return bad(event.seq, f"Unknown event type '{event.type}'.")
        except IllegalAction as exc:
            return bad(event.seq, f"Replaying this event is refused by the rules: {exc.message}")
        except (KeyError, TypeError) as exc:
            return bad(event.seq, f"The event is malformed ({exc}).")

    if finished is None:
        return bad(events[-1].seq + 1, "The match has not finished.")
    if engine.to_move(state):
        return bad(finished.seq, "The match was closed while the game was still going.")
    replayed = engine.result(state)
    if finished.data.get("result") != replayed:
        return bad(finished.seq, "The result recorded in the stream differs from the replayed result.")
    if match.result != replayed:
        return bad(finished.seq, "The result published for the match differs from the replayed result.")
    if match.head_hash and match.head_hash != chain.head_hash:
        return bad(finished.seq, "The published head hash differs from the stream's head.")
    return Verdict(True, head_hash=chain.head_hash, events=len(events))


def match_verify(*, match_id) -> Verdict:
    """Verify and record the verdict. Idempotent: running it again gives the same verdict."""
    match = Match.objects.get(pk=match_id)
    events = eventstore.stream_events(stream_id=match.stream_id)
    verdict = verify_events(match, events)
    with transaction.atomic():
        Match.objects.filter(pk=match.pk).update(
            verdict=verdict.label,
            verdict_seq=verdict.seq,
            verdict_reason=verdict.reason,
            verified_at=timezone.now(),
        )
    from . import live, signals

    transaction.on_commit(lambda: live.broadcast_match(match_id=match.pk, head_seq=len(events)))
    transaction.on_commit(lambda: signals.match_verified.send(
        sender=Match, match_id=match.pk, game=match.game, verdict=verdict.label))
    return verdict
