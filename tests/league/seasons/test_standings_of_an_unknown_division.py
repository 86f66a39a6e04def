"""Asking a season with divisions for the standings (or their CSV) of a division it does not have
is the asker's mistake: a 404 that names the season's divisions, not a server error."""

from __future__ import annotations

import pytest

from league.seasons import services

pytestmark = pytest.mark.django_db

DIVISIONS = {
    "First": ["aetherhold-zephyrs", "brassgate-djinn"],
    "Second": ["ashen-wastes-revenants", "cindervault-salamanders"],
}


@pytest.fixture
def season_with_divisions(make_user, client_for):
    league = services.league_load_iwdl()
    league.created_by = make_user("organiser")
    league.save()
    made = client_for(league.created_by).post(
        "/api/leagues/iwdl/seasons/",
        {
            "start_date": "2027-01-04",
            "double": True,
            "clubs": [slug for clubs in DIVISIONS.values() for slug in clubs],
            "divisions": DIVISIONS,
        },
        format="json",
    )
    assert made.status_code == 201, made.json()


@pytest.mark.parametrize("export", [None, "csv"])
def test_an_unknown_division_is_not_found_and_named_as_such(season_with_divisions, client_for, export):
    query = {"division": "Third"} | ({"export": export} if export else {})
    response = client_for().get("/api/leagues/iwdl/seasons/1/standings/", query)
    assert response.status_code == 404
    assert response.json()["code"] == "unknown_division"
    assert "Third" in response.json()["detail"] and "First, Second" in response.json()["detail"]


def test_a_known_division_still_has_its_table(season_with_divisions, client_for):
    response = client_for().get("/api/leagues/iwdl/seasons/1/standings/", {"division": "Second"})
    assert response.status_code == 200
    assert {r["club"] for r in response.json()["standings"]} == set(DIVISIONS["Second"])
