"""Issue 16: pressing "Pair the next round" moves no tie-break and no rank. A round that
is paired but not yet played is no game for anyone: it used to count as a game against a
dummy opponent with the player's own score, so every Buchholz jumped before any move."""

from __future__ import annotations

import pytest

from league.tournaments import services
from league.tournaments.standings import round_standings
from matches.commands import AT_HEAD

from .helpers import field, lower_id_wins, open_tournament, pid, settle, state

pytestmark = pytest.mark.django_db


def table(s):
    return [(r["rank"], r["player"], r["score"], r["tiebreaks"]) for r in round_standings(s)]


def test_pairing_the_next_round_changes_no_tie_break_or_rank(alice):
    players = field(8)
    t = open_tournament(alice, "swiss", players, start=True, rounds=4)
    for _ in range(2):
        settle(t, lower_id_wins)
        services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    before = table(state(t))
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    assert table(state(t)) == before


def test_a_game_of_the_round_in_play_counts_once_it_has_its_result(alice):
    players = field(8)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    settle(t, lower_id_wins)
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    record = s["pairings"][s["rounds"][1]["pairings"][0]]
    services.tournament_rule(
        tournament=t, pairing=record["id"], by=alice, result={"winner": record["players"][0]}, expected_seq=AT_HEAD
    )
    rows = {r["player"]: r for r in round_standings(state(t))}
    assert rows[record["players"][0]]["played"] == 2
    others = [p for p in map(pid, players) if p not in record["players"]]
    assert all(rows[p]["played"] == 1 for p in others)


def test_a_dropped_player_counts_a_missed_round_once_that_round_is_over(alice):
    players = field(7)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    gone = pid(players[6])
    s = state(t)
    assert [
        s["pairings"][p]["players"] for p in s["rounds"][0]["pairings"] if len(s["pairings"][p]["players"]) == 1
    ] == [[gone]]  # the last entrant has the round-one bye
    settle(t, lower_id_wins)
    services.tournament_drop(tournament=t, user=players[6], expected_seq=AT_HEAD)
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    rows = {r["player"]: r for r in round_standings(state(t))}
    # The bye is an unplayed round (a dummy opponent with the player's own score, 1);
    # round two, still being played, is nothing yet.
    assert rows[gone]["score"] == 1 and rows[gone]["tiebreaks"]["buchholz"] == 1
    settle(t, lower_id_wins)
    rows = {r["player"]: r for r in round_standings(state(t))}
    # Round two is over: the round the dropped player missed now counts the same way.
    assert rows[gone]["score"] == 1 and rows[gone]["tiebreaks"]["buchholz"] == 2
