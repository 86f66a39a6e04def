"""Walkovers (the organiser's forfeit ruling) and postponed fixtures."""

import pytest

from league.seasons.table import Result, standings

from .helpers import win


def rows_by_club(*args, **kwargs):
    return {r.club: r for r in standings(*args, **kwargs)}


def test_a_walkover_is_a_win_for_the_club_awarded_it_with_the_default_three_nil_score():
    # Whatever the record carries, the ruling decides: the away club is awarded the match.
    rows = rows_by_club(["A", "B"], [Result("A", "B", 4, 0, walkover_winner="B")])
    assert (rows["B"].won, rows["B"].points, rows["B"].wizards_remaining, rows["B"].wizard_difference) == (1, 3, 3, 3)
    assert (rows["A"].lost, rows["A"].points, rows["A"].wizards_remaining, rows["A"].wizard_difference) == (1, 0, 0, -3)
    assert rows["B"].form == "W" and rows["A"].form == "L"


def test_the_walkover_score_is_configurable():
    rows = rows_by_club(["A", "B"], [Result("A", "B", walkover_winner="A")], walkover_score=(5, 0))
    assert rows["A"].wizard_difference == 5 and rows["B"].wizard_difference == -5


def test_a_walkover_to_a_club_that_was_not_in_the_fixture_is_refused():
    with pytest.raises(ValueError):
        standings(["A", "B", "C"], [Result("A", "B", walkover_winner="C")])


def test_a_postponed_fixture_counts_for_nothing():
    results = [win("A", "B", 2), Result("A", "C", 0, 0, postponed=True), Result("B", "C", 3, 0, postponed=True)]
    rows = rows_by_club(["A", "B", "C"], results)
    assert (rows["A"].played, rows["A"].form) == (1, "W")
    assert (rows["C"].played, rows["C"].points, rows["C"].form) == (0, 0, "")
    assert rows["B"].played == 1


def test_the_replayed_fixture_counts_once_played():
    postponed = Result("A", "C", 0, 0, round=1, postponed=True)
    replayed = Result("A", "C", 0, 2, round=1)
    rows = rows_by_club(["A", "C"], [postponed, replayed])
    assert (rows["C"].played, rows["C"].won) == (1, 1)
