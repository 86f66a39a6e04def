"""Fast paths of a fold (``apply_in_place``) for the commonest actions (issue 17, P1).

Each is called only once the general path's opening checks would pass (the turn's own seat
acting, no choice or roll pending, the game not over; ``WizardDodgeballEngine.apply_in_place``)
and mirrors what ``_apply_action`` does for its action type from there on, in fewer calls: an
event spent more of its cost getting through the layers of the general path than in the rules.

A fast path returns True when it has applied the action. ``cast_at_one_wizard`` may also
decline (False) *before it writes anything*: the general path then applies the action, or
refuses it with its own error. The others call the rules' own functions, which refuse an illegal
action exactly as the general path would.

``tests/engines/wizard_dodgeball/test_fold_fast_paths.py`` holds every fast path to the general
path (the copying ``apply``) along random and heuristic playouts, with illegal actions too.
"""

from __future__ import annotations

from typing import Any

from . import rules, spells
from .state import _FACE_BIT, FREEZE, Budgets, State, allowance_with, clear_line, court_of


def move(state: State, ix: Budgets, turn: dict, action: dict) -> bool:
    """``_apply_action`` for a move: ``rules.do_move``, then settle (a move writes no effect, and
    do_move refuses a frozen wizard, so the mover is not frozen). A plain move along a free
    straight path (most moves) is checked and made here in one pass: do_move's checks in the
    same order and ``_straight_path_free``'s walk of the court's table against the index. Any
    other move, legal or not, goes to do_move."""
    to = action.get("to")
    if type(to) is list and len(to) == 2 and action.get("pick_up") is None and turn["actions"] > 0:
        gx, gy = to
        w = ix.by_j[turn["wizard"]]
        x0, y0 = w["sq"]
        j = w["j"]
        if type(gx) is int and type(gy) is int and (gx != x0 or gy != y0):
            bits = 0  # face_bits
            for e in state["effects"]:
                if e["wizard"] == j:
                    bits |= _FACE_BIT.get(e["face"], 0)
            c = court_of(state)
            lo, hi = c.half_rows[w["side"]]
            if not bits & FREEZE and 1 <= gx <= c.width and lo <= gy <= hi and lo <= y0 <= hi:
                allowance = allowance_with(j, bits)
                if -allowance <= gx - x0 <= allowance and -allowance <= gy - y0 <= allowance:
                    occ = ix.occ
                    for path in c.straight_offsets[(gx - x0, gy - y0)]:
                        for ox, oy in path:
                            if (x0 + ox, y0 + oy) in occ:
                                break
                        else:
                            turn["actions"] -= 1
                            occ[(gx, gy)] = occ.pop((x0, y0))
                            w["sq"] = [gx, gy]
                            if ix.active and turn["actions"] > 0:
                                return True  # settle: the mover's turn goes on
                            rules.settle(state, None, False)
                            return True
    rules.do_move(state, action)
    rules.settle(state, None, False)
    return True


def end_turn(state: State, ix: Budgets, turn: dict, action: dict) -> bool:
    """``_apply_action`` for an ended turn: ``rules.end_turn``, then settle with its answer."""
    rules.settle(state, None, rules.end_turn(state))
    return True


def pick_up(state: State, ix: Budgets, turn: dict, action: dict) -> bool:
    """``_apply_action`` for a pick-up: ``rules.do_pick_up``, then settle with its answer."""
    rules.settle(state, rules.do_pick_up(state, action), None)
    return True


def drop(state: State, ix: Budgets, turn: dict, action: dict) -> bool:
    """``_apply_action`` for a drop: ``rules.do_drop``, then settle with its answer."""
    rules.settle(state, rules.do_drop(state, action), None)
    return True


