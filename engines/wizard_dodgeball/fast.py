"""Fast paths of a fold (``apply_in_place``) for the commonest actions (issue 17, P1).

Each is called only once the general path's opening checks would pass (the turn's own seat
acting, no choice or roll pending, the game not over; ``WizardDodgeballEngine.apply_in_place``)
and mirrors what ``_apply_action`` does for its action type from there on, in fewer calls: an
event spent more of its cost getting through the layers of the general path than in the rules.

A fast path returns True when it has applied the action. The casts, the rolls and the
teleport's square may also decline (False) *before they write anything*: the general path then
applies the action, or refuses it with its own error. The move, the drop, the pick-up and the end
of a turn fall back on the rules' own functions, which refuse an illegal action exactly as the
general path would.

The casts at one wizard and at several keep their own copies of ``check_cast``'s tests, fused
with the pass over the effects: one shared check cost the fold about 1% (2.96x to 3.04x of
json.loads in the benchmark), more than the margin under the goal.

``tests/engines/wizard_dodgeball/test_fold_fast_paths.py`` holds every fast path to the general
path (the copying ``apply``) along random and heuristic playouts, with illegal actions too.
"""

from __future__ import annotations

from typing import Any

from . import rules, spells
from .dice import COLOURS
from .state import (
    _FACE_BIT,
    BUTTER_FINGERS,
    ENLARGE,
    FREEZE,
    SHRINK,
    STICKY_FINGERS,
    Budgets,
    State,
    allowance_with,
    ball,
    ball_square,
    clear_line,
    controller,
    effects_changed,
    stats,
)


def move(state: State, ix: Budgets, turn: dict, action: dict) -> bool:
    """``_apply_action`` for a move: ``rules.do_move``, then settle (a move writes no effect, and
    do_move refuses a frozen wizard, so the mover is not frozen). A legal move along free
    straight paths (most moves, with or without a pick-up) is checked and made here in one pass:
    do_move's checks, and its quick tests of straight paths (``_straight_path_free``,
    ``_straight_pickup_free``) as the court's tables walked against the index. Any other move,
    legal or not, goes to do_move, before anything is written."""
    to = action.get("to")
    if type(to) is list and len(to) == 2 and turn["actions"] > 0:
        gx, gy = to
        w = ix.by_j[turn["wizard"]]
        x0, y0 = w["sq"]
        j = w["j"]
        pick = action.get("pick_up")
        if type(gx) is int and type(gy) is int and (gx != x0 or gy != y0):
            bits = ix.bits.get(j, 0)  # face_bits
            c = ix.court
            lo, hi = c.half_rows[w["side"]]
            if not bits & FREEZE and 1 <= gx <= c.width and lo <= gy <= hi and lo <= y0 <= hi:
                allowance = allowance_with(j, bits) if bits & (SHRINK | ENLARGE) else ix.moves[j]
                occ = ix.occ
                if pick is None:
                    if -allowance <= gx - x0 <= allowance and -allowance <= gy - y0 <= allowance:
                        for path in c.straight_offsets[(gx - x0, gy - y0)]:
                            for ox, oy in path:
                                if (x0 + ox, y0 + oy) in occ:
                                    break
                            else:
                                break  # a free straight path
                        else:
                            # do_move's search, when the goal is free; a goal it does not reach
                            # goes to do_move, which refuses it
                            if (gx, gy) in occ or not _reaches(c, occ, (x0, y0), (gx, gy), allowance, lo, hi):
                                rules.do_move(state, action)
                                rules.settle(state, None, False)
                                return True
                        turn["actions"] -= 1
                        occ[(gx, gy)] = occ.pop((x0, y0))
                        w["sq"] = [gx, gy]
                        if ix.active and turn["actions"] > 0:
                            return True  # settle: the mover's turn goes on
                        rules.settle(state, None, False)
                        return True
                elif type(pick) is int and w["ball"] is None and not bits & BUTTER_FINGERS:
                    b = balls[pick - 1] if 0 < pick <= len(balls := state["balls"]) else None  # ball(), inline
                    if b is None or b["id"] != pick:
                        b = ball(state, pick)
                    if b is not None and b["sq"] is not None:
                        bsq = (b["sq"][0], b["sq"][1])
                        if _pickup_legs_free(c, occ, (x0, y0), bsq, (gx, gy), allowance, lo, hi):
                            del occ[bsq]
                            b["sq"] = None
                            b["holder"] = j
                            w["ball"] = b["id"]
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


