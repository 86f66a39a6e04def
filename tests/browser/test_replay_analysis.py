"""The replay's analysis in a real browser (issue 19): the odds of a throw, the luck chart, a what-if."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from matches.models import Event

pytestmark = pytest.mark.browser


def test_a_player_reads_the_odds_of_a_dodge_in_a_replay_and_rerolls_it_in_a_what_if(page_as, live, off_loop):
    from matches.analysis.services import analysis_ensure
    from matches.autoplay import autoplay_match

    get_user_model().objects.create_user("alice", password="pw-alice")
    # Heuristic bots finish a Wizard Dodgeball game in a few dozen turns, with throws and dodges.
    match = off_loop(autoplay_match, game="wizard-dodgeball", seats=2, bot="heuristic")
    analysis = off_loop(analysis_ensure, match=match).data
    dodge = next(e for e in analysis["chance_events"] if any("dodges" in s["label"] for s in e["stakes"]))
    events_before = Event.objects.filter(stream_id=match.stream_id).count()

    page = page_as("alice")
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live}/matches/{match.id}/replay/")
    page.wait_for_selector("[data-testid=luck-chart] svg polyline[data-seat='1']")
    # The log marks every roll with its chance; a click on the dodge's line shows that event.
    page.wait_for_selector(f"#log li[data-seq='{dodge['seq']}'] .odds-badge")
    page.click(f"#log li[data-seq='{dodge['seq']}']")
    page.wait_for_selector(f"[data-testid=at]:text-is('{dodge['seq']}')")
    odds = page.locator("[data-testid=odds]")
    assert odds.locator("[data-testid=p-outcome]").inner_text() == dodge["p_outcome"]["exact"]
    stake = next(s for s in dodge["stakes"] if "dodges" in s["label"])
    stakes_text = odds.locator("[data-testid=stakes]").inner_text()
    assert stake["p"]["exact"] in stakes_text and "dodges or catches" in stakes_text
    page.click("text=What do these numbers mean?")
    assert page.inner_text("[data-testid=luck-explained]").startswith("Luck counts")

    # Branch a what-if just before the dodge and roll it again.
    page.click("[data-testid=whatif-reroll]")
    page.wait_for_selector("[data-testid=sandbox-original]")
    assert dodge["p_outcome"]["exact"] in page.inner_text("[data-testid=sandbox-original]")
    assert page.inner_text("[data-testid=sandbox-status]").startswith(
        f"Sandbox branched after event {dodge['seq'] - 1}"
    )
    page.click("[data-testid=sandbox-roll]")
    page.wait_for_selector("[data-testid=sandbox-reroll] [data-testid=p-outcome]")
    # Another roll of the same dice: any outcome of them has the same chance as the one in the match.
    assert page.inner_text("[data-testid=sandbox-reroll] [data-testid=p-outcome]") == dodge["p_outcome"]["exact"]
    assert page.locator("[data-testid=sandbox-steps] li").count() >= 1
    # The match itself is untouched: the sandbox never writes to the event store.
    assert Event.objects.filter(stream_id=match.stream_id).count() == events_before
    assert errors == []


def test_a_visitor_sees_the_odds_and_is_asked_to_sign_in_for_a_what_if(page_as, live, off_loop):
    from matches.autoplay import autoplay_match

    match = off_loop(autoplay_match, game="dueling-wizards", seats=2)
    page = page_as(None)
    page.goto(f"{live}/matches/{match.id}/replay/")
    page.wait_for_selector("[data-testid=luck-totals] .luck-total")
    page.click("[data-testid=whatif-play]")
    page.wait_for_url("**/accounts/login/**")
