"""Clocks on the live page: counting down, and a win on time claimed from the page (issue 20)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from matches.models import Match
from matches.services import SeatSpec, match_create

pytestmark = pytest.mark.browser


def test_the_page_counts_the_clocks_down_and_the_opponent_claims_the_win_on_time(page_as, live):
    User = get_user_model()
    alice = User.objects.create_user("alice", password="pw-alice")
    bob = User.objects.create_user("bob", password="pw-bob")
    match = match_create(
        game="dueling-wizards",
        seats=[SeatSpec(user=alice), SeatSpec(user=bob)],
        created_by=alice,
        time_control={"kind": "fischer", "base": 10, "increment": 0},
    )
    page = page_as("alice")
    page.goto(f"{live}/matches/{match.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    # Bob defends first: his clock runs, alice's stands at 0:10.
    page.wait_for_selector("[data-testid=clock-1].running")
    assert "0:10" in page.inner_text("[data-testid=clock-0]")
    # Bob never moves: when his ten seconds are gone the page offers alice the win on time.
    page.wait_for_selector("[data-testid=claim-timeout]:visible", timeout=60_000)
    page.click("[data-testid=claim-timeout]")
    page.wait_for_selector("[data-testid=status]:text('Finished')", timeout=30_000)
    assert "ran out of time" in page.inner_text("[data-testid=log]")
    assert page.inner_text("[data-testid=match-outcome]") == "bob ran out of time: alice wins."
    finished = Match.objects.get(pk=match.pk)
    assert finished.result["reason"] == "timeout" and finished.result["winners"] == [0]
