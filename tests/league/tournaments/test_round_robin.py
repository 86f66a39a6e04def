"""Round robin by the circle method."""

from collections import Counter
from itertools import combinations

import pytest

from league.tournaments.brackets import round_robin


def check_schedule(players, rounds):
    met = Counter()
    home, away = Counter(), Counter()
    for rnd in rounds:
        present = [p for f in rnd.fixtures for p in (f.home, f.away)]
        if rnd.bye is not None:
            present.append(rnd.bye)
        assert sorted(present) == sorted(players), "everyone exactly once per round"
        for f in rnd.fixtures:
            met[frozenset((f.home, f.away))] += 1
            home[f.home] += 1
            away[f.away] += 1
    return met, home, away


def test_twenty_four_players_play_twenty_three_rounds_and_meet_once_with_balanced_home_and_away():
    players = [f"p{i}" for i in range(24)]
    rounds = round_robin(players)
    assert len(rounds) == 23
    assert [r.number for r in rounds] == list(range(1, 24))
    met, home, away = check_schedule(players, rounds)
    assert set(met) == {frozenset(pair) for pair in combinations(players, 2)}
    assert set(met.values()) == {1}
    assert all(abs(home[p] - away[p]) <= 1 for p in players)
    assert all(len(r.fixtures) == 12 and r.bye is None for r in rounds)


def test_a_double_round_robin_has_forty_six_rounds_with_each_pair_meeting_once_each_way():
    players = list(range(24))
    rounds = round_robin(players, double=True)
    assert len(rounds) == 46
    assert [r.number for r in rounds] == list(range(1, 47))
    met, home, away = check_schedule(players, rounds)
    assert set(met.values()) == {2}
    directed = Counter((f.home, f.away) for r in rounds for f in r.fixtures)
    assert set(directed.values()) == {1}  # a at home to b once, b at home to a once
    assert all(home[p] == away[p] == 23 for p in players)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 7, 10, 13, 16, 25])
def test_any_field_meets_everyone_once_with_home_and_away_within_one(n):
    players = list(range(n))
    rounds = round_robin(players)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    met, home, away = check_schedule(players, rounds)
    assert set(met.values()) == {1} and len(met) == n * (n - 1) // 2
    assert all(abs(home[p] - away[p]) <= 1 for p in players)


def test_an_odd_field_gives_each_player_exactly_one_bye():
    rounds = round_robin(list("ABCDE"))
    assert len(rounds) == 5
    assert sorted(r.bye for r in rounds) == list("ABCDE")


def test_the_schedule_is_the_same_every_time():
    assert round_robin(list(range(9))) == round_robin(list(range(9)))


def test_fewer_than_two_or_repeated_players_are_refused():
    with pytest.raises(ValueError):
        round_robin(["solo"])
    with pytest.raises(ValueError):
        round_robin(["a", "a", "b"])
