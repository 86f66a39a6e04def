"""What follows a match's commits, delivered through the outbox (matches.outbox).

Each handler is idempotent: a broadcast sends the frames of the match's current head again (each
socket drops the events it already sent, matches/live.py),
verification records the same verdict twice, and the receivers of the signals queue
idempotent tasks.
"""

from __future__ import annotations

import collections
import functools
import threading

from django.db import transaction

from . import live, signals, tasks
from .models import Match
from .outbox import handler

# What makes up for a message given up on (matches/outbox.py): each is told to the operator with it.
_NEXT_FRAME = (
    "its pages miss one live update; the next broadcast carries the head, and a socket that reconnects "
    "catches up from its last seq"
)


@handler("match.broadcast", if_given_up=_NEXT_FRAME)
def broadcast(payload: dict) -> None:
    # Messages written before "after" was recorded carry none: their frames take the whole window.
    live.broadcast_match(match_id=payload["match_id"], head_seq=payload["head_seq"], after=payload.get("after"))


@handler(
    "match.bots_move",
    if_given_up="matches.bots_move_stalled (every minute) queues again the bots' moves of every live match "
    "whose bots were left to play on and have waited a minute (BOTS_STALLED_SECONDS)",
)
def bots_move(payload: dict) -> None:
    if tasks.app.conf.task_always_eager:
        # Run in-process, each command's commit would deliver the next one's message inside its
        # own commit, a frame deeper every command; after this delivery's commit, one loop in the
        # outermost of them runs them one after another instead (a game of bots alone: about 30).
        transaction.on_commit(functools.partial(_bots_move_in_turn, payload["match_id"], payload["head_seq"]))
        return
    tasks.bots_move.delay(payload["match_id"], payload["head_seq"])


_in_turn = threading.local()


def _bots_move_in_turn(match_id: str, head_seq: int) -> None:
    waiting = getattr(_in_turn, "waiting", None)
    if waiting is not None:
        waiting.append((match_id, head_seq))  # the loop below, further up this thread, runs it next
        return
    _in_turn.waiting = waiting = collections.deque([(match_id, head_seq)])
    try:
        while waiting:
            tasks.bots_move.delay(*waiting.popleft())
    finally:
        _in_turn.waiting = None


@handler(
    "match.verify",
    if_given_up="matches.requeue_unverified (every minute) queues again the verification of every finished "
    "match still unverified",
)
def verify(payload: dict) -> None:
    tasks.verify_match.delay(payload["match_id"])


# Its only receiver is a draft's hand-off (league/drafts/receivers.py), which the sweep re-derives.
@handler(
    "match.finished",
    if_given_up="league.hand_off_lost_drafts (every minute) makes the match of every draft that should have "
    "handed off to one and has none, finished in the last week or since before its message could go dead",
)
def finished(payload: dict) -> None:
    signals.match_finished.send(sender=Match, match_id=payload["match_id"], game=payload["game"])


_FOLLOWUPS_SWEEPS = (
    "league.requeue_followups and tournaments.requeue_followups (every minute) redo a verdict's results, "
    "retractions and ratings for every verdict since before its message could go dead (followups_window)"
)


@handler("match.verified", if_given_up=_FOLLOWUPS_SWEEPS)
def verified(payload: dict) -> None:
    signals.match_verified.send(
        sender=Match, match_id=payload["match_id"], game=payload["game"], verdict=payload["verdict"]
    )


@handler("match.broadcast_many", if_given_up="open pages miss a verdict frame; a page read again shows the verdict")
def broadcast_many(payload: dict) -> None:
    # A batch of verdicts (matches_verify): one small verdict frame per watched match (live.py), not
    # every seat's view as "match.broadcast" sends for an event.
    live.broadcast_matches(items=payload["matches"])


@handler("match.verified_many", if_given_up=_FOLLOWUPS_SWEEPS)
def verified_many(payload: dict) -> None:
    signals.matches_verified.send(sender=Match, verdicts=payload["verdicts"])
