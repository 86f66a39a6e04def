"""Exact odds of Wizarding Duels' chance events: coins, and the clash reveal's chance of a +3 or a 2+
(hypergeometric; every revealed card under Disadvantage), checked against the cards kept."""

from fractions import Fraction as F
from math import comb

from engines.wizarding_duels.rules import waiting
from engines.wizarding_duels.state import P, rank

from .helpers import E, playout


class Stop(Exception):
    pass


def first_chance(wanted, seed=3):
    """The state before the first chance event whose step ``wanted(step)`` of a seeded random game."""
    found = []

    def visit(before, event, after):
        if event["kind"] == "chance" and wanted(waiting(before)):
            found.append(before)
            raise Stop

    try:
        playout(seed, visit=visit)
    except Stop:
        return found[0]
    raise AssertionError("no such chance event in this game")


def first_reveal():
    return first_chance(lambda step: step["step"] == "draw" and step.get("dest") == "reveal")


def test_a_coin_gives_each_seat_one_chance_in_two():
    s = first_chance(lambda step: step["step"] == "coin")
    odds = E.chance_odds(s, [1])
    assert odds.p_outcome == F(1, 2)
    assert [(x.p, x.happened, x.favours) for x in odds.stakes] == [(F(1, 2), False, 0), (F(1, 2), True, 1)]


def test_a_plain_reveal_keeps_a_plus_three_or_a_two_plus_as_often_as_the_deck_holds_them():
    """WD-92 / A-09: with no Advantage one card is revealed and kept; the stake is a +3 or a 2+
    (ranks 3 and 4): good cards over the deck's size."""
    s = first_reveal()
    step = waiting(s)
    deck = P(s, step["seat"])["deck"]
    good = [i for i, c in enumerate(deck) if rank(s, c) >= 3]
    bad = [i for i, c in enumerate(deck) if rank(s, c) < 3]
    assert s["clash"][step["side"]]["adv"] == 0 and E.chance(s)["count"] == 1
    (stake,) = E.chance_odds(s, [good[0]]).stakes
    assert stake.p == F(len(good), len(deck)) and stake.happened
    assert (stake.favours, stake.hurts) == (step["seat"], 1 - step["seat"])
    assert not E.chance_odds(s, [bad[0]]).stakes[0].happened


def test_under_disadvantage_both_revealed_cards_must_be_strong():
    """WD-92: under Disadvantage 1 two cards are revealed and the weakest is kept: a +3 or a 2+ is kept
    only when both are, C(g, 2) / C(n, 2); under Advantage 1 either will do, 1 - C(n - g, 2) / C(n, 2)."""
    s = E.clone(first_reveal())
    step = waiting(s)
    step["n"] = 2
    deck = P(s, step["seat"])["deck"]
    n, g = len(deck), sum(1 for c in deck if rank(s, c) >= 3)
    good = [i for i, c in enumerate(deck) if rank(s, c) >= 3]
    bad = [i for i, c in enumerate(deck) if rank(s, c) < 3]
    s["clash"][step["side"]]["adv"] = -1
    (stake,) = E.chance_odds(s, [good[0], bad[0]]).stakes
    assert stake.p == F(comb(g, 2), comb(n, 2)) and not stake.happened
    s["clash"][step["side"]]["adv"] = 1
    (stake,) = E.chance_odds(s, [good[0], bad[0]]).stakes
    assert stake.p == 1 - F(comb(n - g, 2), comb(n, 2)) and stake.happened


def test_the_reveal_stake_agrees_with_the_card_kept_in_autoplayed_games():
    seen = []

    def visit(before, event, after):
        if event["kind"] != "chance":
            return
        odds = E.chance_odds(before, event["outcome"])
        assert 0 < odds.p_outcome <= 1 and all(0 < x.p < 1 for x in odds.stakes)
        step = waiting(before)
        if step["step"] == "draw" and step.get("dest") == "reveal" and odds.stakes:
            deck = P(before, step["seat"])["deck"]
            ranks = sorted(rank(before, deck[i]) for i in event["outcome"])
            kept_under_worst = ranks[0] if before["clash"][step["side"]]["adv"] < 0 else ranks[-1]
            assert odds.stakes[0].happened == (kept_under_worst >= 3)
            seen.append(1)

    for seed in range(2):
        playout(seed, visit=visit)
    assert seen
