"""A live update redraws the tournament page; an organiser halfway through typing a name keeps
typing into the field (found by scripts/test-browser-under-load: a redraw between a click into the
field and the typing sent the keystrokes nowhere, so the player was never registered)."""

from __future__ import annotations

import pytest

from league.tournaments import services
from matches.commands import AT_HEAD
from tests.browser.people import users

pytestmark = pytest.mark.browser


def test_a_name_typed_across_a_live_redraw_is_kept_whole_and_registers(page_as, live, off_loop):
    org, _, bob = users("org", "ann", "bob")
    t = off_loop(
        lambda: services.tournament_create(created_by=org, name="Busy desk", game="dueling-wizards", format="swiss")
    )
    page = page_as("org")
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")

    page.click("[data-testid=add-player-name]")
    page.keyboard.type("an")
    # Someone else registers bob meanwhile: the socket's update redraws the page under the typing.
    off_loop(lambda: services.tournament_register(tournament=t, user=bob, expected_seq=AT_HEAD))
    page.wait_for_selector("[data-testid=players] li[data-player='bob']")
    page.keyboard.type("n")

    assert page.input_value("[data-testid=add-player-name]") == "ann"
    page.click("[data-testid=add-player]")
    page.wait_for_selector("[data-testid=players] li[data-player='ann']")
