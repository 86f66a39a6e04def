"""Issue 16: the organiser's desk. The organiser checks a named player in (the API used
to check in whoever called), at any time before the start, and can undo a check-in ticked
by mistake; both are facts in the stream that say who did them. Players still check
themselves in only inside the window, and never anyone else."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from league.tournaments import services
from league.tournaments.projection import fold
from league.tournaments.services import event_dict
from matches import eventstore
from matches.commands import AT_HEAD

from .helpers import api_command, field, open_tournament, pid, refused, state

pytestmark = pytest.mark.django_db


def test_the_organiser_checks_a_named_player_in_and_the_event_says_so(alice):
    players = field(3)
    t = open_tournament(alice, "swiss", players, check_in_required=True)
    out = services.tournament_check_in(tournament=t, user=players[1], by=alice, expected_seq=AT_HEAD)
    assert [(e.type, e.data["player"], e.data["by"]) for e in out.events] == [
        ("player.checked_in", pid(players[1]), pid(alice))
    ]
    assert out.events[0].actor == f"user:{alice.pk}"
    s = state(t)
    assert s["players"][pid(players[1])]["checked_in"] and s["players"][pid(players[1])]["checked_in_by"] == pid(alice)
    assert not s["players"][pid(players[0])]["checked_in"]
    refused("already_checked_in", services.tournament_check_in, tournament=t, user=players[1], by=alice)


def test_the_desk_works_outside_the_window_the_players_do_not(alice):
    players = field(2)
    now = timezone.now()
    t = open_tournament(
        alice,
        "swiss",
        players,
        check_in_opens=(now - timedelta(hours=2)).isoformat(),
        check_in_closes=(now - timedelta(hours=1)).isoformat(),
    )
    refused("check_in_closed", services.tournament_check_in, tournament=t, user=players[0], now=now)
    services.tournament_check_in(tournament=t, user=players[0], by=alice, now=now, expected_seq=AT_HEAD)
    assert state(t)["players"][pid(players[0])]["checked_in"]


def test_only_the_organiser_checks_in_someone_else(alice):
    players = field(2)
    t = open_tournament(alice, "swiss", players, check_in_required=True)
    refused("not_your_place", services.tournament_check_in, tournament=t, user=players[1], by=players[0])
    refused("not_organiser", services.tournament_check_in_undo, tournament=t, user=players[0], by=players[0])
    assert not any(p["checked_in"] for p in state(t)["players"].values())


def test_an_undone_check_in_keeps_the_player_out_of_the_start_and_replays_the_same(alice):
    players = field(3)
    t = open_tournament(alice, "swiss", players, check_in_required=True)
    for p in players:
        services.tournament_check_in(tournament=t, user=p, by=alice, expected_seq=AT_HEAD)
    refused("not_checked_in", services.tournament_check_in_undo, tournament=t, user=field(1, "x")[0], by=alice)
    out = services.tournament_check_in_undo(
        tournament=t, user=players[2], by=alice, reason="ticked the wrong name", expected_seq=AT_HEAD
    )
    assert out.events[0].type == "player.check_in_undone"
    assert out.events[0].data["reason"] == "ticked the wrong name"
    refused("not_checked_in", services.tournament_check_in_undo, tournament=t, user=players[2], by=alice)
    # Checked in again by the player, then undone again: the stream keeps all four facts.
    services.tournament_check_in(tournament=t, user=players[2], expected_seq=AT_HEAD)
    services.tournament_check_in_undo(tournament=t, user=players[2], by=alice, expected_seq=AT_HEAD)
    s = state(t)
    assert not s["players"][pid(players[2])]["checked_in"]
    replay = fold(event_dict(e) for e in eventstore.stream_events(stream_id=t.stream_id))
    assert replay == s
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    assert s["players"][pid(players[2])]["status"] == "not_checked_in"
    assert sorted(s["seeds"]) == sorted([pid(players[0]), pid(players[1])])
    refused("check_in_closed", services.tournament_check_in_undo, tournament=t, user=players[0], by=alice)


def test_the_desk_over_http(alice, bob, client_for):
    players = field(2)
    t = open_tournament(alice, "swiss", players, check_in_required=True)
    organiser, player = client_for(alice), client_for(bob)
    r = api_command(player, t, "check-in", user=players[0].username)
    assert r.status_code == 403 and r.json()["code"] == "not_your_place"
    r = api_command(organiser, t, "check-in", user=players[0].username)
    assert r.status_code == 201, r.json()
    row = next(p for p in r.json()["players"] if p["name"] == players[0].username)
    assert row["checked_in"] and row["checked_in_at_desk"]
    r = api_command(organiser, t, "check-in-undo", user=players[0].username, reason="left")
    assert r.status_code == 201, r.json()
    row = next(p for p in r.json()["players"] if p["name"] == players[0].username)
    assert not row["checked_in"] and not row["checked_in_at_desk"]
    r = api_command(player, t, "check-in-undo", user=players[1].username)
    assert r.status_code == 403 and r.json()["code"] == "not_organiser"
