"""What follows a match's commits, delivered through the outbox (matches.outbox).

Each handler is idempotent: a broadcast sends the frames of the match's current head again (each
socket drops the events it already sent, matches/live.py),
verification records the same verdict twice, and the receivers of the signals queue
idempotent tasks.
"""

from __future__ import annotations

from . import live, signals, tasks
from .models import Match
from .outbox import handler


@handler("match.broadcast")
def broadcast(payload: dict) -> None:
    # Messages written before "after" was recorded carry none: their frames take the whole window.
    live.broadcast_match(match_id=payload["match_id"], head_seq=payload["head_seq"], after=payload.get("after"))


@handler("match.verify")
def verify(payload: dict) -> None:
    tasks.verify_match.delay(payload["match_id"])


@handler("match.finished")
def finished(payload: dict) -> None:
    signals.match_finished.send(sender=Match, match_id=payload["match_id"], game=payload["game"])


@handler("match.verified")
def verified(payload: dict) -> None:
    signals.match_verified.send(
        sender=Match, match_id=payload["match_id"], game=payload["game"], verdict=payload["verdict"]
    )


@handler("match.broadcast_many")
def broadcast_many(payload: dict) -> None:
    # A batch of verdicts (matches_verify): one small verdict frame per watched match (live.py), not
    # every seat's view as "match.broadcast" sends for an event.
    live.broadcast_matches(items=payload["matches"])


@handler("match.verified_many")
def verified_many(payload: dict) -> None:
    signals.matches_verified.send(sender=Match, verdicts=payload["verdicts"])
