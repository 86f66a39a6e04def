"""A stored stream event as its engine sees it: the one conversion every reader of a match stream uses.

A match stream records the moves (``action``) and the dealt outcomes (``chance``) beside its own
bookkeeping (``match.created``, ``match.finished``, and a loss off the board: ``match.timeout``,
``match.resigned``). A loss off the board recorded with ``"plays_on": true`` is no bookkeeping: the
seat left a game the others play on (the ruling "Leaving"), and the replay applies the engine's
``leave`` there (``replay_stream``). The services, the replay page, the analysis and the what-if
sandboxes all replay a stream by turning its rows into engine events here. The rule itself is
``audit.matchverify.engine_event``: the Django-free verifier needs it too, and audit cannot import
matches. No Django here either, so pure modules (``analysis/compute.py``) use it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from audit.matchverify import LEAVE, leaves, left_state, replay_stream
from audit.matchverify import engine_event as _engine_event

#: The stored event types an engine applies; every other type is the stream's own bookkeeping
#: (but a seat leaving a game the others play on: ``leaves``).
ENGINE_TYPES = frozenset({"action", "chance"})

__all__ = ["ENGINE_TYPES", "LEAVE", "engine_event", "engine_events", "left_state", "replay_stream"]


def engine_event(type_: str, data: dict[str, Any]) -> dict[str, Any] | None:
    """The engine event a stored event of this type and data records (a leave marker for a seat
    leaving a game the others play on), or None for bookkeeping."""
    if type_ not in ENGINE_TYPES and not leaves(type_, data):
        return None
    return _engine_event(type_, data)


def engine_events(events: Iterable[Any]) -> list[dict[str, Any]]:
    """The engine events of stored events (``Event`` rows, or anything with ``type`` and ``data``),
    in their order, bookkeeping left out: what ``replay_stream`` takes."""
    return [_engine_event(e.type, e.data) for e in events if e.type in ENGINE_TYPES or leaves(e.type, e.data)]
