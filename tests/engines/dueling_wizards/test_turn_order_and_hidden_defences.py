"""Who acts when, and defences staying face down (rulebook: "The Deal", "The Play")."""

import pytest

from engines.base import CHANCE, IllegalAction
from engines.dueling_wizards import ENGINE

from .helpers import attack, deal, defend

THREE_HANDS = [["R2", "R3", "R4"], ["P2", "P3", "P4"], ["S2", "S3", "S4"]]


def test_the_first_thing_after_setup_is_seat_zeros_private_draw_of_three():
    # The Deal: three cards to each player, starting left of the dealer (seat 0); each
    # seat's three cards are a private draw from the unknown pool of the whole deck.
    state = ENGINE.setup({}, 2)
    assert ENGINE.to_move(state) == [CHANCE]
    assert ENGINE.chance(state) == {
        "kind": "draw",
        "pool": 70,
        "count": 3,
        "visible_to": [0],
        "label": "Seat 0 draws three spells",
    }


def test_the_pool_has_sixty_five_cards_without_jokers():
    state = ENGINE.setup({"jokers": False}, 3)
    assert ENGINE.chance(state)["pool"] == 65


def test_the_deal_is_one_private_draw_of_three_per_seat_in_seat_order():
    # The Deal: three cards each, seat 0 first; each draw is seen by its drawer only.
    state = ENGINE.setup({}, 3)
    specs = []
    while ENGINE.to_move(state) == [CHANCE]:
        specs.append(ENGINE.chance(state))
        state = ENGINE.apply(state, {"kind": "chance", "outcome": [0, 1, 2]})
    assert [(s["visible_to"], s["count"], s["pool"]) for s in specs] == [([0], 3, 70), ([1], 3, 67), ([2], 3, 64)]
    # Indices point into what is left, in canonical order: the first three cards each time.
    assert state["hands"] == [["RA", "R2", "R3"], ["R4", "R5", "R6"], ["R7", "R8", "R9"]]
    assert len(state["pool"]) == 61 and state["pool"][0] == "R10"
    assert ENGINE.to_move(state) == [1, 2]


def test_seat_zero_sits_left_of_the_dealer_and_attacks_first():
    # The Play: the player to the left of the dealer is the first attacker.
    state = deal(THREE_HANDS)
    assert state["attacker"] == 0
    assert ENGINE.view(state, None)["phase"] == "defend"


def test_every_defender_may_choose_at_once_and_the_attacker_waits():
    # The Play: the defenders lay their spells first; the attacker casts after.
    state = deal(THREE_HANDS)
    assert ENGINE.to_move(state) == [1, 2]
    state = defend(state, 2, "S2")
    assert ENGINE.to_move(state) == [1]
    state = defend(state, 1, "P2")
    assert ENGINE.to_move(state) == [0]
    assert ENGINE.view(state, None)["phase"] == "attack"


def test_defenders_may_choose_in_any_seat_order():
    a = defend(defend(deal(THREE_HANDS), 1, "P2"), 2, "S2")
    b = defend(defend(deal(THREE_HANDS), 2, "S2"), 1, "P2")
    assert a == b


def test_the_attacker_cannot_cast_before_every_defence_is_down():
    state = defend(deal(THREE_HANDS), 1, "P2")
    with pytest.raises(IllegalAction) as refused:
        attack(state, 0, "R2")
    assert refused.value.code == "waiting_for_defences"


def test_attack_passes_to_the_left_around_three_wizards():
    # The Play: after each round play passes to the left for a new attacker.
    state = deal(THREE_HANDS)
    attackers = []
    for _ in range(4):
        attackers.append(state["attacker"])
        a = state["attacker"]
        for seat in ENGINE.to_move(state):
            state = defend(state, seat, state["hands"][seat][0])
        state = attack(state, a, state["hands"][a][0])
    assert attackers == [0, 1, 2, 0]


def test_a_knocked_out_wizard_is_skipped_as_attacker_and_defender():
    # The End: a defeated wizard is out of the game, so rotation passes over them.
    state = deal([["R9", "R3", "R4"], ["L2", "P3", "P4"], ["S2", "S3", "S4"]])
    state = dict(state, health=[200, 10, 200])
    state = attack(defend(defend(state, 1, "L2"), 2, "S2"), 0, "R9")
    assert state["alive"] == [True, False, True]
    assert state["attacker"] == 2  # seat 1 is gone
    assert ENGINE.to_move(state) == [0]  # only seat 0 defends
    state = attack(defend(state, 0, state["hands"][0][0]), 2, state["hands"][2][0])
    assert state["attacker"] == 0


def test_a_knocked_out_wizard_cannot_act():
    state = deal([["R9", "R3", "R4"], ["L2", "P3", "P4"], ["S2", "S3", "S4"]])
    state = attack(defend(defend(dict(state, health=[200, 10, 200]), 1, "L2"), 2, "S2"), 0, "R9")
    with pytest.raises(IllegalAction) as refused:
        defend(state, 1, "P3")
    assert refused.value.code == "not_your_turn"


def test_no_other_seat_sees_a_defence_before_the_round_resolves():
    # The Play: defence spells are placed face down.
    state = defend(deal(THREE_HANDS), 1, "P2")
    for viewer in (None, 0, 2):
        view = ENGINE.view(state, viewer)
        assert view["players"][1]["defence"] is None
        assert view["players"][1]["has_defended"] is True
        assert "P2" not in repr(view)


def test_a_defender_sees_their_own_face_down_card():
    state = defend(deal(THREE_HANDS), 1, "P2")
    view = ENGINE.view(state, 1)
    assert view["my_defence"] == "P2"
    assert view["players"][1]["defence"] == "P2"


def test_the_attacker_still_cannot_see_defences_when_choosing():
    state = defend(defend(deal(THREE_HANDS), 1, "P2"), 2, "S2")
    view = ENGINE.view(state, 0)
    assert view["to_move"] == [0]
    assert "P2" not in repr(view) and "S2" not in repr(view)


def test_the_defences_are_revealed_once_the_attack_resolves():
    # The Play: the round is tallied with every spell on the table.
    state = attack(defend(defend(deal(THREE_HANDS), 1, "P2"), 2, "S2"), 0, "R2")
    revealed = ENGINE.view(state, None)["last_round"]["defences"]
    assert [(d["seat"], d["card"]) for d in revealed] == [(1, "P2"), (2, "S2")]


def test_the_log_line_for_a_defence_does_not_name_the_card():
    before = deal(THREE_HANDS)
    event = {"kind": "action", "seat": 2, "action": {"type": "defend", "card": "S3"}}
    line = ENGINE.describe(before, event, ENGINE.apply(before, event))
    assert line == "Seat 2 chose a defence."
