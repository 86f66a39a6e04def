"""Dueling Wizards at a real table: each wizard enters their own private draws by clicking.

Engine version 2 deals and refills with private draws (RULES.md, The Deal and Refill). In a
tabletop match the people hold real cards; the page shows the drawer a picture of every
card they cannot already see and takes the cards they click ({"cards": [...]}); everyone
else is told whose input the match waits for. A seat cannot enter another seat's draw, and
a card that cannot have been drawn (it lies in another hand) is refused with nothing written.
"""

from __future__ import annotations

import pytest

from matches.models import Match
from matches.services import SeatSpec, match_create
from tests.browser.people import head_seq, users

pytestmark = pytest.mark.browser

# The whole duel, round by round: (defender's card, attacker's card, cards drawn after it,
# in drawing order: the next attacker first). Alice (seat 0) always attacks into bob's
# weakest suit for 20; bob's attacks are small, so bob falls in round 9.
ROUNDS = [
    ("L2", "RK", ["L5", "RJ"]),  # 1 alice attacks; bob then alice draw
    ("W2", "L3", ["W3", "P2"]),  # 2 bob attacks; alice then bob draw
    ("L4", "RQ", ["P3", "SK"]),
    ("W3", "L5", ["W4", "P4"]),
    ("P2", "SK", ["L6", "SQ"]),
    ("W4", "P3", ["W5", "P5"]),
    ("L6", "RJ", ["L7", "W6"]),
    ("W5", "L7", ["W7", "P6"]),
    ("P4", "SQ", []),  # 9: bob is knocked out, nobody draws
]
ALICE_DEAL, BOB_DEAL = ["RK", "RQ", "W2"], ["L2", "L3", "L4"]


def wait_moved_on(page, seq):
    page.wait_for_function("seq => document.querySelector('#match').dataset.headSeq !== seq", arg=seq)


def pick(page, cards):
    for card in cards:
        page.click(f"[data-testid=draw-cards] .dw-card[data-card='{card}']")


def enter_draw(page, cards, others):
    """The drawer clicks ``cards`` and records them; ``others`` see whose draw it is first."""
    page.wait_for_selector("[data-testid=draw-entry]")
    for other, name in others:
        other.wait_for_selector(f"[data-testid=draw-waiting]:has-text('Waiting for {name}')")
    pick(page, cards)
    page.wait_for_selector(f"[data-testid=draw-chosen]:has-text('Chosen {len(cards)} of {len(cards)}')")
    seq = head_seq(page)
    page.click("[data-testid=record-draw]")
    wait_moved_on(page, seq)


def click_card(page, card):
    seq = head_seq(page)
    page.click(f"[data-testid=my-hand] .dw-card.playable[data-card='{card}']")
    wait_moved_on(page, seq)


