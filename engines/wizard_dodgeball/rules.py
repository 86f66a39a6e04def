"""The rules proper: turns, movement, balls, throws, passes, elimination and winning.

Functions here work on a state that the caller has already copied (see state.copy_state) and
change it in place; the Engine class wraps them so that ``apply`` never mutates its input.
Spells live in spells.py. Every refusal raises IllegalAction with a stable code.
"""

from __future__ import annotations

from typing import Any

from engines.base import IllegalAction

from . import dice
from .geometry import line_of_sight, straight_walk
from .state import (
    _FACE_BIT,
    BUTTER_FINGERS,
    FREEZE,
    SLOW,
    SPEED,
    STICKY_FINGERS,
    Budgets,
    State,
    allowance_with,
    attack_colours,
    ball,
    ball_on_fire,
    clear_line,
    court_of,
    dodge_colours,
    effect_faces,
    effects_changed,
    face_bits,
    has_effect,
    move_allowance,
    occupancy,
    reindex,
    stats,
    wizard,
    wizard_squares,
)

Square = tuple[int, int]
CATCH_TOTALS_STICKY = (3, 6, 9, 12)
FROZEN_DODGE = 5


def sq(value: Any, what: str = "square") -> Square:
    """A [column, row] from an action, checked for shape."""
    if type(value) is list and len(value) == 2:  # as an action's JSON gives it: the test below, shorter
        x, y = value
        if type(x) is int and type(y) is int:
            return (x, y)
    elif isinstance(value, (list, tuple)) and len(value) == 2 and type(value[0]) is int and type(value[1]) is int:
        return (value[0], value[1])
    raise IllegalAction(f"The {what} must be given as [column, row].", code="bad_square")


def name(jersey: int) -> str:
    return f"#{jersey} {stats(jersey)['name']}"


# ---------------------------------------------------------------------------
# turns


def begin_turn(state: State, side: int, ix: Budgets | None = None, n: int | None = None) -> bool | None:
    """Activate the side's next wizard in line-up order (left to right), skipping the eliminated.
    Returns whether that wizard is frozen, which settle asks next (None: nobody was activated).
    end_turn hands over what it has read already: ``n`` the number of the turn it ended, and
    ``ix`` a fold's index (None: looked for here), so neither is read again (issue 17, P1)."""
    if ix is not None or type(ix := state["budgets"]) is Budgets:
        lineup = ix.lineups[side]  # a fold's index (issue 17, P1)
        bits_of = ix.bits
    else:
        bits_of = None
        wizards = state["wizards"]
        # setup lists the first side's five wizards, then the second's, and nothing reorders them: the
        # side's line-up is its five, taken as a slice once its ends are seen to be the side's (issue 17, P1).
        lineup = wizards[5 * side : 5 * side + 5]
        if len(wizards) != 10 or lineup[0]["side"] != side or lineup[4]["side"] != side:
            lineup = [w for w in wizards if w["side"] == side]
    start = state["next_slot"][side] % len(lineup)
    chosen = lineup[start]  # mostly on the court: the round below only when it is not (issue 17, P1)
    if chosen["out"]:
        chosen = None
        for w in lineup[start:] + lineup[:start]:  # from the next slot round, without a range and modulo per slot
            if not w["out"]:
                chosen = w
                break
        if chosen is None:  # cannot happen: the game ends when a side has nobody left
            return None
    jersey = chosen["j"]
    # face_bits (a fold's index, or inline): Speed and Slow here, Freeze for settle (issue 17, P1)
    if bits_of is not None:
        bits = bits_of.get(jersey, 0)
    else:
        bits = 0
        for e in state["effects"]:
            if e["wizard"] == jersey:
                bits |= _FACE_BIT.get(e["face"], 0)
    actions = 2
    if bits:  # most wizards bear none of the faces asked about
        actions += (1 if bits & SPEED else 0) - (1 if bits & SLOW else 0)  # 1 to 3, never below 0
    if state["team_control"] == "turns":
        seats = state["sides"][side]
        seat = seats[state["turns_taken"][side] % len(seats)]
    else:
        seat = state["controllers"][side][chosen["slot"]]
    if n is None:
        n = state["turn"]["n"] if state["turn"] is not None else 0
    state["turn"] = {"n": n + 1, "side": side, "wizard": jersey, "actions": actions, "seat": seat}
    return bool(bits & FREEZE)


#: ``state["winner"]`` when a stalled game ends level (version 1 only).
DRAW = -1
#: ``state["winner"]`` when a version 2 game reaches its bound on turns (RULES.md "Unfinished games").
UNFINISHED = -2


def is_version_1(state: State) -> bool:
    """Version 1 states carry the stalling count; version 2 states carry the bound on turns."""
    return "stall_turns" in state


