"""Picking up / dropping a ball (free), one ball per wizard, and activation behind an attack line."""

import pytest

from engines.base import IllegalAction
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.scenario import Table


def test_picking_up_an_adjacent_ball_is_free():
    """Picking up / Dropping a ball: pick up a ball in any adjacent space for free (no action)."""
    t = Table.start(E, wizards={21: [4, 8]})
    t.act("pick_up", ball=2)
    assert t.wizard(21)["ball"] == 2 and t.ball(2)["holder"] == 21 and t.ball(2)["sq"] is None
    assert t.state["turn"]["actions"] == 2


def test_a_ball_two_squares_away_cannot_be_picked_up():
    t = Table.start(E, wizards={21: [4, 7]})
    with pytest.raises(IllegalAction) as err:
        t.act("pick_up", ball=2)
    assert err.value.code == "not_adjacent"


def test_a_wizard_carries_only_one_ball():
    """Picking up: wizards can only carry one ball at a time (a wand in the other hand)."""
    t = Table.start(E, wizards={21: [4, 8]})
    t.act("pick_up", ball=2)
    with pytest.raises(IllegalAction) as err:
        t.act("pick_up", ball=3)
    assert err.value.code == "hands_full"
    assert not any(a["type"] == "pick_up" for a in t.legal())


def test_dropping_a_ball_is_free_and_lands_on_a_chosen_empty_adjacent_square():
    """Picking up / Dropping a ball: a dropped ball lands in a chosen empty, adjacent space."""
    t = Table.start(E, wizards={21: [4, 8]})
    t.act("pick_up", ball=2)
    drops = {tuple(a["to"]) for a in t.legal() if a["type"] == "drop"}
    assert drops == {(3, 7), (4, 7), (5, 7), (3, 8), (5, 8), (3, 9), (4, 9)}  # (5, 9) holds ball 3
    t.act("drop", to=[3, 7])
    assert t.ball(2)["sq"] == [3, 7] and t.wizard(21)["ball"] is None
    assert t.state["turn"]["actions"] == 2


def test_a_ball_cannot_be_dropped_on_an_occupied_or_distant_square():
    t = Table.start(E, wizards={21: [4, 8]})
    t.act("pick_up", ball=2)
    for square in ([5, 9], [4, 6]):
        with pytest.raises(IllegalAction) as err:
            t.act("drop", to=square)
        assert err.value.code == "bad_drop_square"


def test_a_ball_can_be_picked_up_during_a_move():
    """Picking up: wizards can pick up a ball while on the move."""
    t = Table.start(E, wizards={21: [4, 4]}, balls={2: [6, 6]})
    # (4,4) -> (5,5) passes next to (6,6); then on to (4,6): two steps.
    t.act("move", to=[4, 6], pick_up=2)
    assert t.wizard(21)["sq"] == [4, 6] and t.wizard(21)["ball"] == 2
    assert t.state["turn"]["actions"] == 1


def test_the_square_of_a_ball_picked_up_on_the_way_can_be_walked_through():
    t = Table.start(E, wizards={21: [5, 4]}, balls={2: [5, 5]})
    # picking it up from the start, then straight through its square: 4 steps to (5, 8)
    assert {"type": "move", "to": [5, 8], "pick_up": 2} in t.legal()
    assert {"type": "move", "to": [5, 8]} in t.legal()  # round the ball: also 4 steps


def test_a_move_cannot_pick_up_a_ball_its_path_never_passes():
    t = Table.start(E, wizards={21: [1, 4]}, balls={2: [9, 4]})
    with pytest.raises(IllegalAction) as err:
        t.act("move", to=[2, 4], pick_up=2)
    assert err.value.code == "out_of_reach"


def test_a_ball_carried_behind_the_attack_line_becomes_active_for_good():
    """Attack Lines: balls must first be brought behind either attack line to be active; once
    active a ball remains active for the game."""
    t = Table.start(E, wizards={21: [4, 8]})
    t.act("pick_up", ball=2)
    assert not t.ball(2)["active"]
    t.act("move", to=[4, 5])
    assert t.ball(2)["active"]
    t.act("move", to=[4, 8])
    t.act("end_turn")
    assert t.ball(2)["active"]


def test_a_ball_that_stays_in_front_of_the_attack_line_stays_inactive():
    t = Table.start(E, wizards={21: [4, 8]})
    t.act("pick_up", ball=2)
    t.act("move", to=[4, 6])
    assert not t.ball(2)["active"]


def test_the_second_teams_attack_line_works_the_same_way():
    t = Table.start(E, wizards={45: [4, 10]}, turn=45)
    t.act("pick_up", ball=2)
    t.act("move", to=[4, 13])
    assert t.ball(2)["active"]


def test_a_ball_dropped_behind_the_line_becomes_active():
    t = Table.start(E, wizards={21: [4, 6]}, balls={2: {"held_by": 21}})
    t.act("drop", to=[4, 5])
    assert t.ball(2)["active"]
