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


def first_outcome(spec):
    if spec["kind"] == "dice":
        return [lo for lo, _ in spec["dice"]]
    if spec["kind"] == "draw":
        return list(range(spec["count"]))
    return list(range(spec["size"]))


def drive(s, until, choose=None, limit=3000):
    """Step a game: chance takes the first outcome, seats the first legal action unless
    ``choose(state, seat)`` returns one. Stops (and returns) when ``until(state)`` holds."""
    for _ in range(limit):
        if until(s):
            return s
        tm = E.to_move(s)
        if not tm:
            return s
        if tm == [CHANCE]:
            s = E.apply(s, {"kind": "chance", "outcome": first_outcome(E.chance(s))})
            continue
        seat = tm[0]
        a = (choose(s, seat) if choose else None) or E.legal_actions(s, seat)[0]
        s = E.apply(s, {"kind": "action", "seat": seat, "action": a})
    raise AssertionError("condition never reached")


def front(s):
    return s["queue"][0]["step"] if s["queue"] else None
