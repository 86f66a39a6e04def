"""Leaving a duel of three from the live page (the ruling "Leaving"): the wizard who resigns is
shown as having left, beside their name, on every page, and is offered no Resign any more; the two
others see the duel go on and play on."""

from __future__ import annotations

import pytest

from matches.models import Match
from matches.services import SeatSpec, match_create
from tests.browser.people import users

pytestmark = pytest.mark.browser


def wait_live(page):
    page.wait_for_selector("[data-testid=connection]:text('live')")


def test_a_wizard_resigns_a_duel_of_three_and_the_two_others_see_it_go_on(page_as, live, off_loop):
    alice, bob, carol = users("alice", "bob", "carol")
    match = off_loop(
        match_create,
        game="dueling-wizards",
        seats=[SeatSpec(user=alice), SeatSpec(user=bob), SeatSpec(user=carol)],
        created_by=alice,
    )
    url = f"{live}/matches/{match.id}/"
    pages = {name: page_as(name) for name in ("alice", "bob", "carol")}
    for page in pages.values():
        page.goto(url)
        wait_live(page)
    bob_page = pages["bob"]
    assert "if two others still play they play on" in bob_page.inner_text("[data-testid=resign-confirm]")
    bob_page.click("[data-testid=resign-start]")
    bob_page.click("[data-testid=resign-yes]")
    for page in pages.values():
        page.wait_for_selector("[data-testid=seat-left][data-seat='1']:text('resigned')")
        page.wait_for_selector("[data-testid=log] :text('bob resigned. The others play on.')")
        assert page.inner_text("[data-testid=status]") == "Live"
        assert page.locator("[data-testid=seat-left][data-seat='0']").is_hidden()
        page.wait_for_selector("[data-testid=player-1] :text('Left the duel.')")
    bob_page.wait_for_selector("[data-testid=resign]", state="hidden")
    assert pages["alice"].locator("[data-testid=resign]").is_visible()
    assert Match.objects.get(pk=match.pk).status == Match.Status.LIVE

    # The duel goes on: carol defends, then alice attacks, and everyone sees the round.
    carol_page = pages["carol"]
    carol_page.wait_for_selector(".dw-card.playable")
    carol_page.locator(".dw-card.playable").first.click()
    alice_page = pages["alice"]
    alice_page.wait_for_selector("[data-testid=player-2] :text('Defence chosen')")
    alice_page.wait_for_selector(".dw-card.playable")
    alice_page.locator(".dw-card.playable").first.click()
    for page in (alice_page, carol_page, bob_page):
        page.wait_for_selector("[data-testid=last-round]")
    assert "bob" not in carol_page.inner_text("[data-testid=last-round]")


def test_a_wizard_who_left_and_opens_the_page_again_sees_it_and_has_nothing_to_act_on(page_as, live, off_loop):
    from matches.services import match_resign

    alice, bob, carol = users("alice", "bob", "carol")
    match = off_loop(
        match_create,
        game="dueling-wizards",
        seats=[SeatSpec(user=alice), SeatSpec(user=bob), SeatSpec(user=carol)],
        created_by=alice,
    )
    # Bob, a defender, is one of the seats to move when he leaves.
    off_loop(match_resign, match_id=match.id, user=bob, expected_seq=Match.objects.get(pk=match.pk).state_seq)
    page = page_as("bob")
    page.goto(f"{live}/matches/{match.id}/")
    wait_live(page)
    page.wait_for_selector("[data-testid=player-1] :text('Left the duel.')")
    assert page.inner_text("[data-testid=seat-left][data-seat='1']").strip() == "· resigned"
    assert page.locator("[data-testid=resign]").is_hidden()
    assert page.locator(".dw-card.playable").count() == 0
    # Carol, still duelling, has her spells to lay.
    carol = page_as("carol")
    carol.goto(f"{live}/matches/{match.id}/")
    carol.wait_for_selector(".dw-card.playable")
    assert page.locator(".dw-card.playable").count() == 0