def end_turn(state: State) -> bool | None:
    """Returns begin_turn's answer for the next turn's wizard, None when no turn began."""
    turn = state["turn"]
    side, jersey, n = turn["side"], turn["wizard"], turn["n"]
    # Spell cards recharge at the end of the casting wizard's next turn; their effects end with them.
    if type(ix := state["budgets"]) is Budgets:
        # A fold's index lists the wizard's spent cards: its side's other cards are not looked at
        # (issue 17, P1). recharge takes a card off the list, so a copy of it is walked.
        spent = ix.spent[jersey]
        if spent:
            cards = state["cards"][side]
            for card_id in spent[:]:
                if cards[card_id]["turn"] < n:
                    recharge(state, side, card_id)
        w = ix.by_j[jersey]
    else:
        ix = None
        for card_id, card in state["cards"][side].items():
            # The caster first: it rules out a charged card too (its caster is None; issue 17, P1).
            if card["caster"] == jersey and not card["charged"] and card["turn"] < n:
                recharge(state, side, card_id)
        w = wizard(state, jersey)
    state["next_slot"][side] = (w["slot"] + 1) % 5
    state["turns_taken"][side] += 1
    state["last_seat"][side] = turn["seat"]
    if "stall_turns" in state:  # is_version_1, inline: every turn ends here
        state["quiet_turns"] += 1
        if state["stall_turns"] and state["quiet_turns"] >= state["stall_turns"]:
            end_stalled_game(state)
            return None
    elif state["turn_limit"] is not None and n >= state["turn_limit"]:
        end_unfinished_game(state)
        return None
    return begin_turn(state, 1 - side, ix, n)


def end_unfinished_game(state: State) -> None:
    """RULES.md "Unfinished games": the bound on turns is reached with both sides still on the
    court. Nobody wins: the book's only ending is the last side with wizards on the court."""
    state["winner"] = UNFINISHED
    state["reason"] = (
        f"The game reached its limit of {state['turn_limit']} turns with both teams still on the court: "
        "it ends unfinished, with no winner."
    )
    state["queue"] = []
    state["cast"] = None


def end_stalled_game(state: State) -> None:
    """Version 1 (RULES.md "Version history"): with no throw, pass or cast for ``stall_turns`` turns, the side
    with more wizards on the court wins; level numbers are a draw."""
    left = [sum(1 for w in state["wizards"] if w["side"] == s and not w["out"]) for s in (0, 1)]
    state["winner"] = 0 if left[0] > left[1] else 1 if left[1] > left[0] else DRAW
    state["reason"] = f"No throw, pass or cast for {state['quiet_turns']} turns: " + (
        "a draw with equal wizards on the court."
        if state["winner"] == DRAW
        else f"the {'first' if state['winner'] == 0 else 'second'} team has more wizards on the court."
    )
    state["queue"] = []
    state["cast"] = None


#: The spell cards none of whose faces leaves an effect (apply_cast: a Teleport queues choices,
#: a Dispel takes an effect away): a recharge of one has no effect to end, and skips looking for
#: one (issue 17, P1). test_fold_index holds the effects of playouts to it.
LEAVES_NO_EFFECT = frozenset({"teleport", "dispel"})

#: The spell cards none of whose faces is one of ``face_bits``' (``state._FACE_BIT``): their
#: effects ending leaves every wizard's bits as they were, so a recharge of one does not read the
#: bits afresh (issue 17, P1). test_fold_index holds it to the faces' data.
NO_FACE_BITS = frozenset({"fireball", "shield", "strong_weak", "drain_boost"})


def recharge(state: State, side: int, card_id: str) -> None:
    cards = state["cards"][side]
    if type(ix := state["budgets"]) is Budgets and (caster := cards[card_id]["caster"]) is not None:
        ix.spent[caster].remove(card_id)
    cards[card_id] = {"charged": True, "caster": None, "turn": None}
    if card_id in LEAVES_NO_EFFECT:
        return
    effects = state["effects"]
    state["effects"] = kept = [e for e in effects if not (e["side"] == side and e["card"] == card_id)]
    # a spent card's effects may be gone already (dispelled, eliminated)
    if len(kept) != len(effects) and card_id not in NO_FACE_BITS:
        effects_changed(state)


def free_action_available(state: State, w: dict) -> bool:
    """Whether a wizard out of actions (or frozen) may still drop its ball on a free neighbouring
    square or pick up a loose ball next to it. settle asks this after most events, so it looks
    only at the neighbouring squares instead of building the court's occupancy (issue 17, P1)."""
    # Every wizard and loose ball stands on the court, so "a neighbour" is "one king step away".
    x, y = w["sq"]
    j = w["j"]
    if type(ix := state["budgets"]) is Budgets:
        # A fold's index: the faces from its bits, _stands_on a look at its occupancy (issue 17, P1).
        bits = ix.bits.get(j, 0)
        if w["ball"] is not None:
            if bits & STICKY_FINGERS:
                return False
            occ = ix.occ
            for n in ix.court._neighbours[(x, y)]:  # Court.neighbours, without the call
                if n not in occ:
                    return True
            return False
        if bits & BUTTER_FINGERS:
            return False
    elif w["ball"] is not None:
        for e in state["effects"]:  # has_effect, inline (issue 17, P1)
            if e["wizard"] == j and e["face"] == "sticky_fingers":
                return False
        # The neighbouring squares in turn until one has nothing on it: mostly the first one is
        # free, and one look at it costs less than counting everything near the wizard did.
        for n in court_of(state).neighbours((x, y)):
            if not _stands_on(state, n):
                return True
        return False
    else:
        for e in state["effects"]:  # has_effect, inline
            if e["wizard"] == j and e["face"] == "butter_fingers":
                return False
    # A loose ball on a neighbouring square (the occupancy let a ball's square read as the ball's).
    for b in state["balls"]:
        s = b["sq"]
        if s is not None and -1 <= s[1] - y <= 1 and -1 <= s[0] - x <= 1 and (s[0] != x or s[1] != y):
            return True
    return False


