"""Wizard Dodgeball in a real browser: the court, selecting and acting, dice, watching, replay (issue 3, item 8)."""

from __future__ import annotations

import re

import pytest

from matches.autoplay import autoplay_match
from matches.models import Match
from matches.services import SeatSpec, match_act, match_create
from tests.browser.people import head_seq, users

pytestmark = pytest.mark.browser

SHOTS = "/tmp"


def wait_live(page):
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.wait_for_selector("[data-testid=court]")


def wait_for_new_head(page, seq):
    page.wait_for_function("seq => document.querySelector('#match').dataset.headSeq !== seq", arg=seq)


def squares(page, selector):
    """The [col, row] squares of the court rects matching selector."""
    return {
        (int(c), int(r))
        for c, r in page.eval_on_selector_all(selector, "els => els.map(e => [e.dataset.col, e.dataset.row])")
    }


def against_the_bot(alice, **config):
    return match_create(
        game="wizard-dodgeball",
        seats=[SeatSpec(user=alice), SeatSpec(bot="heuristic")],
        created_by=alice,
        config=config,
    )


def click_furthest_forward(page):
    """A newcomer's plan: run the wizard as far towards the other side as it can go."""
    forward = page.eval_on_selector_all(
        "[data-testid=court] rect.wd-move",
        """els => {
          // a ball that can be picked up sits on top of its square and answers the click itself
          const covered = new Set([...document.querySelectorAll('.wd-ball.wd-opt')].map(b => b.dataset.square));
          const best = els.filter(e => !covered.has(e.dataset.col + ',' + e.dataset.row))
                    .map(e => [Number(e.dataset.row), -Number(e.dataset.col), e.dataset.testid])
                    .sort((a, b) => b[0] - a[0] || b[1] - a[1])[0];
          return best ? best[2] : null;
        }""",
    )
    if forward is not None:
        page.click(f"[data-testid={forward}]")
    elif page.locator(".wd-ball.wd-opt").count():
        # Every square the wizard can reach holds a ball it can pick up: run there and take it.
        page.locator(".wd-ball.wd-opt").first.click()
    else:
        # The court was redrawn between seeing the moves and reading them: end the turn instead.
        page.click("[data-testid=end-turn]")
        return
    if page.locator("[data-testid=choice-popover]").count():
        page.click("[data-testid=option-0]")  # just move; the popover also offers picking a ball up


def test_a_newcomer_starts_a_match_against_the_bot_and_plays_it_to_the_end(page_as, live):
    users("newcomer")
    page = page_as("newcomer")
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))  # a renderer crash would leave a stale board
    page.goto(f"{live}/")
    page.select_option("[data-testid=new-match] select[name=game]", "wizard-dodgeball")
    page.click("[data-testid=new-match] button[type=submit]")
    page.wait_for_url(re.compile(r"/matches/[0-9a-f-]+/$"))
    wait_live(page)
    assert "heuristic" in page.inner_text(".players")
    page.screenshot(path=f"{SHOTS}/wd-start.png", full_page=True)
    shot_taken = False
    # Only through the page: throw when a target is ringed, make a highlighted choice when asked,
    # else run forward, else end the turn. Weak play: the bot wins in a few dozen turns.
    for _ in range(300):
        page.wait_for_selector(".wd[data-turn-state=mine], .wd[data-turn-state=over]")
        if page.locator("[data-testid=result]").count():
            break
        seq = head_seq(page)
        if page.locator(".wd[data-armed=false]").count() and not page.locator(".wd-sq.wd-choice").count():
            active = page.eval_on_selector(".wd-wizard.wd-active", "e => e.dataset.testid")
            page.click(f"[data-testid={active}]")  # select the wizard whose turn it is
        if page.locator(".wd-wizard.wd-throw").count():
            if not shot_taken:
                page.screenshot(path=f"{SHOTS}/wd-throw-target.png", full_page=True)
                shot_taken = True
            page.locator(".wd-wizard.wd-throw").first.click()
        elif page.locator(".wd-sq.wd-choice").count():
            page.locator(".wd-sq.wd-choice").first.click()
        elif page.locator(".wd-wizard.wd-return").count():
            page.locator(".wd-wizard.wd-return").first.click()
            page.locator(".wd-sq.wd-choice").first.click()
        elif page.locator(".wd-sq.wd-move").count():
            click_furthest_forward(page)
        else:
            page.click("[data-testid=end-turn]")
        wait_for_new_head(page, seq)
    page.wait_for_selector("[data-testid=result]")
    page.screenshot(path=f"{SHOTS}/wd-finished.png", full_page=True)
    assert "Game over" in page.inner_text("[data-testid=result]")
    assert errors == []
    assert page.locator("[data-testid=controls]").count() == 0
    # The losing side's wizards sit on their bench, crossed out.
    assert page.locator(".wd-wizard.out").count() >= 5
    page.wait_for_selector("[data-testid=verdict].verified")
    page.click("#replay-link")
    page.wait_for_selector("[data-testid=court]")
    assert page.inner_text("[data-testid=verdict]").startswith("✔ Verified")


