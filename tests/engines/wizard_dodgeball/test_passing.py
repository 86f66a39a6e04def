"""Passing: to a teammate adjacent or in line of sight, one action, no roll."""

import pytest

from engines.base import IllegalAction
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.scenario import Table


def test_a_pass_to_a_teammate_in_sight_takes_one_action_and_no_roll():
    """Passing a ball: one action of the thrower, none of the receiver, no roll."""
    t = Table.start(E, wizards={21: [5, 8], 41: [5, 3]}, balls={1: {"held_by": 21}})
    t.act("pass", to=41)
    assert t.wizard(41)["ball"] == 1 and t.wizard(21)["ball"] is None
    assert t.state["turn"]["actions"] == 1 and t.state["queue"] == []


def test_a_pass_behind_the_attack_line_activates_the_ball():
    """Attack Lines: the ball is brought behind the line by the pass."""
    t = Table.start(E, wizards={21: [5, 8], 41: [5, 3]}, balls={1: {"held_by": 21}})
    t.act("pass", to=41)
    assert t.ball(1)["active"]


def test_a_pass_to_an_adjacent_teammate_is_allowed():
    t = Table.start(E, wizards={21: [5, 8], 41: [6, 7]}, balls={1: {"held_by": 21}})
    assert {"type": "pass", "to": 41} in t.legal()


def test_a_pass_needs_line_of_sight():
    t = Table.start(E, wizards={21: [5, 8], 58: [5, 6], 41: [5, 3]}, balls={1: {"held_by": 21}})
    with pytest.raises(IllegalAction) as err:
        t.act("pass", to=41)
    assert err.value.code == "no_line_of_sight"


def test_a_pass_goes_to_a_teammate_with_a_free_hand():
    t = Table.start(E, wizards={21: [5, 8], 41: [5, 3]}, balls={1: {"held_by": 21}, 2: {"held_by": 41}})
    with pytest.raises(IllegalAction) as err:
        t.act("pass", to=41)
    assert err.value.code == "hands_full"
    with pytest.raises(IllegalAction) as err:
        t.act("pass", to=45)
    assert err.value.code == "not_a_teammate"


def test_an_inactive_ball_may_be_passed():
    t = Table.start(E, wizards={21: [5, 8], 58: [6, 8]}, balls={1: {"held_by": 21}})
    t.act("pass", to=58)
    assert t.wizard(58)["ball"] == 1 and not t.ball(1)["active"]
