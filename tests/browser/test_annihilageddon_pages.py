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

from engines.annihilageddon.engine import DEFAULT_MAX_ROUNDS
from tests.browser.people import bot_bounds, match_against_the_bot, users

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "static" / "js" / "games" / "annihilageddon.js"
MARK = re.compile(r"/\*catalog\*/(.*?)/\*end\*/", re.S)


def catalog() -> dict:
    """What the page shows of each card: its numbers and its text, never its program."""
    from engines.annihilageddon.cards import CARDS

    out = {}
    for cid in sorted(CARDS):
        c = CARDS[cid]
        row = {
            "name": c["name"],
            "kind": c["kind"],
            "type": c.get("type"),
            "cost": c.get("cost"),
            "vp": c.get("vp", 0) if type(c.get("vp", 0)) is int else "*",
            "copies": c.get("copies", 1),
            "icons": list(c.get("icons", [])),
            "text": c["text"],
        }
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


def wait_live(page):
    page.wait_for_selector("[data-testid=connection]:text('live')")


# What a page offers its player, once drawn: a question, a turn with its moves fetched, or the end.
READY = (
    "[data-testid=result], [data-testid=prompt] [data-testid=choice], [data-testid=end-turn], [data-testid=draw-entry]"
)


def head(page) -> str:
    return page.locator("#match").get_attribute("data-head-seq")


def click_and_wait(page, locator):
    """Click, then wait until the stream moves on (or the page shows why it did not). The page
    ignores a click while its previous action's request is still open (the bot's replies can come
    over the websocket before that request returns), so a click that sent nothing is made again."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    seq = head(page)
    for attempt in range(5):
        try:
            with page.expect_request(lambda r: r.method == "POST" and "/actions/" in r.url, timeout=2_000) as sent:
                locator.click()
        except PlaywrightTimeout:
            if attempt == 4:
                raise
            continue
        sent.value.response()  # the request is over: the page takes the next click
        break
    page.wait_for_function(
        "seq => document.querySelector('#match').dataset.headSeq !== seq"
        " || !document.querySelector('[data-testid=error]').hidden",
        arg=seq,
    )
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


def play_on(page, seen: set, until=None) -> None:
    """The newcomer's moves (``one_move``) until the game is over, or until ``until`` is seen."""
    for _ in range(3000):
        page.wait_for_selector(READY)
        if not one_move(page, seen) and page.locator("[data-testid=result]").count():
            return
        if until in seen:
            return
    raise AssertionError("the game did not end")


@pytest.mark.browser
def test_a_newcomer_starts_annihilageddon_against_the_bot_from_the_home_page_and_makes_a_move_in_a_turn(page_as, live):
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
    play_on(page, seen, until="turn")
    assert {"setup", "turn"} <= seen
    # A match against the bot keeps the engine's round bound (AN-R26): the page says so.
    assert f"of at most {DEFAULT_MAX_ROUNDS}" in page.inner_text("[data-testid=status-line]")


@pytest.mark.browser
# The rules end a game against the bot in 18-50 rounds (AN-R26); the suite's stops after three.
@pytest.mark.parametrize("max_rounds", bot_bounds(3, "three-rounds"))
def test_a_newcomer_plays_annihilageddon_against_the_bot_to_the_end_and_steps_through_its_replay(
    page_as, live, off_loop, max_rounds
):
    match = match_against_the_bot(off_loop, "annihilageddon", max_rounds)
    page = page_as("newcomer")
    page.goto(f"{live}/matches/{match.id}/")
    wait_live(page)
    seen: set = set()
    play_on(page, seen)
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
    # Halfway through, the auditor of the finished match sees both hands as they stood then.
    page.evaluate("""() => { const s = document.querySelector('#scrubber');
        s.value = Math.floor(Number(s.max) / 2); s.dispatchEvent(new Event('input')); }""")
    page.wait_for_selector("[data-testid=status-line]:has-text('Round')")
    # Both hands are shown (not counts); the active player may have played theirs out at this
    # event, so only the two together are sure to hold a card.
    for seat in (0, 1):
        assert page.locator(f"[data-testid=shown-hand-{seat}]").count() == 1
    assert page.locator("[data-testid^=shown-hand-] [data-card]").count() >= 1


