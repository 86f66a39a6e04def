"""The deal and the refill as private draws from an unknown pool (engine version 2).

Rulebook L18-21, The Deal: "Deal three cards to each player ... and leave the remaining
cards in a draw pile." L55-58, The Play: "Each player draws one card to have three in their
spell book (hand) again". Healing L67: "players draw cards to refill their hands".
Rulings (RULES.md, The Deal and Refill): the pile is an unknown pool in canonical order,
every card leaving it is a private draw seen only by its drawer; the refill keeps "one card
per wizard per pass while the pile lasts", so how many each wizard gets follows from the
pool's size, and each wizard then makes one draw of that many, next attacker first.
"""

import collections
import itertools
from fractions import Fraction

import pytest

from engines.base import CHANCE
from engines.dueling_wizards import ENGINE, ENGINE_V1, deck

from .helpers import defend, draw, position


def pending(state):
    """The draws still due as (seat, count, pool size), completing them one by one."""
    out = []
    while ENGINE.to_move(state) == [CHANCE]:
        spec = ENGINE.chance(state)
        assert spec["visible_to"] == [spec_seat(spec)]
        out.append((spec_seat(spec), spec["count"], spec["pool"]))
        state = ENGINE.apply(state, {"kind": "chance", "outcome": list(range(spec["count"]))})
    return out, state


def spec_seat(spec):
    return spec["visible_to"][0]


def resolve(state, defences, spell):
    for seat, card in defences.items():
        state = defend(state, seat, card)
    kind = "heal" if isinstance(spell, list) else "attack"
    body = {"type": "heal", "cards": spell} if kind == "heal" else {"type": "attack", "card": spell}
    return ENGINE.apply(state, {"kind": "action", "seat": state["attacker"], "action": body})


def test_each_draw_spec_names_the_drawer_the_count_and_the_pool_size_but_no_card():
    state = ENGINE.setup({}, 3)
    spec = ENGINE.chance(state)
    assert spec == {"kind": "draw", "pool": 70, "count": 3, "visible_to": [0], "label": "Seat 0 draws three spells"}


def test_draw_pool_is_the_unknown_pool_in_canonical_order_and_a_copy():
    state = draw(ENGINE.setup({"jokers": False}, 2), ["PK", "RA", "W9"])
    pool = ENGINE.draw_pool(state)
    assert pool == [c for c in deck.deck(False) if c not in ("PK", "RA", "W9")]
    pool.clear()
    assert len(state["pool"]) == 62


def test_outcome_indices_point_into_the_pool_as_it_stood_before_the_draw():
    # A draw of [2, 0] takes the third card and then the first of the pool's canonical order.
    state = ENGINE.setup({}, 2)
    state = ENGINE.apply(state, {"kind": "chance", "outcome": [2, 0, 69]})
    assert state["hands"][0] == ["RA", "R3", "X5"]
    state = ENGINE.apply(state, {"kind": "chance", "outcome": [0, 1, 2]})
    assert state["hands"][1] == ["R2", "R4", "R5"]


def test_after_an_attack_each_living_wizard_draws_one_card_next_attacker_first():
    # The Play: everyone draws back to three, play passes left: seat 1 attacks next.
    state = position([["R2", "R3", "R4"], ["P2", "P3", "P4"], ["S2", "S3", "S4"]], pile=["L2", "L3", "L4", "L5"])
    state = resolve(state, {1: "P2", 2: "S2"}, "R2")
    assert state["phase"] == "refill" and state["attacker"] == 1
    assert ENGINE.to_move(state) == [CHANCE]
    draws, after = pending(state)
    assert draws == [(1, 1, 4), (2, 1, 3), (0, 1, 2)]
    assert after["phase"] == "defend" and after["round"] == 11


def test_the_refill_labels_say_who_draws_how_many():
    state = position([["RK", "R7", "RA"], ["P2", "P3", "P4"]], pile=["L2", "L3", "L4", "L5"], health=[100, 200])
    state = resolve(state, {1: "P2"}, ["RK", "R7", "RA"])
    assert ENGINE.chance(state)["label"] == "Seat 1 draws one spell"
    state = draw(state, ["L5"])
    assert ENGINE.chance(state)["label"] == "Seat 0 draws three spells"


