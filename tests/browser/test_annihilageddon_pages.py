"""Annihilageddon in a real browser: a newcomer beats (or loses to) the bot from the home page, four
people play at one table, the card gallery shows the whole set (issue 11, item 6).

The page script carries the card set as people read it; ``catalog()`` below is its source, and
``python -m tests.browser.test_annihilageddon_pages --write`` rewrites it after a card edit.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "static" / "js" / "games" / "annihilageddon.js"
MARK = re.compile(r"/\*catalog\*/(.*?)/\*end\*/", re.S)


def catalog() -> dict:
    """What the page shows of each card: its numbers and its text, never its program."""
    from engines.annihilageddon.cards import CARDS

    out = {}
    for cid in sorted(CARDS):
        c = CARDS[cid]
        row = {"name": c["name"], "kind": c["kind"], "type": c.get("type"), "cost": c.get("cost"),
               "vp": c.get("vp", 0) if type(c.get("vp", 0)) is int else "*", "copies": c.get("copies", 1),
               "icons": list(c.get("icons", [])), "text": c["text"]}
        if c.get("wizard"):
            row["wizard"] = c["wizard"]
        if "respawn_hp" in c:
            row["hp"] = c["respawn_hp"]
        if c.get("letter") == "first":
            row["first"] = True
        out[cid] = row
    return out


def script_catalog() -> dict:
    return json.loads(MARK.search(SCRIPT.read_text(encoding="utf-8")).group(1))


def test_the_page_script_carries_the_engines_card_set_card_for_card():
    # A card edited in engines/annihilageddon/cards/ and not regenerated here would show people
    # a text the engine does not play.
    assert script_catalog() == catalog()



# -- in the browser --------------------------------------------------------------------------------

def users(*names):
    User = get_user_model()
    return [User.objects.create_user(n, password=f"pw-{n}") for n in names]


def wait_live(page):
    page.wait_for_selector("[data-testid=connection]:text('live')")


# What a page offers its player, once drawn: a question, a turn with its moves fetched, or the end.
READY = ("[data-testid=result], [data-testid=prompt] [data-testid=choice], [data-testid=end-turn], "
         "[data-testid=draw-entry]")


def head(page) -> str:
    return page.locator("#match").get_attribute("data-head-seq")


def click_and_wait(page, locator):
    """Click and wait until the stream moves on (or the page shows why it did not)."""
    seq = head(page)
    locator.click()
    page.wait_for_function(
        "seq => document.querySelector('#match').dataset.headSeq !== seq"
        " || !document.querySelector('[data-testid=error]').hidden", arg=seq)
    error = page.locator("[data-testid=error]")
    assert not error.is_visible(), error.inner_text()


def one_move(page, seen: set) -> bool:
    """Make this page's player do one thing a hurried player would: answer a question with its
    first offer (a Defense card before "take it"), play the first card in hand, buy the best thing
    affordable (a Legend first, then the dearest Line-Up card), else end the turn. False when there
    is nothing to do (the game is over or someone else is to move)."""
    if page.locator("[data-testid=result]").count():
        return False
    prompt = page.locator("[data-testid=prompt]")
    if prompt.count() and prompt.locator("[data-testid=choice]").count():
        seen.add(prompt.get_attribute("data-kind"))
        click_and_wait(page, prompt.locator("button[data-testid=choice], [data-testid=choice] .an-card").first)
        return True
    if not page.locator("[data-testid=end-turn]").count():
        return False
    seen.add("turn")
    play = page.locator("[data-testid=hand] .an-card[data-action=play]")
    if play.count():
        click_and_wait(page, play.first)
        return True
    legend = page.locator("[data-testid=legend-stack] .an-card[data-action=buy]")
    if legend.count():
        seen.add("bought a Legend")
        click_and_wait(page, legend.first)
        return True
    buys = page.locator("[data-testid=lineup] .an-card[data-action=buy]")
    if buys.count():
        costs = [int(re.search(r"(\d+)⚡", buys.nth(i).inner_text()).group(1)) for i in range(buys.count())]
        click_and_wait(page, buys.nth(costs.index(max(costs))))
        return True
    click_and_wait(page, page.locator("[data-testid=end-turn]"))
    return True


@pytest.mark.browser
def test_a_newcomer_plays_annihilageddon_against_the_bot_from_the_home_page_to_the_end(page_as, live):
    users("newcomer")
    page = page_as("newcomer")
    page.goto(f"{live}/")
    page.select_option("[data-testid=new-match] select[name=game]", "annihilageddon")
    page.click("[data-testid=new-match] button[type=submit]")
    page.wait_for_url(re.compile(r"/matches/[0-9a-f-]+/$"))
    wait_live(page)
    assert "heuristic bot" in page.inner_text(".players")
    seen: set = set()
    # The opening question: which Ability tile to keep, shown as two readable cards.
    page.wait_for_selector("[data-testid=prompt][data-kind=setup]")
    assert page.locator("[data-testid=prompt] .an-card .an-text").count() == 2
    for _ in range(3000):
        page.wait_for_selector(READY)
        try:
          ok = one_move(page, seen)
        except Exception:
          print("DEBUG", page.inner_text("#match")[:3000]); print(page.locator("[data-testid=prompt]").inner_html()[:3000]); raise
        if not ok:
            if page.locator("[data-testid=result]").count():
                break
    assert page.locator("[data-testid=result]").count() == 1, "the game did not end"
    assert {"setup", "turn"} <= seen
    board = page.inner_text("[data-testid=board]")
    assert "Game over" in page.inner_text("[data-testid=result]")
    assert re.search(r"newcomer\s+-?\d+", page.inner_text("[data-testid=result]"))
    # The finished game shows every hand and the whole table.
    assert "Line-Up" in board and re.search(r"\d+ HP", page.inner_text("[data-testid=player-1]"))
    assert page.locator("[data-testid=shown-hand-1]").count() == 1
    page.wait_for_selector("[data-testid=verdict].verified", timeout=60_000)
    page.click("#replay-link")
    page.wait_for_selector("[data-testid=player-0]")
    assert page.inner_text("[data-testid=verdict]").startswith("✔ Verified")
    page.click("[data-step=first]")
    page.wait_for_selector("[data-testid=at]:text-is('0')")
    page.click("[data-step=next]")
    page.wait_for_selector("[data-testid=at]:text-is('1')")
    page.wait_for_selector("[data-testid=status-line]:has-text('Setting up')")


if __name__ == "__main__" and "--write" in sys.argv:
    text = SCRIPT.read_text(encoding="utf-8")
    blob = json.dumps(catalog(), ensure_ascii=False, separators=(",", ":"))
    SCRIPT.write_text(MARK.sub(lambda m: f"/*catalog*/{blob}/*end*/", text, count=1), encoding="utf-8")
    print(f"wrote {len(blob)} characters of card data into {SCRIPT}")
