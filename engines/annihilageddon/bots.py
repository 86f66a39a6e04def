"""Bots: "heuristic" (buys by a value curve, kills when it can, defends) and "random".

The heuristic bot plays every card in hand (Wild Magic for Power), buys the best thing it can
afford (a Legend, its Familiar, then the Line-Up card with the highest value, Wild Magic only
with Power to spare), always defends when it can, aims Attacks at the foe it can kill (else
the foe with the fewest HP), keeps good cards and throws away Fizzles and Limp Wands first.
"""

from __future__ import annotations

from .cards import CARDS

JUNK = {"limp-wand": 0, "fizzle": 1, "glyph": 2, "wand": 3}


def card_value(cid: str) -> float:
    """How much the bot wants a card: cost first, VP as a tie-break, junk lowest."""
    if cid in JUNK:
        return JUNK[cid]
    c = CARDS[cid]
    vp = c.get("vp", 0)
    vp = vp if type(vp) is int else 1
    return 4 + (c.get("cost") or 0) + 0.5 * vp


def heuristic_action(engine, state, seat, rng):
    actions = engine.legal_actions(state, seat)
    pr = state["prompt"]
    if pr is not None:
        return _answer(engine, state, seat, pr, actions)
    plays = [a for a in actions if a["type"] == "play"]
    if plays:
        # play the best card first (Power cards early, junk too: it is free)
        return max(plays, key=lambda a: card_value(a["card"]))
    buys = [a for a in actions if a["type"] == "buy"]
    if buys:

        def value(a):
            if a["from"] == "legend":
                return 100
            if a["from"] == "familiar":
                return 60
            if a["from"] == "wild_magic":
                return 5
            return card_value(state["lineup"][a["slot"]]) + 10

        best = max(buys, key=value)
        if best["from"] != "wild_magic" or state["turn"]["power"] >= 3:
            return best
    return {"type": "end_turn"}


def _answer(engine, state, seat, pr, actions):
    values = [a["value"] for a in actions]
    kind = pr["kind"]
    pick = values[0]
    if kind == "defend":
        defs = [v for v in values if v != "take"]
        # a redirecting Familiar first, then any Defense
        defs.sort(key=lambda c: (not CARDS[c].get("defense", {}).get("redirect"), c))
        pick = defs[0] if defs else "take"
    elif kind == "target":
        hp = {s: state["players"][s]["hp"] for s in values}
        if pr.get("why") == "target_player":
            foes = [s for s in values if s != seat]
            if foes:
                values = foes
        pick = min(values, key=lambda s: (hp[s], s))
    elif kind == "option":
        pick = 0
        if len(values) > 1 and pr.get("card") == "wild-magic":
            pick = 0  # +2 Power is the reliable choice
    elif kind == "yesno":
        pick = "yes"
    elif kind == "decline":
        pick = "decline"
    elif kind == "setup":
        pick = values[0]
    elif kind == "slot":
        real = [v for v in values if v != "none"]
        if pr.get("why") == "destroy":
            # destroy the Line-Up card a foe would like most
            pick = max(real, key=lambda i: card_value(state["lineup"][i]))
        else:
            pick = max(real, key=lambda i: card_value(state["lineup"][i]))
    elif kind == "card":
        real = [v for v in values if v != "none"]

        def name(v):
            return v.split(":", 1)[-1]

        if pr.get("why") == "destroy":
            junk = [v for v in real if name(v) in ("limp-wand", "fizzle")]
            pick = junk[0] if junk else ("none" if "none" in values else min(real, key=lambda v: card_value(name(v))))
        elif pr.get("why") == "return":
            pick = max(real, key=lambda v: card_value(name(v)))
        else:
            pick = min(real, key=lambda v: card_value(name(v))) if real else values[0]
    elif kind == "token":
        # keep the better token for yourself, give a foe the worse one
        worst = min(values, key=lambda t: (CARDS[t].get("vp", -3), t))
        pick = (
            worst if pr.get("why") in ("fatality", "give") else max(values, key=lambda t: (CARDS[t].get("vp", -3), t))
        )
        if pr.get("why") == "return":
            pick = worst
    elif kind == "trigger":
        pick = values[0]
    return {"type": actions[0]["type"], "value": pick}  # "defend" in a version-2 defense window
