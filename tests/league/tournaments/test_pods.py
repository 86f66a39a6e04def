"""Free-for-all pods: pod sizes, seating that avoids repeat opponents, placement points."""

import itertools
import random
import subprocess
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

from league.tournaments.brackets import placement_points, pod_sizes, repeat_pairs, seat_pods

REPO = Path(__file__).resolve().parents[3]


def met_in(pods):
    return {pair for pod in pods for pair in itertools.combinations(pod, 2)}


@pytest.mark.parametrize(
    "players, sizes",
    [
        (3, [3]),
        (4, [4]),
        (5, [5]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [5, 4]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (13, [5, 4, 4]),
        (14, [4, 4, 3, 3]),
        (41, [5] + [4] * 9),
    ],
)
def test_pods_use_the_preferred_size_and_the_fewest_other_pods(players, sizes):
    assert pod_sizes(players) == sizes


def test_other_preferred_sizes_work_the_same_way():
    assert pod_sizes(10, preferred=3) == [4, 3, 3]  # three 3s leave one over: 4+3+3
    assert pod_sizes(12, preferred=5) == [5, 4, 3]
    assert pod_sizes(15, preferred=5) == [5, 5, 5]


def test_too_few_players_or_impossible_sizes_are_refused():
    with pytest.raises(ValueError):
        pod_sizes(2)
    with pytest.raises(ValueError):
        pod_sizes(10, preferred=6)


def test_the_first_round_seats_pods_in_standings_order():
    assert seat_pods(list("ABCDEFGH")) == [list("ABCD"), list("EFGH")]


def test_the_second_round_of_sixteen_avoids_every_first_round_opponent():
    players = list(range(16))
    first = seat_pods(players)
    second = seat_pods(players, met_in(first))
    assert sorted(len(p) for p in second) == [4, 4, 4, 4]
    assert sorted(x for p in second for x in p) == players
    assert repeat_pairs(second, met_in(first)) == 0


def test_twelve_players_repeat_only_as_often_as_the_pigeonhole_forces():
    # Three pods of four from three previous pods of four: every new pod holds two players
    # from one old pod, so three repeats is the minimum.
    players = list(range(12))
    first = seat_pods(players)
    assert repeat_pairs(seat_pods(players, met_in(first)), met_in(first)) == 3


def test_seating_over_several_rounds_never_does_worse_than_standings_order():
    rng = random.Random(4)
    players = list(range(30))
    met = set()
    for _ in range(5):
        ranked = players[:]
        rng.shuffle(ranked)
        pods = seat_pods(ranked, met)
        naive = [ranked[i : i + len(p)] for i, p in zip(itertools.accumulate([0] + [len(p) for p in pods]), pods)]
        assert repeat_pairs(pods, met) <= repeat_pairs(naive, met)
        assert repeat_pairs(pods, met) == 0  # thirty players have room for five clean rounds
        met |= met_in(pods)


def test_seating_is_the_same_in_another_process():
    script = (
        "import itertools\n"
        "from league.tournaments.brackets import seat_pods\n"
        "ps = [f'p{i}' for i in range(14)]\n"
        "met = {(f'p{i}', f'p{(i * 5 + 3) % 14}') for i in range(14)}\n"
        "print(seat_pods(ps, met))\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=REPO,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2")
    }
    assert len(outputs) == 1


def test_placement_points_follow_the_table():
    points = placement_points([["a"], ["b"], ["c"], ["d"]], [3, 2, 1, 0])
    assert points == {"a": 3, "b": 2, "c": 1, "d": 0}


def test_tied_players_split_the_points_of_the_places_they_cover_exactly():
    # b and c tie for second: (2 + 1) / 2 = 3/2 each; d is then fourth.
    assert placement_points([["a"], ["b", "c"], ["d"]], [3, 2, 1, 0]) == {
        "a": 3,
        "b": F(3, 2),
        "c": F(3, 2),
        "d": 0,
    }
    # Three-way tie for first in a pod of four with 5/3/2/1: (5 + 3 + 2) / 3 = 10/3 each.
    tied = placement_points([["a", "b", "c"], ["d"]], [5, 3, 2, 1])
    assert tied == {"a": F(10, 3), "b": F(10, 3), "c": F(10, 3), "d": 1}
    assert sum(tied.values()) == 11  # exactly the points of the table, no drift
    # A five-player pod with a table of four places: the fifth place is worth nothing.
    assert placement_points([["a"], ["b"], ["c"], ["d", "e"]], [4, 3, 2, 1]) == {
        "a": 4,
        "b": 3,
        "c": 2,
        "d": F(1, 2),
        "e": F(1, 2),
    }
    assert placement_points([["a", "b"]], [0.5, 0.25]) == {"a": F(3, 8), "b": F(3, 8)}


def test_a_player_placed_twice_or_an_empty_place_is_refused():
    with pytest.raises(ValueError):
        placement_points([["a"], ["a"]], [1, 0])
    with pytest.raises(ValueError):
        placement_points([["a"], []], [1, 0])
