"""Variants - Teams: four players, two per side, each controlling chosen wizards."""

import pytest

from engines.base import IllegalAction, InvalidConfig
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.scenario import Table


def test_four_seats_split_into_two_sides_with_alternating_wizards_by_default():
    cfg = E.validate_config({}, 4)
    assert cfg["sides"] == [[0, 2], [1, 3]]
    assert cfg["controllers"] == [[0, 2, 0, 2, 0], [1, 3, 1, 3, 1]]


def test_each_wizards_controller_takes_its_turns():
    """Teams: players on a team select which wizards they want to control."""
    t = Table.start(E, seats=4)
    seats = []
    for _ in range(4):
        seats.append(t.seat())
        t.act("end_turn")
    assert seats == [0, 1, 2, 3]  # #21 (seat 0), #45 (seat 1), #58 (seat 2), #30 (seat 3)


def test_a_teammates_seat_cannot_act_for_a_wizard_it_does_not_control():
    t = Table.start(E, seats=4)
    with pytest.raises(IllegalAction) as err:
        t.act("end_turn", seat=2)
    assert err.value.code == "not_your_turn"


def test_a_choice_after_a_roll_is_made_by_the_seat_controlling_that_wizard():
    """RULES.md (Team variant): the dodging wizard's controller picks where it steps."""
    t = Table.start(E, seats=4, wizards={21: [5, 5], 30: [5, 11]}, balls={1: {"held_by": 21}}, active={1: True})
    t.act("throw", target=30)
    t.roll(2, 3)
    t.roll(5, 6)
    assert E.to_move(t.state) == [3]


def test_custom_controllers_are_respected():
    t = Table.start(E, seats=4, config={"controllers": [[0, 0, 2, 2, 2], [3, 1, 1, 1, 1]]})
    assert t.seat() == 0
    t.act("end_turn")
    assert t.seat() == 3


def test_in_turns_mode_a_sides_players_alternate_whatever_the_wizard():
    """Teams: players on a team can take turns."""
    t = Table.start(E, seats=4, config={"team_control": "turns", "controllers": [[0] * 5, [1] * 5]})
    seats = []
    for _ in range(6):
        seats.append(t.seat())
        t.act("end_turn")
    assert seats == [0, 1, 2, 3, 0, 1]


def test_both_players_of_a_side_share_its_placement():
    t = Table.start(
        E,
        seats=4,
        wizards={21: [5, 5], 45: [5, 11], 30: None, 47: None, 10: None, 12: None},
        balls={1: {"held_by": 21}},
        active={1: True},
    )
    t.act("throw", target=45)
    t.roll(6, 7)
    t.roll(2, 3)
    result = E.result(t.state)
    assert result["placements"] == [1, 2, 1, 2]
    assert result["winners"] == [0, 2]
    assert result["scores"] == [5, 0, 5, 0]


@pytest.mark.parametrize(
    "cfg, code",
    [
        ({"sides": [[0, 1], [2]]}, "bad_sides"),
        ({"sides": [[0, 2], [1, 1]]}, "bad_sides"),
        ({"controllers": [[0, 0, 0, 0, 0], [1, 3, 1, 3, 1]]}, "bad_controllers"),
        ({"controllers": [[0, 1, 0, 2, 0], [1, 3, 1, 3, 1]]}, "bad_controllers"),
        ({"team_control": "chaos"}, "bad_team_control"),
    ],
)
def test_a_bad_team_set_up_is_refused(cfg, code):
    with pytest.raises(InvalidConfig) as err:
        E.validate_config(cfg, 4)
    assert err.value.code == code
