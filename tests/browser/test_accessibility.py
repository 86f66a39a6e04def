"""Accessibility (issue 18, item 8): axe-core finds no serious or critical violation on any main
page, and the main actions are reachable and operable with the keyboard alone."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.browser.game_pages import build_game_pages
from tests.browser.main_pages import build_main_pages

pytestmark = pytest.mark.browser


def serious_violations(page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at " + ", ".join(str(n["target"]) for n in v["nodes"][:4])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_no_main_page_has_a_serious_or_critical_axe_violation(page_as, live, off_loop):
    pages = build_main_pages(off_loop)
    signed_in = {None: page_as(None), "alice": page_as("alice")}
    found = {}
    for name, (user, path) in pages.items():
        page = signed_in[user]
        assert page.goto(f"{live}{path}").status == 200, name
        page.wait_for_selector("main")
        page.wait_for_load_state("load")
        violations = serious_violations(page)
        if violations:
            found[name] = violations
    assert not found, "\n".join(f"{name}: {v}" for name, vs in found.items() for v in vs)


def test_no_game_page_or_player_page_has_a_serious_or_critical_axe_violation(page_as, live, off_loop):
    pages = build_game_pages(off_loop)
    signed_in = {None: page_as(None), "alice": page_as("alice")}
    found = {}
    for name, (user, path) in pages.items():
        page = signed_in[user]
        assert page.goto(f"{live}{path}").status == 200, name
        page.wait_for_selector("main")
        page.wait_for_load_state("load")
        if name.endswith("live"):
            page.wait_for_selector("[data-testid=connection]:text('live')")
        elif name.endswith("replay"):
            page.wait_for_selector("[data-testid=event]:not(:empty)", timeout=30_000)
        violations = serious_violations(page)
        if violations:
            found[name] = violations
    assert not found, "\n".join(f"{name}: {v}" for name, vs in found.items() for v in vs)


def tab_until(page, selector: str, limit: int = 60) -> None:
    """Press Tab until the focused element matches selector (as a keyboard user would)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_keyboard_user_starts_a_match_from_the_home_page_and_plays_a_card(page_as, live):
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_user("alice", password="pw-alice")
    page = page_as("alice")
    page.goto(f"{live}/")
    tab_until(page, "[data-testid=new-match] select[name=game]")
    page.keyboard.type("Dueling")  # a focused select picks the option typed
    assert page.input_value("[data-testid=new-match] select[name=game]") == "dueling-wizards"
    tab_until(page, "[data-testid=new-match] button[type=submit]")
    page.keyboard.press("Enter")
    page.wait_for_url("**/matches/*/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.wait_for_selector(".dw-card.playable")
    seq = page.locator("#match").get_attribute("data-head-seq")
    tab_until(page, ".dw-card.playable", limit=120)
    played = page.evaluate("document.activeElement.title")  # e.g. "9 of Paper"
    assert played not in page.inner_text("[data-testid=log]")
    page.keyboard.press("Enter")
    page.wait_for_function("seq => document.querySelector('#match').dataset.headSeq !== seq", arg=seq)
    # The log tells the round with the card the keyboard played.
    page.wait_for_selector(f"[data-testid=log] :text('{played}')")
