"""A bye the player asked for is worth the tournament's requested-bye points and is no game
played (services/edits.py: "takes the tournament's requested_bye_points (default 0); the
tie-breaks count the round as unplayed"). Only the pairing's own bye counts as a match won
2-0 (RULES.md "Byes and forfeits count as 2-0", "Requested byes")."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.standings import round_standings
from matches.commands import AT_HEAD

from .helpers import field, open_pairings, open_tournament, pid, state

pytestmark = pytest.mark.django_db


def lower_id_wins_two_games_to_one(t):
    User = get_user_model()
    for record in open_pairings(t):
        a, b = record["players"]
        winner = min(a, b, key=int)
        games = [2, 1] if winner == a else [1, 2]
        services.tournament_report(
            tournament=t,
            pairing=record["id"],
            user=User.objects.get(pk=int(a)),
            result={"winner": winner, "games": games},
            expected_seq=AT_HEAD,
        )
        services.tournament_confirm(
            tournament=t, pairing=record["id"], user=User.objects.get(pk=int(b)), expected_seq=AT_HEAD
        )


def first_player_row_after_sitting_out_round_two(alice, prefix="p", **options):
    """Four players, a best of three: the first wins round 1 2-1 (the lower id always wins
    2-1), then sits round 2 out on request."""
    players = field(4, prefix=prefix)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2, best_of=3, **options)
    away = players[0]
    services.tournament_bye_request(tournament=t, user=away, round=2, expected_seq=AT_HEAD)
    lower_id_wins_two_games_to_one(t)
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    lower_id_wins_two_games_to_one(t)
    s = state(t)
    [sat_out] = [s["pairings"][k] for k in s["rounds"][1]["pairings"] if s["pairings"][k]["players"] == [pid(away)]]
    assert sat_out["result"] == {"bye": True, "requested": True}
    return next(r for r in round_standings(s) if r["player"] == pid(away))


def test_with_battle_points_a_requested_bye_worth_nothing_adds_no_games(alice):
    row = first_player_row_after_sitting_out_round_two(alice, points_from="games")
    assert row["score"] == 2  # the two games won in round 1, nothing for the round sat out


def test_with_battle_points_a_requested_bye_takes_its_share_of_a_win_in_games(alice):
    half = first_player_row_after_sitting_out_round_two(alice, "h", points_from="games", requested_bye_points="1/2")
    whole = first_player_row_after_sitting_out_round_two(alice, "w", points_from="games", requested_bye_points="1")
    three = first_player_row_after_sitting_out_round_two(
        alice,
        "t",
        points_from="games",
        match_points={"win": 3, "draw": 1, "loss": 0, "bye": 3},
        requested_bye_points="3",
    )
    # Half a win is half the games that win a best of three; a whole win (1, or 3 of 3/1/0)
    # is what the pairing's bye is worth: 2.
    assert half["score"] == 2 + 1
    assert whole["score"] == three["score"] == 2 + 2


def test_a_requested_bye_counts_no_game_for_the_game_win_percentage(alice):
    row = first_player_row_after_sitting_out_round_two(alice, tiebreaks=["gwp", "mwp"], requested_bye_points="1")
    # Games played: round 1 only, won 2-1. Counting the round sat out as 2-0 would make it 4/5.
    assert row["tiebreaks"]["gwp"] == Fraction(2, 3)
    # The match-win percentage still counts the round with the points it gave: 2 wins' worth of 2.
    assert row["tiebreaks"]["mwp"] == 1
