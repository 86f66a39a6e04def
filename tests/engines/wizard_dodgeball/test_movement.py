"""Movement: straight or diagonal, up to MOVE, into but never across the Neutral Area."""

import pytest

from engines.base import IllegalAction
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.scenario import Table


def moves(t):
    return {tuple(a["to"]) for a in t.legal() if a["type"] == "move" and "pick_up" not in a}


def test_a_wizard_moves_straight_or_diagonally_up_to_its_move_stat():
    """Movement: straight or diagonally a number of spaces up to the MOVE stat with one action."""
    t = Table.start(E, wizards={21: [5, 5]})  # MOVE 4
    occupied = {tuple(w["sq"]) for w in t.state["wizards"]} | {tuple(b["sq"]) for b in t.state["balls"]}
    expected = {
        (c, r)
        for c in range(1, 10)
        for r in range(1, 10)
        if max(abs(c - 5), abs(r - 5)) <= 4 and (c, r) not in occupied
    }
    assert moves(t) == expected
    t.act("move", to=[9, 1])
    assert t.wizard(21)["sq"] == [9, 1]


def test_a_square_beyond_move_is_out_of_reach():
    t = Table.start(E, wizards={21: [5, 4]})
    with pytest.raises(IllegalAction) as err:
        t.act("move", to=[4, 9])  # 5 rows away, MOVE 4
    assert err.value.code == "out_of_reach"


def test_a_wizard_may_move_into_the_neutral_area():
    """Movement: wizards can move into the Neutral Area."""
    t = Table.start(E, wizards={21: [4, 6]})
    t.act("move", to=[4, 9])
    assert t.wizard(21)["sq"] == [4, 9]


def test_a_wizard_may_not_move_across_the_neutral_area():
    """Movement: ... but not across it."""
    t = Table.start(E, wizards={21: [4, 8]})
    with pytest.raises(IllegalAction) as err:
        t.act("move", to=[4, 10])
    assert err.value.code == "cross_neutral_area"
    assert not any(a["to"][1] > 9 for a in t.legal() if a["type"] == "move")


def test_the_second_team_may_not_cross_from_its_side_either():
    t = Table.start(E, wizards={45: [4, 10]}, turn=45)
    with pytest.raises(IllegalAction) as err:
        t.act("move", to=[4, 8])
    assert err.value.code == "cross_neutral_area"


def test_wizards_cannot_end_on_or_pass_through_occupied_squares():
    """RULES.md (Movement): a path runs through empty squares only."""
    # #21 in a corner pocket walled in by teammates and a ball
    t = Table.start(E, wizards={21: [1, 1], 58: [2, 1], 41: [2, 2]}, balls={1: [1, 2]})
    assert moves(t) == set()
    with pytest.raises(IllegalAction) as err:
        t.act("move", to=[2, 1])
    assert err.value.code == "square_occupied"


def test_a_frozen_wizard_cannot_move():
    """Freeze: cannot move while frozen."""
    t = Table.start(E, effects=[{"face": "freeze", "side": 1, "caster": 30, "wizard": 21}])
    with pytest.raises(IllegalAction) as err:
        t.act("move", to=[1, 3])
    assert err.value.code == "frozen"


def test_a_move_off_the_court_is_refused():
    t = Table.start(E)
    with pytest.raises(IllegalAction) as err:
        t.act("move", to=[0, 3])
    assert err.value.code == "out_of_bounds"
    with pytest.raises(IllegalAction) as err:
        t.act("move", to="north")
    assert err.value.code == "bad_square"


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_squares_a_move_may_not_cross_are_the_occupied_ones_at_every_state_of_a_playout(version):
    # A move's blocked squares are now built without the occupancy map (issue 17, P1): they must
    # stay its squares, a loose ball's included and a held ball's or an eliminated wizard's not.
    from engines import registry
    from engines.wizard_dodgeball.rules import _blocked
    from engines.wizard_dodgeball.state import occupancy

    from ..test_conformance import playout

    engine = registry.get("wizard-dodgeball", version)
    states, _ = playout(engine, 2, f"wd-blocked:{version}", bound=3000, prefix=True)
    loose = out = 0
    for state in states:
        assert _blocked(state) == set(occupancy(state))
        loose += sum(b["sq"] is not None for b in state["balls"])
        out += sum(w["out"] for w in state["wizards"])
    assert loose > 1000 and out > 100
