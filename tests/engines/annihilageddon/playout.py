"""Whole games played by bots, with server-style chance outcomes."""

import random

from engines.base import CHANCE
from engines.chance import derive

from .helpers import E


def playout(seed, seats, bots, config=None, on_event=None, max_events=60000):
    """Play to the end; ``on_event(before, event, after)`` after each event. Returns (state, n)."""
    rng = random.Random(seed)
    st = E.setup(config or {}, seats)
    for n in range(max_events):
        moving = E.to_move(st)
        if not moving:
            return st, n
        if moving == [CHANCE]:
            event = {"kind": "chance", "outcome": derive(E.chance(st), b"seed", str(seed), n)}
        else:
            seat = moving[0]
            event = {"kind": "action", "seat": seat, "action": E.bot_action(bots[seat], st, seat, rng)}
        after = E.apply(st, event)
        if on_event:
            on_event(st, event, after)
        st = after
    raise AssertionError(f"no end after {max_events} events")
