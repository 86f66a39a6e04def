"""Wizarding Duels in a real browser: a newcomer plays a whole game against the bot from the home page
and steps through its replay, and the page never shows the opponent's clash hand (issue 13, item 7).

The page script carries the content packs (maps, characters, spells, cards, quests) as people read
them; ``catalog()`` below is its source, and ``python -m tests.browser.test_wizarding_duels_pages
--write`` rewrites it after a pack edit.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from tests.browser.people import head_seq, users

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "static" / "js" / "games" / "wizarding-duels.js"
MARK = re.compile(r"/\*catalog\*/(.*?)/\*end\*/", re.S)
SHOTS = "/tmp"


def catalog() -> dict:
    """Every pack that can start a match, as its data file holds it (the page joins the map halves
    itself, names cards, spells and quests, and shows their numbers)."""
    from engines.wizarding_duels import content

    out = {}
    for pid in content.pack_ids():
        pk = content.load(pid)
        if pk.playable():
            out[pid] = {k: v for k, v in pk.data.items() if k != "notes"}
    return out


def script_catalog() -> dict:
    return json.loads(MARK.search(SCRIPT.read_text(encoding="utf-8")).group(1))


def test_the_page_script_carries_every_playable_pack_as_the_engine_reads_it():
    # A pack edited under engines/wizarding_duels/packs/ and not regenerated here would show people
    # a map, a number or a quest the engine does not play.
    assert script_catalog() == catalog()


# -- in the browser --------------------------------------------------------------------------------


def wait_for_new_head(page, seq):
    page.wait_for_function("seq => document.querySelector('#match').dataset.headSeq !== seq", arg=seq, timeout=30_000)


def hand_on_page(page) -> list[str]:
    return page.eval_on_selector_all(".wzd-hand-card", "els => els.map(e => e.dataset.card)")


def hands(match_id):
    from matches.models import Match

    return [p["hand"] for p in Match.objects.get(pk=match_id).state["players"]]


def check_the_opponents_hand_is_hidden(page, both, seat):
    """Every clash card the page shows as a hand card is this seat's own, exactly its hand; the
    opponent's hand is a count, and none of its cards is anywhere in the DOM as a hand card."""
    state = {"players": [{"hand": h} for h in both]}
    mine, theirs = state["players"][seat]["hand"], state["players"][1 - seat]["hand"]
    shown = hand_on_page(page)
    assert sorted(shown) == sorted(mine)
    assert not set(shown) & set(theirs)
    panel = page.locator(f"[data-testid=panel-{1 - seat}]")
    assert panel.locator(".wzd-hand-card").count() == 0
    assert panel.locator(f"[data-testid=hand-count-{1 - seat}]").inner_text() == (
        f"{len(theirs)} card" + ("" if len(theirs) == 1 else "s")
    )
    html = panel.inner_html()
    for uid in theirs:
        assert f'data-card="{uid}"' not in html


BOARD_STEPS = ("place_challenge", "place_terrain", "deploy", "place")


def click_where_it_is_drawn(page, locator):
    """Click the middle of a space as a person does, whatever stands on it: a model drawn on a lit
    space covers most of it, and the click on the model must choose the space."""
    box = locator.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def play_to_the_end(page, look=None, limit=1500):
    """Play this seat's every turn through the page until the game is over: on the board steps click
    the first lit space; otherwise the first visible choice in the controls (an attack or a spell
    before a move, End last), and every other activation the first lit space to move. ``look(step)``
    is called before each answer."""
    for turn in range(limit):
        page.wait_for_selector(".wzd[data-turn-state=mine], .wzd[data-turn-state=over]", timeout=30_000)
        if page.locator(".wzd[data-turn-state=over]").count():
            return
        step = page.locator(".wzd").get_attribute("data-step")
        if look:
            look(step)
        seq = head_seq(page)
        lit = page.locator("polygon.wzd-choice")
        if (step in BOARD_STEPS or (step == "act" and turn % 2 == 0)) and lit.count():
            clicked = f"space {lit.first.get_attribute('data-hex')}"
            click_where_it_is_drawn(page, lit.first)
            # A space reached several ways (a move and a cast there) asks which: take the first.
            if page.locator("[data-testid=hex-choices]").count():
                clicked += " then " + page.locator("[data-testid=hex-choices] button").first.get_attribute(
                    "data-action"
                )
                page.locator("[data-testid=hex-choices] button").first.click()
        else:
            button = page.locator("[data-testid=controls] button.wzd-choice:visible").first
            clicked = button.get_attribute("data-action")
            button.click()
        try:
            wait_for_new_head(page, seq)
        except Exception as exc:
            raise AssertionError(
                f"no new event after clicking {clicked} at step {step}; error shown: {page.inner_text('#error')!r}"
            ) from exc
    raise AssertionError(f"the game was not over after {limit} answers")