def cast_at_one_wizard(state: State, ix: Budgets, turn: dict, action: dict) -> bool:
    """A legal cast at one wizard (most casts), checked and applied in one pass: mirrors
    ``spells.do_cast`` (``check_cast`` with ``caster_reads`` and ``_Targetable.square``, then
    ``resister_of``), the version 1 reset of quiet turns, ``_run_auto_steps`` (``apply_cast`` and
    ``_apply_to_wizard``) and ``settle``. Declines, before any write, every other cast: an
    illegal one, one at a ball, an effect or several targets, and Butter Fingers on a teammate
    holding a ball (its ball is placed by a choice)."""
    targets = action.get("targets")
    if type(targets) is not list or len(targets) != 1:
        return False
    ref = targets[0]
    if type(ref) is not dict or len(ref) != 1:
        return False
    tj = ref.get("wizard")
    face_id = action.get("spell")
    if type(tj) is not int or type(face_id) is not str:
        return False
    face = (spells._FACES or spells.faces()).get(face_id)
    if face is None or (face["targets"] != "wizard" and face["targets"] != "wizard_or_ball"):
        return False
    by_j = ix.by_j
    t = by_j.get(tj)
    if t is None or t["out"] or turn["actions"] <= 0:
        return False
    jersey = turn["wizard"]
    caster = by_j[jersey]
    side = caster["side"]
    card_id = face["card"]
    card = state["cards"][side].get(card_id)
    if card is None or not card["charged"]:
        return False
    c = court_of(state)
    here = caster["sq"]
    hx, hy = here
    neutral = c.neutral_rows
    if hy in neutral:
        return False
    # caster_reads and the target's own test, in one pass over the effects
    boost = drain = False
    in_use = 0
    for e in state["effects"]:
        w = e["wizard"]
        if w == jersey:
            f = e["face"]
            if f == "freeze":
                return False
            if f == "magic_boost":
                boost = True
            elif f == "magic_drain":
                drain = True
        if w == tj:
            f = e["face"]
            if f == face_id:
                return False  # a wizard bears at most one marker of a spell
            if f == "shield" and t["side"] == side:
                return False  # shielded: cannot be buffed by teammates
        if e["card"] == card_id and e["side"] == side:
            in_use += 1
    if face["marker"] and in_use >= spells.MARKERS_PER_SPELL:
        return False  # no marker left: an area of no square (MAGIC is at least 1)
    tx, ty = t["sq"]
    if tx != hx or ty != hy:  # the caster sees itself
        if ty in neutral:
            return False
        rng = c.length + (4 if boost else 0) - (4 if drain else 0)
        if not (-rng <= tx - hx <= rng and -rng <= ty - hy <= rng):
            return False
        if not clear_line(c, ix.occ, (hx, hy), (tx, ty)):
            return False
    resisted = t["side"] != side
    if not resisted and face_id == "butter_fingers" and t["ball"] is not None:
        return False
    # do_cast
    turn["actions"] -= 1
    state["cards"][side][card_id] = {"charged": False, "caster": jersey, "turn": turn["n"]}
    state["rolls"] = []
    cast = {
        "face": face_id,
        "card": card_id,
        "caster": jersey,
        "side": side,
        "targets": [{"wizard": tj}],
        "resisters": [tj if resisted else None],
        "score": None,
        "outcomes": ["pending" if resisted else "auto"],
        "rebound": False,
    }
    state["cast"] = cast
    if "quiet_turns" in state:
        state["quiet_turns"] = 0  # version 1: the magic moved: play is alive
    if resisted:
        state["queue"][0:0] = [
            {"step": "cast_roll"},
            {"step": "resist", "i": 0, "rebound": False},
            {"step": "cast_apply"},
        ]
        if not ix.active:
            rules.settle(state)  # with a roll pending, settle only activates balls
        return True
    # apply_cast, at once (_run_auto_steps): the queue was empty
    if face_id == "teleport":
        state["queue"][0:0] = [{"step": "teleport", "ref": {"wizard": tj}}]
        if not ix.active:
            rules.settle(state)  # with a choice pending, settle only activates balls
        return True
    eid = state["next_effect"]
    state["next_effect"] = eid + 1
    state["effects"].append(
        {"id": eid, "face": face_id, "card": card_id, "side": side, "caster": jersey, "wizard": tj, "ball": None}
    )
    if tj == jersey:
        if face_id == "speed":
            turn["actions"] += 1
        elif face_id == "slow":
            turn["actions"] = max(0, turn["actions"] - 1)
    state["cast"] = None
    rules.settle(state, None, face_id == "freeze" and tj == jersey)
    return True


#: action type -> its fast path, for ``apply_in_place``.
FAST_PATHS: dict[Any, Any] = {
    "move": move,
    "end_turn": end_turn,
    "pick_up": pick_up,
    "drop": drop,
    "cast": cast_at_one_wizard,
}
