"""Every tie-break on its own: head-to-head, wizard difference, wizards remaining, wins, lot."""

import hashlib

import pytest

from league.seasons.table import Result, standings

from .helpers import labels, order, win


def test_head_to_head_puts_the_winner_of_the_direct_match_above_a_club_with_a_better_difference():
    # A beat B 1-0 and lost 0-2 to C: 3 points, difference -1.
    # B lost 0-1 to A and beat D 5-0: 3 points, difference +4.
    # Level on points; the direct match A-B decides before the season's difference does.
    results = [win("A", "B", 1), win("B", "D", 5), win("C", "A", 2), win("C", "D", 1)]
    rows = standings(["A", "B", "C", "D"], results)
    assert order(rows) == ["C", "A", "B", "D"]
    assert labels(rows)["A"] == "head_to_head"


def test_wizard_difference_separates_clubs_that_never_met():
    # A beat C 4-0 and B beat D 1-0: both 3 points, no direct match, differences +4 and +1.
    # C (-4) and D (-1) never met either.
    rows = standings(["A", "B", "C", "D"], [win("A", "C", 4), win("B", "D", 1)])
    assert order(rows) == ["A", "B", "D", "C"]
    assert labels(rows) == {"A": "wizard_difference", "B": None, "D": "wizard_difference", "C": None}


def test_wizards_remaining_separates_clubs_level_on_points_and_difference():
    # Everyone on 3 points. Head-to-head among all four is the whole table, whose
    # differences are A +2 (4-0, 0-2), B +2 (3-0, 0-1), D -1 (2-0, 0-3), C -3 (1-0, 0-4):
    # that splits off D and C. A and B never met, so head-to-head between just them is
    # empty; their differences are equal; A kept 4 wizards to B's 3.
    results = [win("A", "C", 4), win("D", "A", 2), win("B", "D", 3), win("C", "B", 1)]
    rows = standings(["A", "B", "C", "D"], results)
    assert order(rows) == ["A", "B", "D", "C"]
    assert labels(rows) == {"A": "wizards_remaining", "B": "head_to_head", "D": "head_to_head", "C": None}
    by_club = {r.club: r for r in rows}
    assert (by_club["A"].wizard_difference, by_club["B"].wizard_difference) == (2, 2)
    assert (by_club["A"].wizards_remaining, by_club["B"].wizards_remaining) == (4, 3)


def test_wins_separate_a_win_and_a_loss_from_three_draws():
    # A: won 2-0 against C, lost 0-2 to D: 3 points, difference 0, 2 remaining, 1 win.
    # B: drew 1-1, 1-1 and 0-0: 3 points, difference 0, 2 remaining, 0 wins.
    # D also beat C and leads on 6. A and B never met, so head-to-head between them is
    # empty, and difference and wizards remaining are equal too.
    results = [
        win("A", "C", 2),
        win("D", "A", 2),
        win("D", "C", 1),
        Result("B", "E", 1, 1),
        Result("B", "F", 1, 1),
        Result("B", "G", 0, 0),
    ]
    rows = standings(list("ABCDEFG"), results)
    assert order(rows)[:3] == ["D", "A", "B"]
    assert labels(rows)["D"] is None
    assert labels(rows)["A"] == "wins"


def lot_order(seed, clubs):
    return sorted(clubs, key=lambda c: hashlib.sha256(f"{seed}:{c}".encode()).hexdigest())


def test_the_lot_orders_clubs_level_on_everything_by_a_seeded_hash():
    # A and B each won once 1-0 against a different opponent and never met: identical lines.
    results = [win("A", "C", 1), win("B", "D", 1)]
    rows = standings(["A", "B", "C", "D"], results, lot_seed="season-7")
    assert order(rows)[:2] == lot_order("season-7", ["A", "B"])
    assert order(rows)[2:] == lot_order("season-7", ["C", "D"])
    assert labels(rows)[order(rows)[0]] == "lot"
    assert labels(rows)[order(rows)[2]] == "lot"


def test_the_lot_is_the_same_for_the_same_seed_and_differs_across_seeds():
    results = [win("A", "C", 1), win("B", "D", 1)]
    first = {s: order(standings(["A", "B", "C", "D"], results, lot_seed=s))[:2] for s in map(str, range(20))}
    again = {s: order(standings(["D", "C", "B", "A"], results, lot_seed=s))[:2] for s in map(str, range(20))}
    assert first == again  # neither listing order nor a rerun changes the draw
    assert {tuple(v) for v in first.values()} == {("A", "B"), ("B", "A")}  # the seed matters


def test_an_unknown_tiebreak_is_refused_and_the_lot_can_only_come_last():
    with pytest.raises(ValueError):
        standings(["A", "B"], [], tiebreaks=("goal_average",))
    with pytest.raises(ValueError):
        standings(["A", "B"], [], tiebreaks=("lot", "wins"))