def test_a_healer_draws_all_three_cards_in_one_private_draw_after_the_others():
    state = position([["RK", "R7", "RA"], ["P2", "P3", "P4"]], pile=["L2", "L3", "L4", "L5"], health=[100, 200])
    draws, after = pending(resolve(state, {1: "P2"}, ["RK", "R7", "RA"]))
    assert draws == [(1, 1, 4), (0, 3, 3)]
    assert [len(h) for h in after["hands"]] == [3, 3]


@pytest.mark.parametrize(
    "pile_size, expected",
    [
        # Three wizards after a heal need 1 (next attacker), 1, 3 (the healer): one card
        # per wizard per pass while the pile lasts.
        (5, [(1, 1), (2, 1), (0, 3)]),
        (4, [(1, 1), (2, 1), (0, 2)]),
        (3, [(1, 1), (2, 1), (0, 1)]),
        (2, [(1, 1), (2, 1)]),
        (1, [(1, 1)]),
        (0, []),
    ],
)
def test_when_the_pool_runs_short_the_counts_follow_one_card_per_wizard_per_pass(pile_size, expected):
    pile = ["W2", "W3", "W4", "W5", "W6"][:pile_size]
    state = position([["RK", "R7", "RA"], ["P2", "P3", "P4"], ["S2", "S3", "S4"]], pile=pile, health=[100, 200, 200])
    state = resolve(state, {1: "P2", 2: "S2"}, ["RK", "R7", "RA"])
    draws, after = pending(state)
    assert [(seat, count) for seat, count, _ in draws] == expected
    assert sum(count for _, count, _ in draws) == min(pile_size, 5)
    assert after["pool"] == []


def test_a_knocked_out_wizard_draws_nothing():
    # The End: a defeated wizard is out of the game.
    state = position(
        [["R9", "R3", "R4"], ["L2", "P3", "P4"], ["S2", "S3", "S4"]], pile=["W2", "W3"], health=[200, 10, 200]
    )
    draws, _ = pending(resolve(state, {1: "L2", 2: "S2"}, "R9"))
    assert draws == [(2, 1, 2), (0, 1, 1)]


def test_the_deck_out_end_waits_until_the_refill_is_complete():
    # The End: "no more cards in the draw pile and any player is out of cards". Seat 1
    # draws the last card; only then is the pile empty with seat 2 holding nothing.
    state = position([["R2", "R3"], ["P2"], ["S2"]], pile=["W2"])
    state = resolve(state, {1: "P2", 2: "S2"}, "R2")
    assert state["phase"] == "refill" and ENGINE.result(state) is None
    event = {"kind": "chance", "outcome": [0]}
    after = ENGINE.apply(state, event)
    assert after["phase"] == "over" and ENGINE.result(after)["reason"] == "deck_out"
    assert after["hands"] == [["R3"], ["W2"], []]
    line = ENGINE.describe(state, event, after)
    assert line.startswith("Seat 1 draws one spell. The draw pile is spent and a wizard has no spell left:")


def test_with_nothing_left_to_draw_the_round_ends_without_a_draw():
    state = position([["R2", "R3"], ["P2", "P3"]])
    after = resolve(state, {1: "P2"}, "R2")
    assert after["phase"] == "defend" and ENGINE.chance(after) is None


def test_the_view_shows_hand_sizes_the_pool_size_the_discard_and_the_pending_draw():
    state = draw(ENGINE.setup({}, 2), ["R9", "R3", "R4"])
    for viewer in (None, 0, 1):
        view = ENGINE.view(state, viewer)
        assert [p["hand_size"] for p in view["players"]] == [3, 0]
        assert view["pile_size"] == 67
        assert view["draw"] == {"seat": 1, "count": 3}
        assert view["discard"] == []
    assert ENGINE.view(state, 0)["hand"] == ["R3", "R4", "R9"]
    assert ENGINE.view(state, None)["players"][0]["hand"] is None
    assert ENGINE.view(state, 1)["players"][0]["hand"] is None


def test_no_view_but_the_drawers_shows_the_cards_drawn():
    before = ENGINE.setup({}, 3)
    after = draw(before, ["WK", "X2", "L7"])
    for viewer in (None, 1, 2):
        text = repr(ENGINE.view(after, viewer))
        assert not any(f"'{c}'" in text for c in ("WK", "X2", "L7"))
    assert ENGINE.view(after, 0)["hand"] == ["L7", "WK", "X2"]


