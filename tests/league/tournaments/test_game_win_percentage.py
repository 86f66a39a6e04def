"""Match-win and game-win percentages as tie-breaks, with the customary floor.

The convention is the Magic: The Gathering Tournament Rules, appendix C: a won match or game
is worth 3 points and a drawn one 1; a percentage is the points earned over the points
possible, and "if this number is lower than 0.33, use 0.33 instead". A bye is a match won
2-0. Opponents' percentages are the mean over the opponents a player actually met.
"""

from fractions import Fraction as F

from hypothesis import given
from hypothesis import strategies as st

from league.tournaments.tiebreaks import PERCENT_FLOOR, TIEBREAKS, Game, standings

# Worked by hand: four players, best of three, matches scored 3 / 1 / 0.
#   R1: A beats B 2-1, C beats D 2-0
#   R2: A beats C 2-0, B and D draw 1-1 (time ran out)
# Match points: A 6, B 1, C 3, D 1 (two rounds each, 6 possible)
#   MWP  A 6/6 = 1   B 1/6 -> 1/3   C 3/6 = 1/2   D 1/6 -> 1/3
# Games (won-lost):  A 4-1  B 2-3  C 2-2  D 1-3
#   GWP  A 4/5   B 2/5   C 1/2   D 1/4 -> 1/3
#   OMW  A (1/3 + 1/2)/2 = 5/12    B (1 + 1/3)/2 = 2/3
#        C (1/3 + 1)/2   = 2/3     D (1/2 + 1/3)/2 = 5/12
#   OGWP A (2/5 + 1/2)/2 = 9/20    B (4/5 + 1/3)/2 = 17/30
#        C (1/3 + 4/5)/2 = 17/30   D (1/2 + 2/5)/2 = 9/20
WORKED = [
    Game(1, "A", "B", 3, 0, first_games=2, second_games=1),
    Game(1, "C", "D", 3, 0, first_games=2, second_games=0),
    Game(2, "A", "C", 3, 0, first_games=2, second_games=0),
    Game(2, "B", "D", 1, 1, first_games=1, second_games=1),
]


def by_player(rows):
    return {r.player: r for r in rows}


def test_the_new_percentages_are_tie_breaks_an_organiser_can_choose():
    assert {"mwp", "gwp", "omw", "ogwp"} <= set(TIEBREAKS)


def test_the_worked_example_matches_the_hand_computation():
    rows = by_player(standings(WORKED, ["mwp", "gwp", "omw", "ogwp"], win_points=3))
    assert {p: r.score for p, r in rows.items()} == {"A": 6, "B": 1, "C": 3, "D": 1}
    assert {p: r.values["mwp"] for p, r in rows.items()} == {"A": 1, "B": F(1, 3), "C": F(1, 2), "D": F(1, 3)}
    assert {p: r.values["gwp"] for p, r in rows.items()} == {"A": F(4, 5), "B": F(2, 5), "C": F(1, 2), "D": F(1, 3)}
    assert {p: r.values["omw"] for p, r in rows.items()} == {
        "A": F(5, 12),
        "B": F(2, 3),
        "C": F(2, 3),
        "D": F(5, 12),
    }
    assert {p: r.values["ogwp"] for p, r in rows.items()} == {
        "A": F(9, 20),
        "B": F(17, 30),
        "C": F(17, 30),
        "D": F(9, 20),
    }


def test_players_level_on_match_points_are_parted_by_opponents_match_win_percentage():
    rows = standings(WORKED, ["omw", "gwp"], win_points=3)
    assert [r.player for r in rows] == ["A", "C", "B", "D"]
    assert rows[2].separated_from_next == "omw"


def test_a_bye_counts_as_a_match_won_two_games_to_none_and_is_no_opponent():
    games = [Game(1, "A", None, 3, first_games=2), Game(2, "A", "B", 0, 3, first_games=1, second_games=2)]
    rows = by_player(standings(games, ["mwp", "gwp", "ogwp"], win_points=3))
    assert rows["A"].values["mwp"] == F(1, 2)  # 3 of 6 match points
    assert rows["A"].values["gwp"] == F(3, 5)  # 2-0 and 1-2: 3 games won of 5
    assert rows["A"].values["ogwp"] == F(2, 3)  # only B counts: 2 of 3
    assert rows["B"].values["ogwp"] == F(3, 5)


def test_a_drawn_game_is_a_third_of_a_won_one():
    # Best of three drawn 1-1 with a third game drawn: (1 + 1/3) / 3 games.
    rows = by_player(standings([Game(1, "X", "Y", 1, 1, first_games=1, second_games=1, drawn_games=1)], ["gwp"]))
    assert rows["X"].values["gwp"] == F(4, 9)


def test_with_one_point_a_win_the_match_win_percentage_is_the_score_per_round():
    # The default scoring (1 / 1/2 / 0): a draw is half a win, as the omw tie-break always had it.
    rows = by_player(standings([Game(1, "X", "Y", F(1, 2), F(1, 2)), Game(2, "X", "Z", 1, 0)], ["mwp"]))
    assert rows["X"].values["mwp"] == F(3, 4)


def test_a_player_who_only_had_byes_gets_the_floor_for_opponents_percentages():
    rows = by_player(standings([Game(1, "A", None, 1)], ["omw", "ogwp"]))
    assert rows["A"].values["omw"] == PERCENT_FLOOR
    assert rows["A"].values["ogwp"] == PERCENT_FLOOR


@st.composite
def events(draw):
    """Random best-of-three rounds among six players, each round a perfect matching."""
    players = ["A", "B", "C", "D", "E", "F"]
    games = []
    for rnd in range(1, draw(st.integers(1, 4)) + 1):
        order = draw(st.permutations(players))
        for a, b in zip(order[::2], order[1::2], strict=True):
            score = draw(st.sampled_from([(2, 0), (2, 1), (1, 0), (1, 1), (0, 0), (0, 1), (1, 2), (0, 2)]))
            pts = (3, 0) if score[0] > score[1] else (0, 3) if score[1] > score[0] else (1, 1)
            games.append(Game(rnd, a, b, *pts, first_games=score[0], second_games=score[1]))
    return games


@given(events())
def test_every_percentage_lies_between_the_floor_and_one(games):
    for row in standings(games, ["mwp", "gwp", "omw", "ogwp"], win_points=3):
        for name in ("mwp", "gwp", "omw", "ogwp"):
            assert PERCENT_FLOOR <= row.values[name] <= 1, (row.player, name)


@given(events())
def test_opponents_game_win_percentage_is_the_mean_of_the_opponents_own(games):
    rows = by_player(standings(games, ["gwp", "ogwp"], win_points=3))
    for row in rows.values():
        met = [g.second if g.first == row.player else g.first for g in games if row.player in (g.first, g.second)]
        assert row.values["ogwp"] == sum(rows[o].values["gwp"] for o in met) / len(met)