def settle(state: State, goes_on: bool | None = None, frozen: bool | None = None) -> None:
    """After every event: activate balls behind an attack line, end finished turns, detect the winner.

    What the event just applied tells about the turn's wizard, so the first look at it need not
    find it out again (issue 17, P1): ``goes_on`` is do_pick_up's or do_drop's answer, whether
    the wizard's turn goes on; ``frozen`` whether the wizard is frozen (False after a move;
    end_turn's answer for the wizard whose turn it began). A turn ended here hands its own answer
    to the next look."""
    ix = state["budgets"]
    by_j = ix.by_j if type(ix) is Budgets else None
    if by_j is None or not ix.active:
        back_rows = None
        idle = False
        for b in state["balls"]:
            if not b["active"]:
                # ball_square and is_behind_attack_line, inline: this runs after every event.
                where = b["sq"]
                if where is None and b["holder"] is not None:
                    where = wizard(state, b["holder"])["sq"]
                if where is not None:
                    if back_rows is None:
                        back_rows = court_of(state).back_rows
                    if where[1] in back_rows:
                        b["active"] = True
                        continue
                idle = True
        if not idle and by_j is not None:
            # Nothing makes a ball inactive again: a fold stops looking once all are active
            # (in a random game about 5% of the way in).
            ix.active = True
    if state["winner"] is not None or state["queue"] or state["turn"] is None:
        return
    # Each pass looks at the turn's wizard and returns, or ends that turn and looks again. The
    # bookkeeping is done after a turn ends, not before every look: most events end no turn.
    passes = 64  # turns ended at most; bounded for safety
    while True:
        turn = state["turn"]
        jersey = turn["wizard"]
        w = wizard(state, jersey) if by_j is None else by_j[jersey]
        if not w["out"]:
            if goes_on is not None:
                if goes_on:
                    return
            else:
                if turn["actions"] > 0:
                    if frozen is False:
                        return
                    if frozen is None:
                        if by_j is not None:
                            if not ix.bits.get(jersey, 0) & FREEZE:
                                return  # not stuck (has_effect, from a fold's index)
                        else:
                            for e in state["effects"]:
                                if e["wizard"] == jersey and e["face"] == "freeze":
                                    break
                            else:
                                return  # not stuck (has_effect, inline)
                if free_action_available(state, w):
                    return
        frozen = end_turn(state)
        goes_on = None
        passes -= 1
        if not passes:
            return
        if state["winner"] is not None and "stall_turns" not in state:
            # The turn just ended finished the game (the bound on turns): nothing more to end.
            # Version 1 went on ending the finished turn ("123 turns"); it replays as recorded.
            return


def check_winner(state: State) -> bool:
    for side in (0, 1):
        if not any(not w["out"] for w in state["wizards"] if w["side"] == side):
            state["winner"] = 1 - side
            state["reason"] = f"{'First' if side == 0 else 'Second'} team has no wizards left on the court."
            state["queue"] = []
            state["cast"] = None
            return True
    return False


def eliminate(state: State, jersey: int) -> None:
    """Take a wizard off the court; its effects end and its spent cards recharge (RULES.md)."""
    w = wizard(state, jersey)
    w["out"] = True
    w["sq"] = None
    reindex(state)
    w["ball"] = None
    state["effects"] = [e for e in state["effects"] if e["wizard"] != jersey]
    effects_changed(state)
    for card_id, card in state["cards"][w["side"]].items():
        if not card["charged"] and card["caster"] == jersey:
            recharge(state, w["side"], card_id)


# ---------------------------------------------------------------------------
# movement and free ball handling


def _blocked(state: State) -> set[Square]:
    """The squares of ``occupancy(state)``, built without its (kind, id) values: every move
    asks for them (issue 17, P1). Only ever asked for membership."""
    if type(ix := state["budgets"]) is Budgets:
        return set(ix.occ)
    out = {tuple(w["sq"]) for w in state["wizards"] if not w["out"]}  # squares are [column, row]
    out.update([tuple(b["sq"]) for b in state["balls"] if b["sq"] is not None])
    return out


def reachable(
    state: State, jersey: int, blocked: set[Square] | None = None, goal: Square | None = None
) -> dict[Square, int]:
    """Squares the wizard can reach with one move action -> steps needed (start excluded).
    With ``goal`` (a move's validation) the search keeps only squares from which the goal is
    still within the steps left, and stops once it is reached: ask ``goal in`` the answer.

    A move is a path of up to MOVE king steps through empty squares of the wizard's own half
    (the Neutral Area included, never beyond it)."""
    c = court_of(state)
    w = wizard(state, jersey)
    side = w["side"]
    start = (w["sq"][0], w["sq"][1])
    if blocked is None:
        blocked = _blocked(state)
    allowance = move_allowance(state, jersey)
    lo, hi = c.half_rows[side]
    dist = {start: 0}
    # King distances below are compared as chains: max(abs(), abs()) costs three calls a square.
    if goal is not None:
        gx, gy = goal
        if not (-allowance <= gx - start[0] <= allowance and -allowance <= gy - start[1] <= allowance):
            return {}
    frontier = [start]
    for step in range(1, allowance + 1):
        nxt = []
        left = allowance - step
        for s in frontier:
            for n in c._neighbours[s]:  # Court.neighbours, without the call
                if n in dist or n in blocked or not (lo <= n[1] <= hi):
                    continue
                if goal is not None and not (-left <= gx - n[0] <= left and -left <= gy - n[1] <= left):
                    continue  # too far from the goal to reach it with the steps left
                dist[n] = step
                nxt.append(n)
        frontier = nxt
        if not frontier or (goal is not None and goal in dist):
            break
    del dist[start]
    return dist