def _reaches(c, occ: dict, start: tuple, goal: tuple, allowance: int, lo: int, hi: int) -> bool:
    """``goal in rules.reachable(state, jersey, blocked, goal)`` (do_move's search when no
    straight path is free) from a fold's index: the same king steps through squares not in
    ``occ`` and in rows lo..hi, pruned alike to squares from which the goal is still within the
    steps left, as a yes or no. A square is looked at once: one the pruning turns away at a step
    is turned away at every later one (fewer steps are left), so it is marked seen at once.
    The goal, in those rows and within ``allowance`` of the start, is not in ``occ``."""
    gx, gy = goal
    seen = set(occ)
    seen.add(start)
    frontier = [start]
    neighbours = c._neighbours  # Court.neighbours, without the call
    for left in range(allowance - 1, -1, -1):  # the steps left after this one
        nxt = []
        for s in frontier:
            for n in neighbours[s]:
                if n in seen:
                    continue
                seen.add(n)
                nx, ny = n
                if not lo <= ny <= hi or not (-left <= gx - nx <= left and -left <= gy - ny <= left):
                    continue
                if nx == gx and ny == gy:
                    return True
                nxt.append(n)
        if not nxt:
            return False
        frontier = nxt
    return False


def _pickup_legs_free(c, occ: dict, start: tuple, bsq: tuple, to: tuple, allowance: int, lo: int, hi: int) -> bool:
    """``rules._straight_pickup_free`` from a fold's index: the same legs in the same order, each
    leg's straight paths taken from ``Court.straight_offsets`` (diagonally first, then along the
    line first) and asked of ``occ``, the ball's square free on the second leg. The wizard and
    the goal stand in rows lo..hi, so a leg from one to a square of those rows stays in them."""
    sx, sy = start
    gx, gy = to
    offsets = c.straight_offsets
    for mx, my in c._neighbours[bsq]:  # Court.neighbours, without the call
        dx, dy = mx - sx, my - sy
        first = dx if dx >= 0 else -dx
        if dy > first or -dy > first:
            first = dy if dy >= 0 else -dy
        dx2, dy2 = gx - mx, gy - my
        second = dx2 if dx2 >= 0 else -dx2
        if dy2 > second or -dy2 > second:
            second = dy2 if dy2 >= 0 else -dy2
        if first + second > allowance:
            continue
        if dx or dy:
            if not lo <= my <= hi:
                continue
            for path in offsets[(dx, dy)]:
                for ox, oy in path:
                    if (sx + ox, sy + oy) in occ:
                        break
                else:
                    break  # a free first leg
            else:
                continue
        for path in offsets[(dx2, dy2)]:
            for ox, oy in path:
                q = (mx + ox, my + oy)
                if q in occ and q != bsq:
                    break
            else:
                return True
    return False


def end_turn(state: State, ix: Budgets, turn: dict, action: dict) -> bool:
    """``_apply_action`` for an ended turn: ``rules.end_turn``, then settle with its answer,
    whose commonest outcome is seen here: the next wizard, not frozen, has actions to take."""
    frozen = rules.end_turn(state)
    # end_turn answers False only after begin_turn: the game goes on, a wizard on the court to move
    if frozen is False and ix.active and state["turn"]["actions"] > 0:
        return True
    rules.settle(state, None, frozen)
    return True


def pick_up(state: State, ix: Budgets, turn: dict, action: dict) -> bool:
    """``_apply_action`` for a pick-up: ``rules.do_pick_up``, then settle with its answer. A legal
    pick-up is checked and made here (do_pick_up's checks and writes, its effects read in the
    same pass); anything else goes to do_pick_up, which refuses it as the general path does."""
    bid = action.get("ball")
    w = ix.by_j[turn["wizard"]]
    if type(bid) is int and w["ball"] is None:
        b = balls[bid - 1] if 0 < bid <= len(balls := state["balls"]) else None  # ball(), inline
        if b is None or b["id"] != bid:
            b = ball(state, bid)
        if b is not None and b["sq"] is not None:
            bx, by = b["sq"]
            x, y = w["sq"]
            if -1 <= bx - x <= 1 and -1 <= by - y <= 1 and (bx != x or by != y):
                j = w["j"]
                bits = ix.bits.get(j, 0)  # face_bits
                if not bits & BUTTER_FINGERS:
                    del ix.occ[(bx, by)]
                    b["sq"] = None
                    b["holder"] = j
                    w["ball"] = b["id"]
                    goes_on = (turn["actions"] > 0 and not bits & FREEZE) or not bits & STICKY_FINGERS
                    if goes_on and ix.active:
                        return True  # settle: the wizard's turn goes on
                    rules.settle(state, goes_on, None)
                    return True
    rules.settle(state, rules.do_pick_up(state, action), None)
    return True


