"""Attack damage (rulebook: "The Play"), including the Joker ruling within one round.

The Joker reversal across rounds (engine version 2) is in test_joker_reversal.py."""

from engines.dueling_wizards import ENGINE

from .helpers import deal, health_lost
from .helpers import play_round as attack_round


def nine_of_rock_against(defence_card):
    state = deal([["R9", "P2", "P3"], [defence_card, "P5", "P6"]])
    return health_lost(state, attack_round(state, {1: defence_card}, "R9"), 1)


def test_rock_defending_a_nine_of_rock_takes_full_damage():
    # The Play, worked example: the same suit takes 9.
    assert nine_of_rock_against("R4") == 9


def test_scissors_defending_a_nine_of_rock_takes_one_and_a_half_times_damage():
    # The Play, worked example: the weaker suit takes full plus half, 13.5.
    assert nine_of_rock_against("S4") == 13.5


def test_lizard_defending_a_nine_of_rock_takes_double_damage():
    # The Play, worked example: the weakest suit takes double, 18.
    assert nine_of_rock_against("L4") == 18


def test_water_defending_a_nine_of_rock_takes_half_damage():
    # The Play, worked example: the stronger suit takes half, 4.5.
    assert nine_of_rock_against("W4") == 4.5


def test_paper_defending_a_nine_of_rock_takes_no_damage():
    # The Play, worked example: the strongest suit takes nothing.
    assert nine_of_rock_against("PA") == 0


def test_half_points_are_kept_exactly_in_the_state():
    state = deal([["R9", "P2", "P3"], ["S4", "P5", "P6"]])
    after = attack_round(state, {1: "S4"}, "R9")
    assert after["health"][1] == 200 - 27  # half-points: 100 - 13.5
    assert ENGINE.view(after, None)["players"][1]["health"] == 86.5


def test_the_rank_of_the_defending_card_does_not_matter():
    # The Play: only the defending suit counts, never its rank.
    assert nine_of_rock_against("SA") == nine_of_rock_against("SK") == 13.5


def test_face_cards_attack_for_ten_and_aces_for_one():
    # The Play: face cards attack with 10 points, Aces with 1.
    state = deal([["RK", "RA", "P3"], ["R4", "R5", "P6"]])
    assert health_lost(state, attack_round(state, {1: "R4"}, "RK"), 1) == 10
    assert health_lost(state, attack_round(state, {1: "R4"}, "RA"), 1) == 1


def test_each_of_two_defenders_takes_damage_by_their_own_suit():
    # The Play: with more than one defender each takes their own amount.
    state = deal([["R9", "P2", "P3"], ["L4", "P5", "P6"], ["W4", "P7", "P8"]])
    after = attack_round(state, {1: "L4", 2: "W4"}, "R9")
    assert health_lost(state, after, 1) == 18
    assert health_lost(state, after, 2) == 4.5
    assert health_lost(state, after, 0) == 0  # the attacker is never hurt


def test_a_joker_in_defence_turns_a_weaker_defence_into_a_stronger_one():
    # The Play (Jokers), platform ruling (issue 20): a Joker played reverses the circle
    # from its own round on, so the suited defence beside it is already mirrored:
    # weaker <-> stronger.
    state = deal([["R9", "P2", "P3"], ["S4", "P5", "P6"], ["X1", "P7", "P8"]])
    after = attack_round(state, {1: "S4", 2: "X1"}, "R9")
    assert after["last_round"]["defences"][0]["relation"] == "stronger"
    assert health_lost(state, after, 1) == 4.5


def test_a_joker_in_defence_turns_the_strongest_defence_into_the_weakest():
    # The Play (Jokers): strongest <-> weakest, so Paper now takes double.
    state = deal([["R9", "P2", "P3"], ["PA", "P5", "P6"], ["X1", "P7", "P8"]])
    after = attack_round(state, {1: "PA", 2: "X1"}, "R9")
    assert health_lost(state, after, 1) == 18


def test_a_joker_in_defence_turns_the_weakest_defence_into_the_strongest():
    state = deal([["R9", "P2", "P3"], ["L4", "P5", "P6"], ["X1", "P7", "P8"]])
    after = attack_round(state, {1: "L4", 2: "X1"}, "R9")
    assert health_lost(state, after, 1) == 0


def test_a_joker_leaves_a_same_suit_defence_at_full_damage():
    # The Play (Jokers): "same" has no mirror, so it stays at 1.
    state = deal([["R9", "P2", "P3"], ["R4", "P5", "P6"], ["X1", "P7", "P8"]])
    after = attack_round(state, {1: "R4", 2: "X1"}, "R9")
    assert health_lost(state, after, 1) == 9


def test_a_wizard_defending_with_a_joker_takes_the_full_attack():
    # The Play (Jokers), platform ruling: a Joker defence has no suit relation, x1.
    state = deal([["R9", "P2", "P3"], ["X1", "P5", "P6"]])
    after = attack_round(state, {1: "X1"}, "R9")
    assert after["last_round"]["defences"][0]["relation"] == "none"
    assert health_lost(state, after, 1) == 9


def test_a_joker_attack_deals_nothing_to_anyone():
    # The Play: Jokers are worth zero.
    state = deal([["X1", "P2", "P3"], ["L4", "P5", "P6"], ["X2", "P7", "P8"]])
    after = attack_round(state, {1: "L4", 2: "X2"}, "X1")
    assert after["health"] == [200, 200, 200]


def test_a_joker_attack_deals_nothing_even_on_a_reversed_circle():
    # The Play: Jokers are worth zero, whichever way the circle stands.
    state = deal([["X1", "P2", "P3"], ["L4", "P5", "P6"]])
    after = attack_round(dict(state, reversed=True), {1: "L4"}, "X1")
    assert after["health"] == [200, 200]


def test_health_stops_at_zero_and_a_wizard_at_zero_is_knocked_out():
    # The End: a wizard who reaches zero is defeated; health is never negative.
    state = deal([["RK", "P2", "P3"], ["L4", "P5", "P6"], ["W4", "P7", "P8"]])
    state = dict(state, health=[200, 10, 200])
    after = attack_round(state, {1: "L4", 2: "W4"}, "RK")
    assert after["health"][1] == 0
    assert after["alive"] == [True, False, True]
    assert after["last_round"]["knocked_out"] == [1]


def test_surviving_on_half_a_point_keeps_a_wizard_in():
    # The End: only reaching zero knocks a wizard out.
    state = deal([["R9", "P2", "P3"], ["W4", "P5", "P6"], ["RA", "P7", "P8"]])
    state = dict(state, health=[200, 10, 200])  # 5 HP against 4.5
    after = attack_round(state, {1: "W4", 2: "RA"}, "R9")
    assert after["health"][1] == 1
    assert after["alive"][1]