@pytest.mark.browser
def test_a_newcomer_plays_a_whole_game_against_the_bot_from_the_home_page_and_opens_the_replay(page_as, live, off_loop):
    users("newcomer")
    page = page_as("newcomer")
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    frames = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
    page.goto(f"{live}/")
    page.select_option("[data-testid=new-match] select[name=game]", "wizarding-duels")
    page.click("[data-testid=new-match] button[type=submit]")
    page.wait_for_url(re.compile(r"/matches/[0-9a-f-]+/$"))
    page.wait_for_selector("[data-testid=connection]:text('live')")
    match_id = page.locator("#match").get_attribute("data-match-id")
    seat = int(page.locator("#match").get_attribute("data-seat"))
    assert "heuristic" in page.inner_text(".players")
    seen_steps: set[str] = set()
    shots = {"build", "deploy", "act"}
    checks = 0

    def look(step):
        nonlocal checks
        seen_steps.add(step)
        if step in shots:
            page.screenshot(path=f"{SHOTS}/wzd-{step}.png", full_page=True)
            shots.discard(step)
        if step == "act" and checks < 6 and page.locator(".wzd-hand-card").count():
            check_the_opponents_hand_is_hidden(page, off_loop(hands, match_id), seat)
            checks += 1

    play_to_the_end(page, look)
    page.wait_for_selector("[data-testid=result]")
    page.screenshot(path=f"{SHOTS}/wzd-finished.png", full_page=True)
    assert "Game over" in page.inner_text("[data-testid=result]")
    assert errors == []
    assert checks >= 3
    # The newcomer met every set-up screen and activated models.
    assert {"build", "stock", "mulligan", "deploy", "activate", "act"} <= seen_steps
    assert page.locator("[data-testid=controls]").count() == 0
    # Nor did any websocket frame of the live game carry the opponent's hand, quest hand or deck,
    # its secret choices or a face-down swap.
    live_frames = [
        f for f in map(json.loads, frames) if f.get("type") == "update" and f["match"]["status"] != "finished"
    ]
    assert len(live_frames) > 20
    for f in live_frames:
        theirs = f["view"]["players"][1 - seat]
        assert type(theirs["hand"]) is int and type(theirs["qhand"]) is int and type(theirs["quest_deck"]) is int
        assert "quests" not in (theirs["group"] or {})
        for e in f["events"]:
            action = e["data"].get("action") if e["type"] == "action" and e["data"].get("seat") != seat else None
            if action and action["type"] in ("group", "potions", "mulligan", "order"):
                assert action == {"type": action["type"]}
            if action and action["type"] == "swap":
                assert action["card"] is None
    page.wait_for_selector("[data-testid=verdict].verified", timeout=60_000)
    page.click("#replay-link")
    page.wait_for_selector(".wzd[data-turn-state=over] [data-testid=hex-board]")
    assert page.inner_text("[data-testid=verdict]").startswith("✔ Verified")
    # Step through the game: the board, the panels and the last clash are drawn mid-game.
    head = int(page.inner_text("[data-testid=at]"))
    page.click("[data-step=first]")
    page.wait_for_function("() => document.querySelector('[data-testid=at]').textContent === '0'")
    middle = head * 2 // 3
    page.eval_on_selector("#scrubber", "(e, n) => { e.value = n; e.dispatchEvent(new Event('input')); }", middle)
    page.wait_for_selector(".wzd[data-turn-state=replay] [data-testid=hex-board] .wzd-model")
    for n in range(middle + 1, middle + 4):
        page.click("[data-step=next]")
        page.wait_for_function("n => document.querySelector('[data-testid=at]').textContent === String(n)", arg=n)
        page.wait_for_selector(".wzd[data-turn-state=replay] [data-testid=hex-board]")
    assert page.locator("[data-testid=round]").inner_text().startswith("Round ")
    assert page.locator("[data-testid=controls]").count() == 0
    page.screenshot(path=f"{SHOTS}/wzd-replay.png", full_page=True)
    # On a phone the page reflows into one column and nothing spills sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("() => document.documentElement.scrollWidth <= 390")
    page.screenshot(path=f"{SHOTS}/wzd-replay-390.png", full_page=True)
    assert errors == []