def test_the_court_shows_ten_wizards_five_balls_the_attack_lines_and_the_neutral_area(page_as, live, off_loop):
    (alice,) = users("alice")
    match = off_loop(against_the_bot, alice, first_player=0)
    page = page_as("alice")
    page.goto(f"{live}/matches/{match.id}/")
    wait_live(page)
    jerseys = page.eval_on_selector_all(
        "[data-testid=court] .wd-wizard", "els => els.map(e => e.querySelector('.wd-jersey').textContent)"
    )
    assert sorted(map(int, jerseys)) == [10, 12, 21, 25, 30, 36, 41, 45, 47, 58]
    assert page.locator("[data-testid=court] .wd-wizard.team-0").count() == 5
    assert page.locator("[data-testid=court] .wd-wizard.team-1").count() == 5
    # The five balls rest on the five stars of the Neutral Area, none active yet.
    for ball, col in zip(range(1, 6), (1, 3, 5, 7, 9)):
        assert page.locator(f"[data-testid=ball-{ball}]").get_attribute("data-active") == "false"
        assert page.locator(f"[data-testid=star-{col}-9]").count() == 1
    assert page.locator("[data-testid=court] .wd-ball.inactive").count() == 5
    assert page.locator("[data-testid=attack-line-0]").count() == 1
    assert page.locator("[data-testid=attack-line-1]").count() == 1
    assert page.locator("[data-testid=neutral-area]").count() == 1
    assert "Neutral Area" in page.text_content("[data-testid=court]")
    assert page.locator("[data-testid=court] rect.wd-sq").count() == 9 * 17
    # The panel: whose turn, the active wizard's card with its coloured dice, both spell lists.
    assert "#21 Hoary Burblepot" in page.inner_text("[data-testid=turn]")
    assert "2 actions left" in page.inner_text("[data-testid=turn]")
    card = page.inner_text("[data-testid=wizard-card]")
    assert "Hoary Burblepot" in card and "MOVE" in card and "ATTACK" in card and "RESIST" in card
    assert page.locator("[data-testid=wizard-card] .wd-die").count() == 8
    assert page.locator("[data-testid=spells-0] .wd-spell.charged").count() == 9
    assert page.locator("[data-testid=spells-1] .wd-spell.charged").count() == 8
    page.screenshot(path=f"{SHOTS}/wd-court.png", full_page=True)


def test_selecting_a_wizard_highlights_exactly_its_legal_moves(page_as, live, off_loop):
    (alice,) = users("alice")
    match = off_loop(against_the_bot, alice, first_player=0)
    page = page_as("alice")
    page.goto(f"{live}/matches/{match.id}/")
    wait_live(page)
    legal = page.request.get(f"{live}/api/matches/{match.id}/legal/").json()["actions"]
    moves = {tuple(a["to"]) for a in legal if a["type"] == "move"}
    assert moves
    # Looking at an opponent shows its card and no moves; clicking the wizard to act selects it.
    page.click("[data-testid=wizard-45]")
    assert "Miguel Dasherdodge" in page.inner_text("[data-testid=wizard-card]")
    assert page.locator(".wd-sq.wd-move").count() == 0
    page.click("[data-testid=wizard-21]")
    assert squares(page, ".wd-sq.wd-move") == moves
    page.screenshot(path=f"{SHOTS}/wd-selected.png", full_page=True)
    # Moving there takes one action; the page redraws from the server's answer.
    seq = head_seq(page)
    page.click("[data-testid=square-1-5]")
    wait_for_new_head(page, seq)
    page.wait_for_selector("[data-testid=wizard-21][data-square='1,5']")
    assert "1 action left" in page.inner_text("[data-testid=turn]")
    legal = page.request.get(f"{live}/api/matches/{match.id}/legal/").json()["actions"]
    assert squares(page, ".wd-sq.wd-move") == {tuple(a["to"]) for a in legal if a["type"] == "move"}


