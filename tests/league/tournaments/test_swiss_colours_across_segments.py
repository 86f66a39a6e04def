"""Large fields are paired in segments; their colours must not pay for it.

A large score group is cut into chunks paired apart, so one chunk may have to pair two
players due the same seat while the next chunk has the opposite surplus. The segmented
pairing is repaired (``swiss._repair_colours``: exchanges of opponents between two pairs,
then the pairs still costing colours or crossing score groups paired again together);
these tests hold it to the complete graph's colour cost and to the cost order."""

import random
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import league.tournaments.swiss as swiss
from league.tournaments.swiss import TIERS, SwissOptions, pair_round

from .test_swiss_pairing import P, Tournament

ABOVE_COLOUR = TIERS[: TIERS.index("colour")]


def test_two_chunks_of_one_score_group_with_opposite_seat_wishes_pair_across_the_cut():
    # One score group of eight cut into two chunks of four (0, 1, 4, 5 and 2, 3, 6, 7).
    # Everyone in the first chunk sat second last time, everyone in the second sat first,
    # so each chunk alone must pair two players due the same seat twice over.
    players = [P(i, 1, 100 - i, opponents=[100 + i], seats=[i in (2, 3, 6, 7)]) for i in range(8)]
    rnd = pair_round(players, SwissOptions(exact_limit=0, segment_size=4))
    assert rnd.method == "segmented:4"
    assert rnd.costs["colour"] == 0
    assert rnd.costs["colour"] == pair_round(players).costs["colour"]
    for p in rnd.pairings:
        assert {p.first, p.second} & {0, 1, 4, 5} and {p.first, p.second} & {2, 3, 6, 7}


@cache
def field_after_four_rounds(size, seed):
    t = Tournament(range(size), seed=seed)
    for _ in range(4):
        t.play(pair_round(t.players()))
    return tuple(t.players())


@cache
def whole_field_pairing(size, seed):
    players = field_after_four_rounds(size, seed)
    return pair_round(players, SwissOptions(exact_limit=len(players)))


def test_a_thousand_player_round_in_segments_costs_no_more_colour_than_the_complete_graph():
    players = field_after_four_rounds(1000, 0)
    split = pair_round(players)
    exact = whole_field_pairing(1000, 0)
    assert split.method.startswith("segmented") and exact.method == "exact"
    for tier in ABOVE_COLOUR:
        assert split.costs[tier] == exact.costs[tier], tier
    assert split.costs["colour"] <= exact.costs["colour"]


def test_the_same_round_costs_more_colour_without_the_repair_or_with_its_first_step_only(monkeypatch):
    # Guards the test above from passing on a field that segments pair as well anyway,
    # and shows that the exchanges of two pairs alone do not reach the complete graph.
    players = field_after_four_rounds(1000, 0)
    exact = whole_field_pairing(1000, 0)
    monkeypatch.setattr(swiss, "_repair_knots", lambda f, pairs, prune: pairs)
    assert pair_round(players).costs["colour"] > exact.costs["colour"]
    monkeypatch.setattr(swiss, "_swap_colours", lambda f, pairs: pairs)
    assert pair_round(players).costs["colour"] > exact.costs["colour"]


@st.composite
def segmented_fields(draw):
    size = draw(st.integers(min_value=6, max_value=150))
    rounds = draw(st.integers(min_value=1, max_value=5))
    seed = draw(st.integers(min_value=0, max_value=10**6))
    segment_size = draw(st.integers(min_value=4, max_value=32))
    strict = draw(st.booleans())
    return size, rounds, seed, segment_size, strict


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(segmented_fields())
def test_the_repair_only_ever_lowers_the_cost_and_never_a_tier_above_colour_rises(case):
    size, rounds, seed, segment_size, strict = case
    options = SwissOptions(exact_limit=0, segment_size=segment_size, strict_seats=strict)
    t = Tournament(range(size), seed=seed)
    for _ in range(rounds):
        t.play(pair_round(t.players(), options))
    players = t.players()
    random.Random(seed).shuffle(players)
    f = swiss._build_field(players, options)
    pairs, bye = swiss._solve_segmented(f, segment_size, prune=True)
    repaired = swiss._repair_colours(f, pairs, prune=True)

    assert all(a < b for a, b in repaired)
    assert sorted(x for p in repaired for x in p) == sorted(x for p in pairs for x in p)
    before = swiss._total_costs(f, pairs, bye)
    after = swiss._total_costs(f, repaired, bye)
    assert [after[tier] for tier in TIERS] <= [before[tier] for tier in TIERS]
    if not any(before[tier] for tier in ("rematch", "forbidden", "seat_limit")):
        # As pair_round repairs only such a pairing: then no tier above colour can rise,
        # and colours only when a float was saved for them.
        for tier in ABOVE_COLOUR:
            assert after[tier] <= before[tier], tier
        assert after["colour"] <= before["colour"] or after["score"] < before["score"]