def move_costs(state, actions) -> dict:
    """The engine's cheapest movement cost to each space the active model may move to (a cheapest-route
    search over the engine's own step rules), to check the costs the page writes on lit spaces."""
    from heapq import heappop, heappush

    from engines.wizarding_duels import geometry, rules
    from engines.wizarding_duels.state import hex_of

    if not state.get("act"):
        return {}
    m = state["models"][state["act"]["model"]]
    _, steps, _, _ = rules._step_rules(state, m)
    points = rules.move_points(state, m)
    start = hex_of(m)
    # (cost, dangerous entries), cheapest first and then safest, as the page's route is chosen.
    best = {start: (0, 0)}
    frontier = [(0, 0, start)]
    while frontier:
        cost, danger, h = heappop(frontier)
        if (cost, danger) > best[h]:
            continue
        for n, step, add in steps(h):
            if cost + step <= points and (cost + step, danger + add) < best.get(n, (99, 99)):
                best[n] = (cost + step, danger + add)
                heappush(frontier, (cost + step, danger + add, n))
    return {
        a["to"]: best[geometry.parse(a["to"])][0] for a in actions if a["type"] == "move" and not a.get("dangerous")
    }


def engine_questions(games=4) -> dict:
    """The first time each kind of window asks a seat something, in a few seeded bot games played
    by the engine alone: the seat's view and its legal actions, as the page receives them."""
    import random

    from engines import chance
    from engines.base import CHANCE
    from engines.wizarding_duels.engine import WizardingDuelsEngine

    engine = WizardingDuelsEngine()
    found = {}
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.setup(None, 2)
        while engine.to_move(state):
            seats = engine.to_move(state)
            if seats == [CHANCE]:
                outcome = chance.draw(engine.chance(state), rng.randrange)
                state = engine.apply(state, {"kind": "chance", "outcome": outcome})
                continue
            seat = seats[0]
            step = state["queue"][0]["step"]
            # An activation is kept once it can attack or cast at an enemy: its targets are ringed.
            aimed = step == "act" and any(
                a.get("target", "").startswith(str(1 - seat)) for a in engine.legal_actions(state, seat)
            )
            if step not in found or (aimed and not found[step].get("aimed")):
                actions = engine.legal_actions(state, seat)
                found[step] = {
                    "seat": seat,
                    "view": engine.view(state, seat),
                    "actions": actions,
                    "aimed": aimed,
                    "costs": move_costs(state, actions),
                }
            action = engine.bot_action("heuristic", state, seat, rng)
            state = engine.apply(state, {"kind": "action", "seat": seat, "action": action})
    return found


