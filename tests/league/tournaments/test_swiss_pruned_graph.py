"""Swiss pairing on pruned graphs costs exactly what the complete graphs cost.

The old path is kept in the module (``SwissOptions(prune=False)``: every matching on its
complete graph), so each case pairs the same field both ways and compares them."""

import random
from fractions import Fraction

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import league.tournaments.swiss as swiss
from league.tournaments.swiss import SwissOptions, SwissPlayer, pair_round


def random_field(rng, size, rounds, clubs, forbid):
    """A field after ``rounds`` rounds of random results, paired by the old path, with
    some players joining late on half points and, optionally, clubs and forbidden pairs."""
    state = {
        i: {"score": Fraction(0), "rating": rng.randint(1000, 2400), "opp": [], "seats": [], "byes": 0}
        for i in range(size)
    }
    club_of = {i: rng.choice("ABCD") for i in range(size + rounds) if clubs and rng.random() < 0.4}
    forbidden = tuple((rng.randrange(size), rng.randrange(size)) for _ in range(forbid))

    def players():
        return [
            SwissPlayer(
                id=i,
                score=s["score"],
                rating=s["rating"],
                opponents=tuple(s["opp"]),
                first_seats=tuple(s["seats"]),
                byes=s["byes"],
                club=club_of.get(i),
            )
            for i, s in state.items()
        ]

    for r in range(rounds):
        for p in pair_round(players(), SwissOptions(prune=False, forbidden_pairs=forbidden)).pairings:
            if p.second is None:
                state[p.first]["score"] += 1
                state[p.first]["byes"] += 1
                continue
            a, b = state[p.first], state[p.second]
            points = rng.choice([Fraction(1), Fraction(1, 2), Fraction(0)])
            a["score"] += points
            b["score"] += 1 - points
            a["opp"].append(p.second)
            b["opp"].append(p.first)
            a["seats"].append(True)
            b["seats"].append(False)
        if rng.random() < 0.3:
            late = size + r
            state[late] = {
                "score": Fraction(rng.randint(0, 2 * r), 2),
                "rating": rng.randint(1000, 2400),
                "opp": [],
                "seats": [],
                "byes": 0,
            }
    return players(), forbidden


@st.composite
def fields(draw):
    size = draw(st.integers(min_value=2, max_value=70))
    # Up to size - 1 rounds: small fields run out of fresh opponents, so the proof has to
    # fail and hand over to the complete graph.
    rounds = draw(st.integers(min_value=0, max_value=min(7, max(0, size - 1))))
    seed = draw(st.integers(min_value=0, max_value=10**6))
    clubs = draw(st.booleans())
    forbid = draw(st.integers(min_value=0, max_value=3))
    strict = draw(st.booleans())
    return size, rounds, seed, clubs, forbid, strict


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_a_pruned_exact_pairing_costs_the_same_in_every_tier_as_the_complete_graph(case):
    size, rounds, seed, clubs, forbid, strict = case
    players, forbidden = random_field(random.Random(seed), size, rounds, clubs, forbid)
    options = SwissOptions(forbidden_pairs=forbidden, strict_seats=strict)
    pruned = pair_round(players, options)
    complete = pair_round(players, SwissOptions(forbidden_pairs=forbidden, strict_seats=strict, prune=False))

    assert pruned.costs == complete.costs
    assert (pruned.rematches, pruned.forbidden, pruned.extra_byes) == (
        complete.rematches,
        complete.forbidden,
        complete.extra_byes,
    )
    seen = [x for p in pruned.pairings for x in (p.first, p.second) if x is not None]
    assert sorted(seen) == sorted(p.id for p in players)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields(), st.integers(min_value=4, max_value=24))
