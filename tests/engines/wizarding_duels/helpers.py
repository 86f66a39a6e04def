"""Shared helpers for the Wizarding Duels tests: seeded playouts driven through the engine."""

import json
import random

from engines.base import CHANCE
from engines.chance import draw as chance_draw
from engines.wizarding_duels.engine import WizardingDuelsEngine

E = WizardingDuelsEngine()


def playout(seed, bots=("random", "random"), config=None, visit=None, limit=20000):
    """Play one game; ``visit(before, event, after)`` sees every step. Returns the final state."""
    rng = random.Random(seed)
    s = E.setup(config or {}, 2)
    for _ in range(limit):
        tm = E.to_move(s)
        if not tm:
            return s
        if tm == [CHANCE]:
            ev = {"kind": "chance", "outcome": chance_draw(E.chance(s), lambda n: rng.randrange(n))}
        else:
            seat = tm[int(rng.random() * len(tm))]
            ev = {"kind": "action", "seat": seat, "action": E.bot_action(bots[seat], s, seat, rng)}
        after = E.apply(s, ev)
        if visit:
            visit(s, ev, after)
        s = after
    raise AssertionError("the game did not end")


def roundtrip(value):
    return json.loads(json.dumps(value))