def reachable_with_pickup(
    state: State, jersey: int, ball_id: int, blocked: set[Square] | None = None, base: dict[Square, int] | None = None
) -> dict[Square, int]:
    """Destinations of a move during which the wizard picks up loose ball ``ball_id`` from a
    square adjacent to its path (the ball's square is free for the rest of the path)."""
    c = court_of(state)
    w = wizard(state, jersey)
    side = w["side"]
    start = (w["sq"][0], w["sq"][1])
    b = ball(state, ball_id)
    bsq = (b["sq"][0], b["sq"][1])
    if blocked is None:
        blocked = _blocked(state)
    allowance = move_allowance(state, jersey)
    if base is None:
        base = reachable(state, jersey, blocked)
    lo, hi = c.half_rows[side]
    # seeds: squares on a path (start included) from which the ball is adjacent
    seeds: dict[Square, int] = {}
    for s in c.neighbours(bsq):
        d = 0 if s == start else base.get(s)
        if d is not None and d <= allowance:
            seeds[s] = d
    if not seeds:
        return {}
    after = blocked - {bsq}
    dist = dict(seeds)
    buckets: list[list[Square]] = [[] for _ in range(allowance + 1)]
    for s, d in seeds.items():
        buckets[d].append(s)
    for d in range(allowance + 1):
        for s in buckets[d]:
            if dist[s] != d or d == allowance:
                continue
            for n in c.neighbours(s):
                if n in after or not (lo <= n[1] <= hi):
                    continue
                if n not in dist or dist[n] > d + 1:
                    dist[n] = d + 1
                    buckets[d + 1].append(n)
    dist.pop(start, None)
    return dist


def require_turn_wizard(state: State) -> dict:
    if type(ix := state["budgets"]) is Budgets:
        return ix.by_j[state["turn"]["wizard"]]  # a fold's index (state.Budgets): no search
    return wizard(state, state["turn"]["wizard"])


def spend_action(state: State) -> None:
    if state["turn"]["actions"] <= 0:
        raise IllegalAction("This wizard has no actions left this turn.", code="no_actions_left")
    state["turn"]["actions"] -= 1


def not_frozen(state: State, w: dict, verb: str) -> None:
    if has_effect(state, w["j"], "freeze"):
        raise IllegalAction(f"{name(w['j'])} is frozen and cannot {verb}.", code="frozen")


def do_move(state: State, action: dict) -> None:
    turn = state["turn"]
    w = ix.by_j[turn["wizard"]] if type(ix := state["budgets"]) is Budgets else wizard(state, turn["wizard"])
    to = sq(action.get("to"))
    pick = action.get("pick_up")
    if turn["actions"] <= 0:
        raise IllegalAction("This wizard has no actions left this turn.", code="no_actions_left")
    # The mover's effects read once, for not_frozen, move_allowance and check_can_pick_up (each
    # was a pass of its own; issue 17, P1).
    j = w["j"]
    bits = face_bits(state, j)
    if bits & FREEZE:
        not_frozen(state, w, "move")  # raises
    c = court_of(state)
    gx, gy = to
    if not (1 <= gx <= c.width and 1 <= gy <= c.length):  # c.in_bounds(to)
        raise IllegalAction("That square is off the court.", code="out_of_bounds")
    lo, hi = c.half_rows[w["side"]]
    if not lo <= gy <= hi:  # c.in_half(w["side"], to), the column already in bounds
        raise IllegalAction("Wizards may move into the Neutral Area but never across it.", code="cross_neutral_area")
    allowance = allowance_with(j, bits)
    if pick is None:
        # The straight path settles most moves; the blocked squares and the search are built
        # only when it does not (issue 17, P1).
        if not _straight_path_free(state, w, to, allowance, lo, hi) and to not in reachable(
            state, j, blocked := _blocked(state), goal=to
        ):
            if to in blocked:
                raise IllegalAction("That square is not empty.", code="square_occupied")
            raise IllegalAction(
                f"{name(j)} cannot reach that square with a move of {allowance}.",
                code="out_of_reach",
            )
    else:
        b = ball(state, pick) if type(pick) is int else None
        if b is None or b["sq"] is None:
            raise IllegalAction("There is no loose ball with that number to pick up.", code="no_such_ball")
        if bits & BUTTER_FINGERS or w["ball"] is not None:
            check_can_pick_up(state, w)  # raises
        blocked = _blocked(state)
        bsq = (b["sq"][0], b["sq"][1])
        if not _straight_pickup_free(state, w, bsq, to, blocked, allowance, lo, hi) and to not in (
            reachable_with_pickup(state, j, pick, blocked)
        ):
            raise IllegalAction(
                "No path of that length passes next to that ball and ends on that square.", code="out_of_reach"
            )
        if type(ix := state["budgets"]) is Budgets:
            del ix.occ[bsq]
        b["sq"] = None
        b["holder"] = j
        w["ball"] = b["id"]
    turn["actions"] -= 1  # spend_action: more than none are left, as checked above
    if type(ix := state["budgets"]) is Budgets:
        occ = ix.occ
        x0, y0 = w["sq"]
        occ[(gx, gy)] = occ.pop((x0, y0))
    w["sq"] = [gx, gy]


def _straight_path(x: int, y: int, gx: int, gy: int, line_first: bool) -> list[list[int]]:
    """The squares after (x, y), as the state writes them ([column, row]), of the path that steps
    straight at (gx, gy) (``geometry.straight_walk``)."""
    return [[x + ox, y + oy] for ox, oy in straight_walk(gx - x, gy - y, line_first)]


