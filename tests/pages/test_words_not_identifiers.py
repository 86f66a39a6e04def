"""Pages say things in words, not raw identifiers (issue 18): tie-breaks, spells, club names,
bot drafts; finished drafts offer their replay, club results link to theirs, and the standings CSV
writes scores a spreadsheet does not take for dates."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from league.drafts.services import draft_create
from league.seasons import services
from matches.commands import AT_HEAD
from matches.services import SeatSpec

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(db, django_capture_on_commit_callbacks):
    """An IWDL season of two clubs whose fixture the bots drafted and played (verified)."""
    league = services.league_load_iwdl()
    home, away = list(league.clubs.order_by("slug")[:2])
    season = services.season_create(league=league, created_by=None, clubs=[home, away], start_date=dt.date(2027, 1, 4))
    fixture = season.fixtures.order_by("round", "id").first()
    with django_capture_on_commit_callbacks(execute=True):
        services.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)
    fixture.refresh_from_db()
    assert fixture.match is not None and fixture.match.status == "finished"
    return season, fixture


def text(response) -> str:
    assert response.status_code == 200
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_season_page_names_its_tie_breaks_in_words(played):
    season, _ = played
    page = text(Client().get(f"/leagues/iwdl/seasons/{season.number}/"))
    assert "Ties split by head-to-head results, then wizard difference" in page
    assert "head_to_head" not in page


def test_the_club_page_names_spells_and_links_each_result_to_its_replay(played):
    _, fixture = played
    response = Client().get(f"/clubs/{fixture.home.slug}/")
    page = text(response)
    spells = fixture.match.config["teams"][0].get("spells") or []
    assert spells, "the bots bought spells"
    assert not re.search(r"\b[a-z]+_[a-z]+\b", page.split("Squads", 1)[1]), "a spell id shown raw"
    assert f'href="/matches/{fixture.match_id}/replay/"' in response.content.decode()


def test_the_leaderboard_lists_clubs_by_name_and_the_game_by_its_title(played):
    _, fixture = played
    response = Client().get("/ratings/wizard-dodgeball/")
    page = text(response)
    assert fixture.home.name in page and fixture.away.name in page
    assert f">{fixture.home.slug}<" not in response.content.decode()
    assert "Ratings: Wizard Dodgeball" in page


def test_draft_rows_name_the_fixtures_clubs_and_a_finished_draft_offers_its_replay_not_play(played):
    _, fixture = played
    draft_create(seats=[SeatSpec(bot="auto"), SeatSpec(bot="auto")], created_by=None)
    response = Client().get("/drafts/")
    page = text(response)
    assert "auto bot v auto bot" not in page
    assert f"{fixture.home.name} v {fixture.away.name} (bots)" in page
    assert "Bot v bot" in page
    html = response.content.decode()
    assert f'href="/matches/{fixture.match_id}/replay/">Replay →' in html
    assert f'href="/matches/{fixture.match_id}/">Play →' not in html


def test_the_standings_csv_writes_half_points_as_decimals_not_fractions(make_user, client_for):
    from league.tournaments import services as tournaments

    org, *players = [make_user(n) for n in ("boss", "p1", "p2", "p3")]
    t = tournaments.tournament_create(
        created_by=org,
        name="Half points",
        game="dueling-wizards",
        format="swiss",
        options={"rounds": 1, "bye_score": "1/2"},
    )
    for p in players:
        tournaments.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
    tournaments.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
    lines = client_for(org).get(f"/api/tournaments/{t.id}/standings.csv").content.decode().splitlines()
    scores = [line.split(",")[4] for line in lines[1:]]
    assert "0.5" in scores  # the bye's half point
    assert not any("/" in s for s in scores)
