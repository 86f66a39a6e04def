"""Throwing: an active ball at a target in sight; range by zones; dodging with and without a ball."""

import pytest

from engines.base import CHANCE, IllegalAction
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.scenario import Table

GREY, BLUE, WHITE = [1, 6], [2, 7], [0, 5]


def thrower(at, target_at, **kw):
    """#21 Burblepot (ATTACK grey+blue) holding active ball 1, and #45 Dasherdodge (DODGE blue+red)."""
    wizards = {21: at, 45: target_at}
    wizards.update(kw.pop("wizards", {}))
    balls = {1: {"held_by": 21}}
    balls.update(kw.pop("balls", {}))
    return Table.start(E, wizards=wizards, balls=balls, active={1: True}, **kw)


def test_a_throw_needs_a_ball():
    """Throwing: the wizard must have a ball."""
    t = Table.start(E, wizards={21: [5, 7], 45: [5, 11]})
    with pytest.raises(IllegalAction) as err:
        t.act("throw", target=45)
    assert err.value.code == "no_ball"


def test_an_inactive_ball_cannot_be_thrown():
    """Throwing / Attack Lines: only active balls can be thrown at opponents."""
    t = Table.start(E, wizards={21: [5, 7], 45: [5, 11]}, balls={1: {"held_by": 21}})
    with pytest.raises(IllegalAction) as err:
        t.act("throw", target=45)
    assert err.value.code == "ball_not_active"
    assert not any(a["type"] == "throw" for a in t.legal())


def test_a_ball_is_thrown_at_an_opponent_not_a_teammate():
    t = thrower([5, 7], [5, 11])
    with pytest.raises(IllegalAction) as err:
        t.act("throw", target=58)
    assert err.value.code == "not_an_opponent"


def test_a_throw_costs_one_action_and_calls_for_the_attack_roll():
    t = thrower([5, 7], [5, 11])
    t.act("throw", target=45)
    assert t.state["turn"]["actions"] == 1
    assert E.to_move(t.state) == [CHANCE]
    assert t.ball(1)["holder"] is None and t.ball(1)["sq"] is None  # in flight


def test_one_zone_away_rolls_both_attack_dice_plus_a_white():
    """Range: one zone away, roll 1 white die plus the 2 ATTACK dice."""
    t = thrower([5, 7], [5, 11])  # front zone to front zone
    t.act("throw", target=45)
    assert t.spec()["dice"] == [GREY, BLUE, WHITE]


def test_two_zones_away_rolls_both_attack_dice():
    """Range: two zones away, roll the 2 ATTACK dice."""
    t = thrower([5, 5], [5, 11])  # back zone to the other front zone
    t.act("throw", target=45)
    assert t.spec()["dice"] == [GREY, BLUE]


def test_three_zones_away_rolls_only_the_right_attack_die():
    """Range: three zones away, roll only the higher (right) ATTACK die."""
    t = thrower([5, 5], [5, 13])  # back zone to back zone
    t.act("throw", target=45)
    assert t.spec()["dice"] == [BLUE]


def test_opponents_both_in_the_neutral_area_are_one_zone_apart():
    """Range: wizards from opposing teams in the Neutral Area are 1 zone apart."""
    t = thrower([2, 9], [6, 9])
    t.act("throw", target=45)
    assert t.spec()["dice"] == [GREY, BLUE, WHITE]


def test_the_neutral_area_counts_as_each_teams_front_zone():
    """Range: zones run from the attack lines to, and including, the Neutral Area."""
    t = thrower([4, 9], [4, 13])  # Neutral Area (own front zone) to the other back zone: 2 zones
    t.act("throw", target=45)
    assert t.spec()["dice"] == [GREY, BLUE]


def test_a_dodge_lower_than_the_attack_eliminates_the_target_and_the_ball_takes_its_square():
    """Dodging: if the roll is less than the attack score the target is eliminated and the
    thrown ball is placed in the target's original space."""
    t = thrower([5, 5], [5, 11])
    t.act("throw", target=45)
    t.roll(6, 7)  # 13
    assert t.spec()["dice"] == [BLUE, [3, 8]]  # Dasherdodge's DODGE: blue + red
    t.roll(4, 8)  # 12 < 13
    assert t.wizard(45)["out"]
    assert t.ball(1)["sq"] == [5, 11]


