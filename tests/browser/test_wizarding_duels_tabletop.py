"""Wizarding Duels at a real table (issue 13, item 6): the people toss a real coin and draw real cards,
and the page takes the coin by its face and the cards by their names, clicked in the order drawn; a
private draw is entered only by the player who drew it, the other page says whom it waits for."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model


def first_legal(match_id, user, seat):
    """The other person at the table answers through the service, with the engine's first legal action."""
    from engines import registry
    from matches.models import Match, Stream
    from matches.services import match_act

    match = Match.objects.get(pk=match_id)
    engine = registry.get(match.game, match.engine_version)
    action = engine.legal_actions(match.state, seat)[0]
    match_act(
        match_id=match_id,
        user=user,
        seat=seat,
        action=action,
        expected_seq=Stream.objects.get(pk=match.stream_id).head_seq,
    )


def state_of(match_id):
    from matches.models import Match

    return Match.objects.get(pk=match_id).state


def step_is(page, step):
    page.wait_for_selector(f".wzd[data-step={step}]", timeout=20_000)


@pytest.mark.browser
def test_at_a_table_the_coin_is_entered_by_its_face_and_cards_by_their_names(page_as, live, off_loop):
    from matches.services import SeatSpec, match_create

    User = get_user_model()
    alice, bob = (User.objects.create_user(n, password=f"pw-{n}") for n in ("alice", "bob"))
    match = off_loop(
        lambda: match_create(
            game="wizarding-duels", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice, mode="tabletop"
        )
    )
    mid = str(match.id)
    for _step in ("group", "stock"):
        for seat, user in ((0, alice), (1, bob)):
            off_loop(first_legal, mid, user, seat)
    page = page_as("alice")
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{live}/matches/{mid}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")

    # The coin, by its face: heads gives the first seat the toss (the page says so before the toss).
    page.wait_for_selector("[data-testid=coin-entry]")
    assert "Heads: alice" in page.inner_text("[data-testid=coin-entry]")
    # The generic form of match.js stays away: this page enters the coin itself.
    assert page.locator("#chance-entry").is_hidden()
    page.click("[data-testid=coin-heads]")
    page.wait_for_selector("[data-testid=coin]:has-text('Coin toss: alice won')")
    assert off_loop(state_of, mid)["coin_winner"] == 0

    # The map and the joining, then the six Challenge overlays and the two Terrain overlays, in turn.
    step_is(page, "choose_map")
    page.locator("[data-testid=controls] button.wzd-choice").first.click()
    page.wait_for_function("() => document.querySelector('.wzd').dataset.turnState === 'waiting'")
    off_loop(first_legal, mid, bob, 1)
    for i in range(6):
        if i % 2 == 0:
            page.wait_for_selector(".wzd[data-step=place_challenge][data-turn-state=mine] polygon.wzd-choice")
            seq = page.locator("#match").get_attribute("data-head-seq")
            page.locator("polygon.wzd-choice").first.click()
            page.wait_for_function("seq => document.querySelector('#match').dataset.headSeq !== seq", arg=seq)
        else:
            off_loop(first_legal, mid, bob, 1)
    page.wait_for_selector(".wzd[data-step=place_terrain][data-turn-state=mine] polygon.wzd-choice")
    page.locator("polygon.wzd-choice").first.click()
    page.wait_for_function("() => document.querySelector('.wzd').dataset.turnState === 'waiting'")
    off_loop(first_legal, mid, bob, 1)

    # The challenge identities: a public draw, entered by name in the overlays' order.
    page.wait_for_selector("[data-testid=draw-entry]:has-text('Challenge overlays')")
    kinds = ["ring", "sword", "cup", "book", "orb", "egg"]
    for kind in kinds:
        page.click(f"[data-testid=draw-{kind}]")
    page.click("[data-testid=record-draw]")
    page.wait_for_selector("[data-testid=draw-entry]:has-text('quests you drew')")
    overlays = [o for o in off_loop(state_of, mid)["overlays"] if o["kind"] == "challenge"]
    assert [o["what"] for o in overlays] == kinds and all(o["face_up"] for o in overlays)

    # Alice's quests: a private draw, offered as the quests her deck holds; she clicks the three she drew.
    deck = off_loop(state_of, mid)["players"][0]["quest_deck"]
    offered = page.eval_on_selector_all(
        "[data-testid=draw-names] button", "els => els.map(e => e.dataset.testid.slice(5))"
    )
    assert sorted(offered) == sorted(set(deck))
    drawn = offered[:3]
    for q in drawn:
        page.click(f"[data-testid=draw-{q}]")
    assert page.locator("[data-testid=record-draw]").is_enabled()
    page.click("[data-testid=record-draw]")
    # Bob's draw is his to enter: Alice's page says whom the table waits for and offers nothing.
    page.wait_for_selector("[data-testid=entry-waiting]:has-text('Waiting for bob')")
    assert page.locator("[data-testid=draw-entry]").count() == 0
    assert sorted(off_loop(state_of, mid)["players"][0]["qhand"]) == sorted(drawn)
    assert errors == []
