"""Exact odds of Dueling Wizards' draws: hand-computed hypergeometric cases, and version 1's shuffle."""

import random
from fractions import Fraction as F
from math import factorial

from engines.base import CHANCE
from engines.chance import draw as random_outcome
from engines.chance import indices_for_cards
from engines.dueling_wizards import ENGINE
from engines.dueling_wizards.engine import DuelingWizards

from .helpers import draw


def test_the_deal_of_three_from_seventy_holds_a_spell_worth_10_251_times_in_391():
    """The Deck: 70 cards, of which 20 (10, J, Q, K of five suits) attack with 10. Three cards drawn
    miss them all with chance 50*49*48 / (70*69*68) = 117600/328440, so they hold one with 251/391."""
    state = ENGINE.setup({"jokers": True}, 2)
    outcome = indices_for_cards(ENGINE.draw_pool(state), ["RK", "P2", "X1"])
    odds = ENGINE.chance_odds(state, outcome)
    assert odds.p_outcome == F(1, 70 * 69 * 68)  # one ordered pick of three
    (stake,) = odds.stakes
    assert (stake.p, stake.happened, stake.favours, stake.hurts) == (F(251, 391), True, 0, 1)
    missed = ENGINE.chance_odds(state, indices_for_cards(ENGINE.draw_pool(state), ["RA", "P2", "X1"]))
    assert not missed.stakes[0].happened
    assert missed.luck() == {0: F(-251, 391), 1: F(251, 391)}


def test_the_second_draw_counts_only_the_cards_still_in_the_pool():
    """After seat 0 drew two of the twenty 10s and an Ace, seat 1 draws three of the 67 left, 18 of them
    worth 10: it misses with 49*48*47 / (67*66*65)."""
    state = draw(ENGINE.setup({"jokers": True}, 3), ["RK", "PQ", "SA"])
    (stake,) = ENGINE.chance_odds(state, [0, 1, 2]).stakes
    assert stake.p == 1 - F(49 * 48 * 47, 67 * 66 * 65)
    assert (stake.favours, stake.hurts) == (1, None)  # three wizards: nobody singled out as hurt


def test_version_1s_shuffle_is_one_order_of_n_factorial_with_no_stake():
    v1 = DuelingWizards(version="1")
    state = v1.setup({"jokers": False}, 2)
    odds = v1.chance_odds(state, list(range(65)))
    assert odds.p_outcome == F(1, factorial(65)) and odds.stakes == ()


def test_the_stake_agrees_with_the_cards_that_reached_the_hand_in_autoplayed_games():
    rng = random.Random(19)
    checked = 0
    for seats in (2, 3):
        state = ENGINE.setup({"jokers": True}, seats)
        while ENGINE.to_move(state):
            movers = ENGINE.to_move(state)
            if movers == [CHANCE]:
                outcome = random_outcome(ENGINE.chance(state), lambda n: int(rng.random() * n))
                odds = ENGINE.chance_odds(state, outcome)
                seat = state["draws"][0][0]
                after = ENGINE.apply(state, {"kind": "chance", "outcome": outcome})
                new = [c for c in after["hands"][seat] if c not in state["hands"][seat]]
                for s in odds.stakes:
                    checked += 1
                    assert 0 < s.p < 1
                    assert s.happened == any(c[1:] in ("10", "J", "Q", "K") for c in new)
                state = after
            else:
                action = ENGINE.bot_action("random", state, movers[0], rng)
                state = ENGINE.apply(state, {"kind": "action", "seat": movers[0], "action": action})
    assert checked > 10