def to_move(match_id) -> tuple[list, int]:
    """Who is to move, and the head of the stream they move from (read from the server's rows)."""
    from matches.models import Match
    from matches.selectors import engine_for

    match = Match.objects.get(pk=match_id)
    return engine_for(match).to_move(match.state), match.state_seq


def caught_up(pages, seq: str) -> None:
    for page in pages:
        page.wait_for_function(
            "seq => Number(document.querySelector('#match').dataset.headSeq) >= Number(seq)", arg=seq
        )


@pytest.mark.browser
@pytest.mark.parametrize(
    "max_rounds",
    [
        pytest.param(3, id="three-rounds"),
        # About a thousand clicks over 20-odd rounds (some eight minutes here): marked slow.
        pytest.param(None, id="whole-game", marks=pytest.mark.slow),
    ],
)
def test_four_people_play_to_the_end_each_seeing_only_their_own_hand(page_as, live, off_loop, max_rounds):
    """Four people, four browsers. The quick run is bounded to three rounds (the engine's
    ``max_rounds``, AN-R26 in RULES.md), which ends and scores the game like any other end; the slow
    run has no bound and ends by the rules (Legends, main deck or Dead Wizard Tokens)."""
    from matches.services import SeatSpec, match_create

    people = users("ann", "ben", "cat", "dan")
    match = off_loop(
        match_create,
        game="annihilageddon",
        seats=[SeatSpec(user=u) for u in people],
        created_by=people[0],
        config={"max_rounds": max_rounds},
    )
    pages = [page_as(u.username) for u in people]
    for page in pages:
        page.goto(f"{live}/matches/{match.id}/")
        wait_live(page)
    seen: set = set()
    defended_in_view_of_others = False
    for _ in range(6000):
        movers, seq = to_move(match.id)
        movers = [s for s in movers if isinstance(s, int)]
        if not movers:
            break
        mover = pages[movers[0]]
        caught_up(pages, str(seq))
        mover.wait_for_selector(READY)
        prompt = mover.locator("[data-testid=prompt]")
        if prompt.count() and prompt.get_attribute("data-kind") == "defend":
            # Every attacked player still deciding is asked at the same time; everyone else is told
            # who is deciding (or that their own choice is in), and nothing about anyone's hand.
            for i, page in enumerate(pages):
                if i in movers:
                    page.wait_for_selector("[data-testid=prompt][data-kind=defend] [data-testid=choice]")
                else:
                    told = page.locator("[data-testid=waiting], [data-testid=defense-chosen]").inner_text()
                    assert "decide whether to defend" in told or "stays hidden" in told, told
            defended_in_view_of_others = True
        if "turn" not in seen and mover.locator("[data-testid=end-turn]").count():
            # Mid-game, each page shows its own hand and only the sizes of the others'.
            for i, page in enumerate(pages):
                assert page.locator("[data-testid=hand]").count() == 1
                assert page.locator("[class*=an-player] [data-testid^=shown-hand]").count() == 0
                assert re.search(
                    r"Hand \d+ · deck \d+ · discard \d+", page.inner_text(f"[data-testid=counts-{(i + 1) % 4}]")
                )
        assert one_move(mover, seen), f"seat {movers[0]} was to move but its page offered nothing"
    for page in pages:
        page.wait_for_selector("[data-testid=result]")
        ended = page.inner_text("[data-testid=result]")
        assert ("round limit" in ended) == (max_rounds is not None), ended
        assert page.locator("[data-testid=result] tbody tr").count() == 4
    assert {"setup", "turn", "defend"} <= seen and defended_in_view_of_others
    assert "ends their turn" in pages[0].inner_text("[data-testid=log]")


