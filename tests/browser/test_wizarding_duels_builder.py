"""Wizarding Duels' group builder in a real browser (issue 13, item 1): a newcomer builds a Group from
the home page, meets each of the engine's refusals in its own words while doing so, saves the Group to
the account, starts a match with it from the home page's form, plays it to the end against the bot and
steps through its replay; the builder fits a phone's width."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from tests.browser.test_wizarding_duels_pages import play_to_the_end

SHOTS = "/tmp"


def refusal_is(page, part, text):
    """Wait until the engine's verdict on one part of the Group (shown under that part) reads ``text``."""
    page.wait_for_function(
        "([part, text]) => { const e = document.querySelector(`[data-testid=refusal-${part}]`); return e && e.textContent === text; }",
        arg=[part, text],
    )


def accepted(page, part):
    refusal_is(page, part, "✔ The engine accepts this part.")


def no_sideways_overflow(page):
    return page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")


@pytest.mark.browser
def test_a_newcomer_builds_a_group_meeting_each_refusal_saves_it_and_starts_a_match_with_it(page_as, live, off_loop):
    get_user_model().objects.create_user("newcomer", password="pw-newcomer")
    page = page_as("newcomer")
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live}/")
    page.click("[data-testid=wzd-builder-link]")
    page.wait_for_selector("[data-testid=builder][data-legal]")
    page.fill("[data-testid=budget]", "30")
    page.press("[data-testid=budget]", "Enter")
    page.wait_for_selector("[data-testid=stat-galleons]:has-text('0 / 30')")

    # WD-3 (L1466-1476): models and artifacts within the budget; the total is live.
    for cid in ("ashen-regent", "lord-malvern", "cassius-vane"):
        page.click(f"[data-testid=add-{cid}]")
    refusal_is(page, "group", "The Group costs 34 Galleons; the budget is 30.")
    assert "34 / 30" in page.inner_text("[data-testid=stat-galleons]")
    assert page.locator("[data-testid=stat-galleons].wzb-over").count() == 1
    page.click("[data-testid=remove-2]")
    accepted(page, "group")

    # WD-4 (L379, L1474): one affiliation per Group.
    page.click("[data-testid=add-aldous-wren]")
    refusal_is(page, "group", "Every model in a Group must share one affiliation.")
    page.click("[data-testid=remove-2]")
    accepted(page, "group")

    # WD-8 (L522): no more artifacts than item slots; the slots count is live.
    page.select_option("[data-testid=artifact-0]", "runed-dagger")
    accepted(page, "group")
    page.select_option("[data-testid=artifact-0]", "ashwood-staff")
    refusal_is(page, "group", "The Ashen Regent has 1 item slot(s).")
    assert "slots 2/1" in page.inner_text("[data-testid=slots-0]")
    page.click("[data-testid=drop-artifact-0-1]")
    # Horcrux Maker (WD-T17): no Horcrux artifact for the Maker himself.
    page.click("[data-testid=drop-artifact-0-0]")
    page.select_option("[data-testid=artifact-0]", "tarnished-locket")
    refusal_is(page, "group", "A Horcrux Maker may not take Horcrux artifacts.")
    page.click("[data-testid=drop-artifact-0-0]")
    page.select_option("[data-testid=artifact-1]", "runed-dagger")
    accepted(page, "group")

    # WD-14 (L989-1006): the Spellbook holds at most the Group's total Mastery (3 + 2).
    for spell in ("venom-hex", "shadow-snare", "mirror-jinx", "blight-cloud", "night-terror", "gloom-shroud"):
        page.check(f"[data-testid=spell-{spell}]")
    refusal_is(page, "group", "The Spellbook may hold at most 5 spells (the Group's total Mastery).")
    assert "6 / 5" in page.inner_text("[data-testid=stat-spellbook]")
    page.uncheck("[data-testid=spell-gloom-shroud]")
    accepted(page, "group")

    # WD-16 (L477-501): nine quests, one per type, at most four with the lightning mark.
    refusal_is(page, "quests", "A Quest deck is exactly 9 quest cards.")
    deck = {
        "minor_challenge_control": "first-foothold",
        "major_challenge_control": "two-fronts",
        "challenge_collection": "relic-hunter",
        "leaders_missions": "crowned-victor",
        "arrival_spaces": "at-the-gates",
        "making_impacts": "first-blood",
        "group_missions": "advance-together",
        "terrain_control": "hold-the-ground",
        "various": "spellstorm",
    }
    for kind, quest in deck.items():
        page.select_option(f"[data-testid=quest-{kind}]", quest)
    refusal_is(page, "quests", "A Quest deck holds at most 4 instant (lightning) quests.")
    assert "⚡ 5 / 4" in page.inner_text("[data-testid=stat-quests]")
    page.select_option("[data-testid=quest-various]", "alchemists-gambit")
    accepted(page, "quests")

    # WD-17 (L1126-1138): six level-0 potions unless a Potioneer lifts one; this Group has none.
    for i, potion in enumerate(["phoenix-tear"] + ["minor-salve"] * 5):
        page.select_option(f"[data-testid=potion-{i}]", potion)
    refusal_is(
        page, "stock", "Only level-0 potions, except one potion of level up to X for each Potioneer X in the Group."
    )
    page.select_option("[data-testid=potion-0]", "sting-flask")
    accepted(page, "stock")

    page.check("[data-testid=leader-1]")
    page.wait_for_selector("[data-testid=builder][data-legal=true]")
    page.fill("[data-testid=name]", "Umbral pair")
    page.click("[data-testid=save]")
    page.wait_for_selector("[data-testid=save-message]:has-text('Saved “Umbral pair”')")

    # Screenshots of the builder at a desk and on a phone: nothing spills sideways.
    assert no_sideways_overflow(page)
    page.screenshot(path=f"{SHOTS}/wzd-builder-1280.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("() => document.scrollingElement.scrollWidth <= window.innerWidth")
    page.screenshot(path=f"{SHOTS}/wzd-builder-390.png", full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})

    # The saved Group comes back on the builder, to edit or delete.
    page.reload()
    page.wait_for_selector("[data-testid=saved-list] >> text=Umbral pair")
    page.click("[data-testid='load-Umbral pair']")
    page.wait_for_selector("[data-testid=builder][data-legal=true]")
    assert page.input_value("[data-testid=budget]") == "30"
    assert page.locator("[data-testid=leader-1]").is_checked()

    # The home page's form starts a match with it against the bot: the match takes its budget and
    # the Group and Stock are this seat's; the page is past both secret choices.
    page.goto(f"{live}/")
    page.select_option("[data-testid=new-match] select[name=game]", "wizarding-duels")
    page.select_option("[data-testid=new-match] select[name=setup]", label="Wizarding Duels: Umbral pair")
    page.click("[data-testid=new-match] button[type=submit]")
    page.wait_for_url(re.compile(r"/matches/[0-9a-f-]+/$"))
    page.wait_for_selector(".wzd[data-step]:not([data-step=build]):not([data-step=stock]) [data-testid=my-panel]")
    match_id = page.locator("#match").get_attribute("data-match-id")

    def stored(mid):
        from matches.models import Match

        m = Match.objects.get(pk=mid)
        return m.config["galleons"], m.state["players"][0]["group"], [p["id"] for p in m.state["players"][0]["potions"]]

    galleons, group, potions = off_loop(stored, match_id)
    assert galleons == 30
    assert group["models"] == ["ashen-regent", "lord-malvern"] and group["leader"] == 1
    assert group["artifacts"] == [[], ["runed-dagger"]]
    assert potions == ["sting-flask"] + ["minor-salve"] * 5
    assert "The Ashen Regent" in page.inner_text("[data-testid=my-panel]")

    # The newcomer plays the whole game with it against the heuristic bot, then steps through the replay.
    play_to_the_end(page)
    page.wait_for_selector("[data-testid=result]")
    assert "Game over" in page.inner_text("[data-testid=result]")
    page.wait_for_selector("[data-testid=verdict].verified", timeout=60_000)
    page.click("#replay-link")
    page.wait_for_selector(".wzd[data-turn-state=over] [data-testid=hex-board]")
    head = int(page.inner_text("[data-testid=at]"))
    page.eval_on_selector("#scrubber", "(e, n) => { e.value = n; e.dispatchEvent(new Event('input')); }", head // 2)
    page.wait_for_function("n => document.querySelector('[data-testid=at]').textContent === String(n)", arg=head // 2)
    page.wait_for_selector(".wzd[data-turn-state=replay] [data-testid=hex-board] .wzd-model")
    page.click("[data-step=next]")
    page.wait_for_function(
        "n => document.querySelector('[data-testid=at]').textContent === String(n)", arg=head // 2 + 1
    )
    # Its own Leader is on the board of the replay, a star on Lord Octavian Malvern's card.
    assert "★ Leader" in page.inner_text("[data-testid=card-0b]")
    assert errors == []
