"""Scores real events use: game scores within a match (best of three: 2-1), match points the
organiser sets (3 / 1 / 0, a bye worth a win), battle points (games won), and defaults that
score an event exactly as before."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.standings import round_standings, swiss_field
from matches.commands import AT_HEAD

from .helpers import field, open_tournament, pid, refused, settle, state

pytestmark = pytest.mark.django_db


def user(player_id):
    return get_user_model().objects.get(pk=int(player_id))


def boards(t):
    """The two-player pairings of the current round, board order."""
    s = state(t)
    return [s["pairings"][p] for p in s["rounds"][-1]["pairings"] if len(s["pairings"][p]["players"]) == 2]


def report_and_confirm(t, record, result):
    a, b = (user(p) for p in record["players"])
    services.tournament_report(tournament=t, pairing=record["id"], user=a, result=result, expected_seq=AT_HEAD)
    services.tournament_confirm(tournament=t, pairing=record["id"], user=b, expected_seq=AT_HEAD)


def scores(t):
    return {r["player"]: r["score"] for r in round_standings(state(t))}


def test_a_best_of_three_reported_two_games_to_one_is_confirmed_with_its_game_score(alice):
    t = open_tournament(alice, "swiss", field(4), start=True, rounds=2, best_of=3)
    first = boards(t)[0]
    a, b = first["players"]
    report_and_confirm(t, first, {"winner": a, "games": [2, 1]})
    record = state(t)["pairings"][first["id"]]
    assert record["status"] == "final"
    assert record["result"] == {"winner": a, "games": [2, 1]}
    assert scores(t)[a] == 1 and scores(t)[b] == 0


@pytest.mark.parametrize(
    ("games", "why"),
    [
        ([1, 2], "the winner has fewer games"),
        ([2, 2], "the loser also reached two"),
        ([3, 0], "three games win nothing more in a best of three"),
        ([2, -1], "games are not negative"),
        ([2, True], "a game count is a whole number"),
        ([2], "one number per player"),
        (None, "a best of three needs its score"),
    ],
)
def test_a_game_score_that_cannot_happen_is_refused_and_changes_nothing(alice, games, why):
    t = open_tournament(alice, "swiss", field(4), start=True, rounds=2, best_of=3)
    first = boards(t)[0]
    result = {"winner": first["players"][0]}
    if games is not None:
        result["games"] = games
    before = state(t)
    refused(
        "bad_result",
        services.tournament_report,
        tournament=t,
        pairing=first["id"],
        user=user(first["players"][0]),
        result=result,
    )
    assert state(t) == before, why


def test_a_draw_when_time_ran_out_is_level_on_games_and_a_level_two_all_is_refused(alice):
    t = open_tournament(alice, "swiss", field(4), start=True, rounds=2, best_of=5)
    first, second = boards(t)
    report_and_confirm(t, first, {"draw": True, "games": [2, 2]})
    assert state(t)["pairings"][first["id"]]["result"] == {"draw": True, "games": [2, 2]}
    refused(
        "bad_result",
        services.tournament_report,
        tournament=t,
        pairing=second["id"],
        user=user(second["players"][0]),
        result={"draw": True, "games": [3, 3]},
    )


def test_rulings_and_corrections_carry_the_game_score(alice):
    t = open_tournament(alice, "swiss", field(4), start=True, rounds=2, best_of=3)
    first = boards(t)[0]
    a, b = first["players"]
    services.tournament_rule(
        tournament=t, pairing=first["id"], by=alice, result={"winner": a, "games": [2, 0]}, expected_seq=AT_HEAD
    )
    assert state(t)["pairings"][first["id"]]["result"] == {"winner": a, "games": [2, 0]}
    services.tournament_correct(
        tournament=t, pairing=first["id"], by=alice, result={"winner": b, "games": [1, 2]}, expected_seq=AT_HEAD
    )
    assert state(t)["pairings"][first["id"]]["result"] == {"winner": b, "games": [1, 2]}
    assert scores(t)[b] == 1


def test_a_best_of_one_result_reads_the_same_with_or_without_its_one_game(alice):
    # So a report "won 1-0" confirms a report "won": the single game says nothing more.
    t = open_tournament(alice, "swiss", field(4), start=True, rounds=2)
    first = boards(t)[0]
    a, b = first["players"]
    services.tournament_report(
        tournament=t, pairing=first["id"], user=user(a), result={"winner": a, "games": [1, 0]}, expected_seq=AT_HEAD
    )
    services.tournament_report(
        tournament=t, pairing=first["id"], user=user(b), result={"winner": a}, expected_seq=AT_HEAD
    )
    record = state(t)["pairings"][first["id"]]
    assert record["status"] == "final" and record["result"] == {"winner": a}


def test_three_one_nothing_scoring_with_a_bye_worth_a_win(alice):
    players = field(5)
    t = open_tournament(
        alice, "swiss", players, start=True, rounds=2, match_points={"win": 3, "draw": 1, "loss": 0, "bye": 3}
    )
    first, second = boards(t)
    report_and_confirm(t, first, {"winner": first["players"][0]})
    report_and_confirm(t, second, {"draw": True})
    got = scores(t)
    bye = next(r["players"][0] for r in state(t)["pairings"].values() if len(r["players"]) == 1)
    assert got[first["players"][0]] == 3 and got[first["players"][1]] == 0
    assert got[second["players"][0]] == got[second["players"][1]] == 1
    assert got[bye] == 3
    # The Swiss pairing's score groups are the same points.
    assert {p.id: p.score for p in swiss_field(state(t))} == got


def test_battle_points_count_games_won_and_a_bye_as_two_games_in_a_best_of_three(alice):
    players = field(5)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2, best_of=3, points_from="games")
    first, second = boards(t)
    report_and_confirm(t, first, {"winner": first["players"][0], "games": [2, 1]})
    report_and_confirm(t, second, {"draw": True, "games": [1, 1]})
    got = scores(t)
    bye = next(r["players"][0] for r in state(t)["pairings"].values() if len(r["players"]) == 1)
    assert got[first["players"][0]] == 2 and got[first["players"][1]] == 1
    assert got[second["players"][0]] == got[second["players"][1]] == 1
    assert got[bye] == 2


def test_without_scoring_options_an_event_scores_one_a_half_and_nothing(alice):
    players = field(5)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2)
    settle(t, lambda record: None if record["board"] == 2 else record["players"][0])
    got = scores(t)
    assert sorted(got.values()) == [0, Fraction(1, 2), Fraction(1, 2), 1, 1]


@pytest.mark.parametrize(
    "options",
    [
        {"best_of": 2},
        {"best_of": "3"},
        {"match_points": {"win": 1, "draw": 2}},
        {"match_points": {"win": 3, "bonus": 1}},
        {"match_points": {"win": 0}},
        {"points_from": "wins"},
        {"match_points": {"win": 3, "bye": 3}, "bye_score": "1"},
    ],
)
def test_scoring_options_that_make_no_sense_are_refused(alice, options):
    refused(
        "bad_options",
        services.tournament_create,
        created_by=alice,
        name="Odd scoring",
        game="dueling-wizards",
        format="swiss",
        options=options,
    )


def test_the_bye_score_a_swiss_had_still_sets_the_bye(alice):
    players = field(3)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2, bye_score="1/2")
    s = state(t)
    assert s["options"]["match_points"] == {"win": "1", "draw": "1/2", "loss": "0", "bye": "1/2"}
    bye = next(r["players"][0] for r in s["pairings"].values() if len(r["players"]) == 1)
    assert scores(t)[bye] == Fraction(1, 2)
    assert pid(players[0]) in scores(t)


def test_the_new_tournament_form_offers_best_of_three_and_three_one_nothing(alice):
    from django.test import Client

    from league.tournaments.models import Tournament

    client = Client()
    client.force_login(alice)
    r = client.post(
        "/tournaments/",
        {
            "name": "Three Point Open",
            "game": "dueling-wizards",
            "format": "swiss",
            "bye_score": "1",
            "seeding": "registration",
            "seat_balance": "balanced",
            "best_of": "3",
            "scoring": "3-1-0",
        },
    )
    assert r.status_code == 302
    options = Tournament.objects.get(name="Three Point Open").state["options"]
    assert options["best_of"] == 3
    assert options["match_points"] == {"win": "3", "draw": "1", "loss": "0", "bye": "3"}
    assert options["bye_score"] == "3"


def test_a_players_page_gives_the_game_score_from_their_side(alice):
    from league.tournaments.selectors import player_view

    t = open_tournament(alice, "swiss", field(4), start=True, rounds=2, best_of=3)
    first = boards(t)[0]
    a, b = first["players"]
    report_and_confirm(t, first, {"winner": b, "games": [1, 2]})
    assert player_view(state(t), b)["results"][0]["outcome"] == "won 2-1"
    assert player_view(state(t), a)["results"][0]["outcome"] == "lost 1-2"


def test_a_best_of_three_bracket_match_is_won_with_its_game_score(alice):
    players = field(4)
    t = open_tournament(alice, "single_elimination", players, start=True, best_of=3)
    first = boards(t)[0]
    a, b = first["players"]
    refused(
        "bad_result", services.tournament_report, tournament=t, pairing=first["id"], user=user(a), result={"winner": a}
    )
    report_and_confirm(t, first, {"winner": a, "games": [2, 1]})
    assert state(t)["pairings"][first["id"]]["result"] == {"winner": a, "games": [2, 1]}
