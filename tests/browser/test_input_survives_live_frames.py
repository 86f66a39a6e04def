"""A player's input is not lost when another player's move redraws the board.

The keyboard: the card a player had tabbed to is still focused after the live frame, and Enter
plays it (issue 18's "every action reachable by keyboard" holds while others play).

The mouse: a card pressed before the frame and released after it is played. A browser sends the
click only to what the press and the release share, so a redraw in between used to swallow it
without a word (stop 35: a coach's "Save line-up" as the other coach said ready)."""

from __future__ import annotations

import uuid

import pytest

from engines import registry
from matches.models import Event, Match
from matches.replay import engine_event
from matches.services import SeatSpec, match_act, match_create
from tests.browser.people import users
from tests.browser.test_accessibility import tab_until

pytestmark = pytest.mark.browser


def three_way(alice, bob, carol):
    return match_create(
        game="dueling-wizards",
        seats=[SeatSpec(user=alice), SeatSpec(user=bob), SeatSpec(user=carol)],
        created_by=alice,
    )


def carol_chooses(match_id, carol):
    match = Match.objects.get(pk=match_id)
    action = registry.get(match.game).legal_actions(match.state, 2)[0]
    match_act(match_id=match.id, user=carol, seat=2, action=action, expected_seq=match.state_seq, event_id=uuid.uuid4())
    return Match.objects.get(pk=match_id).state_seq


def card_chosen_after(match, head, *, seat):
    """The card of ``seat``'s first action after ``head`` (None if it has not acted since)."""
    played = [
        engine_event(e.type, e.data)
        for e in Event.objects.filter(stream_id=match.stream_id, seq__gt=head).order_by("seq")
    ]
    mine = [e for e in played if e and e.get("kind") == "action" and e["seat"] == seat]
    return mine[0]["action"].get("card") if mine else None


def bob_at_a_three_way(page_as, live, off_loop):
    """Bob's live page of a three-way duel, where he and carol choose at the same time."""
    alice, bob, carol = users("alice", "bob", "carol")
    match = off_loop(three_way, alice, bob, carol)
    page = page_as("bob")
    page.goto(f"{live}/matches/{match.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.wait_for_selector(".dw-card.playable")
    return page, match, carol


def test_the_card_a_keyboard_player_reached_stays_focused_across_an_opponents_move(page_as, live, off_loop):
    page, match, carol = bob_at_a_three_way(page_as, live, off_loop)
    # Both bob and carol choose now (seats 1 and 2 act together in a three-way duel).
    tab_until(page, ".dw-card.playable", limit=120)
    card = page.evaluate("document.activeElement.dataset.card")
    head = off_loop(carol_chooses, match.id, carol)
    page.wait_for_function("seq => Number(document.querySelector('#match').dataset.headSeq) >= seq", arg=head)
    assert page.evaluate("document.activeElement.dataset.card") == card
    assert page.evaluate("document.activeElement.classList.contains('playable')")
    page.keyboard.press("Enter")
    page.wait_for_function("seq => Number(document.querySelector('#match').dataset.headSeq) > seq", arg=head)
    # The event after carol's is bob's choice of the very card the keyboard had reached.
    assert card_chosen_after(match, head, seat=1) == card


def test_a_card_pressed_before_an_opponents_move_and_released_after_it_is_played(page_as, live, off_loop):
    page, match, carol = bob_at_a_three_way(page_as, live, off_loop)
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
    assert card_chosen_after(match, head, seat=1) == card
    # The board the frame brought is drawn once the click is made: bob's card is no longer playable.
    page.wait_for_function("card => !document.querySelector(`.dw-card.playable[data-card='${card}']`)", arg=card)
