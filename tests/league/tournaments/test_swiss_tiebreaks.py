"""Swiss standings and tie-breaks, checked against hand-computed examples."""

from fractions import Fraction as F

import pytest

from league.tournaments.tiebreaks import TIEBREAKS, Game, standings

# Five players, three rounds, one bye per round (byes are worth 1):
#   R1: A-B 1-0    C-D 1/2-1/2   E bye
#   R2: A-C 1/2-1/2  B-E 1-0     D bye
#   R3: A-E 0-1    B-D 1/2-1/2   C bye
# Scores: A 1+1/2+0 = 3/2   B 0+1+1/2 = 3/2   C 1/2+1/2+1 = 2   D 1/2+1+1/2 = 2   E 1+0+1 = 2
FIVE = [
    Game(1, "A", "B", 1, 0),
    Game(1, "C", "D", F(1, 2), F(1, 2)),
    Game(1, "E", None, 1),
    Game(2, "A", "C", F(1, 2), F(1, 2)),
    Game(2, "B", "E", 1, 0),
    Game(2, "D", None, 1),
    Game(3, "A", "E", 0, 1),
    Game(3, "B", "D", F(1, 2), F(1, 2)),
    Game(3, "C", None, 1),
]


def by_player(rows):
    return {r.player: r for r in rows}


def test_scores_and_buchholz_count_a_bye_as_an_opponent_with_the_players_own_score():
    rows = by_player(standings(FIVE, ["buchholz"]))
    assert {p: r.score for p, r in rows.items()} == {"A": F(3, 2), "B": F(3, 2), "C": 2, "D": 2, "E": 2}
    # A: B 3/2 + C 2 + E 2 = 11/2        B: A 3/2 + E 2 + D 2 = 11/2
    # C: D 2 + A 3/2 + bye (own 2) = 11/2  D: C 2 + bye (own 2) + B 3/2 = 11/2
    # E: bye (own 2) + B 3/2 + A 3/2 = 5
    assert {p: r.values["buchholz"] for p, r in rows.items()} == {
        "A": F(11, 2),
        "B": F(11, 2),
        "C": F(11, 2),
        "D": F(11, 2),
        "E": 5,
    }


def test_median_buchholz_drops_the_highest_and_lowest_opponent_score():
    rows = by_player(standings(FIVE, ["median_buchholz"]))
    # A {3/2, 2, 2} -> 2   B {3/2, 2, 2} -> 2   C {3/2, 2, 2} -> 2   D -> 2   E {3/2, 3/2, 2} -> 3/2
    assert {p: r.values["median_buchholz"] for p, r in rows.items()} == {
        "A": 2,
        "B": 2,
        "C": 2,
        "D": 2,
        "E": F(3, 2),
    }


def test_sonneborn_berger_weights_each_opponent_score_by_the_points_taken_from_them():
    rows = by_player(standings(FIVE, ["sonneborn_berger"]))
    # A: 1*3/2 (B) + 1/2*2 (C) + 0*2 (E)        = 5/2
    # B: 0*3/2 (A) + 1*2 (E) + 1/2*2 (D)        = 3
    # C: 1/2*2 (D) + 1/2*3/2 (A) + 1*2 (bye)    = 15/4
    # D: 1/2*2 (C) + 1*2 (bye) + 1/2*3/2 (B)    = 15/4
    # E: 1*2 (bye) + 0*3/2 (B) + 1*3/2 (A)      = 7/2
    assert {p: r.values["sonneborn_berger"] for p, r in rows.items()} == {
        "A": F(5, 2),
        "B": 3,
        "C": F(15, 4),
        "D": F(15, 4),
        "E": F(7, 2),
    }


def test_standings_order_ranks_and_say_which_criterion_separated_each_neighbour_pair():
    rows = standings(FIVE, ["buchholz", "median_buchholz", "sonneborn_berger"])
    # On 2: C and D tie on Buchholz 11/2, median 2 and SB 15/4, so they share first place
    # (listed by id); E has Buchholz 5 and comes third. On 3/2: A and B tie on Buchholz and
    # median; SB 3 against 5/2 puts B fourth.
    assert [(r.rank, r.player, r.separated_from_next) for r in rows] == [
        (1, "C", None),
        (1, "D", "buchholz"),
        (3, "E", "score"),
        (4, "B", "sonneborn_berger"),
        (5, "A", None),
    ]
    assert list(rows[0].values) == ["buchholz", "median_buchholz", "sonneborn_berger"]


def test_head_to_head_counts_only_games_among_the_players_still_tied():
    rows = standings(FIVE, ["head_to_head", "buchholz"])
    # On 2, the tied group {C, D, E}: C-D was drawn (1/2 each), E met neither: C 1/2, D 1/2,
    # E 0, so E is third; C and D then tie on Buchholz too.
    # On 3/2, {A, B}: A beat B, so A 1, B 0 and A is above B.
    assert [(r.rank, r.player, r.values["head_to_head"], r.separated_from_next) for r in rows] == [
        (1, "C", F(1, 2), None),
        (1, "D", F(1, 2), "head_to_head"),
        (3, "E", 0, "score"),
        (4, "A", 1, "head_to_head"),
        (5, "B", 0, None),
    ]


