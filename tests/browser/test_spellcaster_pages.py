"""SpellCaster in a real browser: a newcomer plays a whole game against the bot, and the replay (issue 10, item 6)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from engines.spellcaster.engine import DEFAULT_MAX_ROUNDS
from matches.services import SeatSpec, match_create
from tests.browser.people import bot_bounds, head_seq, match_against_the_bot, users

pytestmark = pytest.mark.browser

SHOTS = "/tmp"

# A newcomer's plan, in order of preference: answer whatever is asked, conjure first, launch what is
# complete, keep launched spells moving, never contest another's spell, and end the turn when allowed.
PLAN = [
    "act-keep-",
    "act-place-",
    "act-draw-",
    "act-launch-",
    "act-will-false",
    "act-contest-",
    "act-return-down",
    "act-free_launch-",
    "act-control-",
    "act-continue-",
    "act-conjure-3",
    "act-wild_pick-",
    "act-wild_next-",
    "act-end_turn",
    "act-withdraw-",
    "act-abandon-",
]


def wait_for_new_head(page, seq, timeout=10_000):
    page.wait_for_function("seq => document.querySelector('#match').dataset.headSeq !== seq", arg=seq, timeout=timeout)


def click_until_taken(page, selector, seq):
    """Click and wait for the stream to move on. The page ignores a click while its previous action's
    request is still open (the bot's replies can arrive over the websocket before that request
    returns), so a click that changed nothing, with its button still offered, is made again. Once
    the button is gone the click was taken (or the view moved on): then only the head is awaited,
    for as long as a loaded machine needs; clicking again would wait for a button that will not
    come back."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(5):
        page.locator(selector).first.click()
        try:
            wait_for_new_head(page, seq, timeout=3_000)
            return
        except PlaywrightTimeout:
            if not page.locator(selector).count():
                break
    wait_for_new_head(page, seq, timeout=60_000)


def allocate(page, **points):
    """Set the four counters with their + buttons, then send the allocation."""
    page.wait_for_selector("[data-testid=allocation]")
    for attr, n in points.items():
        for _ in range(n):
            page.click(f"[data-testid=alloc-{attr}-plus]")
    page.click("[data-testid=allocate-confirm]")
    # another seat's allocation may move the head first: wait for this seat's own to be taken
    page.wait_for_selector("[data-testid=allocation]", state="detached")


def newcomer_click(page, seq):
    """One click by the plan: a highlighted point on the board when the familiar must move, else a button."""
    if (
        page.locator("[data-testid=board-svg] .sc-point.clickable").count()
        and not page.locator("[data-testid^=act-end_turn]").count()
    ):
        click_until_taken(page, "[data-testid=board-svg] .sc-point.clickable", seq)
        return "point"
    ids = page.eval_on_selector_all(
        "[data-testid=controls] button:not([disabled])", "els => els.map(e => e.dataset.testid)"
    )
    chosen = next((t for prefix in PLAN for t in ids if t.startswith(prefix)), ids[0])
    click_until_taken(page, f"[data-testid='{chosen}']", seq)
    return chosen


def play_on(page, clicks: set, until=None) -> None:
    """The newcomer's clicks by the plan while it is their turn, until the game is over (or the
    ``until`` click has been made)."""
    for _ in range(3000):
        page.wait_for_selector(".sc[data-turn-state=mine], .sc[data-turn-state=over]")
        if page.locator("[data-testid=result]").count():
            return
        done = newcomer_click(page, head_seq(page))
        clicks.add(done.split("-")[1] if done.startswith("act-") else done)
        if until in clicks:
            return
    raise AssertionError("the game did not end")


