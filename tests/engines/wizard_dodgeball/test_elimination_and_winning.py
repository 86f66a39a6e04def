"""Elimination and winning: the last team with wizards on the court wins."""

import pytest

from engines.base import IllegalAction
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.scenario import Table


def last_throw(**kw):
    """The second team is down to #45; #21 throws at him with an active ball."""
    t = Table.start(
        E,
        wizards={21: [5, 5], 45: [5, 11], 30: None, 47: None, 10: None, 12: None, 58: None, **kw.pop("wizards", {})},
        balls={1: {"held_by": 21}},
        active={1: True},
        **kw,
    )
    t.act("throw", target=45)
    t.roll(6, 7)
    return t


def test_the_result_is_none_while_the_game_goes_on():
    t = Table.start(E)
    assert E.result(t.state) is None and not E.is_terminal(t.state)


def test_hitting_the_last_opponent_wins_the_game():
    """Winning: the last player with wizards on the court is the winner. Elimination: hit by a ball."""
    t = last_throw()
    t.roll(2, 3)
    assert E.to_move(t.state) == []
    assert E.result(t.state) == {
        "placements": [1, 2],
        "scores": [4, 0],
        "winners": [0],
        "reason": "Second team has no wizards left on the court.",
    }


def test_a_finished_game_accepts_no_more_actions():
    t = last_throw()
    t.roll(2, 3)
    assert E.legal_actions(t.state, 0) == [] and E.chance(t.state) is None
    with pytest.raises(IllegalAction) as err:
        t.act("end_turn", seat=0)
    assert err.value.code == "game_over"


def test_a_last_wizard_holding_a_ball_ends_the_game_without_placing_the_ball():
    """RULES.md (Winning): the game ends the moment a team has nobody left."""
    t = Table.start(
        E,
        wizards={21: [5, 5], 45: [5, 11], 30: None, 47: None, 10: None, 12: None},
        balls={1: {"held_by": 21}, 2: {"held_by": 45}},
        active={1: True},
    )
    t.act("throw", target=45)
    t.roll(6, 7)
    t.roll(2, 3, 0)
    assert E.result(t.state)["winners"] == [0]


def test_an_eliminated_wizard_leaves_the_court_and_loses_its_spell_effects():
    """Elimination: hit by a ball. RULES.md: markers on an eliminated wizard are removed."""
    t = Table.start(
        E,
        wizards={21: [5, 5], 45: [5, 11]},
        balls={1: {"held_by": 21}},
        active={1: True},
        effects=[{"face": "speed", "card": "slow_speed", "side": 1, "caster": 30, "wizard": 45}],
    )
    t.act("throw", target=45)
    t.roll(6, 7)
    t.roll(2, 3)
    w = t.wizard(45)
    assert w["out"] and w["sq"] is None and w["ball"] is None
    assert t.state["effects"] == []


def test_an_eliminated_wizard_never_takes_a_turn():
    t = Table.start(E, wizards={45: None})
    t.act("end_turn")
    assert t.turn_wizard() == 30