def test_casting_highlights_the_eligible_targets_and_casts_the_chosen_ones(page_as, live, off_loop):
    from engines.wizard_dodgeball.engine import DEFAULT_TEAMS

    (alice,) = users("alice")
    # The second team stands shoulder to shoulder, so one Freeze can cover two of them.
    teams = [dict(DEFAULT_TEAMS[0]), dict(DEFAULT_TEAMS[1], start=[[c, 16] for c in range(1, 6)])]
    match = off_loop(against_the_bot, alice, first_player=0, teams=teams)
    page = page_as("alice")
    page.goto(f"{live}/matches/{match.id}/")
    wait_live(page)
    legal = page.request.get(f"{live}/api/matches/{match.id}/legal/").json()["actions"]
    freezes = [a for a in legal if a["type"] == "cast" and a["spell"] == "freeze"]
    eligible = {t["wizard"] for a in freezes for t in a["targets"]}
    pair = next(a for a in freezes if len(a["targets"]) == 2)
    first, second = (t["wizard"] for t in pair["targets"])
    page.click("[data-testid=cast-freeze]")
    ringed = page.eval_on_selector_all(
        ".wd-wizard.wd-cast-target", "els => els.map(e => Number(e.dataset.testid.slice(7)))"
    )
    assert set(ringed) == eligible
    assert page.locator("[data-testid=cast-confirm]").is_disabled()
    # One target is already a legal cast, but more may be added: the page waits for Cast.
    page.click(f"[data-testid=wizard-{first}]")
    assert page.locator("[data-testid=cast-confirm]").is_enabled()
    page.click(f"[data-testid=wizard-{second}]")
    assert page.locator(".wd-wizard.wd-cast-chosen").count() == 2
    page.screenshot(path=f"{SHOTS}/wd-cast.png", full_page=True)
    seq = head_seq(page)
    page.click("[data-testid=cast-confirm]")
    wait_for_new_head(page, seq)
    page.wait_for_selector("[data-testid=roll-verdict]")
    assert re.match(r"Cast \d+ vs resist \d+: ", page.inner_text("[data-testid=roll-verdict]"))
    assert page.locator("[data-testid=roll-verdict]").count() >= 2  # one resist roll per target
    assert "⟳" in page.inner_text("[data-testid=spell-0-freeze]")  # the card now recharges


def script_to_a_throw(alice, bob, match):
    """#21 fetches ball 1, everyone else waits, and #21 carries it back behind its attack line."""
    who = {0: alice, 1: bob}

    def act(action):
        m = Match.objects.get(pk=match.pk)
        seat = m.state["turn"]["seat"]
        match_act(match_id=m.id, user=who[seat], seat=seat, action=action, expected_seq=m.state_seq)

    act({"type": "move", "to": [1, 6]})
    act({"type": "move", "to": [2, 6], "pick_up": 1})
    act({"type": "end_turn"})
    while Match.objects.get(pk=match.pk).state["turn"]["wizard"] != 21:
        act({"type": "end_turn"})
    act({"type": "move", "to": [2, 4]})


def test_a_throw_shows_the_coloured_dice_and_the_totals_compared(page_as, live, off_loop):
    alice, bob = users("alice", "bob")
    match = off_loop(
        match_create,
        game="wizard-dodgeball",
        seats=[SeatSpec(user=alice), SeatSpec(user=bob)],
        created_by=alice,
        mode=Match.Mode.TABLETOP,
        config={"first_player": 0},
    )
    off_loop(script_to_a_throw, alice, bob, match)
    page = page_as("alice")
    page.goto(f"{live}/matches/{match.id}/")
    wait_live(page)
    assert page.locator("[data-testid=ball-1]").get_attribute("data-active") == "true"
    # Ringed targets: the five opponents in sight; #21's teammates can be passed to.
    assert page.locator(".wd-wizard.wd-throw").count() == 5
    page.click("[data-testid=wizard-45]")
    # At the table: #21's right ATTACK die (3 zones: blue) shows 6 ...
    page.wait_for_selector("[data-testid=chance-entry]:not([hidden]) [data-testid=die-0]")
    assert "blue" in page.inner_text("[data-testid=prompt]")
    # Nothing recorded until a face is clicked; then the face clicked is the roll.
    page.click("[data-testid=chance-entry] button[type=submit]")
    page.wait_for_selector("[data-testid=error]:has-text('Click the face that came up')")
    # A blue die's faces run 2-7 (GAME-FACTS: white 0-5, grey 1-6, blue 2-7, red 3-8).
    assert page.locator("[data-testid=die-0] .die-face").all_inner_texts() == ["2", "3", "4", "5", "6", "7"]
    page.click("[data-testid=die-0-6]")
    seq = head_seq(page)
    page.click("[data-testid=chance-entry] button[type=submit]")
    wait_for_new_head(page, seq)
    # ... and #45 rolls a 3 and a 4 to dodge: 7 beats 6.
    page.wait_for_selector("[data-testid=chance-entry]:not([hidden]) [data-testid=die-1]")
    page.click("[data-testid=die-0-3]")
    page.click("[data-testid=die-1-4]")
    seq = head_seq(page)
    page.click("[data-testid=chance-entry] button[type=submit]")
    wait_for_new_head(page, seq)
    page.wait_for_selector("[data-testid=roll-verdict]")
    assert page.inner_text("[data-testid=roll-verdict]") == "Attack 6 vs dodge 7: dodged"
    dice = page.eval_on_selector_all(
        "[data-testid=last-roll] .wd-die", "els => els.map(e => [e.dataset.colour, e.textContent])"
    )
    assert dice == [["blue", "6"], ["blue", "3"], ["red", "4"]]  # Dasherdodge dodges blue + red
    colours = page.eval_on_selector_all(
        "[data-testid=last-roll] .wd-die", "els => els.map(e => getComputedStyle(e).backgroundColor)"
    )
    assert colours[1] != colours[2]  # a blue die does not look like a red one
    page.screenshot(path=f"{SHOTS}/wd-dice.png", full_page=True)

    # Bob steps #45 aside: the legal squares are highlighted on his page, the ball lands where he stood.
    bob_page = page_as("bob")
    bob_page.goto(f"{live}/matches/{match.id}/")
    wait_live(bob_page)
    assert "step aside" in bob_page.inner_text("[data-testid=prompt]")
    legal = bob_page.request.get(f"{live}/api/matches/{match.id}/legal/").json()["actions"]
    assert squares(bob_page, ".wd-sq.wd-choice") == {tuple(a["to"]) for a in legal if a["type"] == "dodge_to"}
    bob_page.screenshot(path=f"{SHOTS}/wd-dodge-choice.png", full_page=True)
    seq = head_seq(bob_page)
    bob_page.locator(".wd-sq.wd-choice").first.click()
    wait_for_new_head(bob_page, seq)
    page.wait_for_selector("[data-testid=ball-1][data-active=true]")
    assert page.locator("[data-testid=wizard-45]").get_attribute("data-square") != "1,16"


