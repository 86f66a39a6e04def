"""The season page's live table when things go wrong: a dropped socket reconnects and the table
shows what was recorded meanwhile; a refused table request (a 503 while the database restarts)
leaves the table as it was, never the refusal's page in its place. Every wait is on the page."""

from __future__ import annotations

import datetime as dt

import pytest

from league.seasons import services
from matches.commands import AT_HEAD
from tests.browser.people import users

pytestmark = pytest.mark.browser


@pytest.fixture
def season_page(page_as, live, off_loop):
    league = services.league_load_iwdl()
    (organiser,) = users("organiser")
    league.created_by = organiser
    league.save()
    clubs = list(league.clubs.order_by("slug")[:4])
    season = off_loop(
        services.season_create, league=league, created_by=None, clubs=clubs, start_date=dt.date(2027, 1, 4)
    )
    page = page_as(None)
    page.goto(f"{live}/leagues/iwdl/seasons/{season.number}/")
    page.wait_for_selector("[data-testid=live-status]:text('live')")
    # The table request the socket's opening sends: a result recorded while it is out could be in
    # its answer, before any refusal a test sets up.
    page.wait_for_selector("#standings:not([aria-busy])", state="attached")
    assert set(page.locator("[data-testid^=points-]").all_inner_texts()) == {"0"}
    fixtures = list(season.fixtures.select_related("home", "away").order_by("round", "id"))
    return page, fixtures, organiser


def walkover(off_loop, organiser, fixture):
    off_loop(
        lambda: services.fixture_walkover(
            fixture=fixture, user=organiser, winner=fixture.home, reason="No show", expected_seq=AT_HEAD
        )
    )


def points_of(page, club) -> str:
    return page.inner_text(f"[data-testid=points-{club.slug}]").strip()


def test_a_season_page_whose_socket_drops_shows_the_ruling_recorded_meanwhile(season_page, off_loop):
    page, fixtures, organiser = season_page
    page.evaluate("window.__dropped = window.__seasonSocket; window.__dropped.close()")
    walkover(off_loop, organiser, fixtures[0])  # while the page is reconnecting: no message reaches it
    page.wait_for_function("() => window.__seasonSocket !== window.__dropped")
    page.wait_for_function(
        "slug => document.querySelector(`[data-testid=points-${slug}]`).textContent.trim() === '3'",
        arg=fixtures[0].home.slug,
    )
    page.wait_for_selector("[data-testid=live-status]:text('live')")


def test_a_refused_table_request_keeps_the_table_and_the_next_result_lands(season_page, off_loop):
    page, fixtures, organiser = season_page
    refused = []

    def unavailable(route):
        refused.append(route.request.url)
        route.fulfill(status=503, content_type="text/html", body="<h1 data-testid=refusal>Back in a moment</h1>")

    page.route("**/*partial=standings*", unavailable)
    walkover(off_loop, organiser, fixtures[0])
    page.wait_for_selector("[data-testid=live-status]:text('update delayed')")
    assert refused and page.locator("[data-testid=refusal]").count() == 0
    assert points_of(page, fixtures[0].home) == "0"  # the table as it was, not the refusal's page

    page.unroute("**/*partial=standings*")
    walkover(off_loop, organiser, fixtures[1])
    for fixture in fixtures[:2]:
        page.wait_for_function(
            "slug => document.querySelector(`[data-testid=points-${slug}]`).textContent.trim() === '3'",
            arg=fixture.home.slug,
        )
    page.wait_for_selector("[data-testid=live-status]:text('live')")