def pick_cards(page, ids, already: int = 0) -> None:
    """Click the cards drawn (after ``already`` clicked before) and record the draw."""
    for cid in ids:
        page.locator(f"[data-testid=draw-cards] [data-card='{cid}'].an-clickable").first.click()
    n = already + len(ids)
    page.wait_for_selector(f"[data-testid=draw-chosen]:has-text('Chosen {n} of {n}')")
    click_and_wait(page, page.locator("[data-testid=record-draw]"))


@pytest.mark.browser
def test_at_a_real_table_each_draw_is_entered_by_clicking_the_cards_that_came_up(page_as, live, off_loop):
    from matches.services import SeatSpec, match_create

    alice, bob = users("alice", "bob")
    match = off_loop(
        match_create,
        game="annihilageddon",
        seats=[SeatSpec(user=alice), SeatSpec(user=bob)],
        created_by=alice,
        mode="tabletop",
    )
    a, b = page_as("alice"), page_as("bob")
    for page in (a, b):
        page.goto(f"{live}/matches/{match.id}/")
        wait_live(page)
    # Alice's tiles are dealt to her alone: she enters them, Bob only waits; no typed form anywhere.
    a.wait_for_selector("[data-testid=draw-entry]")
    assert "alice" in b.inner_text("[data-testid=draw-waiting]")
    assert a.locator("#chance-entry").is_hidden() and b.locator("#chance-entry").is_hidden()
    tiles = [a.locator("[data-testid=draw-cards] .an-card").nth(i).get_attribute("data-card") for i in range(2)]
    pick_cards(a, tiles)
    b.wait_for_selector("[data-testid=draw-entry]")
    # Bob cannot be offered what he does not know is gone; he picks two others.
    bob_tiles = [b.locator("[data-testid=draw-cards] .an-card").nth(i).get_attribute("data-card") for i in (2, 3)]
    pick_cards(b, bob_tiles)
    for page, dealt in ((a, tiles), (b, bob_tiles)):
        page.wait_for_selector("[data-testid=prompt][data-kind=setup]")
        assert sorted(
            page.locator("[data-testid=prompt] [data-testid=choice]").evaluate_all(
                "nodes => nodes.map(n => n.dataset.value)"
            )
        ) == sorted(dealt)
        click_and_wait(page, page.locator("[data-testid=prompt] [data-testid=choice] .an-card").first)
    a.wait_for_selector("[data-testid=draw-entry]:has-text('familiars')")
    pick_cards(a, ["gristle", "poofy"])
    b.wait_for_selector("[data-testid=draw-entry]:has-text('familiars')")
    others = [
        c
        for c in b.locator("[data-testid=draw-cards] .an-card").evaluate_all("ns => ns.map(n => n.dataset.card)")
        if c not in ("gristle", "poofy")
    ][:2]
    pick_cards(b, others)
    for page in (a, b):
        page.wait_for_selector("[data-testid=prompt][data-kind=setup]")
        click_and_wait(page, page.locator("[data-testid=prompt] [data-testid=choice] .an-card").first)
    # The Line-Up is public: either player enters each card as it is turned over.
    a.wait_for_selector("[data-testid=draw-entry]:has-text('Line-Up refill')")
    main = [
        c
        for c in a.locator("[data-testid=draw-cards] .an-card").evaluate_all("ns => ns.map(n => n.dataset.card)")
        if not c.startswith("mayhem-")
    ]
    for cid in main[:5]:
        a.wait_for_selector("[data-testid=draw-entry]:has-text('Line-Up refill')")
        pick_cards(a, [cid])
    for page in (a, b):
        page.wait_for_selector("[data-testid=lineup-4] [data-card]")
        assert (
            page.locator("[data-testid=lineup] [data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)")
            == main[:5]
        )
    # Who goes first is a die: the page's generic form for dice.
    a.wait_for_selector("#chance-entry [data-testid=die-0]")
    a.click("#chance-entry [data-testid=die-0-0]")
    seq = head(a)
    a.click("#chance-entry button[type=submit]")
    a.wait_for_function("seq => document.querySelector('#match').dataset.headSeq !== seq", arg=seq)
    # Each opening hand is entered by its owner from the cards of their own deck, counted.
    a.wait_for_selector("[data-testid=draw-entry]:has-text('draws 5')")
    assert "×6" in a.inner_text("[data-testid=draw-cards] [data-card=glyph]")
    for _ in range(3):
        a.locator("[data-testid=draw-cards] [data-card=fizzle].an-clickable").click()
    # A starting deck holds three Fizzles: the page stops offering a fourth.
    a.wait_for_selector("[data-testid=draw-cards] [data-card=fizzle]:not(.an-clickable)")
    pick_cards(a, ["glyph", "glyph"], already=3)
    b.wait_for_selector("[data-testid=draw-entry]:has-text('draws 5')")
    pick_cards(b, ["wand", "glyph", "glyph", "glyph", "glyph"])
    a.wait_for_selector("[data-testid=end-turn]")
    hand = ["fizzle", "fizzle", "fizzle", "glyph", "glyph"]
    assert a.locator("[data-testid=hand] [data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)") == hand
    # Bob sees how many cards Alice holds, never which.
    b.wait_for_selector("[data-testid=counts-0]:has-text('Hand 5 · deck 5')")
    assert b.locator("[data-testid=player-0] [data-card=fizzle]").count() == 0
    click_and_wait(a, a.locator("[data-testid=hand] [data-card=glyph]").first)
    a.wait_for_selector("[data-testid=power]:text('1 Power')")
    click_and_wait(a, a.locator("[data-testid=end-turn]"))
    # Her end-of-turn draw takes her whole deck (five cards), so nobody has to enter it.
    b.wait_for_selector("[data-testid=end-turn]")
    assert "Hand 5 · deck 0 · discard 5" in b.inner_text("[data-testid=counts-0]")
    assert sorted(a.locator("[data-testid=hand] [data-card]").evaluate_all("ns => ns.map(n => n.dataset.card)")) == [
        "glyph"
    ] * 4 + ["wand"]


