"""The organiser's round timer, as a pure fold of its events.

The organiser starts the current round's clock with a duration, pauses, resumes and extends
it. Each command's event carries ``at``, the server's time when it was accepted (the
services put it there): nothing here reads the wall clock, so a replay gives the same state.

``state["timer"]`` (absent until the first timer event) is plain JSON::

    {"round": 2, "duration": 3000, "extended": 300, "started_at": iso,
     "ends_at": iso | None,        # the deadline while running
     "remaining": int | None,      # whole seconds left while paused
     "paused": bool}

How much time is left *now* is a read (``seconds_left``), given the time by the caller.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

DEFAULT_MINUTES = 50
MAX_MINUTES = 600  # ten hours: a round timer, not a calendar


def _at(data: dict) -> datetime:
    return datetime.fromisoformat(data["at"])


def _started(state: dict, data: dict, event: dict) -> None:
    at = _at(data)
    state["timer"] = {
        "round": data["round"],
        "duration": data["seconds"],
        "extended": 0,
        "started_at": data["at"],
        "ends_at": (at + timedelta(seconds=data["seconds"])).isoformat(),
        "remaining": None,
        "paused": False,
    }


def _paused(state: dict, data: dict, event: dict) -> None:
    timer = state["timer"]
    left = (datetime.fromisoformat(timer["ends_at"]) - _at(data)).total_seconds()
    # Whole seconds, never below zero: a round that ran out stays out while paused.
    timer.update(paused=True, ends_at=None, remaining=max(0, int(left)))


def _resumed(state: dict, data: dict, event: dict) -> None:
    timer = state["timer"]
    timer.update(paused=False, ends_at=(_at(data) + timedelta(seconds=timer["remaining"])).isoformat(), remaining=None)


def _extended(state: dict, data: dict, event: dict) -> None:
    timer = state["timer"]
    timer["extended"] += data["seconds"]
    if timer["paused"]:
        timer["remaining"] += data["seconds"]
    else:
        # Extends the deadline, not the time from now: an extension of a round that ran out
        # five minutes ago by three minutes leaves it out (the organiser sees it on the page).
        timer["ends_at"] = (datetime.fromisoformat(timer["ends_at"]) + timedelta(seconds=data["seconds"])).isoformat()


HANDLERS = {
    "round.timer_started": _started,
    "round.timer_paused": _paused,
    "round.timer_resumed": _resumed,
    "round.timer_extended": _extended,
}


def seconds_left(timer: dict | None, now: datetime) -> int | None:
    """Whole seconds left on the round's clock at ``now`` (negative: over time), or None
    without a timer."""
    if not timer:
        return None
    if timer["paused"]:
        return timer["remaining"]
    return int((datetime.fromisoformat(timer["ends_at"]) - now).total_seconds() // 1)


def timer_view(state: dict, now: datetime) -> dict[str, Any] | None:
    """The timer as pages show it: the current round's clock only (a new round's clock
    starts when the organiser starts it)."""
    timer = state.get("timer")
    if not timer:
        return None
    current = len(state["rounds"])
    return {**timer, "current": timer["round"] == current, "seconds_left": seconds_left(timer, now)}
