"""The set-ups the shortcut tests (issue 17, P1) share: a moment with cards planted among a
player's Ongoing cards, what an event leaves, and a shortcut's answers beside the general path's
(the shortcut patched out)."""

import json

from engines.annihilageddon.engine import copy_state

from ..counted import Counted


def planted(st: dict, seat: int, cards: list[str]) -> dict:
    """A copy of ``st`` with ``cards`` added to ``seat``'s Ongoing cards (a new list, as the
    engine replaces it)."""
    out = copy_state(st)
    p = out["players"][seat]
    p["ongoing"] = p["ongoing"] + cards
    return out


def after(engine, st: dict, ev: dict) -> str:
    """The state ``ev`` leaves, or the refusal (a planted variant may make an event illegal)."""
    try:
        return json.dumps(engine.apply(st, ev))
    except Exception as exc:  # noqa: BLE001 (compared, not hidden: both ways must refuse alike)
        return repr(exc)


def strictly_after(engine, st: dict, ev: dict) -> str:
    """The state ``ev`` leaves; a refusal fails the test."""
    return json.dumps(engine.apply(st, ev))


def with_and_without(engine, cases, monkeypatch, owner, name: str, general, wrap=Counted, outcome=after):
    """``outcome`` of every case with ``owner.name`` wrapped by ``wrap`` (the wrapper is returned,
    to count what the shortcut took), then with it replaced by ``general`` (a function that
    declines everything, or the general path itself): (wrapper, with, without)."""
    wrapped = wrap(getattr(owner, name))
    monkeypatch.setattr(owner, name, wrapped)
    quick = [outcome(engine, st, ev) for st, ev in cases]
    monkeypatch.setattr(owner, name, general)
    slow = [outcome(engine, st, ev) for st, ev in cases]
    return wrapped, quick, slow