@pytest.mark.browser
def test_the_card_gallery_shows_every_card_of_the_set_readable_and_filterable(page_as, live):
    from django.urls import reverse

    page = page_as(None)
    page.goto(f"{live}{reverse('annihilageddon-gallery')}")
    page.wait_for_selector("[data-testid=gallery-main]")
    cards = catalog()
    assert page.locator("[data-testid=gallery] .an-card").count() == len(cards)
    total = sum(c["copies"] for c in cards.values())
    assert f"{len(cards)} designs, {total} physical cards" in page.inner_text("[data-testid=gallery-total]")
    comet = page.locator("[data-testid=gallery] [data-card=gutter-comet]")
    assert cards["gutter-comet"]["text"] in comet.inner_text()
    assert "5⚡" in comet.inner_text() and "2 VP" in comet.inner_text() and "×3" in comet.inner_text()
    page.fill("[data-testid=gallery-filter]", "sad trombone")
    page.wait_for_selector("[data-testid=gallery-main]", state="detached")
    shown = page.locator("[data-testid=gallery] .an-card").evaluate_all("ns => ns.map(n => n.dataset.card)")
    assert shown == ["fizzle"]


def questions() -> dict:
    """The first view of each kind of question (kind, why, with a Defense to hand or not) met in six
    seeded three-player games, as the seat asked sees it: real engine states, not made-up views."""
    import random

    from engines.annihilageddon.engine import Annihilageddon
    from engines.base import CHANCE

    engine = Annihilageddon()
    found: dict = {}
    for seed in range(6):
        state = engine.setup(None, 3)
        rng = random.Random(seed)
        while engine.to_move(state):
            movers = engine.to_move(state)
            if movers == [CHANCE]:
                spec = engine.chance(state)
                outcome = (
                    [rng.randint(lo, hi) for lo, hi in spec["dice"]]
                    if spec["kind"] == "dice"
                    else rng.sample(range(spec["pool"]), spec["count"])
                )
                state = engine.apply(state, {"kind": "chance", "outcome": outcome})
                continue
            seat = movers[0]
            prompt = state["prompt"]
            if prompt:
                key = f"{prompt['kind']}/{prompt.get('why')}/{len(engine.prompt_options(state, seat)) > 1}"
                found.setdefault(key, (seat, engine.view(state, seat)))
            bot = "heuristic" if seed % 2 else "random"
            state = engine.apply(
                state, {"kind": "action", "seat": seat, "action": engine.bot_action(bot, state, seat, rng)}
            )
    return found