def _straight_steps(a: Square, b: Square, blocked: set[Square], lo: int, hi: int, line_first: bool = False) -> bool:
    """Whether every square after ``a`` of the path that steps straight from ``a`` at ``b``
    (``geometry.straight_walk``) is free and in rows lo..hi. Such a path is as long as the king
    distance between its ends."""
    x, y = a
    for ox, oy in straight_walk(b[0] - x, b[1] - y, line_first):
        if (x + ox, y + oy) in blocked or not lo <= y + oy <= hi:
            return False
    return True


def _straight_path_free(state: State, w: dict, to: Square, allowance: int, lo: int, hi: int) -> bool:
    """A quick sufficient test for a plain move to ``to``, a square of rows lo..hi (issue 17, P1):
    one of the two straight paths to the goal (diagonally first, then along the line; or along
    the line first, then diagonally) is within the allowance and free. When it says True,
    ``reachable`` finds the goal too (its search tries every such path); when False, the search
    decides."""
    x0, y0 = w["sq"]
    gx, gy = to
    if gx == x0 and gy == y0:
        return False  # standing still is no move
    if not (-allowance <= gx - x0 <= allowance and -allowance <= gy - y0 <= allowance):
        return False
    # A straight path's rows run monotonically from the start's to the goal's: with both ends in
    # rows lo..hi, so is every square between (the goal was checked by do_move).
    if not lo <= y0 <= hi:
        return False  # never met: a wizard stands in its own half; let the search decide
    if type(ix := state["budgets"]) is Budgets:
        # The index holds every occupied square: the court's table of straight paths walked
        # against it, the rows being lo..hi as said above (test_move_check holds it to the walk below).
        occ = ix.occ
        for path in court_of(state).straight_offsets[(gx - x0, gy - y0)]:
            for ox, oy in path:
                if (x0 + ox, y0 + oy) in occ:
                    break
            else:
                return True
        return False
    for line_first in (False, True):
        if line_first:
            # Another path only when the move is neither straight nor diagonal. About one plain
            # move in eight finds the first path blocked; this spares most of them the search.
            sx, sy = (gx > x0) - (gx < x0), (gy > y0) - (gy < y0)
            if sx == 0 or sy == 0 or (gx - x0) * sx == (gy - y0) * sy:
                return False
        if _nothing_on(state, _straight_path(x0, y0, gx, gy, line_first)):
            return True
    return False


def _nothing_on(state: State, path: list[list[int]]) -> bool:
    """Whether no wizard on the court and no loose ball stands on any square of ``path``."""
    for o in state["wizards"]:
        if o["sq"] in path and not o["out"]:
            return False
    for b in state["balls"]:
        if b["sq"] in path:
            return False
    return True


def _straight_pickup_free(
    state: State, w: dict, bsq: Square, to: Square, blocked: set[Square], allowance: int, lo: int, hi: int
) -> bool:
    """The same quick test for a move that picks up the ball on ``bsq``: straight to a square next
    to the ball (or from where the wizard stands), then straight on to the goal with the ball's
    square free, within the allowance. True means ``reachable_with_pickup`` has the goal too."""
    start = (w["sq"][0], w["sq"][1])
    if to == start:
        return False
    after = blocked - {bsq}
    for s in court_of(state).neighbours(bsq):
        # A free straight path is as long as the king distance between its ends, so a square
        # too far out by those distances can be passed over without walking either path (the
        # distances worked out without abs and max: this runs for every square around the ball).
        dx, dy = s[0] - start[0], s[1] - start[1]
        first = dx if dx >= 0 else -dx
        if dy > first or -dy > first:
            first = dy if dy >= 0 else -dy
        dx, dy = to[0] - s[0], to[1] - s[1]
        second = dx if dx >= 0 else -dx
        if dy > second or -dy > second:
            second = dy if dy >= 0 else -dy
        if first + second > allowance:
            continue
        # Each leg diagonally first, and when that is blocked, along the line first. A free leg
        # is as long as the distance above, so the two are within the allowance.
        if s != start and not (
            _straight_steps(start, s, blocked, lo, hi) or _straight_steps(start, s, blocked, lo, hi, True)
        ):
            continue
        if _straight_steps(s, to, after, lo, hi) or _straight_steps(s, to, after, lo, hi, True):
            return True
    return False


def check_can_pick_up(state: State, w: dict) -> None:
    if w["ball"] is not None:
        raise IllegalAction("A wizard can carry only one ball (the other hand holds a wand).", code="hands_full")
    if has_effect(state, w["j"], "butter_fingers"):
        raise IllegalAction(f"{name(w['j'])} has Butter Fingers and cannot pick up a ball.", code="butter_fingers")


def do_pick_up(state: State, action: dict) -> bool:
    """Returns whether the wizard's turn goes on, for settle: with an action left and not frozen,
    or with the free action of dropping the ball again left. The ball lay on a neighbouring
    square, which it has left free to drop it on (nothing else stands on a loose ball's square),
    so only Sticky Fingers takes that away."""
    w = require_turn_wizard(state)
    bid = action.get("ball")
    b = ball(state, bid) if type(bid) is int else None
    if b is None:
        raise IllegalAction("There is no ball with that number.", code="no_such_ball")
    bits = face_bits(state, w["j"])
    if bits & BUTTER_FINGERS or w["ball"] is not None:
        check_can_pick_up(state, w)  # raises
    if b["sq"] is None:
        raise IllegalAction("That ball is already held.", code="ball_not_loose")
    dx, dy = b["sq"][0] - w["sq"][0], b["sq"][1] - w["sq"][1]
    if not (-1 <= dx <= 1 and -1 <= dy <= 1) or dx == dy == 0:  # king distance 1, without abs and max
        raise IllegalAction("A ball can be picked up only from an adjacent square.", code="not_adjacent")
    if type(ix := state["budgets"]) is Budgets:
        del ix.occ[(b["sq"][0], b["sq"][1])]
    b["sq"] = None
    b["holder"] = w["j"]
    w["ball"] = b["id"]
    return (state["turn"]["actions"] > 0 and not bits & FREEZE) or not bits & STICKY_FINGERS


