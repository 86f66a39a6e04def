"""The live draft room in two browsers (issue 4, item 6)."""

from __future__ import annotations

import re

import pytest

from league.drafts.models import Draft
from matches.models import Match
from tests.browser.people import users

pytestmark = pytest.mark.browser


def pick_first_playable(page):
    card = page.locator("[data-testid=pool] .wiz-card.playable").first
    jersey = card.get_attribute("data-wizard")
    card.click()
    return int(jersey)


def test_two_coaches_draft_build_their_teams_and_land_in_a_playable_match(page_as, live):
    users("alice", "bob", "carol")
    alice = page_as("alice")
    alice.goto(f"{live}/drafts/")
    alice.fill("[data-testid=new-draft] input[name=opponent]", "bob")
    alice.click("[data-testid=new-draft] button[type=submit]")
    # bob is seated only once he accepts (issue 15): alice waits on her invitation's page.
    alice.wait_for_selector("[data-testid=invitation-status]:has-text('pending')")
    bob, watcher = page_as("bob"), page_as("carol")
    bob.goto(f"{live}/drafts/")
    bob.click("[data-testid=invitations-received] [data-testid=accept]")
    alice.wait_for_selector("[data-testid=pool] .wiz-card")  # her page follows into the draft room
    assert bob.url == alice.url
    for page in (bob, watcher):
        page.goto(alice.url)
        page.wait_for_selector("[data-testid=connection]:text('live')")
    assert "spectator" in watcher.inner_text("[data-testid=spectating]")
    assert watcher.locator("[data-testid=pool] .wiz-card").count() == 10
    assert alice.locator("[data-testid=first-pick-choice]").count() == 0  # only player 2 chooses
    bob.click("[data-testid=pass_first_pick]")

    picked = []
    for turn in range(10):
        page, other = (alice, bob) if turn % 2 == 0 else (bob, alice)
        page.wait_for_selector("[data-testid=pool] .wiz-card.playable")
        assert other.locator("[data-testid=pool] .wiz-card.playable").count() == 0
        jersey = pick_first_playable(page)
        picked.append(jersey)
        # Everyone sees the pick at once: it leaves the pool on every page.
        for viewer in (page, other, watcher):
            viewer.wait_for_selector(f"[data-testid=team-{turn % 2}] [data-wizard='{jersey}']")
            assert viewer.locator(f"[data-testid=pool] [data-wizard='{jersey}']").count() == 0

    # Team building: alice reorders her line-up and buys one cheap spell; bob keeps defaults.
    alice.wait_for_selector("[data-testid=team-building]")
    alice.locator("[data-testid=lineup-editor] li button[title=later]").first.click()
    alice.check("input[data-spell=freeze]")  # an unsaved choice survives the redraws below
    alice.click("[data-testid=save-lineup]")
    alice.wait_for_selector("[data-testid=lineup-0]")
    assert alice.is_checked("input[data-spell=freeze]")
    alice.click("[data-testid=save-spells]")
    alice.wait_for_selector("[data-testid=spells-0]")
    alice.wait_for_selector("[data-testid=ready]:not([disabled])")
    # Bob cannot see alice's line-up or spells before both are ready.
    assert bob.locator("[data-testid=lineup-0]").count() == 0
    alice.click("[data-testid=ready]")
    bob.wait_for_selector("[data-testid=team-building]")
    bob.click("[data-testid=save-lineup]")
    bob.wait_for_selector("[data-testid=lineup-1]")
    bob.click("[data-testid=save-spells]")
    bob.wait_for_selector("[data-testid=spells-1]")
    bob.wait_for_selector("[data-testid=ready]:not([disabled])")
    bob.click("[data-testid=ready]")

    for page in (alice, bob, watcher):
        page.wait_for_selector("[data-testid=handoff]:not([hidden])")
    assert "Freeze" in watcher.inner_text("[data-testid=spells-0]")  # by name, not the card id
    alice_lineup = watcher.inner_text("[data-testid=lineup-0]")

    # "#3" must not match inside "#30": find each jersey number as a whole number.
    def position(jersey):
        return re.search(rf"#{jersey}(?!\d)", alice_lineup).start()

    assert position(picked[2]) < position(picked[0])  # the swap stuck

    draft = Draft.objects.get()
    match = Match.objects.get(pk=draft.match_id)
    assert match.game == "wizard-dodgeball" and match.status == Match.Status.LIVE
    assert match.config["teams"][0]["spells"] == ["freeze"]
    assert match.config["teams"][0]["wizards"][:2] == [picked[2], picked[0]]
    alice.click("#handoff-link")
    alice.wait_for_url(f"{live}/matches/{match.id}/")
    alice.wait_for_selector("[data-testid=connection]:text('live')")
    assert "alice (you)" in alice.inner_text(".players")


def test_the_replay_of_a_finished_draft_steps_through_the_pool_and_picks(page_as, live, off_loop):
    from league.drafts.services import draft_create
    from matches.services import SeatSpec

    draft = off_loop(draft_create, seats=[SeatSpec(bot="auto"), SeatSpec(bot="auto")], created_by=None)
    page = page_as(None)
    page.goto(f"{live}/matches/{draft.draft_match_id}/replay/")
    page.wait_for_selector("[data-testid=verdict]")
    assert page.inner_text("[data-testid=verdict]").startswith("✔ Verified")
    page.click("[data-step=first]")
    for _ in range(3):
        page.click("[data-step=next]")
    page.wait_for_selector("[data-testid=at]:text-is('3')")
    page.wait_for_selector("[data-testid=event]:has-text('#3 action')")
    # After the shuffle and player 2's choice: ten wizards face up and the first pick in the log.
    page.wait_for_selector("[data-testid=pool] .wiz-card")
    assert page.locator("[data-testid=pool] .wiz-card").count() == 10
    assert "first pick" in page.inner_text("[data-testid=log]")
