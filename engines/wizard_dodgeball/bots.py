"""Bots: the uniform random bot is the base class's ``random_action``; this is the heuristic one.

The heuristic plays a plain, sound game: grab a ball, carry it behind the attack line to make
it active, step up within range, Freeze a dangerous target when it can, and throw when the
exact odds of a hit (dice distributions, catches on doubles included) beat the risk of being
caught; when every loose ball lies beyond the Neutral Area (a side that keeps the balls at home),
it Teleports one back. It never enumerates the whole action space, so it is cheap enough for long
test runs.
``rng`` only needs ``random()`` and is used to break ties.
"""

from __future__ import annotations

from functools import cache
from itertools import product

from engines.base import CHANCE, IllegalAction

from . import rules, spells
from .dice import COLOURS, distribution
from .state import (
    State,
    attack_colours,
    ball_on_fire,
    court_of,
    dodge_colours,
    effect_faces,
    occupancy,
    wizard,
    wizard_squares,
)


@cache
def _dodge_table(colours: tuple[str, ...], n_coloured: int, holding: bool, catchable: bool, sticky: bool):
    """For a dodge roll: list of (probability, total, caught, auto_dodge)."""
    out: dict[tuple[int, bool, bool], float] = {}
    ranges = [range(COLOURS[c][0], COLOURS[c][1] + 1) for c in colours]
    p = 1.0 / (6 ** len(colours))
    for faces in product(*ranges):
        total = sum(faces)
        doubles = n_coloured == 2 and faces[0] == faces[1]
        auto = holding and n_coloured == 2 and faces[0] == faces[1] == faces[2]
        caught = (not holding) and catchable and (doubles or (sticky and total in rules.CATCH_TOTALS_STICKY))
        key = (total, caught, auto)
        out[key] = out.get(key, 0.0) + p
    return tuple((prob, t, c, a) for (t, c, a), prob in sorted(out.items()))


def throw_odds(state: State, attacker: int, target: int, zones: int) -> tuple[float, float]:
    """(probability the target is hit, probability the ball is caught)."""
    a = wizard(state, attacker)
    fire = a["ball"] is not None and ball_on_fire(state, a["ball"])
    if fire:
        attack_dist = {10: 1.0}
    else:
        attack_dist = distribution(tuple(attack_colours(state, attacker, zones)))
    tfaces = effect_faces(state, target)
    if "freeze" in tfaces:
        hit = sum(p for total, p in attack_dist.items() if total > rules.FROZEN_DODGE)
        return hit, 0.0
    colours, n_col, holding = dodge_colours(state, target)
    catchable = not fire and "shield" not in tfaces and "butter_fingers" not in tfaces
    table = _dodge_table(tuple(colours), n_col, holding, catchable, "sticky_fingers" in tfaces)
    hit = caught = 0.0
    for p, total, c, auto in table:
        if c:
            caught += p
            continue
        if auto:
            continue
        hit += p * sum(pa for atk, pa in attack_dist.items() if atk > total)
    if "shield" in tfaces:
        hit *= 0.35  # a hit only spends the shield
    return hit, caught


def _sq(w) -> tuple[int, int]:
    return (w["sq"][0], w["sq"][1])


def _forward(side: int) -> int:
    return 1 if side == 0 else -1


def heuristic_action(engine, state: State, seat: int, rng) -> dict:
    """``engine`` is the Wizard Dodgeball engine (of the match's version) asking for the move."""
    movers = engine.to_move(state)
    if seat not in movers or movers == [CHANCE]:
        raise IllegalAction("This seat has nothing to decide now.", code="not_your_turn")
    if state["queue"]:
        return _choose(engine, state, seat, rng)
    action = _turn_action(state, rng)
    try:
        engine.validate(state, seat, action)
    except IllegalAction:
        return {"type": "end_turn"}
    return action