def _stands_on(state: State, square: Square) -> bool:
    """Whether a wizard on the court or a loose ball stands on ``square`` (it is in ``occupancy``)."""
    # Coordinates compared one by one, where comparing the state's [column, row] lists built one;
    # a wizard off the court and a held ball have no square (``sq`` None; issue 17, P1).
    if type(ix := state["budgets"]) is Budgets:
        return square in ix.occ
    x, y = square
    for w in state["wizards"]:
        s = w["sq"]
        if s is not None and s[0] == x and s[1] == y:
            return True
    for b in state["balls"]:
        s = b["sq"]
        if s is not None and s[0] == x and s[1] == y:
            return True
    return False


def empty_neighbours(state: State, around: Square, occ=None) -> list[Square]:
    c = court_of(state)
    if occ is None:
        occ = occupancy(state)
    return [n for n in c.neighbours(around) if n not in occ]


def placement_squares(state: State, around: Square) -> list[Square]:
    """Where a ball set down 'adjacent' to ``around`` may go: the empty adjacent squares, or if
    there are none, the empty squares of the nearest ring that has any (RULES.md)."""
    c = court_of(state)
    occ = occupancy(state)
    # The nearest ring is the neighbours on the court (Court.neighbours, listed in the court's
    # order of squares, row by row, as the scan below lists a ring): mostly one is empty, and
    # reading them is cheaper than scanning the court (issue 17, P1).
    near = c._neighbours.get((around[0], around[1]))
    if near is not None:
        ring = [n for n in near if n not in occ]
        if ring:
            return ring
    for radius in range(1, max(c.width, c.length) + 1):
        ring = [s for s in c.squares if max(abs(s[0] - around[0]), abs(s[1] - around[1])) == radius and s not in occ]
        if ring:
            return ring
    return []


def do_drop(state: State, action: dict) -> bool:
    """Returns whether the wizard's turn goes on, for settle: with an action left and not frozen,
    or with the free action of picking the ball up again left (it lies on a neighbouring square),
    which only Butter Fingers takes away."""
    w = require_turn_wizard(state)
    to = sq(action.get("to"))
    if w["ball"] is None:
        raise IllegalAction(f"{name(w['j'])} is not holding a ball.", code="no_ball")
    bits = face_bits(state, w["j"])
    if bits & STICKY_FINGERS:
        raise IllegalAction(f"{name(w['j'])} has Sticky Fingers and cannot drop the ball.", code="sticky_fingers")
    here = (w["sq"][0], w["sq"][1])
    # empty_neighbours without the court's occupancy: the one square asked about.
    if to not in court_of(state).neighbours(here) or _stands_on(state, to):
        raise IllegalAction("A dropped ball lands on an empty square next to the wizard.", code="bad_drop_square")
    b = ball(state, w["ball"])
    if type(ix := state["budgets"]) is Budgets:
        ix.occ[to] = ("b", b["id"])
    b["sq"] = [to[0], to[1]]
    b["holder"] = None
    w["ball"] = None
    return (state["turn"]["actions"] > 0 and not bits & FREEZE) or not bits & BUTTER_FINGERS


# ---------------------------------------------------------------------------
# throwing and passing


def has_line_of_sight(state: State, a: Square, b: Square, squares=None) -> bool:
    if squares is None:
        if type(ix := state["budgets"]) is Budgets:
            return clear_line(court_of(state), ix.occ, a, b)  # a fold's index (state.Budgets)
        squares = wizard_squares(state)
    return line_of_sight(a, b, squares)  # an end never blocks its own line (line_blocked_by)


def check_can_release(state: State, w: dict, verb: str) -> None:
    if w["ball"] is None:
        raise IllegalAction(f"{name(w['j'])} has no ball to {verb}.", code="no_ball")
    if has_effect(state, w["j"], "freeze"):
        raise IllegalAction(f"{name(w['j'])} is frozen and cannot {verb}.", code="frozen")
    if has_effect(state, w["j"], "sticky_fingers"):
        raise IllegalAction(f"{name(w['j'])} has Sticky Fingers and cannot {verb} the ball.", code="sticky_fingers")


