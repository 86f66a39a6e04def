"""Healing spells (rulebook: "Healing")."""

import copy

import pytest

from engines.base import IllegalAction
from engines.dueling_wizards import ENGINE

from .helpers import act, deal, heal_round


def wounded(state, hp):
    """Seat 0 at ``hp`` health (half-points in the state)."""
    health = list(state["health"])
    health[0] = int(hp * 2)
    return dict(state, health=health)


def healed_by(before, after):
    return (after["health"][0] - before["health"][0]) / 2


KING_SEVEN_ACE = ["RK", "R7", "RA"]


def test_king_seven_and_ace_of_one_suit_heal_eighteen():
    # Healing: the spell heals the sum of its three cards; K + 7 + A = 18.
    state = wounded(deal([KING_SEVEN_ACE, ["S4", "P5", "P6"]]), 50)
    after = heal_round(state, {1: "S4"}, KING_SEVEN_ACE)
    assert healed_by(state, after) == 18


def test_king_seven_and_ace_heal_only_nine_against_a_stronger_defence():
    # Healing: a defence of a stronger suit than the healing suit halves it (18 -> 9).
    state = wounded(deal([KING_SEVEN_ACE, ["W4", "P5", "P6"]]), 50)
    after = heal_round(state, {1: "W4"}, KING_SEVEN_ACE)
    assert healed_by(state, after) == 9
    assert after["last_round"]["heal_halved"] is True


def test_a_strongest_defence_also_counts_as_stronger_and_halves_the_healing():
    # Healing: "stronger" covers both stronger suits (Water and Paper against Rock).
    state = wounded(deal([KING_SEVEN_ACE, ["PA", "P5", "P6"]]), 50)
    after = heal_round(state, {1: "PA"}, KING_SEVEN_ACE)
    assert healed_by(state, after) == 9


def test_one_stronger_defence_among_two_is_enough_to_halve_the_healing():
    # Healing: "if any of the defenders played a stronger suit".
    state = wounded(deal([KING_SEVEN_ACE, ["S4", "P5", "P6"], ["W4", "P7", "P8"]]), 50)
    after = heal_round(state, {1: "S4", 2: "W4"}, KING_SEVEN_ACE)
    assert healed_by(state, after) == 9


def test_a_halved_odd_healing_keeps_the_half_point():
    # Healing: the total is divided by two; K + 7 + 2 = 19 halves to 9.5 exactly.
    state = wounded(deal([["RK", "R7", "R2"], ["W4", "P5", "P6"]]), 50)
    after = heal_round(state, {1: "W4"}, ["RK", "R7", "R2"])
    assert healed_by(state, after) == 9.5
    assert ENGINE.view(after, None)["players"][0]["health"] == 59.5


def test_healing_never_raises_health_above_one_hundred():
    # Healing: health above 100 is set back to 100.
    state = wounded(deal([KING_SEVEN_ACE, ["S4", "P5", "P6"]]), 90)
    after = heal_round(state, {1: "S4"}, KING_SEVEN_ACE)
    assert after["health"][0] == 200
    assert after["last_round"]["healed"] == 20  # half-points: only 10 HP were gained


def test_defenders_take_no_damage_in_a_healing_round():
    # Healing: the spell is cast instead of attacking.
    state = wounded(deal([KING_SEVEN_ACE, ["L4", "P5", "P6"]]), 50)
    after = heal_round(state, {1: "L4"}, KING_SEVEN_ACE)
    assert after["health"][1] == 200


def test_the_three_healing_cards_may_be_given_in_any_order():
    state = wounded(deal([KING_SEVEN_ACE, ["S4", "P5", "P6"]]), 50)
    for order in (["RA", "RK", "R7"], ["R7", "RA", "RK"]):
        assert healed_by(state, heal_round(state, {1: "S4"}, order)) == 18


def test_the_heal_is_listed_once_with_its_cards_in_canonical_order():
    state = act(deal([KING_SEVEN_ACE, ["S4", "P5", "P6"]]), 1, {"type": "defend", "card": "S4"})
    heals = [a for a in ENGINE.legal_actions(state, 0) if a["type"] == "heal"]
    assert heals == [{"type": "heal", "cards": ["RA", "R7", "RK"]}]


