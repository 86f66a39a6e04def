"""State helpers shared by the engine, the spells and the bots.

The state is a plain JSON dict (see engine.py for its full shape). Nested values inside the
wizards, balls, cards and effects (squares, lists) are never mutated in place: a change always
replaces them. That lets ``copy_state`` copy just one level of each record instead of a deep
copy of the whole state, which is what makes replay fast.
"""

from __future__ import annotations

from typing import Any

from . import data
from .geometry import Court, court

State = dict[str, Any]


def copy_state(state: State) -> State:
    new = dict(state)
    new["wizards"] = [dict(w) for w in state["wizards"]]
    new["balls"] = [dict(b) for b in state["balls"]]
    # A card's record and an effect's record are replaced, never changed in place
    # (rules.recharge, spells.do_cast, spells._add_effect): the containers alone are copied.
    new["cards"] = [dict(side) for side in state["cards"]]
    new["effects"] = list(state["effects"])
    new["queue"] = [dict(q) for q in state["queue"]]
    if state["turn"] is not None:
        new["turn"] = dict(state["turn"])
    if state["cast"] is not None:
        cast = dict(state["cast"])
        cast["outcomes"] = list(cast["outcomes"])
        new["cast"] = cast
    new["budgets"] = list(state["budgets"])  # never a fold's Budgets: a copy has no index
    new["next_slot"] = list(state["next_slot"])
    new["turns_taken"] = list(state["turns_taken"])
    new["last_seat"] = list(state["last_seat"])
    new["rolls"] = list(state["rolls"])
    return new


#: court id -> its Court, as ``court`` gives it: a plain dict read costs less than the cached call,
#: and a few rules ask for the court on every event (issue 17, P1).
_COURTS: dict[str, Court] = {}


def court_of(state: State) -> Court:
    try:
        return _COURTS[state["court"]]
    except KeyError:
        c = _COURTS[state["court"]] = court(state["court"])
        return c


#: jersey -> the roster's record, filled from ``data.roster()`` on first use: a plain dict read
#: costs less than the cached call, and stats are read several times an event (issue 17, P1).
_ROSTER: dict[int, dict[str, Any]] = {}


def stats(jersey: int) -> dict[str, Any]:
    try:
        return _ROSTER[jersey]
    except KeyError:
        _ROSTER.update(data.roster())
        return data.roster()[jersey]  # an unknown jersey raises KeyError, as it did


#: jersey -> where in a state's list of wizards it was last found. Only a hint, checked before it
#: is used: a wizard keeps its place in the list for a whole game, and most events look up the
#: same few wizards several times (issue 17, P1). Jerseys are unique within a state.
_FOUND_AT: dict[int, int] = {}


def wizard(state: State, jersey: int) -> dict[str, Any] | None:
    wizards = state["wizards"]
    # The hint, checked, without testing for a missing or stale one first: the misses raise.
    try:
        w = wizards[_FOUND_AT[jersey]]
        if w["j"] == jersey:
            return w
    except (KeyError, IndexError, TypeError):
        pass
    if type(jersey) is int:
        for i, w in enumerate(wizards):
            if w["j"] == jersey:
                _FOUND_AT[jersey] = i
                return w
        return None
    for w in wizards:
        if w["j"] == jersey:
            return w
    return None


def ball(state: State, ball_id: int) -> dict[str, Any] | None:
    balls = state["balls"]
    # setup numbers the balls 1, 2, ... in the list's order and nothing reorders it: ball n is
    # looked for at place n - 1 first, checked (issue 17, P1); a miss walks the list as before.
    try:
        b = balls[ball_id - 1]
        if b["id"] == ball_id:
            return b
    except (IndexError, TypeError):
        pass
    for b in balls:
        if b["id"] == ball_id:
            return b
    return None


def occupancy(state: State) -> dict[tuple[int, int], tuple[str, int]]:
    """square -> ("w", jersey) or ("b", ball id) for everything standing on the court.

    A held ball is with its holder, not on a square; a loose ball occupies its square.
    """
    occ: dict[tuple[int, int], tuple[str, int]] = {}
    for w in state["wizards"]:
        if not w["out"]:
            occ[(w["sq"][0], w["sq"][1])] = ("w", w["j"])
    for b in state["balls"]:
        if b["sq"] is not None:
            occ[(b["sq"][0], b["sq"][1])] = ("b", b["id"])
    return occ


