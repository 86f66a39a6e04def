"""Random and bot playouts shared by the property, hidden-information and bot tests."""

from __future__ import annotations

import random

from engines.base import CHANCE
from engines.chance import derive
from engines.spellcaster.engine import spell_cards

from .helpers import E


def next_event(st, rng, seed, k, bots=None):
    movers = E.to_move(st)
    if movers == [CHANCE]:
        return {"kind": "chance", "outcome": derive(E.chance(st), b"sc-tests", str(seed), k)}
    seat = movers[0]
    bot = (bots or {}).get(seat, "random")
    return {"kind": "action", "seat": seat, "action": E.bot_action(bot, st, seat, rng)}


def playout(seed, n=2, bots=None, max_events=100000, config=None, every=None):
    """Play to the end (or ``max_events``); ``every(before, event, after)`` sees each step."""
    st = E.setup(config or {}, n)
    rng = random.Random(seed)
    for k in range(max_events):
        if not E.to_move(st):
            return st, k
        event = next_event(st, rng, seed, k, bots)
        after = E.apply(st, event)
        if every:
            every(st, event, after)
        st = after
    return st, max_events


def check_conservation(st):
    """Every seat's 40 cards are somewhere exactly once; its Will tokens are unused, on a spell or gone."""
    if st["phase"] in ("allocate", "first"):
        return
    for s, c in enumerate(st["casters"]):
        ids = [x for e in c["pool"] for x in c["pool"][e]] + [x for e in c["up"] for x in c["up"][e]]
        ids += [x["id"] for x in c["hand"]] + c["removed"]
        ids += [x["id"] for sp in c["display"] if sp for x in spell_cards(sp)]
        ids += [x["id"] for p in st["stack"] if p["p"] == "return" and p["seat"] == s for x in p["cards"]]
        assert len(ids) == 40 and len(set(ids)) == 40, f"seat {s} holds {len(ids)} cards"
        on = sum(sp["tokens"].count(s) for o in st["casters"] for sp in o["display"] if sp)
        assert c["tokens"] >= 0 and c["tokens"] + on + c["discarded"] == 3 * c["attrs"]["will"]
        assert 0 <= c["life"] <= len(c["squares"])
        assert (c["life"] > 0) == st["alive"][s] or st["phase"] == "over"
