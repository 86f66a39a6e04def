"""A keyboard player keeps their place when another player's move redraws the board: the card
they had tabbed to is still focused after the live frame, and Enter plays it (issue 18's "every
action reachable by keyboard" holds while others play)."""

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


def test_the_card_a_keyboard_player_reached_stays_focused_across_an_opponents_move(page_as, live, off_loop):
    alice, bob, carol = users("alice", "bob", "carol")
    match = off_loop(three_way, alice, bob, carol)
    page = page_as("bob")
    page.goto(f"{live}/matches/{match.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.wait_for_selector(".dw-card.playable")
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
    played = [
        engine_event(e.type, e.data)
        for e in Event.objects.filter(stream_id=match.stream_id, seq__gt=head).order_by("seq")
    ]
    mine = [e for e in played if e and e.get("kind") == "action" and e["seat"] == 1]
    assert mine and mine[0]["action"].get("card") == card, played