@pytest.mark.browser
def test_every_question_the_engine_asks_is_a_prompt_whose_clicks_send_exactly_a_legal_action(page_as, live, off_loop):
    from matches.services import SeatSpec, match_create

    (alice,) = users("alice")
    match = off_loop(
        lambda: match_create(
            game="wizarding-duels", seats=[SeatSpec(user=alice), SeatSpec(bot="heuristic")], created_by=alice
        )
    )
    questions = engine_questions()
    # Every kind of set-up screen and clash prompt the engine asked in those games.
    assert {
        "build",
        "stock",
        "choose_map",
        "choose_joining",
        "place_challenge",
        "place_terrain",
        "mulligan",
        "deploy",
        "activate",
        "act",
        "empower",
        "pick",
        "swap",
        "early",
        "late",
    } <= set(questions)
    page = page_as("alice")
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live}/matches/{match.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    # The live client is switched off and the renderer fed each engine view, its legal actions
    # answered by a stub of the API; a click is recorded instead of sent.
    page.evaluate("""() => { window.__match.socket.onclose = null; window.__match.socket.close();
        const box = document.createElement('div'); box.id = 'probe'; document.body.prepend(box); }""")
    checked_totals: set[str] = set()
    for k, (step, q) in enumerate(sorted(questions.items())):
        page.evaluate(
            """([view, actions, seat, k]) => {
            window.__sent = [];
            window.MatchClient.api = async () => ({ actions });
            const ctx = { seat, live: true, mode: 'server', act: async (a) => { window.__sent.push(a); },
                          match: { id: 'probe', head_seq: k, to_move: [seat], seats: [], status: 'live' } };
            window.GameRenderers['wizarding-duels'].render(document.getElementById('probe'), view, ctx);
        }""",
            [q["view"], q["actions"], q["seat"], k],
        )
        page.wait_for_selector("#probe .wzd[data-turn-state=mine] [data-testid=controls]")
        offered = page.eval_on_selector_all(
            "#probe .wzd-choice[data-action], #probe polygon.wzd-choice",
            "els => els.map(e => e.dataset.action || e.dataset.hex)",
        )
        assert offered, step
        sent_actions = [json.loads(x) for x in offered if x.startswith("{")]
        assert all(a in q["actions"] for a in sent_actions), step
        if step not in (
            "build",
            "stock",
            "choose_map",
            "choose_joining",
            "place_challenge",
            "place_terrain",
            "deploy",
            "mulligan",
            "activate",
            "act",
        ):
            # A clash prompt is a sentence that says what is asked.
            assert page.locator("#probe [data-testid=question]").count() == 1, step
        if step == "build":
            # Each ready-made Group is within the budget the engine checked it against (WD-3).
            costs = [
                int(re.search(r"(\d+) of 50 Galleons", t).group(1))
                for t in page.eval_on_selector_all("#probe .wzd-group", "els => els.map(e => e.innerText)")
            ]
            assert len(costs) == len(q["actions"]) and all(0 < c <= 50 for c in costs)
        if step == "act":
            # Moves are exactly the lit spaces; hovering a ringed target draws the sight line and
            # tells the distance from the active model.
            moves = {a["to"] for a in q["actions"] if a["type"] == "move"}
            at_spaces = {a["target"] for a in q["actions"] if "," in str(a.get("target", ""))}
            lit = set(page.eval_on_selector_all("#probe polygon.wzd-choice", "els => els.map(e => e.dataset.hex)"))
            assert lit == moves | at_spaces
            # Each lit move shows its movement cost, the engine's cheapest route to it (WD-78:
            # Difficult costs 2 unless the model flies or scouts).
            costs = {h: int(page.text_content(f"#probe [data-testid='cost-{h}']")) for h in moves}
            assert costs == q["costs"]
            # Every trait on a character card says what it does when pointed at.
            tips = page.eval_on_selector_all("#probe .wzd-trait", "els => els.map(e => [e.dataset.trait, e.title])")
            assert tips and all(len(tip) > len(trait) + 3 and ":" in tip for trait, tip in tips), tips
            # Asking for a range rings exactly the spaces within it, counted from the active model.
            page.select_option("#probe [data-testid=range]", index=1)
            rng = int(
                re.search(
                    r"range (\d+)\)$",
                    page.eval_on_selector("#probe [data-testid=range]", "e => e.selectedOptions[0].textContent"),
                ).group(1)
            )
            ringed = page.eval_on_selector_all("#probe polygon.wzd-inrange", "els => els.map(e => e.dataset.hex)")
            origin = q["view"]["models"][q["view"]["act"]["model"]]["hex"]
            assert ringed and all(0 < hex_distance(origin, h) <= rng for h in ringed)
            targets = sorted({a["target"] for a in q["actions"] if "target" in a} - {q["view"]["act"]["model"]})
            if targets:
                page.hover(f"#probe [data-testid=model-{targets[0]}]")
                # (attached, not "visible": a line along a row has no height, which Playwright calls hidden)
                page.wait_for_selector("#probe [data-testid=sight-line]", state="attached")
                assert "legal target" in page.text_content("#probe [data-testid=distance]")
        if q["view"].get("clash") and q["view"]["clash"]["att"]["total"] is not None:
            # The tray's total, line by line: the lines add up to the engine's total on each side.
            for side in ("att", "def"):
                sd = q["view"]["clash"][side]
                if sd is None:
                    continue
                rows = page.eval_on_selector_all(
                    f"#probe [data-testid=total-{side}] tr", "els => els.map(e => e.lastElementChild.textContent)"
                )
                numbers = [int(x.replace("−", "-")) for x in rows]
                assert numbers[-1] == sd["total"] and sum(numbers[:-1]) == sd["total"], (step, side, rows)
                checked_totals.add(side)
        if step in ("place_challenge", "place_terrain", "deploy"):
            target = page.locator("#probe polygon.wzd-choice").first
        else:
            target = page.locator("#probe [data-testid=controls] button.wzd-choice:visible").first
        target.click()
        sent = page.evaluate("window.__sent")
        assert len(sent) == 1 and sent[0] in q["actions"], step
        # Once sent, the choices give way until the position moves on: no double moves.
        page.wait_for_selector("#probe .wzd[data-turn-state=sent]")
        assert page.locator("#probe [data-testid=controls]").count() == 0
    assert checked_totals == {"att", "def"}
    assert errors == []


def hex_distance(a: str, b: str) -> int:
    (q1, r1), (q2, r2) = (map(int, a.split(",")), map(int, b.split(",")))
    return (abs(q1 - q2) + abs(r1 - r2) + abs(q1 + r1 - q2 - r2)) // 2


if __name__ == "__main__" and "--write" in sys.argv:
    text = SCRIPT.read_text(encoding="utf-8")
    blob = json.dumps(catalog(), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    SCRIPT.write_text(MARK.sub(lambda m: f"/*catalog*/{blob}/*end*/", text, count=1), encoding="utf-8")
    print(f"wrote {len(blob)} characters of catalog into {SCRIPT}")


def marker_positions():
    """Version 2's marker spells: the act window where Cinder Sigil may be cast at spaces, and the act
    window after it was cast at the first of them (its fire marker on the board)."""
    import random

    from engines import chance
    from engines.base import CHANCE
    from engines.wizarding_duels import scenario as sc

    s = sc.build(
        pack_id="original-v1",
        models=[(0, "cassius-vane", "2,2", {}), (1, "aldous-wren", "4,4", {})],
        spellbooks={0: ["cinder-sigil"]},
        pools={0: {"light": 2, "dark": 2}},
        active="0a",
    )
    before = {"view": sc.E.view(s, 0), "actions": sc.E.legal_actions(s, 0)}
    cast = next(a for a in before["actions"] if a.get("spell") == "cinder-sigil")
    s = sc.act(s, 0, cast)
    rng = random.Random(1)
    for _ in range(40):
        seats = sc.E.to_move(s)
        if seats == [CHANCE]:
            s = sc.E.apply(s, {"kind": "chance", "outcome": chance.draw(sc.E.chance(s), rng.randrange)})
            continue
        if s["queue"][0]["step"] in ("act", "activate"):
            break
        opts = sc.E.legal_actions(s, seats[0])
        s = sc.act(s, seats[0], opts[0] if s["queue"][0]["step"] == "empower" else opts[-1])
    assert s["markers"], "the sigil was not placed"
    return before, cast, {"view": sc.E.view(s, 0), "actions": sc.E.legal_actions(s, 0)}


@pytest.mark.browser
def test_a_spell_cast_at_a_space_is_a_lit_space_and_its_marker_is_drawn_on_the_board(page_as, live, off_loop):
    from matches.services import SeatSpec, match_create

    (alice,) = users("alice")
    match = off_loop(
        lambda: match_create(
            game="wizarding-duels", seats=[SeatSpec(user=alice), SeatSpec(bot="heuristic")], created_by=alice
        )
    )
    before, cast, after = marker_positions()
    page = page_as("alice")
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live}/matches/{match.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.evaluate("""() => { window.__match.socket.onclose = null; window.__match.socket.close();
        const box = document.createElement('div'); box.id = 'probe'; document.body.prepend(box); }""")
    render = """([view, actions, k]) => {
        window.__sent = [];
        window.MatchClient.api = async () => ({ actions });
        const ctx = { seat: 0, live: true, mode: 'server', act: async (a) => { window.__sent.push(a); },
                      match: { id: 'probe', head_seq: k, to_move: [0], seats: [], status: 'live' } };
        window.GameRenderers['wizarding-duels'].render(document.getElementById('probe'), view, ctx);
    }"""
    page.evaluate(render, [before["view"], before["actions"], 1])
    page.wait_for_selector("#probe .wzd[data-turn-state=mine] [data-testid=controls]")
    # The sigil's target spaces are lit; a click on one casts it there.
    spaces = {a["target"] for a in before["actions"] if a.get("spell") == "cinder-sigil"}
    lit = set(page.eval_on_selector_all("#probe polygon.wzd-choice", "els => els.map(e => e.dataset.hex)"))
    assert spaces <= lit
    assert (
        page.locator(
            f"#probe [data-testid^=choice-cast-]:has-text('Cast Cinder Sigil at space {cast['target']}')"
        ).count()
        == 1
    )
    page.click(f"#probe [data-testid='hex-{cast['target']}']")
    assert page.evaluate("window.__sent") == [cast]
    # After the cast, the fire marker sits on that space, in the caster's colour, and says what it is.
    page.evaluate(render, [after["view"], after["actions"], 2])
    marker = page.locator(f"#probe [data-testid='marker-{cast['target']}']")
    marker.wait_for(state="attached")
    assert "Fire (Cinder Sigil)" in marker.locator("title").text_content()
    assert errors == []
