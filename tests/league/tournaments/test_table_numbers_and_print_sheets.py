"""Issue 16 (the organiser's day): table numbers on the pairings, and the printed pairings,
standings and match slips the organiser takes to the venue (the PDF itself is rendered by
Chromium in tests/browser/test_tournament_day.py)."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from league.tournaments import services
from league.tournaments.sheets import table_numbers
from matches.commands import AT_HEAD

from .helpers import field, lower_id_wins, open_tournament, settle, state

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in():
    """A browser's session (the sheets are pages, not API endpoints); None: a visitor."""

    def make(user=None) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return make


def test_a_swiss_round_numbers_its_tables_in_board_order_and_a_bye_gets_none(alice):
    t = open_tournament(alice, "swiss", field(5), start=True, rounds=3)
    s = state(t)
    tables = table_numbers(s, 1)
    boards = sorted(s["pairings"].values(), key=lambda r: r["board"])
    played = [r["id"] for r in boards if len(r["players"]) == 2]
    bye = [r["id"] for r in boards if len(r["players"]) == 1]
    assert [tables[p] for p in played] == [1, 2] and bye and bye[0] not in tables


def test_a_bracket_seats_the_matches_ready_now_from_table_one(alice):
    t = open_tournament(alice, "single_elimination", field(8), start=True)
    assert sorted(table_numbers(state(t), 1).values()) == [1, 2, 3, 4]
    settle(t, lower_id_wins)
    # The quarter-finals are over: the two semi-finals are the sheet's tables 1 and 2.
    s = state(t)
    tables = table_numbers(s, 1)
    assert sorted(tables.values()) == [1, 2]
    assert all(s["pairings"][p]["status"] == "pending" for p in tables)


def test_the_page_data_carries_the_table_of_every_pairing_and_of_my_next_match(alice, client_for):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2)
    body = client_for(players[0]).get(f"/api/tournaments/{t.id}/").json()
    assert sorted(p["table"] for p in body["rounds"][0]["pairings"]) == [1, 2]
    assert body["me"]["next"]["table"] in (1, 2)


def test_the_organiser_prints_pairings_with_every_table_and_player(alice, signed_in):
    players = field(5)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    page = signed_in(alice).get(f"/tournaments/{t.id}/print/pairings/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "css/print.css" in html and "round 1" in html
    for p in players:
        assert p.username in html
    for r in state(t)["pairings"].values():
        if len(r["players"]) == 2:
            assert f'data-pairing="{r["id"]}"' in html
    assert "Bye:" in html


def test_the_slips_give_one_slip_per_table_and_the_standings_sheet_ranks_everyone(alice, signed_in):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2)
    organiser = signed_in(alice)
    slips = organiser.get(f"/tournaments/{t.id}/print/slips/").content.decode()
    assert slips.count('data-testid="slip"') == 2 and "table 1" in slips and "table 2" in slips
    settle(t, lower_id_wins)
    standings = organiser.get(f"/tournaments/{t.id}/print/standings/").content.decode()
    assert all(p.username in standings for p in players)


def test_an_older_round_is_printed_when_asked_for(alice, signed_in):
    t = open_tournament(alice, "swiss", field(4), start=True, rounds=2)
    settle(t, lower_id_wins)
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    organiser = signed_in(alice)
    assert "pairings, round 2" in organiser.get(f"/tournaments/{t.id}/print/pairings/").content.decode()
    assert "pairings, round 1" in organiser.get(f"/tournaments/{t.id}/print/pairings/?round=1").content.decode()


def test_only_the_organiser_prints_the_sheets_and_the_page_links_them_only_for_them(alice, signed_in):
    players = field(2)
    t = open_tournament(alice, "swiss", players, start=True, rounds=1)
    for kind in ("pairings", "slips", "standings"):
        assert signed_in(players[0]).get(f"/tournaments/{t.id}/print/{kind}/").status_code == 403
        assert signed_in().get(f"/tournaments/{t.id}/print/{kind}/").status_code == 403
    assert "print-pairings-link" in signed_in(alice).get(f"/tournaments/{t.id}/").content.decode()
    assert "print-pairings-link" not in signed_in(players[0]).get(f"/tournaments/{t.id}/").content.decode()


def test_the_sheets_of_a_tournament_that_does_not_exist_are_not_found(alice, signed_in):
    for kind in ("pairings", "slips", "standings"):
        assert signed_in(alice).get(f"/tournaments/{uuid.uuid4()}/print/{kind}/").status_code == 404
