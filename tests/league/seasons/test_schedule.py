"""Season schedules: single and double round robins with dates, and divisions."""

import datetime as dt
from collections import Counter
from itertools import combinations, permutations

import pytest

from league.seasons.schedule import season_schedule

CLUBS = [f"club-{i:02d}" for i in range(24)]
START = dt.date(2026, 3, 7)


def by_round(fixtures):
    rounds = {}
    for f in fixtures:
        rounds.setdefault(f.round, []).append(f)
    return rounds


def test_twenty_four_clubs_play_twenty_three_weekly_rounds_meeting_each_club_once():
    fixtures = season_schedule(CLUBS, start_date=START)
    rounds = by_round(fixtures)
    assert sorted(rounds) == list(range(1, 24))
    for number, games in rounds.items():
        assert sorted(c for f in games for c in (f.home, f.away)) == sorted(CLUBS)
        assert {f.date for f in games} == {START + dt.timedelta(days=7 * (number - 1))}
    pairs = Counter(frozenset((f.home, f.away)) for f in fixtures)
    assert set(pairs) == {frozenset(p) for p in combinations(CLUBS, 2)} and set(pairs.values()) == {1}
    home = Counter(f.home for f in fixtures)
    away = Counter(f.away for f in fixtures)
    assert all(abs(home[c] - away[c]) <= 1 for c in CLUBS)
    assert {f.division for f in fixtures} == {None}


def test_a_double_round_robin_has_forty_six_rounds_each_ordered_pair_once_second_half_mirrored():
    fixtures = season_schedule(CLUBS, double=True, start_date=START, days_between_rounds=3)
    rounds = by_round(fixtures)
    assert sorted(rounds) == list(range(1, 47))
    assert Counter((f.home, f.away) for f in fixtures) == Counter(permutations(CLUBS, 2))
    for r in range(1, 24):
        assert [(f.away, f.home) for f in rounds[r]] == [(f.home, f.away) for f in rounds[r + 23]]
    assert rounds[46][0].date == START + dt.timedelta(days=3 * 45)
    assert all(Counter(f.home for f in fixtures)[c] == 23 for c in CLUBS)


def test_divisions_are_scheduled_separately_in_parallel_rounds():
    divisions = {"First": CLUBS[:12], "Second": CLUBS[12:19]}  # 12 clubs and 7 clubs
    fixtures = season_schedule(CLUBS[:19], divisions=divisions, start_date=START)
    rounds = by_round(fixtures)
    # 12 clubs need 11 rounds; 7 need 7 (one bye each), played on the first seven dates.
    assert sorted(rounds) == list(range(1, 12))
    for f in fixtures:
        members = divisions[f.division]
        assert f.home in members and f.away in members
    for r in range(1, 8):
        second = [f for f in rounds[r] if f.division == "Second"]
        assert len(second) == 3  # one of the seven sits out
        assert {f.date for f in rounds[r]} == {START + dt.timedelta(days=7 * (r - 1))}
    assert all(f.division == "First" for r in range(8, 12) for f in rounds[r])
    second_pairs = Counter(frozenset((f.home, f.away)) for f in fixtures if f.division == "Second")
    assert len(second_pairs) == 21 and set(second_pairs.values()) == {1}


def test_divisions_must_hold_exactly_the_leagues_clubs():
    with pytest.raises(ValueError):
        season_schedule(CLUBS[:4], divisions={"One": CLUBS[:2], "Two": CLUBS[2:3]}, start_date=START)
    with pytest.raises(ValueError):
        season_schedule(CLUBS[:4], divisions={"One": CLUBS[:3], "Two": CLUBS[2:4]}, start_date=START)


def test_the_same_clubs_give_the_same_schedule_every_time():
    assert season_schedule(CLUBS, double=True, start_date=START) == season_schedule(
        list(CLUBS), double=True, start_date=START
    )
