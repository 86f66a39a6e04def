"""Catching: doubles on the dodge roll catch the ball; the thrower is out and a teammate returns."""

import pytest

from engines.base import IllegalAction
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.scenario import Table


def throw_at_dasherdodge(**kw):
    wizards = {21: [5, 5], 45: [5, 11]}
    wizards.update(kw.pop("wizards", {}))
    t = Table.start(E, wizards=wizards, balls={1: {"held_by": 21}}, active={1: True}, **kw)
    t.act("throw", target=45)
    return t


def test_doubles_catch_the_ball_and_eliminate_the_thrower_regardless_of_total():
    """Dodging: on a roll of doubles (regardless of total score) the ball is caught and the
    attacker is eliminated."""
    t = throw_at_dasherdodge(wizards={47: None})
    t.roll(6, 7)  # 13
    t.roll(3, 3)  # 6 < 13 but doubles (blue 3, red 3)
    assert t.wizard(21)["out"]
    assert t.wizard(45)["ball"] == 1 and t.ball(1)["holder"] == 45
    assert t.wizard(45)["sq"] == [5, 11]  # the catcher does not move
    assert t.state["rolls"][-1]["result"] == "caught"


def test_after_a_catch_the_catchers_player_returns_one_eliminated_teammate_to_the_starting_area():
    """Dodging: one eliminated wizard from your team is placed in the starting area."""
    t = throw_at_dasherdodge(wizards={47: None, 10: None})
    t.roll(6, 7)
    t.roll(4, 4)
    assert E.to_move(t.state) == [1]
    options = t.legal()
    assert {a["wizard"] for a in options} == {47, 10}
    assert all(a["to"][1] in (16, 17) for a in options)
    with pytest.raises(IllegalAction) as err:
        t.act("return_wizard", wizard=47, to=[5, 14])
    assert err.value.code == "bad_return_square"
    with pytest.raises(IllegalAction) as err:
        t.act("return_wizard", wizard=30, to=[5, 17])
    assert err.value.code == "not_eliminated"
    t.act("return_wizard", wizard=47, to=[5, 17])
    assert not t.wizard(47)["out"] and t.wizard(47)["sq"] == [5, 17]
    # the thrower is out, so its turn is over: the second team activates next
    assert t.turn_wizard() == 45


def test_a_catch_with_no_eliminated_teammate_returns_nobody():
    t = throw_at_dasherdodge()
    t.roll(6, 7)
    t.roll(4, 4)
    assert t.state["queue"] == []
    assert t.turn_wizard() == 45


def test_a_returned_wizard_takes_its_turn_again_in_line_up_order():
    t = throw_at_dasherdodge(wizards={30: None})
    t.roll(6, 7)
    t.roll(4, 4)
    t.act("return_wizard", wizard=30, to=[4, 17])
    assert t.turn_wizard() == 45
    t.act("end_turn")
    assert t.turn_wizard() == 58
    t.act("end_turn")
    assert t.turn_wizard() == 30


def test_catching_the_last_thrower_of_a_team_ends_the_game():
    """Winning: the last player with wizards on the court is the winner."""
    t = throw_at_dasherdodge(wizards={58: None, 41: None, 25: None, 36: None})
    t.roll(6, 7)
    t.roll(5, 5)
    assert E.result(t.state)["winners"] == [1]
    assert E.to_move(t.state) == []


def test_doubles_without_matching_faces_do_not_count():
    t = throw_at_dasherdodge()
    t.roll(6, 7)
    t.roll(4, 5)  # 9 < 13, not doubles: hit
    assert t.wizard(45)["out"] and not t.wizard(21)["out"]
