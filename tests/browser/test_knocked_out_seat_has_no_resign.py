"""A seat already out of the game (a Dueling Wizards wizard knocked out while two play on) is offered
no Resign on the live page, from the page as served to every live update, while a wizard still
standing is offered it. The API refuses such a resignation (seat_out_of_game,
tests/matches/test_resign_out_of_the_game.py); here the page does not ask for one."""

from __future__ import annotations

import re

import pytest

from tests.browser.people import users
from tests.matches.test_resign_out_of_the_game import three_wizards_one_knocked_out

pytestmark = pytest.mark.browser


def open_live(page, url: str, head_seq: int):
    """The live page, once its socket is live and it shows the match's head."""
    served = page.goto(url)
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.wait_for_selector(f"#match[data-head-seq='{head_seq}']", state="attached")
    return served.text()


def resign_section_as_served(html: str) -> str:
    return re.search(r'<section id="resign"[^>]*>', html).group(0)


def test_a_knocked_out_wizard_is_offered_no_resign_and_a_wizard_still_standing_is(page_as, live):
    people = users("ann", "ben", "cyd")
    match = three_wizards_one_knocked_out(people)
    out = match.state["alive"].index(False)
    standing = next(s for s in range(3) if match.state["alive"][s])
    url = f"{live}/matches/{match.id}/"

    fallen = page_as(people[out].username)
    served = open_live(fallen, url, match.state_seq)
    # Hidden before any script runs too: a page whose socket is slow never offers it for a moment.
    assert " hidden" in resign_section_as_served(served)
    assert fallen.locator("[data-testid=resign]").is_hidden()
    assert fallen.locator("[data-testid=resign-start]").is_hidden()
    assert fallen.locator("[data-testid=status]").inner_text() == "Live"  # the match goes on without it

    still = page_as(people[standing].username)
    served = open_live(still, url, match.state_seq)
    assert " hidden" not in resign_section_as_served(served)
    assert still.locator("[data-testid=resign-start]").is_visible()
