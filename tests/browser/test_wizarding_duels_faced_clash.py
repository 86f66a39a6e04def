"""Two people in two browsers play a Wizarding Duels Faced Clash that uses an empowerment and a swap, and
neither page ever shows the other's clash hand, face-down swap or the Empowerment cards: not in the DOM,
not in any websocket frame (issue 13, item 7). Screenshots of the board and the clash tray at 1280 and
390 wide, with nothing spilling sideways.

The game is played at a real table (tabletop mode) so that the test knows every card: the engine plays
itself once with seeded draws to find a Faced Clash whose players empower and swap; the match is brought
to that clash through the services, then the two players answer every question of it by clicking, and
the draws are entered as the table would.
"""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth import get_user_model

SHOTS = "/tmp"


def find_faced_clash(state0, engine, seeds=range(40)):
    """Events from ``state0`` to a Faced Clash (a combat spell) where the defender or the attacker
    empowers and a seat swaps: (events before its first empower window, the events of the clash up to
    its last swap). Bots answer everything else; in such a clash the policy empowers and swaps."""
    from engines import chance
    from engines.base import CHANCE

    for seed in seeds:
        rng = random.Random(seed)
        state = state0
        events = []
        start = None
        flags = set()
        for _ in range(6000):
            seats = engine.to_move(state)
            if not seats:
                break
            c = state.get("clash")
            in_faced_spell = bool(c and c["faced"] and c["what"] == "spell")
            if start is not None and not in_faced_spell:
                start, flags = None, set()  # that clash ended without both: look further
            if seats == [CHANCE]:
                spec = engine.chance(state)
                outcome = chance.draw(spec, rng.randrange)
                vis = spec.get("visible_to", "all")
                events.append(("chance", vis[0] if isinstance(vis, list) else 0, outcome))
                state = engine.apply(state, {"kind": "chance", "outcome": outcome})
                continue
            seat = seats[0]
            step = state["queue"][0]["step"]
            legal = engine.legal_actions(state, seat)
            action = None
            if in_faced_spell and step == "empower":
                action = next((a for a in legal if a["type"] == "empower"), None)
                if action is not None:
                    if start is None:
                        start = len(events)
                    flags.add("empower")
            if in_faced_spell and step == "swap" and start is not None:
                action = next((a for a in legal if a["type"] == "swap"), None)
            if action is None:
                action = engine.bot_action("heuristic", state, seat, rng)
            events.append(("action", seat, action))
            state = engine.apply(state, {"kind": "action", "seat": seat, "action": action})
            if action["type"] == "swap" and start is not None:
                # Wanted: a swap that stays face down while the other side still answers.
                side = state["clash"][state_side(state, seat)] if state.get("clash") else None
                if side and side["swap"] and not side["swap_up"]:
                    flags.add("swap")
            if flags == {"empower", "swap"}:
                return events[:start], events[start:]
    raise AssertionError("no seeded game had a Faced Clash with an empowerment and a swap")


def state_side(state, seat):
    return "att" if state["clash"]["att"]["seat"] == seat else "def"


def play_through_services(match_id, events, users):
    from matches.models import Match, Stream
    from matches.services import match_act, match_record_chance

    match = Match.objects.get(pk=match_id)
    for kind, seat, payload in events:
        seq = Stream.objects.get(pk=match.stream_id).head_seq
        if kind == "action":
            match_act(match_id=match_id, user=users[seat], seat=seat, action=payload, expected_seq=seq)
        else:
            match_record_chance(match_id=match_id, user=users[seat], seat=seat, outcome=payload, expected_seq=seq)


def stored_state(match_id):
    from matches.models import Match

    return Match.objects.get(pk=match_id).state


def stored_state_and_seq(match_id):
    from matches.models import Match

    m = Match.objects.get(pk=match_id)
    return m.state, m.state_seq


def hidden_from(page, state, seat):
    """What ``seat``'s page must not show of the other seat: its hand cards, its face-down swap and any
    Empowerment card not yet drawn. Checked in the DOM (no data-card of theirs anywhere)."""
    other = 1 - seat
    secret = set(state["players"][other]["hand"])
    c = state.get("clash")
    if c:
        for name in ("att", "def"):
            sd = c.get(name)
            if sd:
                # A swapped card is face down until FC-7 turns it up as the kept card.
                if sd["swap"] and not sd["swap_up"] and sd["kept"] != sd["swap"] and sd["seat"] == other:
                    secret.add(sd["swap"])
                secret.update(sd.get("emp_fixed") or [])
                if sd["seat"] == other:
                    secret.update(x for x in (sd.get("emp_known") or []) if isinstance(x, str))
    shown = set(page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))
    assert not (shown & secret), (seat, shown & secret)
    panel = page.locator(f"[data-testid=panel-{other}]")
    assert panel.locator(".wzd-hand-card").count() == 0
    return secret


