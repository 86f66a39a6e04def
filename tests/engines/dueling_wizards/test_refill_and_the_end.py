"""Drawing back up to three, and how a duel ends (rulebook: "The Play", "Healing", "The End").

The draws themselves (one private draw per wizard, counts and order) are checked event by
event in test_private_draws.py; here the refill is completed by the helpers, drawing the
pile's cards in the order listed."""

import copy

import pytest

from engines.base import IllegalAction
from engines.dueling_wizards import ENGINE

from .helpers import act, play_round, position


def test_wizards_draw_back_up_to_three_starting_with_the_next_attacker():
    # The Play: each player draws to have three again; ruling: the next attacker
    # draws first and the attacker who just cast draws last.
    state = position([["R2", "R3", "R4"], ["P2", "P3", "P4"], ["S2", "S3", "S4"]], pile=["L2", "L3", "L4", "L5"])
    after = play_round(state, {1: "P2", 2: "S2"}, "R2")
    assert after["hands"] == [["R3", "R4", "L4"], ["P3", "P4", "L2"], ["S3", "S4", "L3"]]
    assert after["pool"] == ["L5"]


def test_a_short_pile_is_drawn_one_card_at_a_time_in_turn_order():
    # The Play (refill ruling): one card per wizard per pass, while the pile lasts.
    state = position([["R2", "R3", "R4"], ["P2", "P3", "P4"], ["S2", "S3", "S4"]], pile=["L2", "L3"])
    after = play_round(state, {1: "P2", 2: "S2"}, "R2")
    assert [len(h) for h in after["hands"]] == [2, 3, 3]
    assert after["pool"] == []
    assert after["phase"] == "defend"  # everyone still holds a spell


def test_a_healer_short_of_cards_draws_in_turn_with_the_others():
    # Healing + refill ruling: passes go round, so the healer gets what is left.
    state = position([["RK", "R7", "RA"], ["P2", "P3", "P4"]], pile=["L2", "L3", "L4"], health=[100, 200])
    state = act(state, 1, {"type": "defend", "card": "P2"})
    after = act(state, 0, {"type": "heal", "cards": ["RK", "R7", "RA"]})
    assert after["hands"] == [["L3", "L4"], ["P3", "P4", "L2"]]


def test_a_knocked_out_wizards_spell_book_is_discarded():
    # The End: a defeated wizard is out; ruling: their remaining cards leave play.
    state = position(
        [["R9", "R3", "R4"], ["L2", "P3", "P4"], ["S2", "S3", "S4"]], pile=["W2", "W3"], health=[200, 10, 200]
    )
    after = play_round(state, {1: "L2", 2: "S2"}, "R9")
    assert after["hands"][1] == []
    assert {"P3", "P4", "L2"} <= set(after["discard"])
    # Only the living draw: seat 2 (next attacker), then seat 0.
    assert after["hands"][2] == ["S3", "S4", "W2"]
    assert after["hands"][0] == ["R3", "R4", "W3"]


def test_an_empty_pile_does_not_end_the_duel_while_everyone_still_holds_a_spell():
    # The End: the pile being empty is not enough; someone must be out of cards.
    state = position([["R2", "R3"], ["P2", "P3"]])
    after = play_round(state, {1: "P2"}, "R2")
    assert after["phase"] == "defend"
    assert ENGINE.to_move(after) == [0]


def test_the_duel_ends_when_the_pile_is_empty_and_a_wizard_has_no_spell_left():
    # The End: no draw pile and a player with nothing to attack or defend with.
    state = position([["R2", "R3"], ["P2"]], health=[150, 200])
    after = play_round(state, {1: "P2"}, "R2")
    assert after["phase"] == "over"
    assert ENGINE.to_move(after) == []
    assert ENGINE.result(after)["reason"] == "deck_out"


def test_at_a_deck_out_the_wizard_with_the_most_health_wins():
    # The End: then the player with the most health points wins.
    state = position([["R2", "R3"], ["P2"]], health=[150, 200])
    result = ENGINE.result(play_round(state, {1: "P2"}, "R2"))
    assert result["placements"] == [2, 1]
    assert result["winners"] == [1]


def test_equal_health_at_a_deck_out_shares_first_place():
    # The End (ruling): wizards level on health share the placement.
    state = position([["R2"], ["P2"]], health=[120, 120])
    after = play_round(state, {1: "P2"}, "R2")  # Paper is strongest against Rock: no damage
    result = ENGINE.result(after)
    assert result["placements"] == [1, 1]
    assert result["winners"] == [0, 1]
    assert result["scores"] == [60, 60]


def test_the_last_wizard_standing_wins_even_with_cards_left_in_the_pile():
    # The End: the last player with health left is the winner.
    state = position([["RK", "R3", "R4"], ["L2", "P3", "P4"]], pile=["W2", "W3"], health=[200, 20])
    after = play_round(state, {1: "L2"}, "RK")
    assert after["phase"] == "over"
    assert ENGINE.result(after)["reason"] == "last_standing"
    assert ENGINE.result(after)["winners"] == [0]


def test_a_three_wizard_duel_goes_on_after_the_first_knock_out():
    state = position(
        [["R9", "R3", "R4"], ["L2", "P3", "P4"], ["S2", "S3", "S4"]], pile=["W2", "W3"], health=[200, 10, 200]
    )
    after = play_round(state, {1: "L2", 2: "S2"}, "R9")
    assert after["phase"] == "defend"
    assert ENGINE.result(after) is None


def test_nothing_can_happen_after_the_end():
    # The End: once the duel is decided no spell is cast.
    state = position([["RK", "R3", "R4"], ["L2", "P3", "P4"]], health=[200, 20])
    over = play_round(state, {1: "L2"}, "RK")
    snapshot = copy.deepcopy(over)
    for event in (
        {"kind": "action", "seat": 1, "action": {"type": "defend", "card": "P3"}},
        {"kind": "action", "seat": 0, "action": {"type": "attack", "card": "R3"}},
        {"kind": "chance", "outcome": [0]},
    ):
        with pytest.raises(IllegalAction) as refused:
            ENGINE.apply(over, event)
        assert refused.value.code == "game_over"
    assert over == snapshot