def drop(state: State, ix: Budgets, turn: dict, action: dict) -> bool:
    """``_apply_action`` for a drop: ``rules.do_drop``, then settle with its answer. A legal drop
    is checked and made here (do_drop's checks and writes, its effects read in the same pass);
    anything else goes to do_drop, which refuses it as the general path does."""
    to = action.get("to")
    w = ix.by_j[turn["wizard"]]
    bid = w["ball"]
    if type(to) is list and len(to) == 2 and bid is not None:
        tx, ty = to
        x, y = w["sq"]
        c = ix.court
        occ = ix.occ
        if (
            type(tx) is int
            and type(ty) is int
            and -1 <= tx - x <= 1
            and -1 <= ty - y <= 1
            and (tx != x or ty != y)
            and 1 <= tx <= c.width  # a neighbour is on the court (Court.neighbours)
            and 1 <= ty <= c.length
            and (tx, ty) not in occ
        ):
            j = w["j"]
            bits = ix.bits.get(j, 0)  # face_bits
            if not bits & STICKY_FINGERS:
                b = balls[bid - 1] if 0 < bid <= len(balls := state["balls"]) else None  # ball(), inline
                if b is None or b["id"] != bid:
                    b = ball(state, bid)
                occ[(tx, ty)] = ("b", b["id"])
                b["sq"] = [tx, ty]
                b["holder"] = None
                w["ball"] = None
                goes_on = (turn["actions"] > 0 and not bits & FREEZE) or not bits & BUTTER_FINGERS
                if goes_on and ix.active:
                    return True  # settle: the wizard's turn goes on
                rules.settle(state, goes_on, None)
                return True
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
        return type(targets) is list and len(targets) > 1 and cast_at_wizards(state, ix, turn, action, targets)
    ref = targets[0]
    if type(ref) is not dict or len(ref) != 1:
        return False
    tj = ref.get("wizard")
    face_id = action.get("spell")
    if face_id == "dispel":
        return dispel_one_effect(state, ix, turn, ref)
    if face_id == "teleport" and tj is None:
        return teleport_one_ball(state, ix, turn, ref)
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
    c = ix.court
    here = caster["sq"]
    hx, hy = here
    if hy in c.neutral_rows:
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
    if (tx != hx or ty != hy) and not _in_range_and_sight(c, ix, hx, hy, tx, ty, boost, drain):
        return False
    resisted = t["side"] != side
    if not resisted and face_id == "butter_fingers" and t["ball"] is not None:
        return False
    _open_cast(state, ix, turn, face_id, card_id, jersey, side, [{"wizard": tj}], [tj if resisted else None])
    if resisted:
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
    if bit := _FACE_BIT.get(face_id):  # effects_changed, for the one effect added
        ix.bits[tj] = ix.bits.get(tj, 0) | bit
    if tj == jersey:
        if face_id == "speed":
            turn["actions"] += 1
        elif face_id == "slow":
            turn["actions"] = max(0, turn["actions"] - 1)
    state["cast"] = None
    rules.settle(state, None, face_id == "freeze" and tj == jersey)
    return True