def _choose(engine, state: State, seat: int, rng) -> dict:
    step = state["queue"][0]
    options = engine.legal_actions(state, seat)
    kind = step["step"]
    c = court_of(state)
    if kind == "dodge_move":
        side = wizard(state, step["wizard"])["side"]
        opp = [_sq(w) for w in state["wizards"] if not w["out"] and w["side"] != side]

        def exposure(a):
            s = tuple(a["to"])
            seen = sum(1 for o in opp if rules.has_line_of_sight(state, s, o))
            return (seen, -abs(s[1] - (c.length + 1) / 2), rng.random())

        return min(options, key=exposure)
    if kind == "place_ball":
        side = wizard(state, step["wizard"])["side"]
        # keep the ball on our side of the court, away from the other team
        return max(options, key=lambda a: (-_forward(side) * a["to"][1], rng.random()))
    if kind == "return":
        return max(options, key=lambda a: (-abs(a["to"][0] - 5), _forward(step["side"]) * a["to"][1], rng.random()))
    if kind == "teleport":
        cast = state["cast"]
        side = cast["side"]
        ref = step["ref"]
        if "ball" in ref:
            # our ball goes behind our attack line next to a teammate with empty hands
            mates = [_sq(w) for w in state["wizards"] if not w["out"] and w["side"] == side and w["ball"] is None]

            def score(a):
                s = tuple(a["to"])
                near = min((max(abs(s[0] - m[0]), abs(s[1] - m[1])) for m in mates), default=9)
                return (0 if c.is_behind_attack_line(s) and c.in_half(side, s) else 1, near, rng.random())

            return min(options, key=score)
        return options[int(rng.random() * len(options))]
    return options[int(rng.random() * len(options))]


def _turn_action(state: State, rng) -> dict:
    turn = state["turn"]
    me = wizard(state, turn["wizard"])
    side = me["side"]
    here = _sq(me)
    c = court_of(state)
    faces = effect_faces(state, me["j"])
    occ = occupancy(state)
    frozen = "freeze" in faces
    acts = turn["actions"]
    opponents = [w for w in state["wizards"] if not w["out"] and w["side"] != side]
    squares = wizard_squares(state)
    loose = [b for b in state["balls"] if b["sq"] is not None]

    # free: pick up an adjacent ball (active first)
    if me["ball"] is None and "butter_fingers" not in faces:
        adj = [b for b in loose if max(abs(b["sq"][0] - here[0]), abs(b["sq"][1] - here[1])) == 1]
        if adj:
            adj.sort(key=lambda b: (not b["active"], b["id"]))
            return {"type": "pick_up", "ball": adj[0]["id"]}
    if acts <= 0 or frozen:
        return {"type": "end_turn"}

    holding = me["ball"] is not None
    ball = next((b for b in state["balls"] if b["id"] == me["ball"]), None) if holding else None
    can_release = "sticky_fingers" not in faces

    # throw when the odds are good
    if holding and ball["active"] and can_release:
        best = _best_throw(state, me, opponents, squares, 0.12 if acts > 1 else 0.0)
        if best is not None:
            if acts > 1 and "freeze" not in effect_faces(state, best["j"]):
                freeze = _freeze_cast(state, me, best)
                if freeze is not None:
                    return freeze
            return {"type": "throw", "target": best["j"]}

    blocked = set(occ)
    reach = rules.reachable(state, me["j"], blocked)
    back_row = c.spec["zones"][0 if side == 0 else 3]["rows"]
    line_row = back_row[1] if side == 0 else back_row[0]  # the back-zone row touching the attack line

    if holding and not ball["active"]:
        goal = (here[0], line_row)
        return _move_toward(state, reach, goal, rng, prefer=lambda s: c.is_behind_attack_line(s))
    if holding and ball["active"] and can_release:
        # step up to where good targets are visible
        def value(s):
            best = 0.0
            for o in opponents:
                osq = _sq(o)
                if rules.has_line_of_sight(state, s, osq, [q for q in squares if q != here] + [s]):
                    zones = c.zone_distance(side, s, o["side"], osq)
                    hit, caught = throw_odds(state, me["j"], o["j"], zones)
                    best = max(best, hit - 1.3 * caught)
            return best

        # step to where the best throw is; with nothing worth throwing from anywhere in reach,
        # advance towards the Neutral Area (so two cautious bots never stall)
        mid = (c.length + 1) // 2

        def score(s):
            return value(s) + 0.004 * (c.length - abs(s[1] - mid))

        here_score = score(here)
        options = {s: score(s) + 0.0001 * rng.random() for s in reach}
        if options:
            s = max(options, key=lambda s: options[s])
            if options[s] > here_score + 0.003:
                return {"type": "move", "to": [s[0], s[1]]}
        target = _best_throw(state, me, opponents, squares, 0.0)
        if target is not None:
            return {"type": "throw", "target": target["j"]}
        return {"type": "end_turn"}
    if not holding and loose and not any(c.in_half(side, tuple(b["sq"])) for b in loose):
        # every loose ball lies beyond the Neutral Area, out of our wizards' reach: Teleport one
        # back (a side that keeps the balls at home is otherwise never reached)
        fetch = _teleport_ball_home(state, me, loose)
        if fetch is not None:
            return fetch
        card = state["cards"][side].get("teleport")
        if card is not None and card["charged"] and c.is_neutral(here) and acts > 0 and not frozen:
            # nobody casts from the Neutral Area: step back out of it first
            back = [q for q in rules.reachable(state, me["j"], set(occ)) if not c.is_neutral(q)]
            if back:
                q = min(back, key=lambda q: (abs(q[1] - here[1]), abs(q[0] - here[0]), rng.random()))
                return {"type": "move", "to": [q[0], q[1]]}
    if not holding and "butter_fingers" not in faces and loose:
        # go and get the nearest loose ball, picking it up on the way when possible
        loose.sort(key=lambda b: (max(abs(b["sq"][0] - here[0]), abs(b["sq"][1] - here[1])), not b["active"], b["id"]))
        for b in loose[:3]:
            dests = rules.reachable_with_pickup(state, me["j"], b["id"], blocked, reach)
            if dests:
                goal = (here[0], line_row) if not b["active"] else (here[0], here[1] + _forward(side))
                s = min(dests, key=lambda s: (max(abs(s[0] - goal[0]), abs(s[1] - goal[1])), rng.random()))
                return {"type": "move", "to": [s[0], s[1]], "pick_up": b["id"]}
        target = tuple(loose[0]["sq"])
        reachable_balls = [s for s in reach]
        if reachable_balls:
            return _move_toward(state, reach, target, rng)
    return {"type": "end_turn"}


