"""Registration with a cap and waitlist, withdrawals promoting the waitlist, the check-in
window, and seeding by rating or by hand (issue 6, flows)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from league.tournaments import services
from matches.commands import AT_HEAD

from .helpers import field, open_tournament, pid, refused, state

pytestmark = pytest.mark.django_db


def test_players_beyond_the_cap_are_waitlisted_and_promoted_in_order_when_someone_withdraws(alice):
    players = field(5)
    t = open_tournament(alice, "single_elimination", players, cap=3)
    s = state(t)
    assert [s["players"][pid(p)]["status"] for p in players] == ["registered"] * 3 + ["waitlisted"] * 2
    assert s["waitlist"] == [pid(players[3]), pid(players[4])]
    out = services.tournament_withdraw(tournament=t, user=players[1], expected_seq=AT_HEAD)
    assert [e.type for e in out.events] == ["player.withdrew", "player.promoted"]
    s = state(t)
    assert s["players"][pid(players[3])]["status"] == "registered" and s["waitlist"] == [pid(players[4])]


def test_registering_twice_or_after_the_start_is_refused(alice):
    players = field(3)
    t = open_tournament(alice, "swiss", players)
    refused("already_registered", services.tournament_register, tournament=t, user=players[0])
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    (late,) = field(1, "z")
    refused("registration_closed", services.tournament_register, tournament=t, user=late)
    refused("already_started", services.tournament_withdraw, tournament=t, user=players[0])
    refused("already_started", services.tournament_start, tournament=t, by=alice)


def test_a_tournament_does_not_start_with_too_few_players(alice):
    t = open_tournament(alice, "single_elimination", field(1))
    refused("too_few_players", services.tournament_start, tournament=t, by=alice)
    pods = open_tournament(alice, "pods", field(2, "q"))
    refused("too_few_players", services.tournament_start, tournament=pods, by=alice)


def test_check_in_is_only_possible_inside_its_window_and_only_checked_in_players_play(alice):
    now = timezone.now()
    players = field(4)
    t = open_tournament(
        alice,
        "single_elimination",
        players,
        check_in_opens=(now + timedelta(hours=1)).isoformat(),
        check_in_closes=(now + timedelta(hours=2)).isoformat(),
    )
    refused("check_in_not_open", services.tournament_check_in, tournament=t, user=players[0], now=now)
    inside = now + timedelta(minutes=90)
    for p in players[:3]:
        services.tournament_check_in(tournament=t, user=p, now=inside, expected_seq=AT_HEAD)
    refused("already_checked_in", services.tournament_check_in, tournament=t, user=players[0], now=inside)
    refused(
        "check_in_closed", services.tournament_check_in, tournament=t, user=players[3], now=now + timedelta(hours=3)
    )
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    assert s["players"][pid(players[3])]["status"] == "not_checked_in"
    assert sorted(s["seeds"]) == sorted(pid(p) for p in players[:3])


def test_check_in_is_refused_where_there_is_none_and_for_the_waitlist(alice):
    players = field(3)
    plain = open_tournament(alice, "swiss", players[:2])
    refused("no_check_in", services.tournament_check_in, tournament=plain, user=players[0])
    capped = open_tournament(alice, "swiss", players, cap=2, check_in_required=True)
    refused("not_registered", services.tournament_check_in, tournament=capped, user=players[2])


def test_seeding_by_rating_orders_the_field_strongest_first(alice):
    players = field(4)
    t = open_tournament(alice, "single_elimination", [])
    # The organiser enters the ratings (players without a platform rating in this game).
    for p, r in zip(players, (1400, 1800, 1500, 1650)):
        services.tournament_register(tournament=t, user=p, by=alice, rating=r, expected_seq=AT_HEAD)
    services.tournament_seed(tournament=t, by=alice, method="rating", expected_seq=AT_HEAD)
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    assert s["seeds"] == [pid(players[i]) for i in (1, 3, 2, 0)] and s["seeding"] == "rating"


def test_a_manual_seeding_must_list_every_registered_player_once(alice):
    players = field(3)
    t = open_tournament(alice, "single_elimination", players)
    refused(
        "bad_seeding",
        services.tournament_seed,
        tournament=t,
        by=alice,
        method="manual",
        order=[players[0].username, players[1].username],
    )
    refused(
        "bad_seeding",
        services.tournament_seed,
        tournament=t,
        by=alice,
        method="manual",
        order=[players[0].username, players[0].username, players[1].username],
    )
    refused("not_organiser", services.tournament_seed, tournament=t, by=players[0], method="rating")
