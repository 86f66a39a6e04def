"""Text people choose (a tournament's name, which anyone signed in may give; a league organiser's club
names and planes; a ruling's reason) is shown on the server-rendered pages as the text it is: escaped,
never markup, wherever it appears (titles, headings, tables, crests' labels, flash messages)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.utils.html import escape

from league.seasons import services as season_services
from league.tournaments import services as tournament_services
from matches.commands import AT_HEAD

pytestmark = pytest.mark.django_db

HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>'


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def shows_as_text(response) -> None:
    assert response.status_code == 200, response.status_code
    html = response.content.decode()
    assert escape(HOSTILE) in html
    assert "<script>alert" not in html and "onerror=alert" not in html.replace(escape(HOSTILE), "")


@pytest.fixture
def league_with_hostile_club(make_user):
    organiser = make_user("organiser")
    league = season_services.league_create(slug="duels", name="Duels", game="dueling-wizards", created_by=organiser)
    season_services.club_create(league=league, user=organiser, slug="hostile", name=HOSTILE)
    season_services.club_create(league=league, user=organiser, slug="plain", name="Plain", plane=HOSTILE)
    season = season_services.season_create(
        league=league, created_by=organiser, start_date=dt.date(2027, 3, 1), double=False
    )
    return league, season, organiser


def test_a_tournament_name_shows_as_text_on_every_page_that_names_it(alice):
    t = tournament_services.tournament_create(created_by=alice, name=HOSTILE, game="dueling-wizards", format="swiss")
    tournament_services.tournament_register(tournament=t, user=alice, expected_seq=AT_HEAD)
    for path in (
        "/tournaments/",
        f"/tournaments/{t.id}/",
        f"/tournaments/{t.id}/players/alice/",
        f"/tournaments/{t.id}/embed/standings/",
        f"/tournaments/{t.id}/embed/bracket/",
    ):
        shows_as_text(client_for().get(path))
    for path in ("pairings", "slips", "standings"):
        shows_as_text(client_for(alice).get(f"/tournaments/{t.id}/print/{path}/"))


def test_club_names_and_planes_show_as_text_on_the_league_pages(league_with_hostile_club):
    league, season, organiser = league_with_hostile_club
    season_url = f"/leagues/{league.slug}/seasons/{season.number}/"
    for path in (
        f"/leagues/{league.slug}/",
        season_url,
        f"{season_url}?partial=standings",
        "/clubs/hostile/",
        "/clubs/plain/",
    ):
        shows_as_text(client_for().get(path))
    fixture = season.fixtures.first()
    for path in (
        f"/leagues/{league.slug}/organise/",
        f"/leagues/{league.slug}/seasons/new/",
        f"{season_url}close/",
        f"{season_url}fixtures/{fixture.key}/rule/",
    ):
        shows_as_text(client_for(organiser).get(path))


def test_a_ruling_names_the_club_and_its_reason_as_text_in_the_flash_and_on_the_fixture(league_with_hostile_club):
    league, season, organiser = league_with_hostile_club
    client = client_for(organiser)
    fixture = season.fixtures.select_related("home", "away").first()
    url = f"/leagues/{league.slug}/seasons/{season.number}/fixtures/{fixture.key}/rule/"
    guard = dict(re.findall(r'name="(expected_seq|event_id)" value="([^"]*)"', client.get(url).content.decode())[:2])
    done = client.post(
        url, {"action": "walkover", **guard, "winner": "hostile", "reason": HOSTILE, "confirm": "on"}, follow=True
    )
    assert f"Walkover awarded to {escape(HOSTILE)}" in done.content.decode()
    shows_as_text(done)
    shows_as_text(client.get(url))  # the fixture's ruling, with its reason
