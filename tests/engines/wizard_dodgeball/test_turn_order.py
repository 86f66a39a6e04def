"""Turn order: alternating activations in line-up order, two actions per turn."""

import pytest

from engines.base import CHANCE, IllegalAction
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.scenario import Table


def test_teams_alternate_activating_wizards_left_to_right():
    """Game on!: starting with player 1, players take turns activating one wizard at a time,
    each team's wizards from left to right."""
    t = Table.start(E)
    order = []
    for _ in range(11):
        order.append(t.turn_wizard())
        t.act("end_turn")
    assert order == [21, 45, 58, 30, 41, 47, 25, 10, 36, 12, 21]


def test_eliminated_wizards_are_skipped_in_the_activation_order():
    """Game on! / Elimination: only wizards on the court take turns."""
    t = Table.start(E, wizards={58: None, 47: None, 10: None})
    order = []
    for _ in range(8):
        order.append(t.turn_wizard())
        t.act("end_turn")
    assert order == [21, 45, 41, 30, 25, 12, 36, 45]


def test_the_second_player_starts_when_it_wins_the_roll_off():
    t = Table(E, E.setup({}, 2))
    t.roll(1, 6)
    assert t.turn_wizard() == 45 and t.seat() == 1


def test_a_turn_has_two_actions_then_passes_to_the_other_team():
    """Turn: each wizard can do 2 actions on their turn."""
    t = Table.start(E, wizards={21: [5, 4]})
    t.act("move", to=[5, 5])
    assert t.turn_wizard() == 21 and t.state["turn"]["actions"] == 1
    t.act("move", to=[5, 6])
    assert t.turn_wizard() == 45  # nothing free left to do: the turn ended by itself


def test_a_third_action_is_refused_but_free_actions_remain():
    """Turn: two actions; picking up or dropping a ball does not count against them."""
    t = Table.start(E, wizards={21: [5, 6]})
    t.act("move", to=[5, 7])
    t.act("move", to=[4, 8])  # next to the balls on (3, 9) and (5, 9)
    assert t.turn_wizard() == 21 and t.state["turn"]["actions"] == 0
    with pytest.raises(IllegalAction) as err:
        t.act("move", to=[4, 7])
    assert err.value.code == "no_actions_left"
    t.act("pick_up", ball=2)
    t.act("drop", to=[3, 8])
    t.act("pick_up", ball=3)
    assert t.wizard(21)["ball"] == 3
    t.act("end_turn")
    assert t.turn_wizard() == 45


def test_a_turn_can_be_ended_with_actions_left():
    t = Table.start(E)
    t.act("end_turn")
    assert t.turn_wizard() == 45


def test_the_other_seat_cannot_act_out_of_turn():
    t = Table.start(E)
    with pytest.raises(IllegalAction) as err:
        t.act("end_turn", seat=1)
    assert err.value.code == "not_your_turn"
    assert E.legal_actions(t.state, 1) == []


def test_no_action_is_accepted_while_dice_are_due():
    t = Table(E, E.setup({}, 2))
    assert E.to_move(t.state) == [CHANCE]
    with pytest.raises(IllegalAction) as err:
        E.apply(t.state, {"kind": "action", "seat": 0, "action": {"type": "end_turn"}})
    assert err.value.code == "chance_pending"


def test_dice_are_refused_when_none_are_due():
    t = Table.start(E)
    with pytest.raises(IllegalAction) as err:
        t.roll(3, 4)
    assert err.value.code == "no_chance_pending"


@pytest.mark.parametrize(
    "event",
    [
        None,
        {"kind": "nap"},
        {"kind": "action", "seat": 0},
        {"kind": "action", "seat": 9, "action": {"type": "end_turn"}},
        {"kind": "action", "seat": 0, "action": {"type": "juggle"}},
    ],
)
def test_malformed_events_are_refused_with_a_reason(event):
    t = Table.start(E)
    with pytest.raises(IllegalAction) as err:
        E.apply(t.state, event)
    assert err.value.code in {"bad_event", "bad_action", "bad_seat", "unknown_action"}
