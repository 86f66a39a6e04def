"""A result retracted after its round was over (its platform match found disputed) holds the event
up until the organiser rules on it (league/tournaments/RULES.md "A retracted result reopens the
event"). The organiser's panel says so where the button to pair the next round would be, rather
than leaving the button out with no word of why."""

from __future__ import annotations

from contextlib import nullcontext

import pytest

from league.tournaments import services
from matches.commands import AT_HEAD
from tests.league.tournaments.helpers import state
from tests.league.tournaments.test_retracted_result_reopens_the_event import _round_one_retracted_after

from .people import users

pytestmark = pytest.mark.browser


def test_the_organiser_is_told_which_retracted_result_holds_up_the_next_round(page_as, live, off_loop):
    (org,) = users("org")
    # On-commit callbacks run as they do in production here (a transactional database).
    t, recorded = off_loop(lambda: _round_one_retracted_after(org, lambda **_: nullcontext(), rounds=3, played=2))
    names = off_loop(lambda: [state(t)["players"][p]["name"] for p in recorded["players"]])

    page = page_as("org")
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    said = page.wait_for_selector("[data-testid=reopened]").text_content()
    assert said == (
        f"Round 1's result between {names[0]} and {names[1]} was retracted and waits for your ruling: "
        "rule on it before pairing the next round."
    )
    assert page.locator("[data-testid=pair-next]").count() == 0

    # The ruling arrives over the live socket: the note goes and the button comes.
    off_loop(
        lambda: services.tournament_rule(
            tournament=t,
            pairing="r1-1",
            by=org,
            result={"winner": recorded["players"][1]},
            reason="replayed",
            expected_seq=AT_HEAD,
        )
    )
    page.wait_for_selector("[data-testid=pair-next]")
    assert page.locator("[data-testid=reopened]").count() == 0