class Budgets(list):
    """``state["budgets"]`` (the two spell budgets) in a state that ``apply_in_place`` folds,
    carrying an index derived from that state.

    ``occ`` is ``occupancy(state)``: what stands on each square. Squares are asked about on most
    events (a drop's square, a move's path, a turn's free action), each a scan of the ten wizards
    and five balls without it (issue 17, P1). It is an attribute, so JSON, hashing, equality and
    ``copy_tree`` see only the list of budgets (the goldens hash the state); it is never stored,
    only built from the state (``index``) and kept equal to it by the rules that move a wizard or
    a ball in an owned state (``test_fold_index.py`` holds it to a fresh ``occupancy`` after
    every event of playouts). ``active`` is whether every ball is active, which ``settle`` would
    otherwise look at after every event (nothing makes a ball inactive again). ``by_j`` maps a
    jersey to its wizard's record, which a fold changes but never replaces, for the turn's wizard
    that most events look up more than once. ``spent`` maps a jersey to the ids of the spell cards
    it cast that have not recharged yet (``spend_card``, ``rules.recharge``), which the end of its
    turn would otherwise find by looking at every card of its side. ``lineups`` are each side's
    wizards' records in line-up order (``rules.begin_turn``), ``court`` is ``court_of(state)`` and
    ``moves`` maps a jersey to its MOVE under no effect (``allowance_with(j, 0)``): read on most
    events, and fixed for a game. ``bits`` maps a jersey to its ``face_bits`` where they are not 0
    (``face_bits_of``): a move, a drop, a pick-up, a turn's start and settle each asked them of every
    effect; every rule that changes the effects calls ``effects_changed``. It rides on the
    budgets because the rules never read them: a subclass of the state itself, or of a container
    the rules read, loses the interpreter's fast paths for plain dicts and lists (a dict subclass
    made every ``state[key]`` about twice as slow, and the fold slower overall). ``copy_state``
    gives a copy a plain list, so the copying ``apply`` never sees an index and the rules scan
    as before. The contract of ``apply_in_place`` (the caller owns the state and changes it only
    through the engine) is what keeps the index true between events."""

    __slots__ = ("occ", "active", "by_j", "spent", "lineups", "court", "moves", "bits")


def index(state: State) -> None:
    """Give an owned state the index (``apply_in_place``, on the first event of a fold)."""
    b = Budgets(state["budgets"])
    b.occ = occupancy(state)
    b.active = all(ball["active"] for ball in state["balls"])
    b.by_j = {w["j"]: w for w in state["wizards"]}
    b.spent = spent_cards(state)
    b.lineups = [[w for w in state["wizards"] if w["side"] == side] for side in (0, 1)]
    b.court = court_of(state)
    b.moves = {w["j"]: allowance_with(w["j"], 0) for w in state["wizards"]}
    b.bits = face_bits_of(state)
    state["budgets"] = b


def spent_cards(state: State) -> dict[int, list[str]]:
    """jersey -> the ids of the spell cards it cast that are not recharged (a spent card is the
    only kind with a caster), for every wizard: ``Budgets.spent`` read afresh."""
    spent: dict[int, list[str]] = {w["j"]: [] for w in state["wizards"]}
    for cards in state["cards"]:
        for card_id, card in cards.items():
            if card["caster"] is not None:
                spent[card["caster"]].append(card_id)
    return spent


def spend_card(state: State, side: int, card_id: str, jersey: int, n: int) -> None:
    """A cast spends its card (``spells.do_cast``, ``fast.cast_at_one_wizard``); a fold's index
    notes it under its caster."""
    state["cards"][side][card_id] = {"charged": False, "caster": jersey, "turn": n}
    if type(ix := state["budgets"]) is Budgets:
        ix.spent[jersey].append(card_id)


def reindex(state: State) -> None:
    """After a rare move of a wizard or a ball (a throw, a choice, a teleport): the index rebuilt."""
    b = state["budgets"]
    if type(b) is Budgets:
        b.occ = occupancy(state)


def clear_line(c: Court, occ: dict, a: tuple[int, int], b: tuple[int, int]) -> bool:
    """``line_of_sight(a, b, wizard_squares(state))`` from a fold's occupancy index ``occ``: only the
    squares the line goes through (``Court.line_offsets``) are asked about, where the reference
    tests every wizard on the court against the line (issue 17, P1). A loose ball's square is
    occupied yet blocks nothing, so what stands on a square is looked at before it counts."""
    ax, ay = a
    for ox, oy in c.line_offsets[(b[0] - ax, b[1] - ay)]:
        # mostly a free square: one look at it (a call to get cost more)
        if (q := (ax + ox, ay + oy)) in occ and occ[q][0] == "w":
            return False
    return True


def wizard_squares(state: State) -> dict[tuple[int, int], int]:
    return {(w["sq"][0], w["sq"][1]): w["j"] for w in state["wizards"] if not w["out"]}


def has_effect(state: State, jersey: int, face: str) -> bool:
    for e in state["effects"]:
        if e["wizard"] == jersey and e["face"] == face:
            return True
    return False


def effect_faces(state: State, jersey: int) -> set[str]:
    return {e["face"] for e in state["effects"] if e["wizard"] == jersey}


def ball_on_fire(state: State, ball_id: int) -> bool:
    for e in state["effects"]:
        if e["ball"] == ball_id and e["face"] == "fireball":
            return True
    return False


