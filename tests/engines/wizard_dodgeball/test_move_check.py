"""A move is checked by quick sufficient tests before the reachability search (issue 17, P1): the
two straight paths to the goal, and for a pick-up the straight paths by the ball, passed over
when they are too long by distance alone. Random playouts only ever play legal moves, so the
goldens would not see a quick test that lets an illegal move through: here every square of the
court is tried as a move, and as a move picking up each ball, and ``validate`` must admit it
exactly when ``legal_actions`` (the full search) lists it."""

import pytest

from engines import registry
from engines.base import IllegalAction
from engines.wizard_dodgeball.rules import _straight_path_free
from engines.wizard_dodgeball.state import Budgets, court_of, index

from ..test_conformance import playout


def _admitted(engine, state, seat, action) -> bool:
    try:
        engine.validate(state, seat, action)
    except IllegalAction:
        return False
    return True


@pytest.mark.parametrize("version,seats", [("1", 2), ("2", 2), ("2", 4)])
def test_a_move_is_admitted_exactly_when_the_search_lists_it(version, seats):
    engine = registry.get("wizard-dodgeball", version)
    states, _ = playout(engine, seats, f"wd-move-check:{version}:{seats}", bound=1200, prefix=True)
    seen = {"plain": 0, "pick_up": 0, "refused": 0}
    for state in states[::6]:
        if state["winner"] is not None or state["queue"] or state["turn"] is None:
            continue
        seat = state["turn"]["seat"]
        legal = [a for a in engine.legal_actions(state, seat) if a["type"] == "move"]
        c = court_of(state)
        for col in range(0, c.width + 2):  # a square off the court on each side too
            for row in range(0, c.length + 2):
                for pick in (None, 1, 2, 3, 4, 5):
                    action = {"type": "move", "to": [col, row]}
                    if pick is not None:
                        action["pick_up"] = pick
                    admitted = _admitted(engine, state, seat, action)
                    assert admitted == (action in legal), (action, state["wizards"], state["balls"])
                    if admitted:
                        seen["plain" if pick is None else "pick_up"] += 1
                    else:
                        seen["refused"] += 1
    assert seen["plain"] > 1000 and seen["pick_up"] > 300 and seen["refused"] > 10000, seen


@pytest.mark.parametrize("version,seats", [("2", 2), ("2", 4)])
def test_a_folds_straight_paths_from_the_courts_table_are_the_walked_ones(version, seats):
    """A fold (an indexed state) checks a plain move's straight paths from ``Court.straight_offsets``
    against the occupancy index; a copy walks them against the state. From every wizard on the
    court to every square of its half, with every allowance, both must say the same."""
    engine = registry.get("wizard-dodgeball", version)
    states, _ = playout(engine, seats, f"wd-move-table:{version}:{seats}", bound=600, prefix=True)
    said = {True: 0, False: 0}
    for state in states[::15]:
        folded = engine.owned_copy(state)
        index(folded)
        assert type(folded["budgets"]) is Budgets
        c = court_of(state)
        for w, fw in zip(state["wizards"], folded["wizards"]):
            if w["out"]:
                continue
            lo, hi = c.half_rows[w["side"]]
            for to in c.squares:
                if not lo <= to[1] <= hi:
                    continue
                for allowance in (1, 2, 4, 6):
                    walked = _straight_path_free(state, w, to, allowance, lo, hi)
                    assert _straight_path_free(folded, fw, to, allowance, lo, hi) == walked, (w, to, allowance)
                    said[walked] += 1
    assert said[True] > 1000 and said[False] > 10000, said