def do_throw(state: State, action: dict) -> None:
    w = require_turn_wizard(state)
    tj = action.get("target")
    t = wizard(state, tj) if type(tj) is int else None
    if t is None or t["out"]:
        raise IllegalAction("The target must be a wizard on the court.", code="no_such_target")
    if t["side"] == w["side"]:
        raise IllegalAction("Balls are thrown at opponents; pass to a teammate instead.", code="not_an_opponent")
    if state["turn"]["actions"] <= 0:
        raise IllegalAction("This wizard has no actions left this turn.", code="no_actions_left")
    check_can_release(state, w, "throw")
    b = ball(state, w["ball"])
    if not b["active"]:
        raise IllegalAction(
            "Only an active ball can be thrown: bring it behind an attack line first.", code="ball_not_active"
        )
    a_sq, t_sq = (w["sq"][0], w["sq"][1]), (t["sq"][0], t["sq"][1])
    if not has_line_of_sight(state, a_sq, t_sq):
        raise IllegalAction(f"{name(t['j'])} is not in line of sight.", code="no_line_of_sight")
    spend_action(state)
    c = court_of(state)
    zones = c.zone_distance(w["side"], a_sq, t["side"], t_sq)
    w["ball"] = None
    b["holder"] = None  # in flight until the throw resolves
    state["rolls"] = []
    ctx = {"attacker": w["j"], "target": t["j"], "ball": b["id"], "zones": zones, "from": [a_sq[0], a_sq[1]]}
    if ball_on_fire(state, b["id"]):
        state["rolls"] = [
            {
                "who": w["j"],
                "kind": "attack",
                "label": f"{name(w['j'])} throws a fireball",
                "dice": [],
                "total": 10,
                "fixed": True,
            }
        ]
        after_attack(state, dict(ctx, attack=10))
    else:
        state["queue"].insert(0, dict(ctx, step="attack"))


def attack_spec(state: State, step: dict) -> dict:
    colours = attack_colours(state, step["attacker"], step["zones"])
    t = step["target"]
    z = step["zones"]
    label = f"{name(step['attacker'])} attacks {name(t)} ({z} zone{'s' if z != 1 else ''}): {'+'.join(colours)}"
    return dice.spec(colours, label)


def dodge_spec(state: State, step: dict) -> dict:
    colours, _, _ = dodge_colours(state, step["target"])
    label = f"{name(step['target'])} dodges {step['attack']}: {'+'.join(colours)}"
    return dice.spec(colours, label)


def resolve_attack_roll(state: State, step: dict, outcome: list[int]) -> None:
    colours = attack_colours(state, step["attacker"], step["zones"])
    total = sum(outcome)
    state["rolls"].append(
        {
            "who": step["attacker"],
            "kind": "attack",
            "label": f"{name(step['attacker'])} attacks",
            "dice": [{"colour": c, "value": v} for c, v in zip(colours, outcome)],
            "total": total,
            "fixed": False,
        }
    )
    ctx = {k: v for k, v in step.items() if k != "step"}
    ctx["attack"] = total
    after_attack(state, ctx)


def after_attack(state: State, ctx: dict) -> None:
    """The attack score is known: a frozen target has a fixed dodge of 5; anyone else rolls."""
    if has_effect(state, ctx["target"], "freeze"):
        state["rolls"].append(
            {
                "who": ctx["target"],
                "kind": "dodge",
                "label": f"{name(ctx['target'])} is frozen",
                "dice": [],
                "total": FROZEN_DODGE,
                "fixed": True,
            }
        )
        resolve_throw(state, ctx, FROZEN_DODGE, dodged_by_dice=False, caught=False, frozen=True)
    else:
        state["queue"].insert(0, dict(ctx, step="dodge"))


def resolve_dodge_roll(state: State, step: dict, outcome: list[int]) -> None:
    t = step["target"]
    colours, n_coloured, holding = dodge_colours(state, t)
    total = sum(outcome)
    faces = effect_faces(state, t)
    doubles = n_coloured == 2 and outcome[0] == outcome[1]
    caught = False
    special = False
    if holding:
        # dodging with a ball: the DODGE dice plus the white for the ball; triples always dodge
        special = n_coloured == 2 and outcome[0] == outcome[1] == outcome[2]
    else:
        catchable = not ball_on_fire(state, step["ball"]) and "shield" not in faces and "butter_fingers" not in faces
        sticky = "sticky_fingers" in faces and total in CATCH_TOTALS_STICKY
        caught = catchable and (doubles or sticky)
    state["rolls"].append(
        {
            "who": t,
            "kind": "dodge",
            "label": f"{name(t)} dodges",
            "dice": [{"colour": c, "value": v} for c, v in zip(colours, outcome)],
            "total": total,
            "fixed": False,
            "doubles": doubles,
            "triples": special,
        }
    )
    ctx = {k: v for k, v in step.items() if k != "step"}
    resolve_throw(state, ctx, total, dodged_by_dice=special, caught=caught, frozen=False)


def _between_square(state: State, target_sq: Square, attacker_sq: Square) -> Square | None:
    """The empty square next to the target nearest the thrower (ties: fixed neighbour order)."""
    options = placement_squares(state, target_sq)
    if not options:
        return None
    return min(
        options,
        key=lambda s: ((s[0] - attacker_sq[0]) ** 2 + (s[1] - attacker_sq[1]) ** 2, s[1], s[0]),
    )


def _end_fireball(state: State, ball_id: int) -> None:
    state["effects"] = [e for e in state["effects"] if not (e["ball"] == ball_id and e["face"] == "fireball")]
    effects_changed(state)


