"""Points, the basic columns and ordering by points."""

import pytest

from league.seasons.table import Result, standings

from .helpers import order, win


def test_a_win_is_three_points_a_draw_one_and_the_table_is_ordered_by_points():
    results = [
        win("A", "B", 4),  # A 3
        win("C", "A", 1, home=False),  # C 3
        Result("B", "C", 2, 2),  # a draw: B 1, C 1
        win("A", "D", 2),  # A 6
    ]
    rows = standings(["A", "B", "C", "D"], results)
    assert order(rows) == ["A", "C", "B", "D"]
    a, c, b, d = rows
    assert (a.played, a.won, a.drawn, a.lost, a.points) == (3, 2, 0, 1, 6)
    assert (c.played, c.won, c.drawn, c.lost, c.points) == (2, 1, 1, 0, 4)
    assert (b.played, b.won, b.drawn, b.lost, b.points) == (2, 0, 1, 1, 1)
    assert (d.played, d.points) == (1, 0)
    assert [r.position for r in rows] == [1, 2, 3, 4]


def test_wizard_difference_is_own_survivors_minus_opponents_survivors_over_the_season():
    # A won 4-0, lost 0-1 and won 2-0: remaining 4+0+2 = 6, conceded 0+1+0 = 1, difference 5.
    # The same as (opponents' wizards eliminated) - (own eliminated) with squads of five:
    # (5+4+5) - (1+5+3) = 14 - 9 = 5.
    results = [win("A", "B", 4), win("C", "A", 1, home=False), win("A", "D", 2)]
    rows = {r.club: r for r in standings(["A", "B", "C", "D"], results)}
    assert (rows["A"].wizards_remaining, rows["A"].wizards_conceded, rows["A"].wizard_difference) == (6, 1, 5)
    assert (rows["B"].wizards_remaining, rows["B"].wizards_conceded, rows["B"].wizard_difference) == (0, 4, -4)
    # Zero-sum over the league, like goal difference.
    assert sum(r.wizard_difference for r in rows.values()) == 0


def test_clubs_separated_by_points_have_no_tiebreak_named():
    rows = standings(["A", "B", "C"], [win("A", "B", 1), win("B", "C", 1), win("A", "C", 1)])
    assert order(rows) == ["A", "B", "C"]
    assert [r.tiebreak for r in rows] == [None, None, None]


def test_a_club_without_results_is_listed_with_zeros():
    rows = standings(["A", "B", "C"], [win("A", "B", 3)])
    c = next(r for r in rows if r.club == "C")
    assert (c.played, c.points, c.wizard_difference, c.form) == (0, 0, 0, "")


def test_a_result_for_an_unknown_club_or_a_club_playing_itself_is_refused():
    with pytest.raises(ValueError):
        standings(["A", "B"], [win("A", "Z", 1)])
    with pytest.raises(ValueError):
        standings(["A", "B"], [Result("A", "A", 1, 0)])
    with pytest.raises(ValueError):
        standings(["A", "B"], [Result("A", "B", -1, 0)])


def test_rows_serialise_for_the_api_and_csv():
    row = standings(["A", "B"], [win("A", "B", 2)])[0]
    assert row.as_dict() == {
        "position": 1,
        "club": "A",
        "played": 1,
        "won": 1,
        "drawn": 0,
        "lost": 0,
        "points": 3,
        "wizard_difference": 2,
        "wizards_remaining": 2,
        "wizards_conceded": 0,
        "form": "W",
        "tiebreak": None,
    }


def test_a_game_ended_with_both_sides_on_court_is_won_by_the_side_with_more_wizards():
    # Organisers' corrections, and matches recorded under Wizard Dodgeball version 1 (whose
    # stalling ruling is kept for replay), can end a game with both sides still on court:
    # 3 left against 1 is a home win, +2 and -2 on wizard difference; 2 against 2 a draw.
    rows = {r.club: r for r in standings(["A", "B", "C"], [Result("A", "B", 3, 1), Result("B", "C", 2, 2)])}
    assert (rows["A"].won, rows["A"].wizard_difference, rows["A"].wizards_remaining) == (1, 2, 3)
    assert (rows["B"].lost, rows["B"].drawn, rows["B"].wizard_difference, rows["B"].wizards_remaining) == (1, 1, -2, 3)
    assert (rows["C"].drawn, rows["C"].points) == (1, 1)
