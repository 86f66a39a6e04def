"""Resigning from the live page: two clicks (Resign, then Yes), and the page shows the result."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from matches.models import Event, Match
from matches.services import SeatSpec, match_create

pytestmark = pytest.mark.browser


def test_a_player_resigns_a_match_against_a_bot_from_the_page_and_sees_the_result(page_as, live):
    User = get_user_model()
    alice = User.objects.create_user("alice", password="pw-alice")
    User.objects.create_user("bob", password="pw-bob")
    match = match_create(game="dueling-wizards", seats=[SeatSpec(user=alice), SeatSpec(bot="random")], created_by=alice)
    watcher = page_as("bob")
    watcher.goto(f"{live}/matches/{match.id}/")
    watcher.wait_for_selector("[data-testid=connection]:text('live')")
    assert watcher.locator("[data-testid=resign]").count() == 0  # a spectator has no seat to resign

    page = page_as("alice")
    page.goto(f"{live}/matches/{match.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    # One click only asks: changing one's mind leaves the match as it was.
    page.click("[data-testid=resign-start]")
    page.wait_for_selector("[data-testid=resign-confirm]:visible")
    page.click("[data-testid=resign-no]")
    page.wait_for_selector("[data-testid=resign-start]:visible")
    assert not Event.objects.filter(stream_id=match.stream_id, type="match.resigned").exists()

    page.click("[data-testid=resign-start]")
    page.click("[data-testid=resign-yes]")
    page.wait_for_selector("[data-testid=status]:text('Finished')")
    page.wait_for_selector("[data-testid=match-outcome]:visible")
    assert page.inner_text("[data-testid=match-outcome]") == "alice resigned: random bot wins."
    assert "alice resigned." in page.inner_text("[data-testid=log]")
    assert page.locator("[data-testid=resign]").is_hidden()
    finished = Match.objects.get(pk=match.pk)
    assert finished.result["reason"] == "resigned" and finished.result["winners"] == [1]
    # The spectator's page follows to the same result.
    watcher.wait_for_selector("[data-testid=match-outcome]:text('alice resigned: random bot wins.')")
