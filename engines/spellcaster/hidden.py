"""resample_hidden: the engine's declaration of what each viewer cannot see.

For a viewer (a seat, or None for a spectator) every other seat's closed cards are dealt
again at random among the places closed cards of the same element occupy: that seat's
face-down pool, its hand of drawn cards, the closed cards on its display and on its way back
to the decks. Elements stay where they are (they are public, SC-R11); only values move. A deal
that would break a spell's Skill limit (which its owner had to respect) is redrawn; after a few
tries the real deal is kept, which is always consistent. During the secret allocation the
other seats' pending allocations are redrawn among all legal ones.
"""

from __future__ import annotations

import json
from typing import Any

from .board import ELEMENTS
from .engine import allocations, element_of, spell_total

TRIES = 20


def _shuffle(items: list[Any], rng) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]


def _closed_slots(st: dict[str, Any], seat: int, element: str) -> list[tuple[Any, Any]]:
    """(container, key) for every closed card of ``element`` owned by ``seat`` outside the pool."""
    c = st["casters"][seat]
    out = []
    for card in c["hand"]:
        if not card["open"] and element_of(card["id"]) == element:
            out.append((card, "id"))
    for sp in c["display"]:
        if sp is None:
            continue
        for card in sp["motion"] + sp["mass"]:
            if not card["open"] and element_of(card["id"]) == element:
                out.append((card, "id"))
    for prompt in st["stack"]:
        if prompt["p"] == "return" and prompt["seat"] == seat:
            for card in prompt["cards"]:
                if not card["open"] and element_of(card["id"]) == element:
                    out.append((card, "id"))
    return out


def _consistent(st: dict[str, Any], seat: int) -> bool:
    c = st["casters"][seat]
    skill = c["attrs"]["skill"]
    for sp in c["display"]:
        if sp is None:
            continue
        total = spell_total(sp)
        if total > skill or (not sp["motion"] and total + 1 > skill):
            return False
    return True


def resample(state: dict[str, Any], viewer: int | None, rng) -> dict[str, Any]:
    st = json.loads(json.dumps(state))
    others = [s for s in range(st["n"]) if s != viewer]
    if st["phase"] == "allocate":
        options = allocations()
        for s in others:
            if st["casters"][s]["alloc"] is not None:
                st["casters"][s]["alloc"] = options[int(rng.random() * len(options))]
        return st
    if st["phase"] != "play":
        return st  # before the first draw nothing is closed; at the end everything is shown
    for s in others:
        c = st["casters"][s]
        if c["attrs"] is None:
            continue
        real = {e: ([card[k] for card, k in _closed_slots(st, s, e)], list(c["pool"][e])) for e in ELEMENTS}
        for _ in range(TRIES):
            for e in ELEMENTS:
                slots = _closed_slots(st, s, e)
                ids = real[e][0] + real[e][1]
                _shuffle(ids, rng)
                for (card, key), cid in zip(slots, ids):
                    card[key] = cid
                c["pool"][e] = sorted(ids[len(slots) :])
            if _consistent(st, s):
                break
        else:
            for e in ELEMENTS:
                for (card, key), cid in zip(_closed_slots(st, s, e), real[e][0]):
                    card[key] = cid
                c["pool"][e] = real[e][1]
    return st