def check_frames(frames, seat):
    """No websocket frame a seat received carried the other's hand, face-down swap or Empowerment cards."""
    other = 1 - seat
    updates = [f for f in map(json.loads, frames) if f.get("type") == "update"]
    assert updates
    for f in updates:
        view = f["view"]
        theirs = view["players"][other]
        assert type(theirs["hand"]) is int and type(theirs["qhand"]) is int and type(theirs["known_top"]) is int
        c = view.get("clash")
        if c:
            for name in ("att", "def"):
                sd = c.get(name)
                if not sd:
                    continue
                assert type(sd["emp_fixed"]) is int
                if sd["seat"] == other:
                    if sd["swap"] is not None and not sd["swap_up"]:
                        assert sd["swap"] == "face-down"
                    assert type(sd.get("emp_known", 0)) is int
        for e in f["events"]:
            data = e["data"]
            if e["type"] == "action" and data.get("seat") == other and data["action"]["type"] == "swap":
                assert data["action"]["card"] is None
    return len(updates)


def click_action(page, action):
    """Click the button (or lit space) whose action is exactly ``action``, once the page offers it."""
    page.wait_for_selector(".wzd[data-turn-state=mine] [data-testid=controls]", timeout=20_000)
    seq = page.locator("#match").get_attribute("data-head-seq")
    index = page.evaluate(
        """(want) => {
        const same = (a, b) => JSON.stringify(a, Object.keys(a).sort()) === JSON.stringify(b, Object.keys(b).sort());
        const els = [...document.querySelectorAll('[data-testid=controls] button.wzd-choice[data-action]')];
        return els.findIndex((e) => same(JSON.parse(e.dataset.action), want));
    }""",
        action,
    )
    assert index >= 0, action
    page.locator("[data-testid=controls] button.wzd-choice[data-action]").nth(index).click()
    page.wait_for_function("seq => document.querySelector('#match').dataset.headSeq !== seq", arg=seq)


@pytest.mark.browser
def test_two_people_play_a_faced_clash_with_an_empowerment_and_a_swap_and_neither_sees_the_others_cards(
    page_as, live, off_loop
):
    from engines import registry
    from matches.services import SeatSpec, match_create

    User = get_user_model()
    alice, bob = (User.objects.create_user(n, password=f"pw-{n}") for n in ("alice", "bob"))
    users = {0: alice, 1: bob}
    match = off_loop(
        lambda: match_create(
            game="wizarding-duels", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice, mode="tabletop"
        )
    )
    mid = str(match.id)
    engine = registry.get(match.game, match.engine_version)
    before, clash = find_faced_clash(off_loop(stored_state, mid), engine)
    off_loop(play_through_services, mid, before, users)

    pages, frames, errors = {}, {0: [], 1: []}, []
    for seat, name in ((0, "alice"), (1, "bob")):
        page = page_as(name)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("websocket", lambda ws, s=seat: ws.on("framereceived", lambda payload: frames[s].append(payload)))
        page.goto(f"{live}/matches/{mid}/")
        page.wait_for_selector("[data-testid=connection]:text('live')")
        pages[seat] = page

    used = set()
    shot = False
    for kind, seat, payload in clash:
        if kind == "chance":
            # The table draws the cards; whoever may see them enters them (here through the service).
            off_loop(play_through_services, mid, [(kind, seat, payload)], users)
            continue
        used.add(payload["type"])
        click_action(pages[seat], payload)
        state, seq = off_loop(stored_state_and_seq, mid)
        for s in (0, 1):
            pages[s].wait_for_function(
                "seq => Number(document.querySelector('#match').dataset.headSeq) >= seq", arg=seq
            )
            hidden_from(pages[s], state, s)
        swapped = [
            sd for sd in (state["clash"]["att"], state["clash"]["def"]) if sd and sd["seat"] == seat and sd["swap"]
        ]
        if payload["type"] == "swap" and not swapped[0]["swap_up"]:
            # The swapper's opponent sees a face-down card in the tray, never which.
            other = pages[1 - seat]
            other.wait_for_selector("[data-testid=clash-tray] .wzd-back")
            if not shot:
                shot = True
                for s, page in pages.items():
                    assert page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
                    page.screenshot(path=f"{SHOTS}/wzd-clash-seat{s}-1280.png", full_page=True)
                page = pages[0]
                page.set_viewport_size({"width": 390, "height": 844})
                page.wait_for_function("() => document.scrollingElement.scrollWidth <= window.innerWidth")
                page.screenshot(path=f"{SHOTS}/wzd-clash-seat0-390.png", full_page=True)
                page.set_viewport_size({"width": 1280, "height": 900})
    assert {"empower", "swap"} <= used
    assert shot
    # Both Empowerment card placeholders are face down for everyone until drawn.
    for s in (0, 1):
        assert check_frames(frames[s], s) > 3
    assert errors == []
