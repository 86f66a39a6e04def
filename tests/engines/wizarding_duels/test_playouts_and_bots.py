"""Whole games: Hypothesis playouts with random Groups never raise and always end; the heuristic
bot beats the random bot; the group-building helper gives legal Groups for any budget."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.wizarding_duels import content, groups
from engines.wizarding_duels.groups import Lcg

from .helpers import E, playout


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(min_value=0, max_value=10**9),
    st.sampled_from(["random", "heuristic"]),
    st.sampled_from(["random", "heuristic"]),
)
def test_playouts_with_random_groups_never_raise_and_always_end(seed, b0, b1):
    steps = []
    final = playout(seed, bots=(b0, b1), visit=lambda b, e, a: steps.append(1))
    assert E.to_move(final) == [] and final["phase"] == "over"
    res = E.result(final)
    assert sorted(res["placements"]) in ([1, 1], [1, 2]) and res["scores"] == [p["qp"] for p in final["players"]]
    assert final["round"] <= 3 and len(steps) < 5000


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=0, max_value=10**9),
    st.integers(min_value=4, max_value=120),
    st.sampled_from(content.pack_ids()),
)
def test_the_group_helper_gives_a_legal_group_for_any_pack_and_budget(seed, budget, pack_id):
    pk = content.load(pack_id)
    g = groups.random_group(pk, budget, Lcg(seed)) if pk.playable() else None
    if g is not None:
        groups.check_group(pk, g, budget)
        stock = groups.random_stock(pk, g["models"], Lcg(seed + 1))
        groups.check_stock(pk, g["models"], stock)


def test_the_heuristic_bot_beats_the_random_bot_in_at_least_80_of_100_games():
    wins = 0
    for seed in range(100):
        hs = seed % 2
        bots = ["random", "random"]
        bots[hs] = "heuristic"
        res = E.result(playout(1000 + seed, bots=tuple(bots)))
        wins += res["placements"][hs] == 1 and res["placements"][1 - hs] == 2
    assert wins >= 80


def test_bots_are_declared_strongest_first_and_unknown_bots_are_refused():
    import pytest

    from engines.base import IllegalAction

    assert E.bots == ("heuristic", "random") and E.best_bot == "heuristic"
    s = E.setup({}, 2)
    with pytest.raises(IllegalAction) as err:
        E.bot_action("oracle", s, 0, Lcg(1))
    assert err.value.code == "unknown_bot"
