"""An organiser's click is not lost to a live update: the press lands on "Register player", a
registration made elsewhere redraws the page, and the release comes after. A browser sends the
click only to what the press and the release share, so the redraw in between used to swallow it
(the match page's race in stop 35): the page now redraws after the click."""

from __future__ import annotations

import pytest

from league.tournaments import services
from matches.commands import AT_HEAD
from matches.models import Stream
from tests.browser.people import users

pytestmark = pytest.mark.browser


def test_register_pressed_before_a_live_update_and_released_after_it_registers_the_player(page_as, live, off_loop):
    org, _, bob = users("org", "ann", "bob")
    t = off_loop(
        lambda: services.tournament_create(created_by=org, name="Busy desk", game="dueling-wizards", format="swiss")
    )
    page = page_as("org")
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
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
