"""Players level on the score and every tie-break share a rank and are listed in the order
they entered (their start number), never by their user ids compared as text: where only
some of them go on (a group's ``advance``), the first to enter goes through (RULES.md "Who
ranks first among equals")."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.standings import round_standings
from league.tournaments.tiebreaks import Game, standings
from matches.commands import AT_HEAD

from .helpers import field, open_pairings, open_tournament, pid, state

pytestmark = pytest.mark.django_db


def register_in_order(t, users):
    for u in users:
        services.tournament_register(tournament=t, user=u, expected_seq=AT_HEAD)


def play(t, decide):
    """Every open pairing: the first player reports ``decide(record)``, the second confirms."""
    User = get_user_model()
    for record in open_pairings(t):
        a, b = record["players"]
        services.tournament_report(
            tournament=t,
            pairing=record["id"],
            user=User.objects.get(pk=int(a)),
            result=decide(record),
            expected_seq=AT_HEAD,
        )
        services.tournament_confirm(
            tournament=t, pairing=record["id"], user=User.objects.get(pk=int(b)), expected_seq=AT_HEAD
        )


def test_the_tie_break_table_lists_players_level_on_everything_in_the_order_it_is_given():
    # "10" sorts before "9" as text; the order given (entry order) is what counts.
    rows = standings([Game(1, "9", "10", 0.5, 0.5)], ["buchholz", "wins"], players=["9", "10"])
    assert [r.player for r in rows] == ["9", "10"]
    assert [r.rank for r in rows] == [1, 1] and rows[0].separated_from_next is None


def test_a_swiss_table_lists_players_level_on_everything_in_entry_order(alice):
    early, late = field(2)
    t = open_tournament(alice, "swiss", [], rounds=1)
    register_in_order(t, [late, early])  # the later user entered first
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    play(t, lambda record: {"draw": True})
    rows = round_standings(state(t))
    assert [r["player"] for r in rows] == [pid(late), pid(early)]
    assert [r["rank"] for r in rows] == [1, 1]
    assert [r["decided_by"] for r in rows] == [f"tied with {early.username}", f"tied with {late.username}"]


def test_of_two_players_level_on_everything_in_a_group_the_first_entered_advances(alice):
    users = field(4)
    t = open_tournament(alice, "groups_playoff", [], groups=2, advance=1)
    # Entered against their id order: the snake puts seeds 1 and 4 (users[3], users[0]) in group A.
    entered = list(reversed(users))
    register_in_order(t, entered)
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    first, fourth = pid(entered[0]), pid(entered[3])
    assert sorted(state(t)["groups"][0]) == sorted([first, fourth])
    # Group A's one match is drawn: level on score and every tie-break. Group B's is won.
    play(
        t,
        lambda record: (
            {"draw": True} if set(record["players"]) == {first, fourth} else {"winner": record["players"][0]}
        ),
    )

    rows = round_standings(state(t), 0)
    assert [r["player"] for r in rows] == [first, fourth]
    assert [r["rank"] for r in rows] == [1, 1]
    assert rows[0]["decided_by"] == f"tied with {entered[3].username}"

    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    qualified = state(t)["stage"]["qualified"]
    assert first in qualified and fourth not in qualified
