"""A live update redraws the tournament page; an organiser's input is not lost to it.

Typing: halfway through a name, the organiser keeps typing into the field (found by
scripts/test-browser-under-load: a redraw between a click into the field and the typing sent the
keystrokes nowhere, so the player was never registered).

Clicking: a press on "Register player" before a redraw and its release after it still registers.
A browser sends the click only to what the press and the release share, so a redraw in between
used to swallow it (the match page's race in stop 35): the page now redraws after the click."""

from __future__ import annotations

import pytest

from league.tournaments import services
from matches.commands import AT_HEAD
from matches.models import Stream
from tests.browser.people import users

pytestmark = pytest.mark.browser


def busy_desk(page_as, live, off_loop):
    """An organiser's live page of a new Swiss, and bob, whom someone else will register."""
    org, _, bob = users("org", "ann", "bob")
    t = off_loop(
        lambda: services.tournament_create(created_by=org, name="Busy desk", game="dueling-wizards", format="swiss")
    )
    page = page_as("org")
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    return page, t, bob


def test_a_name_typed_across_a_live_redraw_is_kept_whole_and_registers(page_as, live, off_loop):
    page, t, bob = busy_desk(page_as, live, off_loop)
    page.click("[data-testid=add-player-name]")
    page.keyboard.type("an")
    # Someone else registers bob meanwhile: the socket's update redraws the page under the typing.
    off_loop(lambda: services.tournament_register(tournament=t, user=bob, expected_seq=AT_HEAD))
    page.wait_for_selector("[data-testid=players] li[data-player='bob']")
    page.keyboard.type("n")

    assert page.input_value("[data-testid=add-player-name]") == "ann"
    page.click("[data-testid=add-player]")
    page.wait_for_selector("[data-testid=players] li[data-player='ann']")


def test_register_pressed_before_a_live_update_and_released_after_it_registers_the_player(page_as, live, off_loop):
    page, t, bob = busy_desk(page_as, live, off_loop)
    # The page reads the tournament twice, on load and once its socket opens; the press below is
    # made on what the second read drew.
    page.wait_for_function(
        "path => performance.getEntriesByType('resource').filter((e) => e.name.endsWith(path)).length >= 2",
        arg=f"/api/tournaments/{t.id}/",
    )
    page.fill("[data-testid=add-player-name]", "ann")
    box = page.locator("[data-testid=add-player]").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # Someone else registers bob meanwhile; the page takes the new tournament while the button is held.
    off_loop(lambda: services.tournament_register(tournament=t, user=bob, expected_seq=AT_HEAD))
    head = Stream.objects.get(pk=t.stream_id).head_seq
    page.wait_for_function("seq => Number(document.getElementById('tournament').dataset.headSeq) >= seq", arg=head)
    page.mouse.up()
    page.wait_for_selector("[data-testid=players] li[data-player='ann']")
    page.wait_for_selector("[data-testid=players] li[data-player='bob']")