def resolve_throw(state: State, ctx: dict, dodge: int, dodged_by_dice: bool, caught: bool, frozen: bool) -> None:
    attack = ctx["attack"]
    t = wizard(state, ctx["target"])
    a = wizard(state, ctx["attacker"])
    b = ball(state, ctx["ball"])
    origin = (t["sq"][0], t["sq"][1])
    attacker_sq = (ctx["from"][0], ctx["from"][1])
    _end_fireball(state, b["id"])
    # copy_state copies the list of rolls, not the records: the record is replaced, never
    # written through, or the state this event was applied to would change with it.
    last = dict(state["rolls"][-1])
    state["rolls"][-1] = last
    last["against"] = attack
    if caught:
        last["result"] = "caught"
        b["holder"] = t["j"]
        t["ball"] = b["id"]
        eliminate(state, a["j"])
        if check_winner(state):
            return
        if any(w["out"] for w in state["wizards"] if w["side"] == t["side"]):
            state["queue"].insert(0, {"step": "return", "side": t["side"], "catcher": t["j"]})
        return
    if dodge >= attack or dodged_by_dice:
        last["result"] = "dodged"
        if frozen:
            spot = _between_square(state, origin, attacker_sq)
            b["sq"] = [spot[0], spot[1]]
            reindex(state)
            return
        options = [s for s in empty_neighbours(state, origin) if court_of(state).in_half(t["side"], s)]
        if not options:
            spot = _between_square(state, origin, attacker_sq)
            b["sq"] = [spot[0], spot[1]]
            reindex(state)
            last["result"] = "dodged_in_place"
            return
        state["queue"].insert(
            0, {"step": "dodge_move", "wizard": t["j"], "ball": b["id"], "from": [origin[0], origin[1]]}
        )
        return
    if has_effect(state, t["j"], "shield"):
        last["result"] = "shielded"
        state["effects"] = [e for e in state["effects"] if not (e["wizard"] == t["j"] and e["face"] == "shield")]
        effects_changed(state)
        spot = _between_square(state, origin, attacker_sq)
        b["sq"] = [spot[0], spot[1]]
        reindex(state)
        return
    last["result"] = "hit"
    held = t["ball"]
    eliminate(state, t["j"])
    b["sq"] = [origin[0], origin[1]]
    reindex(state)
    if held is not None:
        hb = ball(state, held)
        hb["holder"] = None
        hb["sq"] = None
        reindex(state)
        state["queue"].insert(
            0,
            {
                "step": "place_ball",
                "ball": held,
                "around": [origin[0], origin[1]],
                "wizard": t["j"],
                "reason": "eliminated",
            },
        )
    if check_winner(state) and held is not None:
        # the game is over: nobody is left to choose, so the held ball rests on the first free square
        spot = min(placement_squares(state, origin), key=lambda s: (s[1], s[0]))
        hb["sq"] = [spot[0], spot[1]]
        reindex(state)


def do_pass(state: State, action: dict) -> None:
    w = require_turn_wizard(state)
    rj = action.get("to")
    r = wizard(state, rj) if type(rj) is int else None
    if r is None or r["out"]:
        raise IllegalAction("The receiver must be a wizard on the court.", code="no_such_target")
    if r["side"] != w["side"] or r["j"] == w["j"]:
        raise IllegalAction("A pass goes to a teammate.", code="not_a_teammate")
    if state["turn"]["actions"] <= 0:
        raise IllegalAction("This wizard has no actions left this turn.", code="no_actions_left")
    check_can_release(state, w, "pass")
    if r["ball"] is not None:
        raise IllegalAction(f"{name(r['j'])} already holds a ball.", code="hands_full")
    if has_effect(state, r["j"], "butter_fingers"):
        raise IllegalAction(f"{name(r['j'])} has Butter Fingers and cannot take a pass.", code="butter_fingers")
    a_sq, r_sq = (w["sq"][0], w["sq"][1]), (r["sq"][0], r["sq"][1])
    if not has_line_of_sight(state, a_sq, r_sq):
        raise IllegalAction(f"{name(r['j'])} is neither adjacent nor in line of sight.", code="no_line_of_sight")
    spend_action(state)
    b = ball(state, w["ball"])
    b["holder"] = r["j"]
    w["ball"] = None
    r["ball"] = b["id"]


# ---------------------------------------------------------------------------
# choices after a roll


def choose_dodge_square(state: State, step: dict, action: dict) -> None:
    t = wizard(state, step["wizard"])
    to = sq(action.get("to"))
    origin = (step["from"][0], step["from"][1])
    options = [s for s in empty_neighbours(state, origin) if court_of(state).in_half(t["side"], s)]
    if to not in options:
        raise IllegalAction(
            "The dodging wizard steps to an empty adjacent square on its own side.", code="bad_dodge_square"
        )
    t["sq"] = [to[0], to[1]]
    b = ball(state, step["ball"])
    b["sq"] = [origin[0], origin[1]]
    reindex(state)


def choose_ball_square(state: State, step: dict, action: dict) -> None:
    to = sq(action.get("to"))
    around = (step["around"][0], step["around"][1])
    if to not in placement_squares(state, around):
        raise IllegalAction("The ball goes to an empty square next to where it was.", code="bad_ball_square")
    b = ball(state, step["ball"])
    b["sq"] = [to[0], to[1]]
    reindex(state)
    b["holder"] = None


def return_options(state: State, side: int) -> tuple[list[int], list[Square]]:
    c = court_of(state)
    occ = occupancy(state)
    out = [w["j"] for w in state["wizards"] if w["side"] == side and w["out"]]
    squares = [s for s in c.starting_squares(side) if s not in occ]
    return out, squares


def choose_return(state: State, step: dict, action: dict) -> None:
    side = step["side"]
    jersey = action.get("wizard")
    to = sq(action.get("to"))
    out, squares = return_options(state, side)
    if jersey not in out:
        raise IllegalAction("Only an eliminated wizard of the catching side can return.", code="not_eliminated")
    if to not in squares:
        raise IllegalAction(
            "The returning wizard is placed on an empty square of the starting area.", code="bad_return_square"
        )
    w = wizard(state, jersey)
    w["out"] = False
    w["sq"] = [to[0], to[1]]
    reindex(state)
    w["ball"] = None
