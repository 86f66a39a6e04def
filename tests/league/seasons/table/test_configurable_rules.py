"""Configurable points and tie-break order."""

import pytest

from league.seasons.table import Result, standings

from .helpers import labels, order, win

# A: one win and two losses. B: three draws.
RESULTS = [
    win("A", "C", 1),
    win("D", "A", 1),
    win("E", "A", 1),
    Result("B", "C", 0, 0),
    Result("B", "D", 0, 0),
    Result("B", "E", 0, 0),
]
CLUBS = list("ABCDE")


def test_under_three_one_zero_a_win_and_two_losses_equal_three_draws():
    rows = {r.club: r for r in standings(CLUBS, RESULTS)}
    assert rows["A"].points == rows["B"].points == 3


def test_under_two_one_zero_three_draws_beat_a_win_and_two_losses():
    rows = standings(CLUBS, RESULTS, points=(2, 1, 0))
    by_club = {r.club: r for r in rows}
    assert (by_club["A"].points, by_club["B"].points) == (2, 3)
    assert order(rows).index("B") < order(rows).index("A")
    assert all(r.points == 2 * r.won + r.drawn for r in rows)


def test_the_tiebreak_order_is_the_organisers_choice():
    # A beat B 1-0 and lost 0-2 to C (3 points, -1); B lost to A and beat D 5-0 (3, +4).
    results = [win("A", "B", 1), win("B", "D", 5), win("C", "A", 2), win("C", "D", 1)]
    default = standings(list("ABCD"), results)
    difference_first = standings(list("ABCD"), results, tiebreaks=("wizard_difference", "head_to_head"))
    assert order(default)[1:3] == ["A", "B"] and labels(default)["A"] == "head_to_head"
    assert order(difference_first)[1:3] == ["B", "A"] and labels(difference_first)["B"] == "wizard_difference"


def test_the_lot_is_added_as_the_last_resort_when_the_organiser_leaves_it_out():
    rows = standings(["A", "B", "C", "D"], [win("A", "C", 1), win("B", "D", 1)], tiebreaks=("wins",))
    assert rows[0].tiebreak == "lot"


def test_points_must_be_win_draw_loss():
    with pytest.raises(ValueError):
        standings(["A", "B"], [], points=(3, 0))