def test_a_spectator_sees_the_same_board_and_no_controls(page_as, live, off_loop):
    (alice,) = users("alice")
    match = off_loop(against_the_bot, alice, first_player=0)
    player, watcher = page_as("alice"), page_as(None)
    for page in (player, watcher):
        page.goto(f"{live}/matches/{match.id}/")
        wait_live(page)
    assert "spectator" in watcher.inner_text("[data-testid=spectating]")
    placing = "els => els.map(e => e.dataset.testid + '@' + e.dataset.square).sort()"
    assert watcher.eval_on_selector_all(".wd-wizard", placing) == player.eval_on_selector_all(".wd-wizard", placing)
    assert watcher.locator("[data-testid=court] .wd-ball").count() == 5
    assert watcher.locator("[data-testid=controls]").count() == 0
    assert watcher.locator("[data-testid=end-turn]").count() == 0
    watcher.click("[data-testid=wizard-21]")  # looking is allowed, acting is not
    assert watcher.locator(".wd-opt").count() == 0
    assert "Hoary Burblepot" in watcher.inner_text("[data-testid=wizard-card]")
    # The player's move reaches the spectator live.
    seq = head_seq(player)
    player.click("[data-testid=square-1-5]")
    wait_for_new_head(player, seq)
    watcher.wait_for_selector("[data-testid=wizard-21][data-square='1,5']")
    watcher.screenshot(path=f"{SHOTS}/wd-spectator.png", full_page=True)


def test_the_replay_page_draws_the_court_at_any_step(page_as, live, off_loop):
    match = off_loop(autoplay_match, game="wizard-dodgeball", seats=2, bot="heuristic")
    page = page_as(None)
    page.goto(f"{live}/matches/{match.id}/replay/")
    page.wait_for_selector("[data-testid=result]")
    assert page.inner_text("[data-testid=verdict]").startswith("✔ Verified")
    assert page.locator("[data-testid=controls]").count() == 0
    assert page.locator(".wd-wizard.out").count() >= 5
    page.click("[data-step=first]")
    page.wait_for_selector("[data-testid=at]:text-is('0')")
    page.wait_for_selector(".wd[data-turn-state=replay]")
    assert page.locator("[data-testid=court] .wd-wizard.out").count() == 0
    assert page.locator("[data-testid=court] .wd-ball").count() == 5
    middle = match.state_seq // 2
    page.evaluate(
        "n => { const s = document.querySelector('#scrubber'); s.value = n; s.dispatchEvent(new Event('input')); }",
        middle,
    )
    page.wait_for_selector(f"[data-testid=at]:text-is('{middle}')")
    assert page.locator("[data-testid=court] .wd-wizard").count() == 10
    # Between a throw and its dodge roll the ball is in the air, drawn nowhere.
    assert page.locator("[data-testid=court] .wd-ball").count() in (4, 5)
    assert page.locator(".wd-opt").count() == 0
    page.screenshot(path=f"{SHOTS}/wd-replay.png", full_page=True)
