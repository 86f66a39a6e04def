"""Tournament pages in headless Chromium (issue 6, item 4): an organiser creates an
eight-player single elimination from the pages, players report and confirm, and the
bracket SVG shows the winner advancing on every open page without a reload; a Swiss
round table renders."""

from __future__ import annotations

import pytest

from league.tournaments import services
from league.tournaments.models import Tournament
from matches.commands import AT_HEAD
from tests.browser.people import users

pytestmark = pytest.mark.browser


def test_an_organiser_runs_a_single_elimination_and_the_bracket_moves_without_reload(page_as, live, off_loop):
    names = [f"pl{i}" for i in range(1, 9)]
    users("org", *names)
    org = page_as("org")
    org.goto(f"{live}/tournaments/")
    org.fill("[data-testid=new-tournament] input[name=name]", "Friday Cup")
    org.select_option("[data-testid=new-tournament] select[name=format]", "single_elimination")
    org.click("[data-testid=new-tournament] button[type=submit]")
    org.wait_for_selector("[data-testid=connection]:text('live')")
    for n in names:
        org.fill("[data-testid=add-player-name]", n)
        org.click("[data-testid=add-player]")
        org.wait_for_selector(f"[data-testid=players] li:has-text('{n}')")
    org.click("[data-testid=start]")
    org.wait_for_selector("[data-testid=bracket]")
    assert org.locator("[data-testid=bracket] g.br-match").count() == 7

    # pl1 (seed 1) and pl8 (seed 8) play M1: pl8 reports pl1's win, pl1 confirms.
    p1, p8 = page_as("pl1"), page_as("pl8")
    for page in (p1, p8):
        page.goto(org.url)
        page.wait_for_selector("[data-testid=connection]:text('live')")
    assert "pl8" in p1.inner_text("[data-testid=my-next]")
    p8.click("[data-testid=report-M1-pl1]")
    p1.wait_for_selector("[data-testid=confirm-M1]")
    p1.click("[data-testid=confirm-M1]")
    # Every page sees pl1 advance into the next round, in the SVG, without a reload.
    for page in (org, p8, p1):
        page.wait_for_selector("[data-testid=bracket] g[data-match=M1][data-winner=pl1]")
    next_match = Tournament.objects.get().state["pairings"]["M1"]
    assert next_match["status"] == "final"
    slot_texts = org.locator("[data-testid=bracket] text.br-name").all_text_contents()
    assert slot_texts.count("pl1") == 2  # in round one and again in the semi-final

    # The organiser settles the rest from the page.
    for _ in range(20):
        selects = org.locator("[data-testid^=rule-select-]")
        if selects.count() == 0:
            break
        testid = selects.first.get_attribute("data-testid")
        pairing = testid.removeprefix("rule-select-")
        selects.first.select_option(index=1)
        org.once("dialog", lambda dialog: dialog.accept())
        org.click(f"[data-testid=rule-{pairing}]")
        org.wait_for_selector(f"[data-testid=bracket] g[data-match={pairing}][data-status=done]")
    org.wait_for_selector("[data-testid=champion]")
    assert "Winner:" in org.inner_text("[data-testid=champion]")
    assert org.locator("[data-testid=standings] tbody tr").count() == 8


def test_a_swiss_round_table_renders_and_updates_when_a_result_lands(page_as, live, off_loop):
    org, *players = users("boss", "s1", "s2", "s3", "s4", "s5")

    def setup():
        t = services.tournament_create(
            created_by=org, name="Swiss night", game="dueling-wizards", format="swiss", options={"rounds": 3}
        )
        for p in players:
            services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
        return t

    t = off_loop(setup)
    page = page_as(None)
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.wait_for_selector("[data-testid=round-1] tbody tr")
    rows = page.locator("[data-testid=round-1] tbody tr")
    assert rows.count() == 3 and "(bye)" in page.inner_text("[data-testid=round-1]")
    record = next(r for r in Tournament.objects.get().state["pairings"].values() if len(r["players"]) == 2)
    off_loop(
        lambda: services.tournament_rule(
            tournament=t, pairing=record["id"], by=org, result={"winner": record["players"][0]}, expected_seq=AT_HEAD
        )
    )
    page.wait_for_selector(f"[data-testid=result-{record['id']}]:has-text('won')")
    assert page.locator("[data-testid=standings] tbody tr").count() == 5
    assert "buchholz" in page.inner_text("[data-testid=standings] thead").lower()
