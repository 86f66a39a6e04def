"""A command's answer that arrives after a newer one must not take the page back (found by
scripts/test-browser-under-load: a registration's row vanished and never came back). The page
holds the first registration's answer until the second registration has shown, then lets it
through: both players stay listed."""

from __future__ import annotations

import pytest

from league.tournaments import services
from tests.browser.people import hold_first_answer, users

pytestmark = pytest.mark.browser


def test_an_older_answer_arriving_late_does_not_take_the_page_back(page_as, live, off_loop):
    (org,) = users("org")
    users("ann", "bob")
    t = off_loop(
        lambda: services.tournament_create(created_by=org, name="Late answers", game="dueling-wizards", format="swiss")
    )
    page = page_as("org")
    hold_first_answer(page, "/register/", "POST")
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")

    page.fill("[data-testid=add-player-name]", "ann")
    page.click("[data-testid=add-player]")
    page.wait_for_function("() => window.__held === true")
    # The socket's announcement brings ann in while her answer is still held.
    page.wait_for_selector("[data-testid=players] li[data-player='ann']")

    page.fill("[data-testid=add-player-name]", "bob")
    page.click("[data-testid=add-player]")
    page.wait_for_selector("[data-testid=players] li[data-player='bob']")

    page.evaluate("() => window.__release()")
    page.wait_for_function("() => window.__lateSeen === true")
    assert page.locator("[data-testid=players] li[data-player='ann']").count() == 1
    assert page.locator("[data-testid=players] li[data-player='bob']").count() == 1
    assert "2 registered" in page.inner_text("[data-testid=status]")
