"""League pages in a browser: standings update live when a verified result lands (issue 5)."""

from __future__ import annotations

import datetime as dt

import pytest

from league.seasons import services
from matches.commands import AT_HEAD

pytestmark = pytest.mark.browser


def test_a_verified_result_updates_the_open_standings_page_without_a_reload(page_as, live, off_loop):
    league = services.league_load_iwdl()
    clubs = list(league.clubs.order_by("slug")[:4])
    season = off_loop(
        services.season_create, league=league, created_by=None, clubs=clubs, start_date=dt.date(2027, 1, 4)
    )
    page = page_as(None)
    page.goto(f"{live}/leagues/iwdl/seasons/{season.number}/")
    page.wait_for_selector("[data-testid=live-status]:text('live')")
    assert set(page.locator("[data-testid^=points-]").all_inner_texts()) == {"0"}
    page.evaluate("window.__notReloaded = true")
    fixture = season.fixtures.order_by("round", "id").first()
    # Bots draft and play the fixture; the verified match's result lands on the season's stream.
    off_loop(services.fixture_start, fixture=fixture, bots=True, expected_seq=AT_HEAD)
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid^=points-]')].some(td => td.textContent.trim() === '3')"
    )
    assert page.evaluate("window.__notReloaded") is True
    fixture.refresh_from_db()
    assert fixture.status == "played"
    # The club page shows the result and a rating chart for the winner.
    winner = fixture.home if fixture.home_left > fixture.away_left else fixture.away
    page.goto(f"{live}/clubs/{winner.slug}/")
    assert "W" in page.inner_text("[data-testid=club-results]")
    assert page.locator("[data-testid=rating-chart] circle").count() == 1
    page.goto(f"{live}/ratings/wizard-dodgeball/")
    assert page.locator("[data-testid=leaderboard] tbody tr").count() == 2


def test_a_coach_starts_a_fixture_from_the_season_page_into_the_draft_room(page_as, live, off_loop):
    from django.contrib.auth import get_user_model

    alice = get_user_model().objects.create_user("alice", password="pw-alice")
    bob = get_user_model().objects.create_user("bob", password="pw-bob")
    league = services.league_load_iwdl()
    home, away = list(league.clubs.order_by("slug")[:2])
    home.coaches.add(alice)
    away.coaches.add(bob)
    season = off_loop(
        services.season_create, league=league, created_by=None, clubs=[home, away], start_date=dt.date(2027, 1, 4)
    )
    page = page_as("alice")
    page.goto(f"{live}/leagues/iwdl/seasons/{season.number}/")
    page.locator("[data-testid^=start-]").first.click()
    page.wait_for_url(f"{live}/drafts/**")
    page.wait_for_selector("[data-testid=pool] .wiz-card")
    assert "alice (you)" in page.inner_text(".players")