def test_a_newcomer_starts_a_match_against_the_bot_from_the_home_page_and_plays_a_turn(page_as, live):
    users("newcomer")
    page = page_as("newcomer")
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live}/")
    page.select_option("[data-testid=new-match] select[name=game]", "spellcaster")
    page.click("[data-testid=new-match] button[type=submit]")
    page.wait_for_url(re.compile(r"/matches/[0-9a-f-]+/$"))
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.wait_for_selector("[data-testid=board-svg]")
    assert "heuristic" in page.inner_text(".players")
    # A match against the bot keeps the engine's round bound (RULES.md): the page says so.
    assert f"of at most {DEFAULT_MAX_ROUNDS}" in page.inner_text(".sc")
    # the board: 13 points in their element colours, 40 paths, two casters in opposite corners
    assert page.locator("[data-testid=board-svg] [data-point]").count() >= 13
    assert page.locator("[data-testid=board-svg] line[data-path]").count() == 40
    assert page.get_attribute("[data-testid=point-C]", "data-point") == "C"
    page.screenshot(path=f"{SHOTS}/sc-start.png", full_page=True)
    # the allocation picker refuses a seventh point and a third point on Life Force
    page.wait_for_selector("[data-testid=allocation]")
    page.click("[data-testid=alloc-life_force-plus]")
    page.click("[data-testid=alloc-life_force-plus]")
    assert page.locator("[data-testid=alloc-life_force-plus][disabled]").count() == 1
    assert page.locator("[data-testid=allocate-confirm][disabled]").count() == 1  # 2 of 6 spent
    page.click("[data-testid=alloc-life_force-minus]")
    page.click("[data-testid=alloc-life_force-minus]")
    allocate(page, life_force=2, will=2, skill=2)
    clicks = {"allocate"}
    play_on(page, clicks, until="end_turn")
    assert {"conjure", "end_turn"} <= clicks
    # the bot has played its turn and handed the game back
    page.wait_for_selector(".sc[data-turn-state=mine]")
    assert errors == []


