"""engines.odds itself: the probability of one outcome of each chance kind, the hypergeometric tail,
the sign of luck, and the JSON the pages read."""

from fractions import Fraction as F
from math import factorial

import pytest

from engines.odds import (
    ChanceOdds,
    Stake,
    hypergeometric_at_least,
    uniform_outcome_probability,
)


def test_one_outcome_of_dice_is_one_face_per_die():
    assert uniform_outcome_probability({"kind": "dice", "dice": [[1, 6], [2, 7]]}) == F(1, 36)
    assert uniform_outcome_probability({"kind": "dice", "dice": [[1, 10], [1, 10]]}) == F(1, 100)
    assert uniform_outcome_probability({"kind": "dice", "dice": [[0, 1]]}) == F(1, 2)


def test_one_shuffle_is_one_permutation_and_one_draw_one_ordered_pick():
    assert uniform_outcome_probability({"kind": "shuffle", "size": 24}) == F(1, factorial(24))
    assert uniform_outcome_probability({"kind": "draw", "pool": 10, "count": 3}) == F(1, 10 * 9 * 8)


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError):
        uniform_outcome_probability({"kind": "coin"})


def test_at_least_one_five_from_a_ten_card_element_deck():
    """SpellCaster's element deck holds one 5 in ten cards: one card finds it 1/10 of the time, three
    cards 1 - C(9,3)/C(10,3) = 1 - 84/120 = 3/10, ten cards always."""
    assert hypergeometric_at_least(10, 1, 1) == F(1, 10)
    assert hypergeometric_at_least(10, 1, 3) == F(3, 10)
    assert hypergeometric_at_least(10, 1, 10) == 1
    # three 3s: at least two of them in four cards = (C(3,2)C(7,2) + C(3,3)C(7,1)) / C(10,4) = 70/210
    assert hypergeometric_at_least(10, 3, 4, at_least=2) == F(1, 3)
    assert hypergeometric_at_least(10, 0, 3) == 0


def test_a_draw_bigger_than_its_pool_is_refused():
    with pytest.raises(ValueError):
        hypergeometric_at_least(5, 1, 6)


def test_a_stake_that_happened_is_luck_for_the_seat_it_favours_and_against_the_seat_it_hurts():
    dodge = Stake(label="dodges", p=F(1, 4), happened=True, favours=0, hurts=1)
    assert dodge.luck() == {0: F(3, 4), 1: F(-3, 4)}
    missed = Stake(label="dodges", p=F(1, 4), happened=False, favours=0, hurts=1)
    assert missed.luck() == {0: F(-1, 4), 1: F(1, 4)}
    assert Stake(label="a Mayhem turns up", p=F(1, 5), happened=True).luck() == {}


def test_luck_over_every_outcome_averages_to_zero():
    """Happened minus expected: weighted by the stake's own probability, nobody is lucky on average."""
    p = F(7, 18)
    average = p * Stake("x", p, True, 0, 1).luck()[0] + (1 - p) * Stake("x", p, False, 0, 1).luck()[0]
    assert average == 0


def test_odds_add_their_stakes_luck_and_read_as_json():
    odds = ChanceOdds(
        p_outcome=F(1, 36),
        stakes=(
            Stake(label="escapes", p=F(7, 18), happened=True, favours=0, hurts=1),
            Stake(label="catches", p=F(1, 6), happened=True, favours=0, hurts=1),
        ),
    )
    assert odds.luck() == {0: F(13, 9), 1: F(-13, 9)}
    data = odds.as_json()
    assert data["p_outcome"] == {"exact": "1/36", "value": 0.027778}
    assert [s["p"]["exact"] for s in data["stakes"]] == ["7/18", "1/6"]
    assert data["luck"] == {"0": {"exact": "13/9", "value": 1.444444}, "1": {"exact": "-13/9", "value": -1.444444}}
