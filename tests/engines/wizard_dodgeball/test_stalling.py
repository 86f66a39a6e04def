"""The platform's stalling ruling (RULES.md "Stalling"): the rulebook has no turn limit, and a
side that never plays the ball could otherwise make a game endless."""

import pytest

from engines.base import InvalidConfig
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.engine import STALL_TURNS
from engines.wizard_dodgeball.scenario import Table


def end_turns(t, n):
    for _ in range(n):
        t.act("end_turn")


def test_sixty_quiet_turns_end_the_game_for_the_side_with_more_wizards():
    t = Table.start(E, wizards={45: None})  # the second team is a wizard down
    end_turns(t, STALL_TURNS - 1)
    assert E.result(t.state) is None
    t.act("end_turn")
    result = E.result(t.state)
    assert result["winners"] == [0] and result["placements"] == [1, 2] and result["scores"] == [5, 4]
    assert "No throw, pass or cast for 60 turns" in result["reason"]
    assert E.to_move(t.state) == []


def test_a_stalled_game_with_equal_wizards_is_a_draw():
    t = Table.start(E)
    end_turns(t, STALL_TURNS)
    result = E.result(t.state)
    assert result["placements"] == [1, 1] and result["winners"] == [0, 1]
    assert "draw" in result["reason"]


def test_a_throw_starts_the_count_again():
    t = Table.start(E, wizards={21: [5, 5], 45: [5, 11]}, balls={1: {"held_by": 21}}, active={1: True})
    t.state["quiet_turns"] = STALL_TURNS - 1
    t.act("throw", target=45)
    assert t.state["quiet_turns"] == 0
    assert E.result(t.state) is None


def test_moving_and_picking_up_do_not_count_as_play():
    t = Table.start(E)
    t.state["quiet_turns"] = STALL_TURNS - 1
    move = next(a for a in E.legal_actions(t.state, 0) if a["type"] == "move")
    t.act("move", to=move["to"])
    assert t.state["quiet_turns"] == STALL_TURNS - 1
    t.act("end_turn")
    assert E.result(t.state) is not None


def test_the_limit_is_configurable_and_zero_switches_it_off():
    t = Table.start(E, config={"stall_turns": 0})
    end_turns(t, 200)
    assert E.result(t.state) is None
    for bad in (5, -1, "60", 1001):
        with pytest.raises(InvalidConfig) as err:
            E.validate_config({"stall_turns": bad}, 2)
        assert err.value.code == "bad_stall_turns"