def test_two_people_play_a_tabletop_duel_entering_their_own_draws_by_clicking(page_as, live, off_loop):
    alice, bob = users("alice", "bob")
    match = off_loop(
        lambda: match_create(
            game="dueling-wizards",
            seats=[SeatSpec(user=alice), SeatSpec(user=bob)],
            created_by=alice,
            mode=Match.Mode.TABLETOP,
        )
    )
    url = f"{live}/matches/{match.id}/"
    alice_page, bob_page, watcher = page_as("alice"), page_as("bob"), page_as(None)
    for page in (alice_page, bob_page, watcher):
        page.goto(url)
        page.wait_for_selector("[data-testid=connection]:text('live')")

    # The Deal: alice draws first and sees all 70 cards; the others wait for her, and the
    # generic outcome form (typed numbers) is nowhere.
    alice_page.wait_for_selector("[data-testid=draw-entry]")
    assert alice_page.locator("[data-testid=draw-cards] .dw-card").count() == 70
    assert "three cards" in alice_page.inner_text("[data-testid=draw-prompt]")
    assert bob_page.locator("[data-testid=draw-entry]").count() == 0
    for page in (alice_page, bob_page, watcher):
        assert page.locator("[data-testid=chance-entry] textarea, [data-testid=chance-entry] input").count() == 0
    enter_draw(alice_page, ALICE_DEAL, [(bob_page, "alice"), (watcher, "alice")])

    # Bob names a card alice holds: it cannot have come from the pile, and nothing is written.
    bob_page.wait_for_selector("[data-testid=draw-entry]")
    before = Match.objects.get(pk=match.pk).state_seq
    pick(bob_page, ["RK", "L2", "L3"])
    bob_page.click("[data-testid=record-draw]")
    bob_page.wait_for_selector("[data-testid=error]:not([hidden])")
    assert "not in the pool" in bob_page.inner_text("[data-testid=error]")
    assert Match.objects.get(pk=match.pk).state_seq == before
    pick(bob_page, ["RK", "L4"])  # unpick the King, pick the 4 of Lizard instead
    seq = head_seq(bob_page)
    bob_page.click("[data-testid=record-draw]")
    wait_moved_on(bob_page, seq)

    # Each hand is its owner's alone; the log says who drew, never what.
    alice_page.wait_for_selector("[data-testid=prompt]:has-text('Waiting')")
    assert sorted(
        alice_page.locator("[data-testid=my-hand] .dw-card").evaluate_all("cs => cs.map(c => c.dataset.card)")
    ) == sorted(ALICE_DEAL)
    watcher.wait_for_selector("[data-testid=log] li:has-text('bob draws three spells.')")
    log = watcher.inner_text("[data-testid=log]")
    assert "alice draws three spells." in log and "alice attacks first" in log
    assert not any(name in log for name in ("King of Rock", "Lizard", "Queen"))
    assert watcher.locator("[data-card]").count() == 0

    seats = {0: (alice_page, "alice"), 1: (bob_page, "bob")}
    attacker = 0
    for number, (defence, attack, draws) in enumerate(ROUNDS, start=1):
        defender = 1 - attacker
        click_card(seats[defender][0], defence)
        seats[attacker][0].wait_for_selector(f"[data-testid=my-hand] .dw-card.playable[data-card='{attack}']")
        click_card(seats[attacker][0], attack)
        # The refill: the next attacker (the defender of this round) draws first.
        for drawer, card in zip((defender, attacker), draws):
            page, name = seats[drawer]
            other_page, _ = seats[1 - drawer]
            if number == 1 and drawer == 0:
                # Alice's picture leaves out her hand and the discard: 70 - 2 - 2 cards.
                page.wait_for_selector("[data-testid=draw-entry]")
                assert page.locator("[data-testid=draw-cards] .dw-card").count() == 66
                assert page.locator("[data-testid=draw-cards] [data-card='RK']").count() == 0
            enter_draw(page, [card], [(other_page, name), (watcher, name)])
        attacker = defender

    for page in (alice_page, bob_page, watcher):
        page.wait_for_selector("[data-testid=result]")
        assert "alice wins" in page.inner_text("[data-testid=result]")
    assert Match.objects.get(pk=match.pk).result["scores"] == [65.5, 0]
    log = watcher.inner_text("[data-testid=log]")
    assert log.count("draws one spell.") == 16
    alice_page.wait_for_selector("[data-testid=verdict].verified")


def test_a_spectator_and_the_other_seat_are_told_whose_draw_the_match_waits_for(page_as, live, off_loop):
    alice, bob, carol = users("alice", "bob", "carol")
    match = off_loop(
        lambda: match_create(
            game="dueling-wizards",
            seats=[SeatSpec(user=alice), SeatSpec(user=bob), SeatSpec(user=carol)],
            created_by=alice,
            mode=Match.Mode.TABLETOP,
        )
    )
    url = f"{live}/matches/{match.id}/"
    alice_page, carol_page = page_as("alice"), page_as("carol")
    for page in (alice_page, carol_page):
        page.goto(url)
        page.wait_for_selector("[data-testid=connection]:text('live')")
    carol_page.wait_for_selector("[data-testid=draw-waiting]:has-text('Waiting for alice to enter the three cards')")
    enter_draw(alice_page, ["WK", "WQ", "X1"], [(carol_page, "alice")])
    # Bob draws next: alice and carol both wait for bob; carol cannot enter it for him.
    for page in (alice_page, carol_page):
        page.wait_for_selector("[data-testid=draw-waiting]:has-text('Waiting for bob')")
        assert page.locator("[data-testid=draw-entry]").count() == 0
    before = Match.objects.get(pk=match.pk).state_seq
    refused = carol_page.evaluate(
        """async (id) => {
            const res = await fetch(`/api/matches/${id}/actions/`, {method: 'POST', credentials: 'same-origin',
              headers: {'Content-Type': 'application/json',
                        'X-CSRFToken': (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || ''},
              body: JSON.stringify({seat: 2, chance: {cards: ['RA', 'R2', 'R3']},
                                    expected_seq: Number(document.querySelector('#match').dataset.headSeq),
                                    event_id: crypto.randomUUID()})});
            return [res.status, (await res.json()).code];
        }""",
        str(match.id),
    )
    assert refused == [403, "outcome_not_yours"]
    assert Match.objects.get(pk=match.pk).state_seq == before