def cast_at_wizards(state: State, ix: Budgets, turn: dict, action: dict, targets: list) -> bool:
    """A legal cast at several wizards, checked and applied in one pass: mirrors ``spells.do_cast``
    (``check_cast``: ``caster_reads``, the area's size, ``_Targetable.square`` of each target,
    distinct squares, one connected group; then ``resister_of``), the version 1 reset of quiet
    turns, ``_run_auto_steps`` (``spells.apply_cast`` itself, when nobody resists) and
    ``settle``. Declines, before any write, every other cast: the general path applies or
    refuses it. Held to the general path by test_fold_fast_paths.py, as ``cast_at_one_wizard``."""
    face_id = action.get("spell")
    if type(face_id) is not str or turn["actions"] <= 0:
        return False
    face = (spells._FACES or spells.faces()).get(face_id)
    if face is None or (face["targets"] != "wizard" and face["targets"] != "wizard_or_ball"):
        return False
    by_j = ix.by_j
    tjs = []
    for ref in targets:
        if type(ref) is not dict or len(ref) != 1 or type(tj := ref.get("wizard")) is not int:
            return False
        t = by_j.get(tj)
        if t is None or t["out"] or tj in tjs:  # one wizard twice: one square twice
            return False
        tjs.append(tj)
    jersey = turn["wizard"]
    caster = by_j[jersey]
    side = caster["side"]
    card_id = face["card"]
    card = state["cards"][side].get(card_id)
    if card is None or not card["charged"]:
        return False
    c = ix.court
    hx, hy = caster["sq"]
    if hy in c.neutral_rows:
        return False
    # caster_reads and each target's own test, in one pass over the effects
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
        if w in tjs:
            f = e["face"]
            if f == face_id:
                return False  # a wizard bears at most one marker of a spell
            if f == "shield" and by_j[w]["side"] == side:
                return False  # shielded: cannot be buffed by teammates
        if e["card"] == card_id and e["side"] == side:
            in_use += 1
    size = stats(jersey)["magic"]
    if face["marker"]:
        size = min(size, spells.MARKERS_PER_SPELL - in_use)
    if len(tjs) > size:
        return False
    chosen = []
    for tj in tjs:
        tx, ty = by_j[tj]["sq"]
        if (tx != hx or ty != hy) and not _in_range_and_sight(c, ix, hx, hy, tx, ty, boost, drain):
            return False
        chosen.append((tx, ty))
    if not spells._connected(chosen):
        return False
    resisters = [tj if by_j[tj]["side"] != side else None for tj in tjs]
    _open_cast(state, ix, turn, face_id, card_id, jersey, side, [{"wizard": tj} for tj in tjs], resisters)
    if resisters.count(None) == len(resisters):
        spells.apply_cast(state)  # _run_auto_steps: the queue was empty, the game not over
        rules.settle(state, None, None)
    elif not ix.active:
        rules.settle(state)  # with a roll pending, settle only activates balls
    return True


def dispel_one_effect(state: State, ix: Budgets, turn: dict, ref: dict) -> bool:
    """A legal Dispel at one effect (a cast's one target ``ref``), checked and applied in one
    pass: mirrors ``spells.do_cast`` (``check_cast`` with ``caster_reads`` and
    ``_Targetable.square`` for an effect, then ``resister_of``), the version 1 reset of quiet
    turns, ``_run_auto_steps`` (``apply_cast``: the effect removed) and ``settle``. Declines,
    before any write, anything else, which the general path applies or refuses. Held to the
    general path by test_fold_fast_paths.py, as ``cast_at_one_wizard`` is."""
    eid = ref.get("effect")
    face = (spells._FACES or spells.faces()).get("dispel")
    if type(eid) is not int or face is None or face["targets"] != "effect" or turn["actions"] <= 0:
        return False
    jersey = turn["wizard"]
    caster = ix.by_j[jersey]
    side = caster["side"]
    card_id = face["card"]
    card = state["cards"][side].get(card_id)
    if card is None or not card["charged"]:
        return False
    c = ix.court
    hx, hy = caster["sq"]
    if hy in c.neutral_rows:
        return False
    # caster_reads and _effect, in one pass over the effects
    boost = drain = False
    target = None
    for e in state["effects"]:
        if e["wizard"] == jersey:
            f = e["face"]
            if f == "freeze":
                return False
            if f == "magic_boost":
                boost = True
            elif f == "magic_drain":
                drain = True
        if target is None and e["id"] == eid:
            target = e
    if target is None:
        return False
    # _ref_square of what bears the effect
    if target["wizard"] is not None:
        w = ix.by_j.get(target["wizard"])
        if w is None or w["out"]:
            return False
        tx, ty = w["sq"]
    else:
        b = ball(state, target["ball"])
        where = None if b is None else ball_square(state, b)
        if where is None:
            return False
        tx, ty = where
    if (tx != hx or ty != hy) and not _in_range_and_sight(c, ix, hx, hy, tx, ty, boost, drain):
        return False  # the caster sees itself (_Targetable.visible)
    resisted = target["side"] != side
    _open_cast(
        state, ix, turn, "dispel", card_id, jersey, side, [{"effect": eid}], [target["caster"] if resisted else None]
    )
    if resisted:
        if not ix.active:
            rules.settle(state)  # with a roll pending, settle only activates balls
        return True
    # apply_cast, at once (_run_auto_steps): the queue was empty, and stays without a teleport
    state["effects"] = [e for e in state["effects"] if e["id"] != eid]
    effects_changed(state)
    state["cast"] = None
    rules.settle(state)
    return True


