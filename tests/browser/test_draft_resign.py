"""Resigning a draft from its room: two clicks (Resign the draft, then Yes), the draft ends with no
match to play, and both coaches' pages say who resigned."""

from __future__ import annotations

import pytest

from league.drafts.models import Draft
from league.drafts.services import draft_create
from matches.models import Event, Match
from matches.services import SeatSpec
from tests.browser.people import users

pytestmark = pytest.mark.browser


def test_a_coach_resigns_a_draft_from_its_room_and_both_pages_show_it(page_as, live):
    alice, bob = users("alice", "bob")
    draft = draft_create(
        seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice, config={"format": "schoolyard"}
    )
    other = page_as("bob")
    other.goto(f"{live}/drafts/{draft.draft_match_id}/")
    other.wait_for_selector("[data-testid=connection]:text('live')")

    page = page_as("alice")
    page.goto(f"{live}/drafts/{draft.draft_match_id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.click("[data-testid=resign-start]")
    page.wait_for_selector("[data-testid=resign-confirm]:visible")
    page.click("[data-testid=resign-no]")  # changing one's mind leaves the draft as it was
    page.wait_for_selector("[data-testid=resign-start]:visible")
    assert not Event.objects.filter(stream_id=draft.draft_match.stream_id, type="match.resigned").exists()

    page.click("[data-testid=resign-start]")
    page.click("[data-testid=resign-yes]")
    page.wait_for_selector("[data-testid=status]:text('Finished')")
    page.wait_for_selector("[data-testid=match-outcome]:text('alice resigned: bob wins.')")
    assert page.locator("[data-testid=resign]").is_hidden()
    assert page.locator("[data-testid=handoff]").is_hidden()  # no match follows a resigned draft
    other.wait_for_selector("[data-testid=match-outcome]:text('alice resigned: bob wins.')")
    assert other.locator("[data-testid=resign]").is_hidden()
    assert Match.objects.get(pk=draft.draft_match_id).result["resigned"] == 0
    assert Draft.objects.get(pk=draft.pk).match_id is None
