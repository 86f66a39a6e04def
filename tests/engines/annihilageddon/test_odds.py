"""Exact odds of Annihilageddon's chance events: the Line-Up's Mayhem cards, who goes first, a hand
with a bought card (hypergeometric), and agreement with the cards that actually came up."""

import random
from fractions import Fraction as F

from engines import registry
from engines.annihilageddon.cards import CARDS
from engines.base import CHANCE
from engines.chance import draw

E = registry.get("annihilageddon")


def until(state, label_start, rng=None):
    """Play (random bots, random outcomes) until the pending chance event's label starts with ``label_start``."""
    rng = rng or random.Random(0)
    for _ in range(500):
        movers = E.to_move(state)
        if movers == [CHANCE]:
            if E.chance(state).get("label", "").startswith(label_start):
                return state
            state = E.apply(
                state, {"kind": "chance", "outcome": draw(E.chance(state), lambda n: int(rng.random() * n))}
            )
        else:
            state = E.apply(
                state, {"kind": "action", "seat": movers[0], "action": E.bot_action("random", state, movers[0], rng)}
            )
    raise AssertionError(f"no chance event {label_start!r}")


def test_the_first_line_up_card_is_a_mayhem_20_times_in_124():
    """The main deck holds 104 main cards and 20 Mayhems (AN L61-80): one card turned, 20/124 = 5/31."""
    state = until(E.setup({}, 2), "Line-Up refill")
    pool = E.draw_pool(state)
    assert len(pool) == 124
    mayhem = next(i for i, c in enumerate(pool) if CARDS[c]["kind"] == "mayhem")
    odds = E.chance_odds(state, [mayhem])
    assert odds.p_outcome == F(1, 124)
    (stake,) = odds.stakes
    assert (stake.p, stake.happened, stake.favours, stake.hurts) == (F(5, 31), True, None, None)
    assert odds.luck() == {}  # a Mayhem strikes the table: no seat is favoured


def test_who_goes_first_is_one_seat_in_n_and_a_starting_hand_has_no_stake():
    """AN L94: a starting deck is 6 Glyphs, a Wand and 3 Fizzles; nothing in it was bought, so drawing
    a bought card is impossible and decides nothing."""
    state = until(E.setup({}, 3), "Who goes first")
    odds = E.chance_odds(state, [1])
    assert odds.p_outcome == F(1, 3)
    assert [(s.p, s.happened) for s in odds.stakes] == [(F(1, 3), False), (F(1, 3), True), (F(1, 3), False)]
    state = until(state, "Seat")
    assert E.chance_odds(state, [0, 1, 2, 3, 4]).stakes == ()


def test_a_five_card_draw_from_ten_with_two_bought_cards_holds_one_7_times_in_9():
    """Hypergeometric: no bought card among five of ten with two bought is C(8,5)/C(10,5) = 56/252."""
    state = until(E.setup({}, 2), "Seat 0 draws 5")
    state = E.clone(state)
    pool = state["players"][0]["pool"]
    pool[:2] = ["gutter-comet", "snot-rocket"]  # two bought cards in place of two Glyphs (set-up only)
    pool.sort()
    picks = [i for i, c in enumerate(pool) if c in ("glyph", "fizzle")][:5]
    (stake,) = E.chance_odds(state, picks).stakes
    assert (stake.p, stake.happened, stake.favours, stake.hurts) == (F(7, 9), False, 0, 1)
    assert E.chance_odds(state, [pool.index("snot-rocket")] + picks[:4]).stakes[0].happened


def test_the_stakes_agree_with_the_cards_that_came_up_in_autoplayed_games():
    rng = random.Random(19)
    checked = 0
    for seats in (2, 3):
        state = E.setup({}, seats)
        for _ in range(1500):
            movers = E.to_move(state)
            if not movers:
                break
            if movers == [CHANCE]:
                outcome = draw(E.chance(state), lambda n: int(rng.random() * n))
                odds = E.chance_odds(state, outcome)
                assert 0 < odds.p_outcome <= 1
                need = state["need"]
                if "zone" in need:
                    drawn = [E.draw_pool(state)[i] for i in outcome]
                    for s in odds.stakes:
                        checked += 1
                        assert 0 < s.p < 1
                        if "Mayhem" in s.label:
                            assert s.happened == any(CARDS[c]["kind"] == "mayhem" for c in drawn)
                        else:
                            assert s.happened == any((CARDS[c].get("cost") or 0) > 0 for c in drawn)
                state = E.apply(state, {"kind": "chance", "outcome": outcome})
            else:
                action = E.bot_action(E.bots[0], state, movers[0], rng)
                state = E.apply(state, {"kind": "action", "seat": movers[0], "action": action})
    assert checked > 10