@pytest.mark.browser
def test_every_kind_of_question_the_engine_asks_is_a_sentence_and_a_row_of_clickable_answers(page_as, live):
    views = questions()
    kinds = {k.split("/")[0] for k in views}
    assert {"setup", "defend", "target", "yesno", "option", "card", "token", "trigger", "decline"} <= kinds
    assert "defend/None/True" in views, "no Defense card was ever offered"
    page = page_as(None)
    page.goto(f"{live}/static/css/site.css")  # any page of the site: the script's origin
    page.set_content('<div id="board"></div>')
    page.add_script_tag(url=f"{live}/static/js/games/annihilageddon.js")
    for key, (seat, view) in sorted(views.items()):
        page.evaluate(
            """([view, seat]) => {
            const sent = [];
            const ctx = { seat, live: true, mode: "server", act: (a) => sent.push(a),
                          match: { id: "m", head_seq: 1, to_move: [seat], seats: [0, 1, 2].map((s) => ({ seat: s, label: `P${s}` })) } };
            window.GameRenderers.annihilageddon.render(document.getElementById("board"), view, ctx);
            window.__sent = sent; }""",
            [view, seat],
        )
        prompt = page.locator("[data-testid=prompt]")
        assert prompt.get_attribute("data-kind") == view["prompt"]["kind"], key
        text = page.inner_text(".an-prompt-text")
        assert len(text) > 12 and text != "Choose.", (key, text)
        choices = view["prompt"]["choices"]
        shown = prompt.locator("[data-testid=choice]").evaluate_all("ns => ns.map(n => n.dataset.value)")
        assert sorted(shown) == sorted(str(c) for c in choices), key
        # The last answer offered is the one clicked: the page sends exactly that legal action (a
        # "defend" in a defense window, a "keep" at a setup keep, a "choose" for every other question).
        last = prompt.locator("[data-testid=choice]").last
        (last if last.evaluate("n => n.tagName") == "BUTTON" else last.locator(".an-card")).click()
        value = last.get_attribute("data-value")
        sent = next(a for a in view["legal_actions"] if str(a["value"]) == value)
        assert sent["type"] == {"defend": "defend", "setup": "keep"}.get(view["prompt"]["kind"], "choose"), key
        assert page.evaluate("window.__sent") == [sent], key
    # A Defense on offer is a readable card to click; taking the Attack is a plain button.
    seat, view = views["defend/None/True"]
    page.evaluate(
        """([view, seat]) => window.GameRenderers.annihilageddon.render(document.getElementById("board"), view,
        { seat, live: true, mode: "server", act: () => {}, match: { id: "m", head_seq: 1, to_move: [seat], seats: [] } })""",
        [view, seat],
    )
    assert page.locator("[data-testid=prompt] [data-testid=choice] .an-card .an-text").count() >= 1
    assert "Take it" in page.inner_text("[data-testid=prompt] button[data-value=take]")


