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
    # round is settled on the first sparse graph, a small share of the complete one.
    players, _ = random_field(random.Random(7), 60, 4, clubs=False, forbid=0)
    edge_counts = []
    solve = swiss.perfect_matching

    def counting(vertices, edges, warm=None):
        edge_counts.append(len(edges))
        return solve(vertices, edges, warm)

    monkeypatch.setattr(swiss, "perfect_matching", counting)
    rnd = pair_round(players)

    assert rnd.method == "exact"
    assert len(edge_counts) == 1
    vertices = len(players) + len(players) % 2
    assert edge_counts[0] < 0.3 * (vertices * (vertices - 1) // 2)
    monkeypatch.undo()
    assert rnd.costs == pair_round(players, SwissOptions(prune=False)).costs


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_a_first_graph_of_one_partner_each_still_ends_at_the_complete_graph_s_cost(case):
    # One partner per player and no floats: the first sparse graph mostly has no perfect
    # matching or a wrong optimum, so the growing of the graph and the dual check decide.
    size, rounds, seed, clubs, forbid, strict = case
    players, forbidden = random_field(random.Random(seed), size, rounds, clubs, forbid)
    complete = pair_round(players, SwissOptions(forbidden_pairs=forbidden, strict_seats=strict, prune=False))
    original = swiss._first_neighbours
    swiss._first_neighbours = lambda f: (1, 0)
    try:
        pruned = pair_round(players, SwissOptions(forbidden_pairs=forbidden, strict_seats=strict))
    finally:
        swiss._first_neighbours = original

    assert pruned.costs == complete.costs


def test_a_sparse_optimum_that_a_left_out_edge_would_beat_is_not_trusted(monkeypatch):
    # With one partner each, this field's sparse graph has a perfect matching whose duals
    # leave a left-out edge with negative slack: that edge is added and the graph solved
    # again, and the round ends at the complete graph's cost.
    monkeypatch.setattr(swiss, "_first_neighbours", lambda f: (1, 0))
    players, _ = random_field(random.Random(1), 24, 3, clubs=False, forbid=0)
    solves = []
    solve = swiss.perfect_matching

    def recording(vertices, edges, warm=None):
        found = solve(vertices, edges, warm)
        solves.append((len(edges), found is not None))
        return found

    monkeypatch.setattr(swiss, "perfect_matching", recording)
    rnd = pair_round(players)

    solved_then_grown = [i for i in range(len(solves) - 1) if solves[i][1] and solves[i + 1][0] > solves[i][0]]
    assert solved_then_grown
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
