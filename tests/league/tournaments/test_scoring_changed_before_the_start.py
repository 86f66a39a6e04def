"""Scoring an organiser settles during registration: games a match, match points, battle
points and a requested bye's worth change with `configure` until the start (then results count
under them and they hold), validated with the tournament's other options, over the API too."""

from __future__ import annotations

import pytest

from league.tournaments import services
from league.tournaments.standings import round_standings
from matches.commands import AT_HEAD
from matches.models import Event

from .helpers import api_command, field, open_tournament, refused, state

pytestmark = pytest.mark.django_db


def events(t):
    return Event.objects.filter(stream_id=t.stream_id).count()


def test_the_organiser_switches_to_best_of_three_and_three_one_nothing_before_the_start(alice):
    players = field(5)
    t = open_tournament(alice, "swiss", players, rounds=2)
    services.tournament_configure(
        tournament=t,
        by=alice,
        best_of=3,
        match_points={"win": 3, "draw": 1, "loss": 0, "bye": 3},
        expected_seq=AT_HEAD,
    )
    options = state(t)["options"]
    assert options["best_of"] == 3
    assert options["match_points"] == {"win": "3", "draw": "1", "loss": "0", "bye": "3"}
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    bye = next(r["players"][0] for r in s["pairings"].values() if len(r["players"]) == 1)
    assert {r["player"]: r["score"] for r in round_standings(s)}[bye] == 3  # the new bye's worth
    # A best-of-three pairing needs its game score now: a bare winner is refused.
    record = next(r for r in s["pairings"].values() if len(r["players"]) == 2)
    a = next(u for u in players if str(u.pk) == record["players"][0])
    refused(
        "bad_result",
        services.tournament_report,
        tournament=t,
        pairing=record["id"],
        user=a,
        result={"winner": record["players"][0]},
    )


def test_scoring_holds_once_the_tournament_has_started(alice):
    t = open_tournament(alice, "swiss", field(4), start=True, rounds=2)
    before = events(t)
    refused("already_started", services.tournament_configure, tournament=t, by=alice, best_of=3)
    refused("already_started", services.tournament_configure, tournament=t, by=alice, points_from="games")
    assert events(t) == before and state(t)["options"].get("best_of", 1) == 1


def test_scoring_is_checked_with_the_options_already_set(alice):
    t = open_tournament(alice, "swiss", field(4), rounds=2, requested_bye_points="1")
    before = events(t)
    # A win worth less than the requested bye already promised: refused, nothing written.
    refused(
        "bad_options",
        services.tournament_configure,
        tournament=t,
        by=alice,
        match_points={"win": "1/2", "draw": "1/4", "loss": 0, "bye": "1/2"},
    )
    refused("bad_options", services.tournament_configure, tournament=t, by=alice, best_of=2)
    assert events(t) == before


def test_a_format_without_the_option_refuses_it(alice):
    t = open_tournament(alice, "single_elimination", field(4))
    refused("bad_options", services.tournament_configure, tournament=t, by=alice, points_from="games")


def test_only_the_organiser_changes_scoring_over_the_api(alice, client_for):
    players = field(4)
    t = open_tournament(alice, "swiss", players, rounds=2)
    stranger = client_for(players[0])
    answer = api_command(stranger, t, "configure", best_of=3)
    assert answer.status_code == 403
    answer = api_command(client_for(alice), t, "configure", best_of=3, points_from="games")
    assert answer.status_code == 201, answer.json()
    assert state(t)["options"]["best_of"] == 3 and state(t)["options"]["points_from"] == "games"
