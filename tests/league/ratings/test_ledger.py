"""Rebuilding ratings from verified results in commit order, identically every time."""

import random
import subprocess
import sys
from pathlib import Path

import pytest

from league.ratings import Glicko2Rating, MultiRating, RatedResult, rebuild


def stream(count=400, seed=11):
    """Interleaved results of a duel game and a four-player game, in commit order."""
    rng = random.Random(seed)
    duelists = [f"d{i}" for i in range(12)]
    pod_players = [f"p{i}" for i in range(10)]
    results = []
    for n in range(count):
        if n % 3:
            a, b = rng.sample(duelists, 2)
            placements = [[a, b]] if rng.random() < 0.1 else [[a], [b]]
            results.append(RatedResult(f"m{n}", "wizard-dodgeball", placements, sequence=10 * n))
        else:
            pod = rng.sample(pod_players, 4)
            placements = [[pod[0]], [pod[1], pod[2]], [pod[3]]] if rng.random() < 0.2 else [[p] for p in pod]
            results.append(RatedResult(f"m{n}", "pod-game", placements, sequence=10 * n))
    return results


def test_rebuilding_twice_gives_exactly_the_same_numbers():
    results = stream()
    assert rebuild(results, "wizard-dodgeball") == rebuild(results, "wizard-dodgeball")
    assert rebuild(results, "pod-game") == rebuild(results, "pod-game")


def test_a_shuffled_copy_sorted_back_into_commit_order_gives_exactly_the_same_numbers():
    results = stream()
    shuffled = results[:]
    random.Random(3).shuffle(shuffled)
    restored = sorted(shuffled, key=lambda r: r.sequence)
    for game in ("wizard-dodgeball", "pod-game"):
        assert rebuild(restored, game) == rebuild(results, game)


def test_results_out_of_commit_order_are_refused_rather_than_rated_differently():
    results = stream(20)
    with pytest.raises(ValueError):
        rebuild(list(reversed(results)), "wizard-dodgeball")


def test_duels_use_glicko2_and_multiplayer_games_openskill_each_rated_on_its_own():
    results = stream()
    duel_ratings, _ = rebuild(results, "wizard-dodgeball")
    pod_ratings, _ = rebuild(results, "pod-game")
    assert all(isinstance(r, Glicko2Rating) for r in duel_ratings.values())
    assert all(isinstance(r, MultiRating) for r in pod_ratings.values())
    assert set(duel_ratings).isdisjoint(pod_ratings)


def test_history_has_a_point_after_every_match_ending_at_the_current_rating():
    results = stream()
    ratings, history = rebuild(results, "wizard-dodgeball")
    played = {}
    for r in results:
        if r.game == "wizard-dodgeball":
            for place in r.placements:
                for player in place:
                    played.setdefault(player, []).append(r.match_id)
    for player, points in history.items():
        assert [p.match_id for p in points] == played[player]
        assert [p.sequence for p in points] == sorted(p.sequence for p in points)
        last = points[-1]
        assert (last.rating, last.deviation) == (ratings[player].rating, ratings[player].rd)


def test_a_win_in_a_duel_game_is_the_glicko2_update_of_both_pre_match_ratings():
    results = [RatedResult("m1", "wd", [["ann"], ["bob"]], 1), RatedResult("m2", "wd", [["bob"], ["ann"]], 2)]
    ratings, history = rebuild(results, "wd")
    assert history["ann"][0].rating > 1500 > history["bob"][0].rating
    assert history["ann"][1].rating < history["ann"][0].rating


def test_the_system_can_be_chosen_explicitly():
    results = [RatedResult("m1", "wd", [["ann"], ["bob"]], 1)]
    ratings, _ = rebuild(results, "wd", system="openskill")
    assert isinstance(ratings["ann"], MultiRating)
    with pytest.raises(ValueError):
        rebuild([RatedResult("m1", "ffa", [["a"], ["b"], ["c"]], 1)], "ffa", system="glicko2")


SCRIPT = """
import random
from league.ratings import RatedResult, rebuild
rng = random.Random(9)
players = [f"p{i}" for i in range(8)]
duels = [RatedResult(n, "g", [[a], [b]], n) for n, (a, b) in enumerate(rng.sample(players, 2) for _ in range(200))]
pods = [RatedResult(n, "h", [[p] for p in rng.sample(players, 4)], n) for n in range(200)]
print(repr(rebuild(duels, "g")), repr(rebuild(pods, "h")))
"""


def test_another_process_with_another_hash_seed_rebuilds_the_same_numbers():
    root = Path(__file__).resolve().parents[3]
    outputs = {
        subprocess.run(
            [sys.executable, "-c", SCRIPT],
            cwd=root,
            env={"PYTHONHASHSEED": hash_seed, "PATH": ""},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hash_seed in ("1", "2")
    }
    assert len(outputs) == 1 and "Glicko2Rating" in outputs.pop()