def test_head_to_head_is_empty_for_a_player_separated_before_it_applies():
    rows = by_player(standings(FIVE, ["buchholz", "head_to_head"]))
    assert rows["E"].values["head_to_head"] is None  # alone on 2 points with Buchholz 5
    assert rows["C"].values["head_to_head"] == F(1, 2)  # tied with D: drew with D


def test_opponents_match_win_percentage_uses_the_one_third_floor_and_skips_byes():
    rows = by_player(standings(FIVE, ["omw"]))
    # Match-win: score / rounds taken part (3 each): A 1/2, B 1/2, C 2/3, D 2/3, E 2/3.
    # A: (B 1/2 + C 2/3 + E 2/3) / 3 = 11/18    B: (A 1/2 + E 2/3 + D 2/3) / 3 = 11/18
    # C: (D 2/3 + A 1/2) / 2 = 7/12            D: (C 2/3 + B 1/2) / 2 = 7/12
    # E: (B 1/2 + A 1/2) / 2 = 1/2
    assert {p: r.values["omw"] for p, r in rows.items()} == {
        "A": F(11, 18),
        "B": F(11, 18),
        "C": F(7, 12),
        "D": F(7, 12),
        "E": F(1, 2),
    }
    floor = by_player(standings([Game(1, "X", "Y", 1, 0), Game(2, "X", "Z", 1, 0)], ["omw"]))
    # X met Y (0 of 1 -> floor 1/3) and Z (0 of 1 -> 1/3): (1/3 + 1/3) / 2 = 1/3.
    # Y's only opponent X scored 2 of 2 = 1.
    assert floor["X"].values["omw"] == F(1, 3)
    assert floor["Y"].values["omw"] == 1


def test_wins_count_games_won_but_not_byes():
    rows = by_player(standings(FIVE, ["wins"]))
    # A beat B, B beat E, E beat A; C and D only drew (their byes do not count).
    assert {p: r.values["wins"] for p, r in rows.items()} == {"A": 1, "B": 1, "C": 0, "D": 0, "E": 1}


def test_a_forfeit_is_an_unplayed_round_for_the_opponent_based_tie_breaks():
    games = [
        Game(1, "A", "B", 1, 0, forfeit=True),
        Game(1, "C", "D", 1, 0),
        Game(2, "A", "C", 0, 1),
        Game(2, "B", "D", 1, 0),
    ]
    rows = by_player(standings(games, ["buchholz", "wins"]))
    # Scores: A 1, B 1, C 2, D 0. A's forfeit win counts as a dummy opponent with A's own
    # score: Buchholz(A) = 1 (dummy) + 2 (C) = 3. B likewise: 1 (dummy) + 0 (D) = 1.
    assert rows["A"].values["buchholz"] == 3
    assert rows["B"].values["buchholz"] == 1
    assert rows["A"].values["wins"] == 1  # a forfeit win is still a win


def test_rounds_without_a_record_count_as_unplayed_when_the_round_count_is_given():
    games = [Game(1, "A", "B", 1, 0), Game(2, "A", "L", 0, 1)]  # L joined in round 2
    rows = by_player(standings(games, ["buchholz", "omw"], rounds=2))
    # Scores: A 1, B 0, L 1. Buchholz(L) = own 1 (absent round 1) + A 1 = 2.
    # Buchholz(B) = A 1 + own 0 (no record in round 2) = 1.
    assert rows["L"].values["buchholz"] == 2
    assert rows["B"].values["buchholz"] == 1
    # Match-win only counts rounds taken part in: L took part once and won -> 1.
    assert rows["A"].values["omw"] == (F(1, 3) + 1) / 2  # B 0/1 -> floor 1/3; L 1/1 -> 1


def test_players_without_games_appear_at_the_bottom_with_zero_values():
    rows = standings([Game(1, "A", "B", 1, 0)], ["buchholz"], players=["Z"])
    assert [r.player for r in rows] == ["A", "B", "Z"]
    assert rows[-1].score == 0 and rows[-1].values["buchholz"] == 0


def test_every_value_is_exact():
    rows = standings(FIVE, list(TIEBREAKS))
    for row in rows:
        assert isinstance(row.score, F)
        for name, value in row.values.items():
            assert value is None or isinstance(value, (int, F)), name


def test_unknown_or_repeated_tie_breaks_and_double_results_are_refused():
    with pytest.raises(ValueError, match="Unknown"):
        standings(FIVE, ["progressive"])
    with pytest.raises(ValueError, match="once"):
        standings(FIVE, ["buchholz", "buchholz"])
    with pytest.raises(ValueError, match="two results"):
        standings([Game(1, "A", "B", 1, 0), Game(1, "A", "C", 1, 0)])