def teleport_one_ball(state: State, ix: Budgets, turn: dict, ref: dict) -> bool:
    """A legal Teleport at one ball (a cast's one target ``ref``), checked and applied in one
    pass: mirrors ``spells.do_cast`` (``check_cast`` with ``caster_reads`` and
    ``_Targetable.square`` for a ball, then ``resister_of``: an opponent holding it resists), the
    version 1 reset of quiet turns, ``_run_auto_steps`` (``apply_cast``: the choice of the
    ball's square queued) and ``settle``. Declines, before any write, anything else, which the
    general path applies or refuses. Held to the general path by test_fold_fast_paths.py."""
    bid = ref.get("ball")
    face = (spells._FACES or spells.faces()).get("teleport")
    if type(bid) is not int or face is None or face["targets"] != "wizard_or_ball" or turn["actions"] <= 0:
        return False
    jersey = turn["wizard"]
    caster = ix.by_j[jersey]
    side = caster["side"]
    card_id = face["card"]
    card = state["cards"][side].get(card_id)
    if card is None or not card["charged"]:
        return False
    c = ix.court
    hx, hy = caster["sq"]
    if hy in c.neutral_rows:
        return False
    # caster_reads, in one pass over the effects
    boost = drain = False
    in_use = 0
    for e in state["effects"]:
        if e["wizard"] == jersey:
            f = e["face"]
            if f == "freeze":
                return False
            if f == "magic_boost":
                boost = True
            elif f == "magic_drain":
                drain = True
        if e["card"] == card_id and e["side"] == side:
            in_use += 1
    if face["marker"] and in_use >= spells.MARKERS_PER_SPELL:
        return False  # no marker left: an area of no square (MAGIC is at least 1)
    b = ball(state, bid)
    where = None if b is None else ball_square(state, b)
    if where is None:
        return False
    tx, ty = where
    if (tx != hx or ty != hy) and not _in_range_and_sight(c, ix, hx, hy, tx, ty, boost, drain):
        return False  # the caster sees itself (_Targetable.visible)
    holder = None if b["holder"] is None else ix.by_j[b["holder"]]
    resisted = holder is not None and holder["side"] != side
    _open_cast(state, ix, turn, "teleport", card_id, jersey, side, [{"ball": bid}], [holder["j"] if resisted else None])
    if not resisted:
        # apply_cast, at once (_run_auto_steps): the ball's new square is the caster's choice
        state["queue"][0:0] = [{"step": "teleport", "ref": {"ball": bid}}]
    if not ix.active:
        rules.settle(state)  # with a roll or a choice pending, settle only activates balls
    return True


def _in_range_and_sight(c, ix: Budgets, hx: int, hy: int, tx: int, ty: int, boost: bool, drain: bool) -> bool:
    """``check_cast``'s test of a target on square (tx, ty) other than the caster's own (hx, hy):
    not in the neutral zone, within the caster's spell range (``spell_range``, from the Magic
    Boost and Magic Drain that ``caster_reads`` found) and in its line of sight, asked of the
    fold's index (``clear_line``)."""
    if ty in c.neutral_rows:
        return False
    rng = c.length + (4 if boost else 0) - (4 if drain else 0)
    if not (-rng <= tx - hx <= rng and -rng <= ty - hy <= rng):
        return False
    return clear_line(c, ix.occ, (hx, hy), (tx, ty))


