"""The Janken Deck and the circle of suits (rulebook: "The Deck", "The Play")."""

import pytest

from engines.dueling_wizards import deck


def test_the_full_janken_deck_has_seventy_cards_of_which_five_are_jokers():
    # GAME-FACTS: five suits of A, 2-10, J, Q, K plus five Jokers.
    assert len(deck.deck(jokers=True)) == 70
    assert len(set(deck.deck(jokers=True))) == 70
    assert sum(1 for card in deck.deck(True) if deck.is_joker(card)) == 5


def test_playing_without_jokers_leaves_sixty_five_suited_cards():
    cards = deck.deck(jokers=False)
    assert len(cards) == 65
    assert not any(deck.is_joker(card) for card in cards)


def test_canonical_order_runs_rock_paper_scissors_lizard_water_ace_to_king_then_jokers():
    cards = deck.deck(True)
    assert cards[:13] == ("RA", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "RJ", "RQ", "RK")
    assert [cards[13 * i][0] for i in range(5)] == ["R", "P", "S", "L", "W"]
    assert cards[64] == "WK"
    assert cards[65:] == ("X1", "X2", "X3", "X4", "X5")
    assert [deck.INDEX[c] for c in cards] == list(range(70))


@pytest.mark.parametrize(
    "card, value",
    [("RA", 1), ("P2", 2), ("S9", 9), ("L10", 10), ("WJ", 10), ("RQ", 10), ("PK", 10), ("X1", 0)],
)
def test_rank_values_are_ace_one_numbers_face_value_faces_ten_and_jokers_zero(card, value):
    # The Play: face cards attack with 10, numbers with their rank, Aces 1, Jokers 0.
    assert deck.rank_value(card) == value


def test_cards_have_names_people_read():
    assert deck.card_name("R9") == "9 of Rock"
    assert deck.card_name("WK") == "King of Water"
    assert deck.card_name("PA") == "Ace of Paper"
    assert deck.card_name("X4") == "Joker"
    assert deck.cards_name(["RA", "R7", "RK"]) == "King, 7 and Ace of Rock"


def test_a_joker_has_no_suit_and_every_other_card_has_one():
    assert deck.suit("X2") is None
    assert deck.suit("L7") == "L"
    assert deck.suit_name("L") == "Lizard"


def test_scissors_and_lizard_are_weaker_than_rock_and_lizard_is_the_weakest():
    # The Play: Scissors and Lizard are both weaker than Rock; Lizard is weakest.
    assert deck.relation("R", "S") == "weaker"
    assert deck.relation("R", "L") == "weakest"


def test_paper_and_water_are_stronger_than_rock_and_paper_is_the_strongest():
    # The Play: Paper and Water both beat Rock; Paper is strongest against it.
    assert deck.relation("R", "W") == "stronger"
    assert deck.relation("R", "P") == "strongest"
    assert deck.relation("R", "R") == "same"


@pytest.mark.parametrize("attack", deck.CIRCLE)
def test_every_suit_beats_the_next_two_around_the_circle(attack):
    # GAME-FACTS: against attack X, X+1 is weaker, X+2 weakest, X-1 stronger, X-2 strongest.
    i = deck.CIRCLE.index(attack)
    around = [deck.CIRCLE[(i + k) % 5] for k in range(5)]
    assert [deck.relation(attack, d) for d in around] == ["same", "weaker", "weakest", "strongest", "stronger"]


@pytest.mark.parametrize("a", deck.SUITS)
@pytest.mark.parametrize("b", deck.SUITS)
def test_relations_mirror_each_other(a, b):
    # If b is weaker against a, then a is stronger against b, and so on.
    assert deck.relation(b, a) == deck.INVERTED[deck.relation(a, b)]


def test_the_multipliers_are_one_one_and_a_half_two_a_half_and_zero():
    # The Play: same 1, weaker 1.5, weakest 2, stronger 0.5, strongest 0.
    assert [deck.multiplier(r) for r in ("same", "weaker", "weakest", "stronger", "strongest")] == [
        1,
        1.5,
        2,
        0.5,
        0,
    ]


def test_a_joker_has_no_relation_to_any_suit():
    assert deck.relation(None, "R") == "none"
    assert deck.relation("R", None) == "none"


def test_an_arranged_shuffle_deals_the_requested_hands_and_is_a_permutation():
    outcome = deck.arranged_shuffle([["R9", "RA", "X1"], ["SK", "S2", "L3"]], then=["W4"])
    assert sorted(outcome) == list(range(70))
    cards = [deck.ALL_CARDS[i] for i in outcome]
    assert cards[:7] == ["R9", "SK", "RA", "S2", "X1", "L3", "W4"]


def test_an_arranged_shuffle_refuses_a_joker_when_jokers_are_out():
    with pytest.raises(ValueError):
        deck.arranged_shuffle([["R9", "RA", "X1"], ["SK", "S2", "L3"]], jokers=False)
