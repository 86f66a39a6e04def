"""Luck per club across a season: the home club is seat 0 and the away club seat 1 of each fixture."""

from __future__ import annotations

import datetime as dt

import pytest

from league.seasons import services
from league.seasons.models import Fixture
from matches.autoplay import autoplay_match
from matches.models import Match
from matches.verification import match_verify

pytestmark = pytest.mark.django_db


def test_each_club_gets_the_luck_of_its_seat_in_every_verified_fixture(client_for, make_user):
    iwdl = services.league_load_iwdl()
    organiser = make_user("organiser", staff=True)
    season = services.season_create(
        league=iwdl, created_by=organiser, start_date=dt.date(2027, 1, 4), clubs=list(iwdl.clubs.order_by("slug")[:4])
    )
    first, second, third = season.fixtures.order_by("round", "id")[:3]
    # A quick bot match stands in for each fixture's Wizard Dodgeball match (that takes a minute):
    # the luck of a club is read from whatever match the fixture points to.
    for fixture in (first, second):
        match = autoplay_match(game="dueling-wizards", seats=2)
        assert match_verify(match_id=match.id).verified
        Fixture.objects.filter(pk=fixture.pk).update(
            status=Fixture.Status.PLAYED, match=match, home_left=1, away_left=0
        )
    disputed = autoplay_match(game="dueling-wizards", seats=2)
    Match.objects.filter(pk=disputed.pk).update(verdict=Match.Verdict.DISPUTED)
    Fixture.objects.filter(pk=third.pk).update(status=Fixture.Status.PLAYED, match=disputed, home_left=0, away_left=0)

    body = client_for().get(f"/api/leagues/{iwdl.slug}/seasons/{season.number}/luck/").json()
    assert body["verified_fixtures"] == 2 and body["analysed"] == 2
    luck = {row["club"]: row for row in body["clubs"]}
    expected: dict[str, float] = {}
    for fixture in (first, second):
        fixture.refresh_from_db()
        totals = client_for().get(f"/api/matches/{fixture.match_id}/analysis/").json()["luck"]["totals"]
        for club, seat in ((fixture.home.slug, 0), (fixture.away.slug, 1)):
            expected[club] = expected.get(club, 0.0) + totals[seat]["luck"]["value"]
    assert {c: pytest.approx(v, abs=1e-5) for c, v in expected.items()} == {c: luck[c]["luck"] for c in expected}
    assert [r["luck"] for r in body["clubs"]] == sorted((r["luck"] for r in body["clubs"]), reverse=True)
    page = client_for().get(f"/leagues/{iwdl.slug}/seasons/{season.number}/luck/")
    assert page.status_code == 200 and b'data-testid="season-luck"' in page.content
    # The season's page leads there.
    season_page = client_for().get(f"/leagues/{iwdl.slug}/seasons/{season.number}/").content.decode()
    assert f'href="/leagues/{iwdl.slug}/seasons/{season.number}/luck/"' in season_page


def test_an_unknown_season_has_no_luck(client_for):
    response = client_for().get("/api/leagues/nowhere/seasons/9/luck/")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