def _best_throw(state: State, me: dict, opponents: list, squares, threshold: float):
    c = court_of(state)
    here = _sq(me)
    best, best_val = None, threshold
    for o in opponents:
        osq = _sq(o)
        if not rules.has_line_of_sight(state, here, osq, squares):
            continue
        zones = c.zone_distance(me["side"], here, o["side"], osq)
        hit, caught = throw_odds(state, me["j"], o["j"], zones)
        val = hit - 1.3 * caught
        if val > best_val:
            best, best_val = o, val
    return best


def _teleport_ball_home(state: State, me: dict, loose: list) -> dict | None:
    card = state["cards"][me["side"]].get("teleport")
    if card is None or not card["charged"] or court_of(state).is_neutral(_sq(me)):
        return None
    for b in sorted(loose, key=lambda b: (not b["active"], b["id"])):
        action = {"type": "cast", "spell": "teleport", "targets": [{"ball": b["id"]}]}
        try:
            spells.check_cast(state, me, action)
        except IllegalAction:
            continue
        return action
    return None


def _freeze_cast(state: State, me: dict, target: dict) -> dict | None:
    card = state["cards"][me["side"]].get("freeze")
    if card is None or not card["charged"]:
        return None
    if court_of(state).is_neutral(_sq(me)):
        return None
    action = {"type": "cast", "spell": "freeze", "targets": [{"wizard": target["j"]}]}
    try:
        spells.check_cast(state, me, action)
    except IllegalAction:
        return None
    return action


def _move_toward(state: State, reach: dict, goal: tuple[int, int], rng, prefer=None) -> dict:
    if not reach:
        return {"type": "end_turn"}

    def key(s):
        pref = 0 if prefer is None or prefer(s) else 1
        return (pref, max(abs(s[0] - goal[0]), abs(s[1] - goal[1])), rng.random())

    s = min(reach, key=key)
    return {"type": "move", "to": [s[0], s[1]]}
