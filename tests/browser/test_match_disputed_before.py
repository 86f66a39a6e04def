"""The live match page says when an earlier verification found the match disputed, as the replay
page does: the badge shows what the newest verification found, and a dispute stays final for
ratings, seasons and brackets (``Match.disputed_at``). A verdict frame that carries ``disputed_at``
shows the note without a reload; a page opened later shows it from the start. Every wait is on
what the page shows."""

from __future__ import annotations

import datetime as dt

import pytest

from matches.autoplay import autoplay_match
from matches.models import Match
from matches.verification import matches_verify

pytestmark = pytest.mark.browser

EARLIER = dt.datetime(2027, 1, 4, 3, 30, tzinfo=dt.UTC)


def finished_unverified():
    # Verified on commit by the eager task: set back to pending, as a season played with
    # verification held back leaves it for matches_verify.
    match = autoplay_match(game="dueling-wizards", seats=2)
    Match.objects.filter(pk=match.pk).update(verdict=Match.Verdict.PENDING, verified_at=None)
    return match


def found_disputed_before(match):
    # What an earlier verification's dispute left on the match (verification.py sets it once).
    Match.objects.filter(pk=match.pk).update(disputed_at=EARLIER)


def test_a_verdict_frame_carrying_an_earlier_dispute_shows_the_note_live(page_as, live, off_loop):
    match = off_loop(finished_unverified)
    watcher = page_as(None)
    watcher.goto(f"{live}/matches/{match.id}/")
    watcher.wait_for_selector("[data-testid=connection]:text('live')")
    watcher.wait_for_selector("[data-testid=verdict]:text-is('Not yet verified')")
    assert watcher.locator("[data-testid=disputed-before]").count() == 1
    assert watcher.locator("[data-testid=disputed-before]").is_hidden()

    off_loop(found_disputed_before, match)
    off_loop(lambda: matches_verify(match_ids=[match.pk]))
    watcher.wait_for_selector("[data-testid=verdict]:text-is('Verified')")
    note = watcher.wait_for_selector("[data-testid=disputed-before]:has-text('An earlier verification found')")
    assert note.is_visible()
    assert "counts in no rating, standing or bracket" in note.inner_text()
    assert note.query_selector("time").get_attribute("datetime").startswith("2027-01-04T03:30:00")


def test_a_page_opened_later_shows_the_earlier_dispute_from_the_start(page_as, live, off_loop):
    match = off_loop(finished_unverified)
    off_loop(found_disputed_before, match)
    off_loop(lambda: matches_verify(match_ids=[match.pk]))
    later = page_as(None)
    later.goto(f"{live}/matches/{match.id}/")
    later.wait_for_selector("[data-testid=connection]:text('live')")
    assert later.inner_text("[data-testid=verdict]") == "Verified"
    assert later.locator("[data-testid=disputed-before]").is_visible()


def test_a_match_disputed_now_has_no_note_the_badge_says_it(page_as, live, off_loop):
    match = off_loop(finished_unverified)
    off_loop(
        lambda: Match.objects.filter(pk=match.pk).update(
            verdict=Match.Verdict.DISPUTED, verdict_reason="hash chain broken", disputed_at=EARLIER
        )
    )
    page = page_as(None)
    page.goto(f"{live}/matches/{match.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    assert page.inner_text("[data-testid=verdict]") == "Disputed"
    assert page.locator("[data-testid=disputed-before]").count() == 1
    assert page.locator("[data-testid=disputed-before]").is_hidden()