def test_a_draw_outcome_is_hidden_from_everyone_while_live_the_drawer_included():
    # The drawer sees their cards in their view; the indices would also count how many
    # cards before each one in canonical order sit in other hands (RULES.md).
    spec = ENGINE.chance(ENGINE.setup({}, 2))
    for viewer in (None, 0, 1):
        assert ENGINE.redact_chance(spec, [0, 1, 2], viewer) is None


def test_no_log_line_of_a_whole_duel_names_a_drawn_card():
    import random

    from engines.chance import draw as chance_draw

    names = [deck.card_name(c) for c in deck.SUITED_CARDS] + ["Joker"]
    for seed in range(20):
        rng = random.Random(seed)
        state = ENGINE.setup({}, 2 + seed % 2)
        while ENGINE.to_move(state):
            if ENGINE.to_move(state) == [CHANCE]:
                event = {"kind": "chance", "outcome": chance_draw(ENGINE.chance(state), rng.randrange)}
                after = ENGINE.apply(state, event)
                line = ENGINE.describe(state, event, after)
                assert not any(name in line for name in names), line
                # Another outcome of the same draw gives the same line: it depends on no card.
                other = {"kind": "chance", "outcome": chance_draw(ENGINE.chance(state), rng.randrange)}
                assert ENGINE.describe(state, other, ENGINE.apply(state, other)) == line
            else:
                seat = ENGINE.to_move(state)[0]
                event = {"kind": "action", "seat": seat, "action": ENGINE.random_action(state, seat, rng)}
                after = ENGINE.apply(state, event)
            state = after


# -- the same deal as a shuffled deck ---------------------------------------------------------


def _v2_refill_distribution(hands, pile, health, defences, spell):
    """Every equally likely way the private draws can fall, enumerated exactly."""
    start = resolve(position(hands, pile=pile, health=health), defences, spell)
    results = collections.Counter()

    def walk(state, weight):
        if ENGINE.to_move(state) != [CHANCE]:
            results[tuple(tuple(h) for h in state["hands"])] += weight
            return
        spec = ENGINE.chance(state)
        outcomes = list(itertools.permutations(range(spec["pool"]), spec["count"]))
        for outcome in outcomes:
            walk(ENGINE.apply(state, {"kind": "chance", "outcome": list(outcome)}), weight / len(outcomes))

    walk(start, Fraction(1))
    return results


def _v1_refill_distribution(hands, pile, health, defences, spell):
    """Version 1 dealing one card per wizard per pass from every order of the same pile."""
    results = collections.Counter()
    orders = list(itertools.permutations(pile))
    for order in orders:
        state = position(hands, pile=pile, health=health)
        state = {k: v for k, v in state.items() if k not in ("pool", "draws", "reversed")}
        state["pile"] = list(order)
        for seat, card in defences.items():
            state = ENGINE_V1.apply(state, {"kind": "action", "seat": seat, "action": {"type": "defend", "card": card}})
        body = {"type": "heal", "cards": spell} if isinstance(spell, list) else {"type": "attack", "card": spell}
        state = ENGINE_V1.apply(state, {"kind": "action", "seat": state["attacker"], "action": body})
        results[tuple(tuple(h) for h in state["hands"])] += Fraction(1, len(orders))
    return results


@pytest.mark.parametrize("pile", [["W2", "W3", "W4", "W5", "W6"], ["W2", "W3", "W4", "W5"], ["W2", "W3"]])
def test_private_draws_give_exactly_the_distribution_of_dealing_from_a_shuffled_pile(pile):
    # RULES.md, The Deal: drawing lazily is the same as dealing from a shuffled deck. Checked
    # exactly, against version 1's dealing from every order of the pile, for a heal with
    # three wizards (needs 1, 1 and 3, so the pile runs short in two of the cases).
    args = (
        [["RK", "R7", "RA"], ["P2", "P3", "P4"], ["S2", "S3", "S4"]],
        pile,
        [100, 200, 200],
        {1: "P2", 2: "S2"},
        ["RK", "R7", "RA"],
    )
    assert _v2_refill_distribution(*args) == _v1_refill_distribution(*args)
