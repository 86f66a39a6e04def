"""A finished match's page shows its verdict when a batch of verdicts (``matches_verify``, a season's)
records it: the small verdict frame (matches/live.py) changes the badge without a reload, and leaves
the board as it was. Every wait is on what the page shows."""

from __future__ import annotations

import pytest

from matches.autoplay import autoplay_match
from matches.models import Match
from matches.verification import matches_verify

pytestmark = pytest.mark.browser


def finished_unverified():
    # Verified on commit by the eager task: set back to pending, as a season played with
    # verification held back leaves it for matches_verify.
    match = autoplay_match(game="dueling-wizards", seats=2)
    Match.objects.filter(pk=match.pk).update(verdict=Match.Verdict.PENDING, verified_at=None)
    return match


def test_an_open_page_of_a_finished_match_shows_the_batch_verdict_live_and_a_later_page_shows_it_too(
    page_as, live, off_loop
):
    match = off_loop(finished_unverified)
    watcher = page_as(None)
    watcher.goto(f"{live}/matches/{match.id}/")
    watcher.wait_for_selector("[data-testid=connection]:text('live')")
    watcher.wait_for_selector("[data-testid=verdict]:text-is('Not yet verified')")
    watcher.wait_for_selector("[data-testid=player-0]")
    board = watcher.inner_text("#board")

    off_loop(lambda: matches_verify(match_ids=[match.pk]))
    watcher.wait_for_selector("[data-testid=verdict]:text-is('Verified')")
    assert watcher.get_attribute("[data-testid=verdict]", "class") == "badge verified"
    assert watcher.inner_text("#board") == board  # the frame carried no view: the board stays
    assert watcher.inner_text("[data-testid=status]") == "Finished"

    later = page_as(None)
    later.goto(f"{live}/matches/{match.id}/")
    later.wait_for_selector("[data-testid=connection]:text('live')")
    assert later.inner_text("[data-testid=verdict]") == "Verified"