def ball_square(state: State, b: dict[str, Any]) -> tuple[int, int] | None:
    """Where a ball is: its own square, or its holder's; None while in flight."""
    if b["sq"] is not None:
        return (b["sq"][0], b["sq"][1])
    if b["holder"] is not None:
        w = wizard(state, b["holder"])
        return (w["sq"][0], w["sq"][1])
    return None


def controller(state: State, jersey: int) -> int:
    """The seat that decides for this wizard (choices after a roll, its own turns)."""
    w = wizard(state, jersey)
    side = w["side"]
    if state["team_control"] == "turns":
        turn = state["turn"]
        if turn is not None and turn["side"] == side:
            return turn["seat"]
        if state["last_seat"][side] is not None:
            return state["last_seat"][side]
        return state["sides"][side][0]
    return state["controllers"][side][w["slot"]]


#: The faces the checks of a turn ask about, as bits of ``face_bits``' answer.
FREEZE, SHRINK, ENLARGE, BUTTER_FINGERS, STICKY_FINGERS, SPEED, SLOW = (1 << k for k in range(7))
_FACE_BIT = {
    "freeze": FREEZE,
    "shrink": SHRINK,
    "enlarge": ENLARGE,
    "butter_fingers": BUTTER_FINGERS,
    "sticky_fingers": STICKY_FINGERS,
    "speed": SPEED,
    "slow": SLOW,
}


def face_bits(state: State, jersey: int) -> int:
    """Which of the faces above are on the wizard, in one pass over the effects: ``effect_faces``
    without its set, for the questions every move, pick-up, drop and turn asks (issue 17, P1)."""
    bits = 0
    for e in state["effects"]:
        if e["wizard"] == jersey:
            bits |= _FACE_BIT.get(e["face"], 0)
    return bits


def face_bits_of(state: State) -> dict[int, int]:
    """jersey -> ``face_bits(state, jersey)``, for the wizards whose bits are not 0, in one pass."""
    out: dict[int, int] = {}
    for e in state["effects"]:
        bit = _FACE_BIT.get(e["face"])
        if bit and (j := e["wizard"]) is not None:
            out[j] = out.get(j, 0) | bit
    return out


def effects_changed(state: State) -> None:
    """After any change to the effects: a fold's index reads the faces afresh (``Budgets.bits``)."""
    if type(ix := state["budgets"]) is Budgets:
        ix.bits = face_bits_of(state)


def move_allowance(state: State, jersey: int) -> int:
    """MOVE, with Shrink (-2) and Enlarge (+2); never below 1."""
    return allowance_with(jersey, face_bits(state, jersey))


def allowance_with(jersey: int, bits: int) -> int:
    """``move_allowance`` of a wizard whose ``face_bits`` are known."""
    move = stats(jersey)["move"]
    if bits & SHRINK:
        move -= 2
    if bits & ENLARGE:
        move += 2
    return move if move > 1 else 1


def spell_range(state: State, jersey: int) -> int:
    """Magical range in squares (king distance): the full length of the court, +/-4 for Boost/Drain."""
    faces = effect_faces(state, jersey)
    rng = court_of(state).length
    if "magic_boost" in faces:
        rng += 4
    if "magic_drain" in faces:
        rng -= 4
    return rng


def cast_bonus(state: State, jersey: int) -> int:
    # effect_faces without its set: this runs for every CAST roll (issue 17, P1)
    boost = drain = False
    for e in state["effects"]:
        if e["wizard"] == jersey:
            face = e["face"]
            if face == "magic_boost":
                boost = True
            elif face == "magic_drain":
                drain = True
    return (3 if boost else 0) - (3 if drain else 0)


def attack_colours(state: State, jersey: int, zones: int) -> list[str]:
    """The ATTACK dice for a throw across ``zones`` zones, with Strong/Weak applied.

    1 zone: both ATTACK dice + a white; 2 zones: both; 3 zones: the right die only.
    Weak removes the left (lower) die when there is one to remove; Strong adds a white.
    """
    left, right = stats(jersey)["attack"]
    faces = effect_faces(state, jersey)
    coloured = [right] if zones >= 3 else [left, right]
    if "weak" in faces and len(coloured) == 2:
        coloured = [right]
    extra = []
    if zones <= 1:
        extra.append("white")
    if "strong" in faces:
        extra.append("white")
    return coloured + extra


def dodge_colours(state: State, jersey: int) -> tuple[list[str], int, bool]:
    """(dice, number of coloured DODGE dice among them, holding-ball white present).

    Order: the coloured DODGE dice, then the white for a ball in hand, then Shrink's white.
    """
    w = wizard(state, jersey)
    left, right = stats(jersey)["dodge"]
    faces = effect_faces(state, jersey)
    coloured = [right] if "enlarge" in faces else [left, right]
    dice = list(coloured)
    holding = w["ball"] is not None
    if holding:
        dice.append("white")
    if "shrink" in faces:
        dice.append("white")
    return dice, len(coloured), holding