def defense_window(seats: int = 4):
    """A real version-2 state where an Attack asks several players at once (seeded bot games)."""
    import random

    from engines import registry
    from engines.base import CHANCE
    from engines.chance import derive

    engine = registry.get("annihilageddon")
    for seed in range(20):
        state = engine.setup(None, seats)
        rng = random.Random(seed)
        n = 0
        while engine.to_move(state):
            movers = engine.to_move(state)
            prompt = state["prompt"]
            if prompt and prompt.get("seats") and len(movers) >= 3:
                return engine, state
            if movers == [CHANCE]:
                event = {"kind": "chance", "outcome": derive(engine.chance(state), b"w", str(seed), n)}
            else:
                event = {
                    "kind": "action",
                    "seat": movers[0],
                    "action": engine.bot_action("random", state, movers[0], rng),
                }
            state, n = engine.apply(state, event), n + 1
    raise AssertionError("no defense window asked three players in 20 seeded games")


@pytest.mark.browser
def test_a_defense_window_asks_every_attacked_player_at_once_and_keeps_each_answer_secret(page_as, live):
    """Issue 11: "the defense prompt shown to every attacked player at once"; AN L209, L320."""
    engine, state = defense_window()
    asked = engine.to_move(state)
    page = page_as(None)
    page.goto(f"{live}/static/css/site.css")  # any page of the site: the script's origin
    page.set_content('<div id="board"></div>')
    page.add_script_tag(url=f"{live}/static/js/games/annihilageddon.js")

    def draw(view, seat):
        page.evaluate(
            """([view, seat]) => {
            const sent = [];
            const ctx = { seat, live: true, mode: "server", act: (a) => sent.push(a),
                          match: { id: "m", head_seq: 1, seats: [0, 1, 2, 3].map((s) => ({ seat: s, label: `P${s}` })) } };
            window.GameRenderers.annihilageddon.render(document.getElementById("board"), view, ctx);
            window.__sent = sent; }""",
            [view, seat],
        )

    for seat in asked:  # each asked player has the question and its answers, all at the same time
        draw(engine.view(state, seat), seat)
        assert page.locator("[data-testid=prompt][data-kind=defend] [data-testid=choice]").count() >= 1
        assert "at the same time" in page.inner_text("[data-testid=defense-together]")
    first = asked[0]
    options = engine.prompt_options(state, first)
    answered = engine.apply(
        state, {"kind": "action", "seat": first, "action": {"type": "defend", "value": options[-1]}}
    )
    draw(engine.view(answered, first), first)
    told = page.inner_text("[data-testid=defense-chosen]")
    assert "stays hidden" in told and all(f"P{s}" in told for s in asked[1:])
    for seat in [None] + [s for s in range(4) if s != first]:
        draw(engine.view(answered, seat), seat)
        text = page.inner_text("#board")
        # Nobody else learns what was chosen: the page shows the same whatever the answer was.
        other = engine.apply(
            state, {"kind": "action", "seat": first, "action": {"type": "defend", "value": options[0]}}
        )
        draw(engine.view(other, seat), seat)
        assert page.inner_text("#board") == text, seat
    draw(engine.view(answered, None), None)
    assert "decide whether to defend" in page.inner_text("[data-testid=waiting]")
    assert f"P{first}" not in page.inner_text("[data-testid=waiting]").split("Waiting for")[1].split(" to ")[0]


if __name__ == "__main__" and "--write" in sys.argv:
    text = SCRIPT.read_text(encoding="utf-8")
    blob = json.dumps(catalog(), ensure_ascii=False, separators=(",", ":"))
    SCRIPT.write_text(MARK.sub(lambda m: f"/*catalog*/{blob}/*end*/", text, count=1), encoding="utf-8")
    print(f"wrote {len(blob)} characters of card data into {SCRIPT}")