def _open_cast(
    state: State,
    ix: Budgets,
    turn: dict,
    face_id: str,
    card_id: str,
    jersey: int,
    side: int,
    refs: list[dict],
    resisters: list,
) -> None:
    """``spells.do_cast``'s writes for a legal cast at the targets ``refs``: the action and the
    card spent (``spend_card``, and the index's ``spent``), the rolls cleared, the cast opened
    with ``resisters`` (``resister_of`` of each target) and, when one resists, the CAST roll, a
    RESIST roll for each resisting target and the cast's application queued; then the version 1
    reset of quiet turns (the magic moved: play is alive). The caller applies a cast nobody
    resists at once (``_run_auto_steps``)."""
    turn["actions"] -= 1
    state["cards"][side][card_id] = {"charged": False, "caster": jersey, "turn": turn["n"]}
    ix.spent[jersey].append(card_id)
    state["rolls"] = []
    if len(resisters) == 1:  # most casts: one target
        steps = None
        if resisters[0] is None:
            outcomes = ["auto"]
        else:
            outcomes = ["pending"]
            steps = [{"step": "cast_roll"}, {"step": "resist", "i": 0, "rebound": False}, {"step": "cast_apply"}]
    else:
        outcomes = ["auto" if r is None else "pending" for r in resisters]
        steps = [{"step": "resist", "i": i, "rebound": False} for i, r in enumerate(resisters) if r is not None]
        if steps:
            steps = [{"step": "cast_roll"}, *steps, {"step": "cast_apply"}]
    state["cast"] = {
        "face": face_id,
        "card": card_id,
        "caster": jersey,
        "side": side,
        "targets": refs,
        "resisters": resisters,
        "score": None,
        "outcomes": outcomes,
        "rebound": False,
    }
    if steps:
        state["queue"][0:0] = steps
    if "quiet_turns" in state:
        state["quiet_turns"] = 0


def teleport_to(state: State, seat: Any, action: Any) -> bool:
    """``_apply_action`` for the choice of a teleported target's square (the game not over, a
    teleport step first in the queue): its opening checks (a seat of the game, an action with a
    type, the choice's seat, the type it expects) seen to pass at once, then
    ``spells.choose_teleport``, which refuses a bad square as the general path does,
    ``finish_teleports``, ``_run_auto_steps`` and settle. Declines, before any write, a seat or
    an action those checks would look at further: the general path refuses it."""
    if type(seat) is not int or type(action) is not dict or action.get("type") != "teleport_to":
        return False
    if seat != controller(state, state["cast"]["caster"]):  # _choice_seat; a seat of the game
        return False
    step = state["queue"].pop(0)
    spells.choose_teleport(state, step, action)
    spells.finish_teleports(state)
    queue = state["queue"]
    if queue and queue[0]["step"] == "cast_apply":
        while state["winner"] is None and state["queue"] and state["queue"][0]["step"] == "cast_apply":
            state["queue"].pop(0)
            spells.apply_cast(state)
    rules.settle(state, None, None)
    return True


def chance(state: State, ix: Budgets, outcome: Any) -> bool:
    """``_apply_chance`` for a CAST or a RESIST roll (most rolls, with a roll due and the game
    not over): the dice asked of the cast directly (``_chance_colours``), the outcome checked
    against them, then ``spells.resolve_cast_roll`` or ``spells.resolve_resist``, the cast's
    automatic steps (``_run_auto_steps``) and settle. Declines, before any write, any other roll
    and an outcome the dice refuse: the general path refuses it with its own error."""
    step = state["queue"][0]
    kind = step["step"]
    if kind == "resist":
        cast = state["cast"]
        colours = stats(cast["caster"] if step["rebound"] else cast["resisters"][step["i"]])["resist"]
    elif kind == "cast_roll":
        colours = stats(state["cast"]["caster"])["cast"]
    else:
        return False
    if type(outcome) is not list or len(outcome) != len(colours):
        return False
    for colour, value in zip(colours, outcome):
        lo, hi = COLOURS[colour]
        if type(value) is not int or not lo <= value <= hi:
            return False
    state["queue"].pop(0)
    if kind == "resist":
        spells.resolve_resist(state, step, outcome)
    else:
        spells.resolve_cast_roll(state, outcome)
    queue = state["queue"]
    if queue and queue[0]["step"] == "cast_apply":
        while state["winner"] is None and state["queue"] and state["queue"][0]["step"] == "cast_apply":
            state["queue"].pop(0)
            spells.apply_cast(state)
    elif queue and ix.active:
        return True  # settle: with a roll or a choice pending, it would only activate balls
    rules.settle(state)
    return True


#: action type -> its fast path, for ``apply_in_place``.
FAST_PATHS: dict[Any, Any] = {
    "move": move,
    "end_turn": end_turn,
    "pick_up": pick_up,
    "drop": drop,
    "cast": cast_at_one_wizard,
}
