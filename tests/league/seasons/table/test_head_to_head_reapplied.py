"""A three-way head-to-head tie that needs head-to-head re-applied to a still-tied pair."""

from league.seasons.table import standings

from .helpers import labels, order, win

# A, B and C beat each other in a cycle, with margins chosen so that the three-club
# mini-table separates only A:
#   A beat B 1-0, B beat C 2-0, C beat A 3-0.
# Mini-table among {A, B, C} (3 points each for the one win):
#   A: +1 (v B) - 3 (v C) = -2
#   B: -1 (v A) + 2 (v C) = +1
#   C: -2 (v B) + 3 (v A) = +1
# So A is third of the three, and B and C are still level (3 points, +1).
# Re-applied to {B, C} alone, the mini-table holds just B 2-0 C: B 3 points, C 0. B first.
#
# Each also beat D, C by the most, so that the season's wizard difference would say the
# opposite of the re-applied head-to-head:
#   A beat D 1-0, B beat D 1-0, C beat D 5-0.
# Season: A, B, C on 6 points; differences A -2+1 = -1, B +1+1 = +2, C +1+5 = +6.
# Going straight from the three-club mini-table to wizard difference would put C above B.
RESULTS = [
    win("A", "B", 1),
    win("B", "C", 2),
    win("C", "A", 3),
    win("A", "D", 1),
    win("B", "D", 1),
    win("C", "D", 5),
]


def test_head_to_head_is_re_applied_to_the_pair_left_level_by_the_three_way_mini_table():
    rows = standings(["A", "B", "C", "D"], RESULTS)
    assert order(rows) == ["B", "C", "A", "D"]
    assert [r.points for r in rows] == [6, 6, 6, 0]
    # B-C were split by head-to-head among the two of them, C-A by the three-way one.
    assert labels(rows) == {"B": "head_to_head", "C": "head_to_head", "A": None, "D": None}


def test_the_season_difference_alone_would_have_ordered_the_pair_the_other_way():
    rows = {r.club: r for r in standings(["A", "B", "C", "D"], RESULTS)}
    assert (rows["A"].wizard_difference, rows["B"].wizard_difference, rows["C"].wizard_difference) == (-1, 2, 6)
    by_difference = standings(["A", "B", "C", "D"], RESULTS, tiebreaks=("wizard_difference", "lot"))
    assert order(by_difference) == ["C", "B", "A", "D"]
    assert labels(by_difference)["C"] == "wizard_difference"


def test_a_pair_head_to_head_cannot_split_goes_on_to_the_next_criterion():
    # Four clubs on 3 points from 1-0 wins in a cycle A>B>C>D>A: every mini-table line is
    # 3 points and 0 difference, so head-to-head says nothing and wizard difference (all 0)
    # nothing either; wizards remaining (all 1) and wins (all 1) neither: only the lot.
    results = [win("A", "B", 1), win("B", "C", 1), win("C", "D", 1), win("D", "A", 1)]
    rows = standings(["A", "B", "C", "D"], results, lot_seed="x")
    assert [r.tiebreak for r in rows] == ["lot", "lot", "lot", None]
