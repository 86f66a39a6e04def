"""Stepping through a replay before its event list has loaded."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.browser


def test_a_viewer_who_steps_while_the_events_load_stays_on_the_step_they_chose(page_as, live, off_loop):
    from matches.autoplay import autoplay_match

    match = off_loop(autoplay_match, game="dueling-wizards", seats=2)
    page = page_as(None)
    held = []
    # The event feed is held back until the viewer has stepped, as on a slow connection.
    page.route("**/api/matches/*/events/*", lambda route: held.append(route))
    page.goto(f"{live}/matches/{match.id}/replay/")
    page.wait_for_function("() => document.querySelector('#scrubber') !== null")
    page.click("[data-step=first]")
    for _ in range(2):
        page.click("[data-step=next]")
    page.wait_for_selector("[data-testid=at]:text-is('2')")
    # The sync API hands routes over only while it waits; poll until the held request shows up.
    for _ in range(600):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the replay never asked for its events"
    for route in held:
        route.continue_()
    # Once the events arrive the page names event 2 and still stands on it; before, it jumped to the end.
    page.wait_for_selector("[data-testid=event]:has-text('#2 ')")
    assert page.inner_text("[data-testid=at]") == "2"
