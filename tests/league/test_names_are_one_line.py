"""A tournament's, league's or club's name is one line of text that reads as it shows: no line
breaks (a tournament named across two lines could never send its e-mails, whose subject holds
the name, and forged lines into one-line exports), no other control characters, and no
bidirectional overrides or isolates that make a name display as another. Refused with 400
bad_name and nothing written; ordinary names in any script, emoji sequences included, are taken."""

from __future__ import annotations

import pytest

from league.seasons.models import Club, League
from league.tournaments.models import Tournament

pytestmark = pytest.mark.django_db

UNUSABLE = [
    "Spring\nOpen",
    "Spring\r\n001 forged line",
    "Tab\tseparated",
    "Bell\x07",
    "Escape\x1b[31m",
    "Line\u2028separator",
    "Paragraph\u2029separator",
    "Quiet\u202egnirpS",  # right-to-left override: shows as "QuietSpring" reversed
    "Isolated\u2066name\u2069",
]
USABLE = ["Frühlings-Turnier", "Весенний кубок", "春季赛", "كأس الربيع", "Wizards 👩‍🚀 of the Void", "O'Brien & Co."]


def new_tournament(client, name):
    return client.post("/api/tournaments/", {"name": name, "game": "dueling-wizards", "format": "swiss"}, format="json")


def new_league(client, slug, name):
    return client.post("/api/leagues/", {"slug": slug, "name": name, "game": "dueling-wizards"}, format="json")


def refused(response, what):
    assert (response.status_code, response.json()["code"]) == (400, "bad_name"), response.json()
    assert what in response.json()["detail"]


@pytest.mark.parametrize("name", UNUSABLE)
def test_a_name_that_is_not_one_plain_line_is_refused_everywhere_and_writes_nothing(alice, client_for, name):
    client = client_for(alice)
    refused(new_tournament(client, name), "tournament's name")
    refused(new_league(client, "spring", name), "league's name")
    assert new_league(client, "plain", "Plain").status_code == 201
    refused(client.post("/api/leagues/plain/clubs/", {"slug": "c1", "name": name}, format="json"), "club's name")
    refused(
        client.post("/api/leagues/plain/clubs/", {"slug": "c1", "name": "C1", "plane": name}, format="json"),
        "club's plane",
    )
    assert not Tournament.objects.exists()
    assert list(League.objects.values_list("slug", flat=True)) == ["plain"]
    assert not Club.objects.filter(slug="c1").exists()


def test_names_in_any_script_and_with_emoji_sequences_are_taken(alice, client_for):
    client = client_for(alice)
    for i, name in enumerate(USABLE):
        answer = new_tournament(client, name)
        assert answer.status_code == 201, answer.json()
        assert new_league(client, f"league-{i}", name).status_code == 201
        club = client.post(f"/api/leagues/league-{i}/clubs/", {"slug": f"club-{i}", "name": name, "plane": name})
        assert club.status_code == 201, club.json()
    assert sorted(Tournament.objects.values_list("name", flat=True)) == sorted(USABLE)