# The engine's bound is 60 rounds, about 600 clicks; the suite's game stops after five.
@pytest.mark.parametrize("max_rounds", bot_bounds(5, "five-rounds"))
def test_a_newcomer_plays_a_match_against_the_bot_to_the_end_and_steps_through_its_replay(
    page_as, live, off_loop, max_rounds
):
    match = match_against_the_bot(off_loop, "spellcaster", max_rounds)
    page = page_as("newcomer")
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live}/matches/{match.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    allocate(page, life_force=2, will=2, skill=2)
    clicks = {"allocate"}
    play_on(page, clicks)
    page.wait_for_selector("[data-testid=result]")
    page.screenshot(path=f"{SHOTS}/sc-finished.png", full_page=True)
    assert "Game over" in page.inner_text("[data-testid=result]")
    assert errors == []
    assert {"allocate", "conjure", "end_turn"} <= clicks
    assert page.locator("[data-testid=controls]").count() == 0
    page.wait_for_selector("[data-testid=verdict].verified")
    page.click("#replay-link")
    page.wait_for_selector("[data-testid=result]")
    assert page.inner_text("[data-testid=verdict]").startswith("✔ Verified")
    # stepping back to the start shows the board before anyone allocated
    page.click("[data-step=first]")
    page.wait_for_selector("[data-testid=at]:text-is('0')")
    page.wait_for_selector(".sc[data-turn-state=replay][data-phase=allocate]")


def wait_mine(page):
    page.wait_for_selector(".sc[data-turn-state=mine]")


def click_act(page, testid):
    click_until_taken(page, f"[data-testid='{testid}']", head_seq(page))


def test_three_people_at_a_real_table_play_a_whole_game_entering_dice_and_draws_by_clicking(page_as, live, off_loop):
    """Issue 10, item 6: a 3-player game between people in three browsers, in tabletop mode: every d10 is
    entered by clicking a die face, a private draw by the drawer clicking the card drawn (never typing)."""
    from matches.models import Match

    User = get_user_model()
    people = [User.objects.create_user(n, password=f"pw-{n}") for n in ("alice", "bob", "carol")]
    match = off_loop(
        match_create,
        game="spellcaster",
        seats=[SeatSpec(user=u) for u in people],
        created_by=people[0],
        mode=Match.Mode.TABLETOP,
        config={"max_rounds": 5},
    )
    pages = [page_as(u.username) for u in people]
    errors = []
    for page in pages:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{live}/matches/{match.id}/")
        page.wait_for_selector("[data-testid=connection]:text('live')")
        page.wait_for_selector("[data-testid=board-svg]")
    alice, bob, carol = pages
    watcher = page_as(None)
    watcher.goto(f"{live}/matches/{match.id}/")
    watcher.wait_for_selector("[data-testid=board-svg]")

    # Secret, simultaneous allocation: bob sees that alice has allocated, not how.
    allocate(alice, life_force=2, will=1, focus=1, skill=2)
    bob.wait_for_selector("[data-testid=caster-sheet-0]:has-text('Attributes allocated')")
    assert "Skill" not in bob.inner_text("[data-testid=caster-sheet-0]")
    allocate(bob, life_force=2, will=2, skill=2)
    allocate(carol, will=2, focus=2, skill=2)

    # Who goes first: a public d10-style roll entered by clicking a die face.
    carol.wait_for_selector("[data-testid=dice-entry]")
    click_act(carol, "die-0-face-0")
    for page in pages:
        page.wait_for_selector("[data-testid=caster-sheet-0]:has-text('Skill 7')")

    # Alice in the Fire corner conjures one card; only she may enter it, by clicking the Fire 5.
    wait_mine(alice)
    click_act(alice, "act-conjure-1")
    assert alice.eval_on_selector_all("[data-testid^=act-draw-]", "es => es.map(e => e.dataset.testid)") == [
        "act-draw-fire"
    ]
    click_act(alice, "act-draw-fire")
    bob.wait_for_selector("[data-testid=draw-waiting]")
    assert bob.locator("[data-testid=draw-entry]").count() == 0
    alice.wait_for_selector("[data-testid=draw-entry]")
    assert sorted(
        alice.eval_on_selector_all("[data-testid=draw-entry] button", "es => es.map(e => e.dataset.testid)")
    ) == ["drawn-fire-1", "drawn-fire-3", "drawn-fire-5"]
    click_act(alice, "drawn-fire-5")
    click_act(alice, "act-place-0-mass")
    # Face down: alice sees Fire 5, the others a Fire card without a value, and the log names no value.
    assert "F5" in alice.inner_text("[data-testid=spell-0-0]")
    bob.wait_for_selector("[data-testid=spell-0-0]:has-text('Mass')")
    assert "F?" in bob.inner_text("[data-testid=spell-0-0]") and "F5" not in bob.inner_text("[data-testid=spell-0-0]")
    bob.wait_for_selector("[data-testid=log] li:has-text('places a Fire card face down')")
    assert "Fire 5" not in bob.inner_text("[data-testid=log]")
    # a spectator sees the same face-down card and has nothing to click
    watcher.wait_for_selector("[data-testid=spell-0-0]:has-text('F?')")
    assert watcher.locator("[data-testid=controls]").count() == 0
    assert watcher.locator("[data-testid=dice-entry], [data-testid=draw-entry]").count() == 0
    click_act(alice, "act-end_turn")

    # Bob rests; then every turn is ended until the round limit (5 rounds) ends the game.
    wait_mine(bob)
    click_act(bob, "act-rest")
    click_act(bob, "act-end_turn")
    order = [carol, alice, bob]
    for turn in range(3 * 5):
        page = order[turn % 3]
        page.wait_for_selector(".sc[data-turn-state=mine], .sc[data-turn-state=over]")
        if page.locator("[data-testid=result]").count():
            break
        click_act(page, "act-end_turn")
    for page in pages:
        page.wait_for_selector("[data-testid=result]")
        assert "round limit" in page.inner_text("[data-testid=result]")
    # At the end every card is shown: bob now sees alice's Fire 5.
    assert "F5" in bob.inner_text("[data-testid=spell-0-0]")
    assert errors == []


def test_the_replay_page_steps_through_a_finished_game_and_a_spectator_sees_no_values_or_controls(
    page_as, live, off_loop
):
    from matches.autoplay import autoplay_match

    match = off_loop(autoplay_match, game="spellcaster", seats=2, bot="heuristic")
    page = page_as(None)
    page.goto(f"{live}/matches/{match.id}/replay/")
    page.wait_for_selector("[data-testid=result]")
    assert page.inner_text("[data-testid=verdict]").startswith("✔ Verified")
    assert page.locator("[data-testid=controls]").count() == 0
    page.click("[data-step=first]")
    page.wait_for_selector("[data-testid=at]:text-is('0')")
    page.wait_for_selector(".sc[data-turn-state=replay][data-phase=allocate]")
    assert page.locator("[data-testid^=familiar-]").count() == 0
    # somewhere in the middle a spectator's replay shows cards only by element when they are face down
    middle = match.state_seq // 2
    page.evaluate(
        "n => { const s = document.querySelector('#scrubber'); s.value = n; s.dispatchEvent(new Event('input')); }",
        middle,
    )
    page.wait_for_selector(f"[data-testid=at]:text-is('{middle}')")
    page.wait_for_selector(".sc[data-phase=play]")
    assert page.locator("[data-testid=board-svg] [data-testid^=caster-]").count() >= 1
    shown = page.eval_on_selector_all("[data-testid=card]", "cs => cs.map(c => c.textContent)")
    assert all(len(text) >= 2 for text in shown)  # an element letter and a value or "?"
