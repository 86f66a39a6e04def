"""A player's match page stops showing the seat's cards once the player signs out in another tab:
its socket is closed for the ended session (matches/consumers.py, 4401) and the page reloads as
whoever its cookies now say, here a spectator. Every wait is on what the page shows."""

from __future__ import annotations

import pytest

from matches import services
from tests.browser.people import users

pytestmark = pytest.mark.browser


def test_a_seat_page_left_open_shows_the_match_as_a_spectator_once_its_player_signs_out(page_as, live, off_loop):
    alice, bob = users("alice", "bob")
    match = off_loop(
        lambda: services.match_create(
            game="dueling-wizards", seats=[services.SeatSpec(user=alice), services.SeatSpec(user=bob)], created_by=alice
        )
    )
    page = page_as("alice")
    page.goto(f"{live}/matches/{match.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.wait_for_selector("[data-testid=my-hand]")

    other_tab = page.context.new_page()
    other_tab.goto(f"{live}/")
    other_tab.click("text=Sign out")
    other_tab.wait_for_selector("[data-testid=login], a[href='/accounts/login/']")

    page.wait_for_selector("#match[data-seat='']")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    assert page.locator("[data-testid=my-hand]").count() == 0
    assert page.locator("[data-testid=whoami]").count() == 0
