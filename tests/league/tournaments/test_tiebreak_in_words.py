"""The tie-break in force, in words, next to each rank: who a player is ahead of or behind
on the same score, on which tie-break, and the two values; or that they are tied."""

import pytest

from league.tournaments import services
from league.tournaments.tiebreaks import Game, in_words, shown, standings
from matches.commands import AT_HEAD

from .helpers import field, lower_id_wins, open_tournament, settle

# R1: A beats B, C beats D; R2: A beats C, D beats B.  Scores A 2, C 1, D 1, B 0.
# Buchholz: C meets D (1) and A (2) = 3; D meets C (1) and B (0) = 1.
# Median Buchholz of two opponents drops both: C and D have 0 each.
GAMES = [Game(1, "A", "B", 1, 0), Game(1, "C", "D", 1, 0), Game(2, "A", "C", 1, 0), Game(2, "D", "B", 1, 0)]
NAMES = {"A": "Alice", "B": "Bob", "C": "Cleo", "D": "Dan"}


def test_players_on_the_same_score_say_which_tie_break_parted_them_and_its_values():
    rows = standings(GAMES, ["buchholz"])
    assert [r.player for r in rows] == ["A", "C", "D", "B"]
    assert in_words(rows, NAMES) == [
        None,  # Alice leads on score alone
        "ahead of Dan on Buchholz: 3 to 1",
        "behind Cleo on Buchholz: 1 to 3",
        None,
    ]


def test_players_level_on_every_tie_break_are_said_to_be_tied():
    rows = standings(GAMES, ["median_buchholz"])
    assert rows[1].rank == rows[2].rank == 2
    words = in_words(rows, NAMES)
    assert words[1] == f"tied with {NAMES[rows[2].player]}"
    assert words[2] == f"tied with {NAMES[rows[1].player]}"


def test_the_second_tie_break_is_named_when_the_first_left_them_level():
    rows = standings(GAMES, ["median_buchholz", "sonneborn_berger"])
    # Sonneborn-Berger: C beat D (1 point) -> 1; D beat B (0 points) -> 0.
    assert in_words(rows, NAMES)[1] == "ahead of Dan on Sonneborn-Berger: 1 to 0"


def test_percentages_read_as_percentages_and_other_values_as_decimals():
    assert shown("omw", 2 / 3) == "66.7%"
    assert shown("gwp", 1) == "100%"
    assert shown("buchholz", 7.5) == "7.5"
    assert shown("buchholz", 6) == "6"


@pytest.mark.django_db
def test_the_standings_api_and_printed_sheet_give_each_row_its_tie_break_in_words(alice, client_for, client):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2, tiebreaks=["buchholz"])
    settle(t, lower_id_wins)
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    rows = client_for(alice).get(f"/api/tournaments/{t.id}/").json()["standings"]["tables"][0]["rows"]
    # Lower ids win: p01 2 points, p02 and p03 1 each, p04 none. With no rematch, each of the
    # two on one point met the leader and the last player: the same Buchholz, so "tied".
    # (Players tied on everything are listed by id, so the middle two come in either order.)
    assert [r["score"] for r in rows] == ["2", "1", "1", "0"]
    assert (rows[0]["name"], rows[3]["name"]) == ("p01", "p04")
    assert rows[0]["decided_by"] is None and rows[3]["decided_by"] is None
    assert {r["name"]: r["decided_by"] for r in rows[1:3]} == {"p02": "tied with p03", "p03": "tied with p02"}
    client.force_login(alice)
    printed = client.get(f"/tournaments/{t.id}/print/standings/").content.decode()
    assert "tied with p03" in printed and "tied with p02" in printed
