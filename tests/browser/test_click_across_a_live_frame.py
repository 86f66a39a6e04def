"""A move clicked while another player's move arrives is still made: the press lands on the board
as it was, the live frame redraws the board, and the release comes after. A browser sends the
click only to what the press and the release share, so a redraw in between used to swallow it
without a word (stop 35: a coach's "Save line-up" as the other coach said ready)."""

from __future__ import annotations

import pytest

from matches.models import Event
from matches.replay import engine_event
from tests.browser.people import users
from tests.browser.test_focus_survives_live_frames import carol_chooses, three_way

pytestmark = pytest.mark.browser


def test_a_card_pressed_before_an_opponents_move_and_released_after_it_is_played(page_as, live, off_loop):
    alice, bob, carol = users("alice", "bob", "carol")
    match = off_loop(three_way, alice, bob, carol)
    page = page_as("bob")
    page.goto(f"{live}/matches/{match.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    card_el = page.locator(".dw-card.playable").first
    card = card_el.get_attribute("data-card")
    box = card_el.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    # Carol's choice reaches bob's page while his button is held down.
    head = off_loop(carol_chooses, match.id, carol)
    page.wait_for_function("seq => Number(document.querySelector('#match').dataset.headSeq) >= seq", arg=head)
    page.mouse.up()
    page.wait_for_function("seq => Number(document.querySelector('#match').dataset.headSeq) > seq", arg=head)
    played = [
        engine_event(e.type, e.data)
        for e in Event.objects.filter(stream_id=match.stream_id, seq__gt=head).order_by("seq")
    ]
    mine = [e for e in played if e and e.get("kind") == "action" and e["seat"] == 1]
    assert mine and mine[0]["action"].get("card") == card, played
    # The board the frame brought is drawn once the click is made: bob's card is no longer playable.
    page.wait_for_function("card => !document.querySelector(`.dw-card.playable[data-card='${card}']`)", arg=card)
