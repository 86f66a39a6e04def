"""Times in the viewer's time zone (issue 18, item 7): the server writes UTC into <time datetime>,
static/js/pages/local-time.js shows it in the browser's zone with the zone named."""

from __future__ import annotations

import datetime as dt

import pytest

from matches.models import Match

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    ("zone", "shown"),
    [
        ("Asia/Tokyo", "2027-01-04 12:30 GMT+9"),
        # West of UTC the same instant falls on the day before.
        ("America/New_York", "2027-01-03 22:30 GMT-5"),
    ],
)
def test_a_match_start_time_is_shown_in_the_viewers_time_zone(browser, live, off_loop, zone, shown):
    from matches.autoplay import autoplay_match

    match = off_loop(autoplay_match, game="dueling-wizards", seats=2)
    Match.objects.filter(pk=match.pk).update(created_at=dt.datetime(2027, 1, 4, 3, 30, tzinfo=dt.UTC))
    context = browser.new_context(timezone_id=zone)
    try:
        page = context.new_page()
        page.goto(f"{live}/")
        cell = page.locator("[data-testid=match-list] time").first
        assert cell.get_attribute("datetime") == "2027-01-04T03:30:00+00:00"
        page.wait_for_selector(f"[data-testid=match-list] time:text-is('{shown}')")
        assert zone in cell.get_attribute("title")
    finally:
        context.close()