def test_pruned_segments_never_add_a_rematch_forbidden_pair_or_seat_clash_the_complete_segments_avoid(
    case, segment_size
):
    size, rounds, seed, clubs, forbid, strict = case
    players, forbidden = random_field(random.Random(seed), size, rounds, clubs, forbid)
    options = dict(forbidden_pairs=forbidden, strict_seats=strict, exact_limit=4, segment_size=segment_size)
    pruned = pair_round(players, SwissOptions(**options))
    complete = pair_round(players, SwissOptions(**options, prune=False))

    # Segments pass a floater down, so two equally cheap segment pairings can lead to
    # different later segments; the hard tiers are held to the same rule on both paths.
    for tier in ("rematch", "forbidden", "seat_limit"):
        assert pruned.costs[tier] <= complete.costs[tier]
    seen = [x for p in pruned.pairings for x in (p.first, p.second) if x is not None]
    assert sorted(seen) == sorted(p.id for p in players)


def test_a_field_after_four_rounds_is_paired_on_a_sparse_graph_that_proves_itself(monkeypatch):
    # Guards the comparison above from comparing the complete graph with itself: the
    # round is settled on the first, pruned graph, with far fewer edges than complete.
    players, _ = random_field(random.Random(7), 60, 4, clubs=False, forbid=0)
    edge_counts = []
    solve = swiss._perfect_matching

    def counting(members, slot, edges, vertices):
        edge_counts.append(len(edges))
        return solve(members, slot, edges, vertices)

    monkeypatch.setattr(swiss, "_perfect_matching", counting)
    rnd = pair_round(players)

    assert rnd.method == "exact"
    assert len(edge_counts) == 1
    assert edge_counts[0] < 0.8 * (60 * 59 // 2)
    monkeypatch.undo()
    assert rnd.costs == pair_round(players, SwissOptions(prune=False)).costs


def test_the_adjacency_graph_gives_networkx_s_own_matching_on_random_weights():
    rng = random.Random(2026)
    for _ in range(30):
        n = rng.randint(2, 30)
        edges = [(a, b, rng.randint(1, 50)) for a in range(n) for b in range(a + 1, n) if rng.random() < 0.6]
        plain, ours = nx.Graph(), swiss._AdjacencyGraph()
        for graph in (plain, ours):
            graph.add_nodes_from(range(n))
            graph.add_weighted_edges_from(edges)
        assert nx.max_weight_matching(ours, maxcardinality=True) == nx.max_weight_matching(plain, maxcardinality=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_a_first_graph_pruned_to_equal_scores_only_still_ends_at_the_complete_graph_s_cost(case):
    # With only same-score pairs kept first, odd score groups make the first sparse graph
    # fail or its proof fail, so the retries and the fall-back to the complete graph are
    # what decides here.
    size, rounds, seed, clubs, forbid, strict = case
    players, forbidden = random_field(random.Random(seed), size, rounds, clubs, forbid)
    complete = pair_round(players, SwissOptions(forbidden_pairs=forbidden, strict_seats=strict, prune=False))
    original = swiss._first_limit
    swiss._first_limit = lambda f: 0
    try:
        pruned = pair_round(players, SwissOptions(forbidden_pairs=forbidden, strict_seats=strict))
    finally:
        swiss._first_limit = original

    assert pruned.costs == complete.costs


def test_a_sparse_graph_that_would_give_the_bye_higher_up_is_not_trusted(monkeypatch):
    # Same-score pairs only: the two players on zero pair up and the bye would go to the
    # leader. A float of a point lets the lowest player have the bye, which the bye tier
    # ranks above any float, so the proof fails and the complete graph decides.
    monkeypatch.setattr(swiss, "_first_limit", lambda f: 0)
    players = [
        SwissPlayer(id="lead", score=1, rating=1500, opponents=("x",), first_seats=(True,)),
        SwissPlayer(id="mid", score=0, rating=1500, opponents=("y",), first_seats=(False,)),
        SwissPlayer(id="low", score=0, rating=1400, opponents=("z",), first_seats=(False,)),
    ]

    rnd = pair_round(players)

    assert rnd.bye == "low"
    assert rnd.costs == pair_round(players, SwissOptions(prune=False)).costs
