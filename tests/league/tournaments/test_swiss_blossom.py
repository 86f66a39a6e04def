"""The hand-written perfect matching (``league/tournaments/blossom.py``) against networkx.

networkx's ``max_weight_matching`` is the reference: on random graphs both must agree on
whether a perfect matching exists and on its weight, and the dual solution returned must
be what the Swiss pairing relies on to leave edges out (feasible on every edge, tight on
the matched ones)."""

import random

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.tournaments.blossom import perfect_matching


@st.composite
def graphs(draw):
    n = draw(st.integers(min_value=0, max_value=24))
    density = draw(st.sampled_from([0.1, 0.25, 0.5, 0.8, 1.0]))
    # Small weight ranges make many ties and blossoms; huge ones are the folded Swiss costs.
    top = draw(st.sampled_from([1, 3, 20, 10**6, 10**20]))
    seed = draw(st.integers(min_value=0, max_value=10**9))
    rng = random.Random(seed)
    edges = {(u, v): rng.randint(1, top) for u in range(n) for v in range(u + 1, n) if rng.random() < density}
    return n, edges


def networkx_perfect_weight(n, edges):
    graph = nx.Graph()
    graph.add_nodes_from(range(n))
    graph.add_weighted_edges_from((u, v, w) for (u, v), w in edges.items())
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != n:
        return None
    return sum(edges[min(u, v), max(u, v)] for u, v in matching)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs())
def test_the_matching_has_networkx_s_optimum_weight_or_both_find_no_perfect_matching(graph):
    n, edges = graph
    expected = networkx_perfect_weight(n, edges)
    found = perfect_matching(n, [(u, v, w) for (u, v), w in edges.items()])

    if expected is None:
        assert found is None
        return
    assert found is not None
    mate = found.mate
    assert all(mate[v] != v and mate[mate[v]] == v for v in range(n))
    assert all((min(v, mate[v]), max(v, mate[v])) in edges for v in range(n))
    assert sum(edges[v, mate[v]] for v in range(n) if v < mate[v]) == expected


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs())
def test_the_duals_are_feasible_on_every_edge_and_tight_on_the_matched_ones(graph):
    n, edges = graph
    found = perfect_matching(n, [(u, v, w) for (u, v), w in edges.items()])
    if found is None:
        return
    for (u, v), w in edges.items():
        assert found.slack(u, v, w) >= 0
        if found.mate[u] == v:
            assert found.slack(u, v, w) == 0
    assert all(z >= 0 for chain in found.blossoms_of for _, z in chain)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.integers(min_value=0, max_value=10**9))
def test_a_sparse_optimum_whose_duals_cover_the_left_out_edges_is_the_complete_optimum(graph, seed):
    # What the Swiss pairing does: solve on part of the edges, and trust the result only
    # when no left-out edge has negative slack. Then it must weigh what the whole graph's
    # optimum weighs.
    n, edges = graph
    rng = random.Random(seed)
    kept = {e: w for e, w in edges.items() if rng.random() < 0.5}
    found = perfect_matching(n, [(u, v, w) for (u, v), w in kept.items()])
    if found is None:
        return
    if all(found.slack(u, v, w) >= 0 for (u, v), w in edges.items() if (u, v) not in kept):
        assert sum(kept[v, found.mate[v]] for v in range(n) if v < found.mate[v]) == networkx_perfect_weight(n, edges)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(graphs(), st.integers(min_value=0, max_value=10**9))
def test_a_matching_warmed_by_a_subgraph_s_optimum_still_has_networkx_s_optimum_weight(graph, seed):
    # The Swiss pairing re-solves with the edges the duals did not cover added, starting
    # from the smaller graph's duals and pairs.
    n, edges = graph
    rng = random.Random(seed)
    kept = [(u, v, w) for (u, v), w in edges.items() if rng.random() < 0.5]
    first = perfect_matching(n, kept)
    if first is None:
        return
    found = perfect_matching(n, [(u, v, w) for (u, v), w in edges.items()], first)

    assert found is not None
    assert sum(edges[v, found.mate[v]] for v in range(n) if v < found.mate[v]) == networkx_perfect_weight(n, edges)
    assert all(found.slack(u, v, w) >= 0 for (u, v), w in edges.items())


def test_an_odd_number_of_vertices_or_a_vertex_without_edges_has_no_perfect_matching():
    assert perfect_matching(3, [(0, 1, 5), (1, 2, 5), (0, 2, 5)]) is None
    assert perfect_matching(4, [(0, 1, 5), (1, 2, 5), (0, 2, 5)]) is None
    assert perfect_matching(0, []).mate == []


def test_a_heavy_odd_cycle_does_not_keep_the_matching_from_being_perfect():
    # A triangle 0-1-2 of heavy edges with a pendant on each corner: the heavy edges are
    # tight first and form an odd cycle (a blossom), yet the one perfect matching takes
    # none of them.
    edges = [(0, 1, 10), (1, 2, 10), (0, 2, 10), (2, 3, 1), (0, 4, 2), (1, 5, 3)]
    found = perfect_matching(6, edges)
    assert sorted((v, found.mate[v]) for v in range(6) if v < found.mate[v]) == [(0, 4), (1, 5), (2, 3)]


def test_weights_must_be_positive():
    with pytest.raises(ValueError):
        perfect_matching(2, [(0, 1, 0)])
