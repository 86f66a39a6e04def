"""Dueling Wizards in a real browser: play, watch live, replay and audit (issue 2, item 7)."""

from __future__ import annotations

import re

import pytest

from matches.autoplay import autoplay_match
from matches.models import Match
from matches.services import SeatSpec, match_create
from tests.browser.people import users

pytestmark = pytest.mark.browser


def wait_live(page):
    page.wait_for_selector("[data-testid=connection]:text('live')")


def test_a_player_starts_a_match_against_the_bot_and_plays_it_to_the_end(page_as, live):
    users("alice")
    page = page_as("alice")
    page.goto(f"{live}/")
    page.select_option("[data-testid=new-match] select[name=game]", "dueling-wizards")
    page.click("[data-testid=new-match] button[type=submit]")
    page.wait_for_url(re.compile(r"/matches/[0-9a-f-]+/$"))
    wait_live(page)
    assert "heuristic bot" in page.inner_text(".players")  # "play the bot" means the strongest
    for _ in range(200):
        if page.locator("[data-testid=result]").count():
            break
        page.wait_for_selector(".dw-card.playable, [data-testid=result]")
        if page.locator("[data-testid=result]").count():
            break
        seq = page.locator("#match").get_attribute("data-head-seq")
        page.locator(".dw-card.playable").first.click()
        page.wait_for_function("seq => document.querySelector('#match').dataset.headSeq !== seq", arg=seq)
    assert "Game over" in page.inner_text("[data-testid=result]")
    # Opponents' health and each round's damage are on the board and in the log.
    assert re.search(r"\d+(\.5)? HP", page.inner_text("[data-testid=player-1]"))
    assert page.locator("[data-testid=last-round]").count() == 1
    assert "takes" in page.inner_text("[data-testid=log]")
    page.wait_for_selector("[data-testid=verdict].verified")
    page.click("#replay-link")
    page.wait_for_selector("[data-testid=verdict]")
    assert page.inner_text("[data-testid=verdict]").startswith("✔ Verified")


def duel(alice, bob):
    return match_create(game="dueling-wizards", seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)


def test_two_players_see_each_others_moves_live_and_never_the_hidden_defence(page_as, live, off_loop):
    alice, bob = users("alice", "bob")
    match = off_loop(duel, alice, bob)
    url = f"{live}/matches/{match.id}/"
    alice_page, bob_page, watcher = page_as("alice"), page_as("bob"), page_as(None)
    for page in (alice_page, bob_page, watcher):
        page.goto(url)
        wait_live(page)
    assert "spectator" in watcher.inner_text("[data-testid=spectating]")
    assert "Choose your defence" in bob_page.inner_text("[data-testid=prompt]")
    assert "Waiting" in alice_page.inner_text("[data-testid=prompt]")

    defence = bob_page.locator(".dw-card.playable").first.get_attribute("data-card")
    bob_page.locator(f".dw-card.playable[data-card='{defence}']").click()
    # Without a reload, alice and the spectator learn that bob chose, not what.
    alice_page.wait_for_selector("[data-testid=player-1] :text('Defence chosen')")
    watcher.wait_for_selector("[data-testid=player-1] :text('Defence chosen')")
    assert alice_page.locator(f"[data-card='{defence}']").count() == 0
    assert watcher.locator(f"[data-card='{defence}']").count() == 0
    # Bob's own frame comes on his seat's group, not the spectators': wait for it, do not assume it came first.
    bob_page.wait_for_selector(f"[data-testid=my-defence] [data-card='{defence}']")
    assert bob_page.locator(f"[data-testid=my-defence] [data-card='{defence}']").count() == 1

    attack = alice_page.locator(".dw-card.playable").first.get_attribute("data-card")
    alice_page.locator(f".dw-card.playable[data-card='{attack}']").click()
    for page in (alice_page, bob_page, watcher):
        page.wait_for_selector("[data-testid=last-round]")
        row = page.inner_text("[data-testid=damage-1]")
        assert "bob" in row
    assert watcher.locator(f"[data-testid=last-round] [data-card='{defence}']").count() == 1
    assert "bob" in alice_page.inner_text("[data-testid=log]")


def test_an_illegal_click_shows_a_readable_error_and_changes_nothing(page_as, live, off_loop):
    alice, bob = users("alice", "bob")
    match = off_loop(duel, alice, bob)
    page = page_as("bob")
    page.goto(f"{live}/matches/{match.id}/")
    wait_live(page)
    before = Match.objects.get(pk=match.pk).state_seq
    # A stale page: the client still believes the stream is one event behind.
    page.evaluate("document.querySelector('#match').dataset.headSeq = '0'")
    page.evaluate("window.__match.ctx.act({type: 'defend', card: 'ZZ'})")
    page.wait_for_selector("[data-testid=error]:not([hidden])")
    assert page.inner_text("[data-testid=error]")
    assert Match.objects.get(pk=match.pk).state_seq == before


def test_the_replay_page_steps_through_events_and_shows_a_dispute(page_as, live, off_loop):
    from django.db import connection

    match = off_loop(autoplay_match, game="dueling-wizards", seats=2)
    page = page_as(None)
    page.goto(f"{live}/matches/{match.id}/replay/")
    page.wait_for_selector("[data-testid=player-0]")
    assert page.inner_text("[data-testid=verdict]").startswith("✔ Verified")
    head = match.state_seq
    assert page.inner_text("[data-testid=at]") == str(head)
    page.click("[data-step=first]")
    page.wait_for_selector("[data-testid=at]:text-is('0')")
    page.click("[data-step=next]")
    page.click("[data-step=next]")
    page.wait_for_selector("[data-testid=at]:text-is('2')")
    # The step counter moves at once; the board and the event box follow when event 2's view arrives.
    page.wait_for_selector("[data-testid=event]:has-text('#2 chance')")
    # Event 2 is seat 0's private draw of three: the auditor of a finished match sees that hand.
    page.wait_for_selector("[data-testid=player-0] .dw-card[data-card]")
    assert page.locator("[data-testid=player-0] .dw-card[data-card]").count() == 3

    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
        cursor.execute(
            "UPDATE matches_event SET data = jsonb_set(data, '{seat}', to_jsonb(1 - (data->>'seat')::int)) "
            "WHERE stream_id = %s AND seq = 5",
            [match.stream_id],
        )
        cursor.execute("SET session_replication_role = origin")
    from matches.verification import match_verify

    off_loop(match_verify, match_id=match.id)
    page.reload()
    page.wait_for_selector("[data-testid=verdict]")
    assert "Disputed at event 5" in page.inner_text("[data-testid=verdict]")
