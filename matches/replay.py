"""A stored stream event as its engine sees it: the one conversion every reader of a match stream uses.

A match stream records the moves (``action``) and the dealt outcomes (``chance``) beside its own
bookkeeping (``match.created``, ``match.finished``, and a loss off the board: ``match.timeout``,
``match.resigned``). The services, the replay page, the analysis and the what-if sandboxes all
replay a stream by turning its rows into engine events here. The rule itself is ``audit.matchverify.engine_event``: the Django-free verifier needs
it too, and audit cannot import matches. No Django here either, so pure modules
(``analysis/compute.py``) use it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from audit.matchverify import engine_event as _engine_event

#: The stored event types an engine applies; every other type is the stream's own bookkeeping.
ENGINE_TYPES = frozenset({"action", "chance"})


def engine_event(type_: str, data: dict[str, Any]) -> dict[str, Any] | None:
    """The engine event a stored event of this type and data records, or None for bookkeeping."""
    if type_ not in ENGINE_TYPES:
        return None
    return _engine_event(type_, data)


def engine_events(events: Iterable[Any]) -> list[dict[str, Any]]:
    """The engine events of stored events (``Event`` rows, or anything with ``type`` and ``data``),
    in their order, bookkeeping left out: what ``engines.base.replay`` takes."""
    return [_engine_event(e.type, e.data) for e in events if e.type in ENGINE_TYPES]
