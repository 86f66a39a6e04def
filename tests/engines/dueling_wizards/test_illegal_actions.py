"""Refusals: every bad event raises IllegalAction with a stable code and leaves the state alone.

apply is fed user input from a web API, so the shapes are checked as carefully as the rules.
"""

import copy

import pytest

from engines.base import IllegalAction
from engines.dueling_wizards import ENGINE

from .helpers import deal, draw

HANDS = [["R9", "R3", "R4"], ["S4", "P3", "P4"], ["W4", "L3", "L5"]]


def dealt():
    return deal(HANDS)


def defended():
    state = dealt()
    for seat, card in ((1, "S4"), (2, "W4")):
        state = ENGINE.apply(state, {"kind": "action", "seat": seat, "action": {"type": "defend", "card": card}})
    return state


def refused_code(state, event):
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(state, event)
    assert state == snapshot, "a refused event must not touch the state"
    assert refused.value.message and refused.value.message.endswith(".")
    return refused.value.code


def action(seat, body):
    return {"kind": "action", "seat": seat, "action": body}


def test_a_card_that_is_not_in_the_hand_is_refused():
    assert refused_code(dealt(), action(1, {"type": "defend", "card": "R9"})) == "card_not_in_hand"


def test_a_card_that_does_not_exist_is_refused():
    assert refused_code(dealt(), action(1, {"type": "defend", "card": "R11"})) == "unknown_card"
    assert refused_code(dealt(), action(1, {"type": "defend", "card": "X6"})) == "unknown_card"


def test_the_attacker_acting_as_a_defender_is_refused():
    # The Play: the attacker casts an attack; only the others defend.
    assert refused_code(dealt(), action(0, {"type": "defend", "card": "R9"})) == "wrong_action_type"


def test_a_defender_attacking_is_refused():
    assert refused_code(dealt(), action(1, {"type": "attack", "card": "S4"})) == "wrong_action_type"


def test_a_defender_cannot_change_a_defence_once_laid():
    state = ENGINE.apply(dealt(), action(1, {"type": "defend", "card": "S4"}))
    assert refused_code(state, action(1, {"type": "defend", "card": "P3"})) == "already_defended"


def test_a_defender_acting_on_the_attackers_turn_is_refused():
    assert refused_code(defended(), action(1, {"type": "defend", "card": "P3"})) == "already_defended"


def test_the_attacker_before_the_defences_is_refused():
    assert refused_code(dealt(), action(0, {"type": "attack", "card": "R9"})) == "waiting_for_defences"


def test_an_action_before_the_deal_is_refused():
    state = ENGINE.setup({}, 2)
    assert refused_code(state, action(1, {"type": "defend", "card": "S4"})) == "chance_pending"


def test_an_action_while_a_wizard_still_owes_a_deal_draw_is_refused():
    state = draw(ENGINE.setup({}, 2), ["R9", "R3", "R4"])
    assert refused_code(state, action(1, {"type": "defend", "card": "S4"})) == "chance_pending"


def test_an_action_during_the_refill_is_refused():
    # The Play: everyone draws back to three before the next round starts.
    state = ENGINE.apply(dealt(), action(1, {"type": "defend", "card": "S4"}))
    state = ENGINE.apply(state, action(2, {"type": "defend", "card": "W4"}))
    state = ENGINE.apply(state, action(0, {"type": "attack", "card": "R9"}))
    assert state["phase"] == "refill"
    assert refused_code(state, action(2, {"type": "defend", "card": "L3"})) == "chance_pending"


def test_a_draw_when_none_is_due_is_refused():
    assert refused_code(dealt(), {"kind": "chance", "outcome": [0, 1, 2]}) == "no_chance_due"
    with pytest.raises(IllegalAction) as refused:
        ENGINE.draw_pool(dealt())
    assert refused.value.code == "no_draw_due"


@pytest.mark.parametrize(
    "outcome",
    [[0, 1], [0, 1, 2, 3], [0, 0, 1], [0, 1, 70], [-1, 0, 1], "draw", None, [0.0, 1.0, 2.0], [True, 1, 2]],
)
def test_a_draw_that_is_not_three_different_cards_of_the_pool_is_refused(outcome):
    assert refused_code(ENGINE.setup({}, 2), {"kind": "chance", "outcome": outcome}) == "bad_chance_outcome"


def test_a_draw_index_past_sixty_five_cards_is_refused_when_jokers_are_out():
    state = ENGINE.setup({"jokers": False}, 2)
    assert refused_code(state, {"kind": "chance", "outcome": [0, 1, 65]}) == "bad_chance_outcome"


@pytest.mark.parametrize("seat", [3, -1, "1", 1.0, True, None])
def test_a_seat_that_is_not_at_the_table_is_refused(seat):
    assert refused_code(dealt(), action(seat, {"type": "defend", "card": "S4"})) == "bad_seat"


@pytest.mark.parametrize(
    "body",
    [
        None,
        "defend",
        [],
        {},
        {"type": "cast", "card": "S4"},
        {"type": ["defend"], "card": "S4"},
        {"type": "defend"},
        {"type": "defend", "card": "S4", "extra": 1},
        {"type": "defend", "card": ["S4"]},
        {"type": "defend", "card": 4},
        {"type": "defend", "cards": ["S4"]},
    ],
)
def test_a_malformed_action_is_refused(body):
    assert refused_code(dealt(), action(1, body)) == "bad_action"


@pytest.mark.parametrize(
    "body",
    [
        {"type": "heal", "cards": "R9R3R4"},
        {"type": "heal", "cards": ["R9", 3, "R4"]},
        {"type": "heal", "cards": ["R9", "R3", "R4"], "card": "R9"},
    ],
)
def test_a_malformed_heal_is_refused(body):
    assert refused_code(defended(), action(0, body)) == "bad_action"


def test_a_heal_naming_a_card_twice_is_refused():
    assert refused_code(defended(), action(0, {"type": "heal", "cards": ["R9", "R9", "R3"]})) == "duplicate_card"


def test_a_heal_with_a_card_not_in_hand_is_refused():
    assert refused_code(defended(), action(0, {"type": "heal", "cards": ["R9", "R3", "R5"]})) == "card_not_in_hand"


@pytest.mark.parametrize(
    "event",
    [
        None,
        [],
        {},
        {"kind": "move", "seat": 1},
        {"kind": ["action"], "seat": 1},
        {"kind": "action", "seat": 1},
        {"kind": "action", "seat": 1, "action": {"type": "defend", "card": "S4"}, "note": "hi"},
        {"kind": "chance"},
    ],
)
def test_a_malformed_event_is_refused(event):
    assert refused_code(dealt(), event) == "bad_event"


def test_the_base_validate_entry_point_gives_the_same_codes():
    with pytest.raises(IllegalAction) as refused:
        ENGINE.validate(dealt(), 1, {"type": "defend", "card": "R9"})
    assert refused.value.code == "card_not_in_hand"


def test_legal_actions_is_empty_for_a_seat_not_to_move():
    assert ENGINE.legal_actions(dealt(), 0) == []
    assert ENGINE.legal_actions(dealt(), 9) == []
    assert ENGINE.legal_actions(dealt(), "1") == []
