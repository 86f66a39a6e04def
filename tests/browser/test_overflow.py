"""No main page scrolls sideways on a desktop or a phone (issue 18, item 9): wide content
(tables, boards, raw event text) scrolls or wraps inside its own box instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.game_pages import build_game_pages
from tests.browser.main_pages import build_main_pages

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# The page's width beyond the viewport, and the widest elements sticking out (to say what to fix).
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const culprits = [...document.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > width + 1)
    .filter((e) => ![...e.children].some((c) => c.getBoundingClientRect().right > width + 1))
    .slice(0, 5).map((e) => `${e.parentElement.tagName.toLowerCase()}.${[...e.parentElement.classList].join(".")} > `
      + `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} "${e.textContent.slice(0, 30)}" ${Math.round(e.getBoundingClientRect().right)}px`);
  return { extra: document.documentElement.scrollWidth - width, culprits };
}"""


@pytest.mark.parametrize("width", [1280, 390])
def test_no_main_page_scrolls_sideways(browser, live, off_loop, page_as, width):
    pages = build_main_pages(off_loop)
    signed_in = {None: page_as(None), "alice": page_as("alice")}
    for page in signed_in.values():
        page.set_viewport_size({"width": width, "height": 900})
    wide = {}
    for name, (user, path) in pages.items():
        page = signed_in[user]
        assert page.goto(f"{live}{path}").status == 200, name
        page.wait_for_selector("main")
        page.wait_for_load_state("load")
        if name == "replay":
            # The final event, where the seed is revealed, is the widest text a replay shows.
            page.wait_for_selector("[data-testid=event]:not(:empty)")
        found = page.evaluate(OVERFLOW)
        if found["extra"] > 0:
            wide[name] = found
    assert not wide, "\n".join(f"{name}: {f['extra']}px too wide; {f['culprits']}" for name, f in wide.items())


@pytest.mark.parametrize("width", [1280, 390])
def test_no_game_page_or_player_page_scrolls_sideways(browser, live, off_loop, page_as, width):
    pages = build_game_pages(off_loop)
    signed_in = {None: page_as(None), "alice": page_as("alice")}
    for page in signed_in.values():
        page.set_viewport_size({"width": width, "height": 900})
    wide = {}
    for name, (user, path) in pages.items():
        page = signed_in[user]
        assert page.goto(f"{live}{path}").status == 200, name
        page.wait_for_selector("main")
        page.wait_for_load_state("load")
        if name.endswith("replay"):
            # At the final event, where the seed is revealed: the widest text a replay shows.
            page.wait_for_selector("[data-testid=event]:not(:empty)", timeout=30_000)
        elif name.endswith("live"):
            page.wait_for_selector("[data-testid=connection]:text('live')")
        if ARTIFACTS.is_dir():
            page.screenshot(path=str(ARTIFACTS / f"{name.replace(' ', '-')}-{width}.png"), full_page=True)
        found = page.evaluate(OVERFLOW)
        if found["extra"] > 0:
            wide[name] = found
    assert not wide, "\n".join(f"{name}: {f['extra']}px too wide; {f['culprits']}" for name, f in wide.items())


def test_the_replay_log_reads_up_to_the_event_shown_and_fits_three_digit_numbers(page_as, live, off_loop):
    from matches.autoplay import autoplay_match

    finished = off_loop(autoplay_match, game="dueling-wizards", seats=2)
    page = page_as(None)
    page.goto(f"{live}/matches/{finished.id}/replay/")
    page.wait_for_selector("[data-testid=log] li.current")
    last = page.locator("[data-testid=log] li").count()
    assert page.locator("[data-testid=log] li:visible").count() == last  # at the end: the whole story
    page.click("[data-step=first]")
    page.click("[data-step=next]")
    page.click("[data-step=next]")
    page.wait_for_selector("[data-testid=at]:text-is('2')")
    # Stepping from the start, the log does not tell the result early: only lines up to event 2.
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=log] li')]"
        ".every((li) => li.hidden === Number(li.dataset.seq) > 2)"
    )
    assert "wins" not in page.inner_text("[data-testid=log]").lower()
    assert page.evaluate("document.querySelector('[data-testid=log]').scrollTop") == 0
    # The list's margin fits a three-digit number and its dot ("100."), which used to be clipped.
    fits = page.evaluate("""() => {
      const log = document.querySelector('[data-testid=log]');
      const probe = document.createElement('li');
      probe.style.cssText = 'position:absolute; visibility:hidden; list-style:none; width:auto; white-space:nowrap';
      probe.textContent = '100. ';
      log.appendChild(probe);
      const need = probe.getBoundingClientRect().width;
      probe.remove();
      return parseFloat(getComputedStyle(log).paddingLeft) >= need;
    }""")
    assert fits