def test_a_dodge_equal_to_the_attack_succeeds_and_the_target_steps_to_a_square_its_player_picks():
    """Dodging: equal or greater, the target moves to any empty adjacent space and the thrown
    ball is placed in its original space."""
    t = thrower([5, 5], [5, 11])
    t.act("throw", target=45)
    t.roll(3, 6)  # 9
    t.roll(4, 5)  # 9: a tie goes to the dodger
    assert E.to_move(t.state) == [1]
    options = {tuple(a["to"]) for a in t.legal()}
    assert options == {(4, 10), (5, 10), (6, 10), (4, 11), (6, 11), (4, 12), (5, 12), (6, 12)}
    t.act("dodge_to", to=[6, 12])
    assert t.wizard(45)["sq"] == [6, 12] and not t.wizard(45)["out"]
    assert t.ball(1)["sq"] == [5, 11]
    assert E.to_move(t.state) == [0]  # back to the thrower's turn


def test_a_dodging_wizard_cannot_step_across_the_neutral_area():
    t = thrower([4, 7], [4, 9])  # Dasherdodge stands in the Neutral Area
    t.act("throw", target=45)
    t.roll(1, 2, 0)
    t.roll(6, 7)
    assert all(a["to"][1] >= 9 for a in t.legal())
    with pytest.raises(IllegalAction) as err:
        t.act("dodge_to", to=[4, 8])
    assert err.value.code == "bad_dodge_square"


def test_a_target_holding_a_ball_adds_a_white_die_to_dodge():
    """Dodging, target with a ball: roll the 2 DODGE dice and add 1 white die."""
    t = thrower([5, 5], [5, 11], balls={2: {"held_by": 45}})
    t.act("throw", target=45)
    t.roll(3, 4)
    assert t.spec()["dice"] == [BLUE, [3, 8], WHITE]


def test_a_target_hit_while_holding_a_ball_is_out_and_its_ball_goes_next_to_its_square():
    """Dodging, target with a ball: eliminated; the thrown ball goes in the original space and the
    held ball in any space adjacent to it (its player chooses)."""
    t = thrower([5, 5], [5, 11], balls={2: {"held_by": 45}})
    t.act("throw", target=45)
    t.roll(6, 7)  # 13
    t.roll(2, 3, 0)  # 5
    assert t.wizard(45)["out"] and t.ball(1)["sq"] == [5, 11]
    assert E.to_move(t.state) == [1]
    assert {"type": "place_ball", "to": [5, 11]} not in t.legal()
    t.act("place_ball", to=[4, 12])
    assert t.ball(2)["sq"] == [4, 12] and t.ball(2)["holder"] is None


def test_triples_always_dodge_when_holding_a_ball():
    """Dodging, target with a ball: equal or greater than the attack, or triples, dodges."""
    t = thrower([5, 5], [5, 11], balls={2: {"held_by": 45}})
    t.act("throw", target=45)
    t.roll(6, 7)  # 13
    t.roll(3, 3, 3)  # 9 but triples
    assert not t.wizard(45)["out"]
    assert t.state["rolls"][-1]["result"] == "dodged"


def test_doubles_do_not_catch_when_the_target_already_holds_a_ball():
    """RULES.md (Dodging): a wizard with a ball in hand cannot catch; only triples are special."""
    t = thrower([5, 5], [5, 11], balls={2: {"held_by": 45}})
    t.act("throw", target=45)
    t.roll(6, 7)
    t.roll(4, 4, 1)  # 9 < 13, doubles ignored
    assert t.wizard(45)["out"] and not t.wizard(21)["out"]


def test_a_wizard_with_no_empty_square_beside_it_dodges_in_place_and_the_ball_drops_beside_it():
    """RULES.md (Dodging): with nowhere to step the dodger stays and the ball lands next to it,
    on the side of the thrower."""
    walls = {30: [4, 12], 47: [5, 12], 10: [6, 12], 12: [4, 11]}
    t = thrower([5, 5], [5, 11], wizards=walls, balls={2: [6, 11], 3: [4, 10], 4: [5, 10], 5: [6, 10]})
    t.act("throw", target=45)
    t.roll(2, 3)
    t.roll(6, 7)
    assert t.wizard(45)["sq"] == [5, 11]
    assert t.state["rolls"][-1]["result"] == "dodged_in_place"
    assert t.ball(1)["sq"] is not None and t.ball(1)["sq"][1] <= 11


def test_the_attack_roll_and_the_dodge_roll_are_separate_chance_steps_checked_for_range():
    t = thrower([5, 5], [5, 11])
    t.act("throw", target=45)
    with pytest.raises(IllegalAction) as err:
        t.roll(0, 7)  # grey shows 1-6
    assert err.value.code == "bad_chance_outcome"
    with pytest.raises(IllegalAction):
        t.roll(3, 4, 0)  # two dice are due
    t.roll(3, 4)
    with pytest.raises(IllegalAction) as err:
        t.roll(2, 9)  # red shows 3-8
    assert err.value.code == "bad_chance_outcome"