def test_no_heal_is_offered_without_three_cards_of_one_suit():
    state = act(deal([["RK", "R7", "PA"], ["S4", "P5", "P6"]]), 1, {"type": "defend", "card": "S4"})
    assert [a["type"] for a in ENGINE.legal_actions(state, 0)] == ["attack"] * 3


def test_healing_with_mixed_suits_is_refused_and_leaves_the_state_alone():
    # Healing: all three cards must be of the same suit.
    state = act(deal([["RK", "R7", "PA"], ["S4", "P5", "P6"]]), 1, {"type": "defend", "card": "S4"})
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "heal", "cards": ["RK", "R7", "PA"]})
    assert refused.value.code == "not_three_of_a_suit"
    assert state == snapshot


def test_a_joker_cannot_be_part_of_a_healing_spell():
    # Healing, platform ruling: a Joker has no suit, so it never completes a suit.
    state = act(deal([["RK", "R7", "X1"], ["S4", "P5", "P6"]]), 1, {"type": "defend", "card": "S4"})
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "heal", "cards": ["RK", "R7", "X1"]})
    assert refused.value.code == "not_three_of_a_suit"


def test_a_heal_needs_exactly_three_cards():
    state = act(deal([KING_SEVEN_ACE, ["S4", "P5", "P6"]]), 1, {"type": "defend", "card": "S4"})
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "heal", "cards": ["RK", "R7"]})
    assert refused.value.code == "heal_needs_three_cards"


def test_no_heal_is_possible_with_fewer_than_three_cards_in_hand():
    # Healing (ruling): the spell needs all three cards of a full spell book, so once
    # the pile is spent and a hand shrinks, healing is over.
    state = act(deal([KING_SEVEN_ACE, ["S4", "P5", "P6"]]), 1, {"type": "defend", "card": "S4"})
    state["hands"] = [["R7", "RK"]] + state["hands"][1:]
    state["discard"] = state["discard"] + ["RA"]
    assert [a["type"] for a in ENGINE.legal_actions(state, 0)] == ["attack", "attack"]
    with pytest.raises(IllegalAction) as refused:
        act(state, 0, {"type": "heal", "cards": ["RK", "R7", "RA"]})
    assert refused.value.code == "heal_needs_three_cards"


def test_a_joker_among_the_defences_makes_a_weaker_defence_halve_the_healing():
    # Healing + Jokers, platform ruling: the Joker reverses the circle from its own round,
    # so the halving test is mirrored too: a suit weaker than the healing suit
    # (Scissors against Rock) halves it.
    state = wounded(deal([KING_SEVEN_ACE, ["S4", "P5", "P6"], ["X1", "P7", "P8"]]), 50)
    after = heal_round(state, {1: "S4", 2: "X1"}, KING_SEVEN_ACE)
    assert healed_by(state, after) == 9


def test_a_joker_among_the_defences_stops_a_stronger_defence_halving_the_healing():
    state = wounded(deal([KING_SEVEN_ACE, ["W4", "P5", "P6"], ["X1", "P7", "P8"]]), 50)
    after = heal_round(state, {1: "W4", 2: "X1"}, KING_SEVEN_ACE)
    assert healed_by(state, after) == 18


def test_a_lone_joker_defence_does_not_halve_the_healing():
    # A Joker has no suit, so it is neither stronger nor weaker than the healing suit.
    state = wounded(deal([KING_SEVEN_ACE, ["X1", "P5", "P6"]]), 50)
    assert healed_by(state, heal_round(state, {1: "X1"}, KING_SEVEN_ACE)) == 18


def test_the_healer_draws_three_new_cards():
    # Healing: after the spell players draw to refill their hands.
    state = wounded(deal([KING_SEVEN_ACE, ["S4", "P5", "P6"]]), 50)
    after = heal_round(state, {1: "S4"}, KING_SEVEN_ACE, draws=["L2", "L3", "L4", "L5"])
    # Seat 1 attacks next and draws first: L2; then seat 0 draws L3, L4, L5.
    assert after["hands"][1] == ["P5", "P6", "L2"]
    assert after["hands"][0] == ["L3", "L4", "L5"]
