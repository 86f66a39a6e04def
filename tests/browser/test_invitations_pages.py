"""Invitations in two browsers (issue 15, Deliver item 5): alice invites bob from the home page's
match form; bob sees the invitation on his home page and accepts; both land in the match."""

from __future__ import annotations

import re

import pytest

from matches.models import Match
from tests.browser.people import users

pytestmark = pytest.mark.browser


def invite_from_home(page, live, opponent):
    page.goto(f"{live}/")
    page.select_option("[data-testid=new-match] select[name=game]", "dueling-wizards")
    page.fill("[data-testid=new-match] input[name=opponent]", opponent)
    page.click("[data-testid=new-match] button[type=submit]")
    page.wait_for_selector("[data-testid=invitation-status]:has-text('pending')")


def test_alice_invites_bob_from_the_home_page_he_accepts_and_both_land_in_the_match(page_as, live):
    users("alice", "bob", "carol")
    alice = page_as("alice")
    invite_from_home(alice, live, "bob")
    assert "bob: pending" in alice.inner_text("[data-testid=invitees]").replace("\n", " ")
    assert Match.objects.count() == 0  # nothing is seated before bob says yes

    # Somebody else sees nothing of it.
    carol = page_as("carol")
    carol.goto(f"{live}/")
    carol.wait_for_selector("[data-testid=new-match]")
    assert carol.locator("[data-testid=invitations]").count() == 0

    bob = page_as("bob")
    bob.goto(f"{live}/")
    row = bob.locator("[data-testid=invitations-received] tr[data-inviter=alice]")
    assert "dueling-wizards" in row.inner_text()
    row.locator("[data-testid=accept]").click()
    bob.wait_for_selector("[data-testid=connection]:text('live')")
    match = Match.objects.get()
    assert bob.url == f"{live}/matches/{match.id}/"
    assert "bob (you)" in bob.inner_text(".players")
    # alice's waiting page takes her there by itself.
    alice.wait_for_url(f"{live}/matches/{match.id}/")
    alice.wait_for_selector("[data-testid=connection]:text('live')")
    assert "alice (you)" in alice.inner_text(".players")


def test_a_declined_invitation_tells_the_inviter_and_seats_nobody(page_as, live):
    users("alice", "bob")
    alice = page_as("alice")
    invite_from_home(alice, live, "bob")
    bob = page_as("bob")
    bob.goto(f"{live}/")
    bob.click("[data-testid=invitations-received] [data-testid=decline]")
    bob.wait_for_selector(".flash:has-text('You declined')")
    assert bob.locator("[data-testid=invitations]").count() == 0
    # alice's page shows the answer without her reloading it.
    alice.wait_for_selector("[data-testid=invitation-status]:has-text('declined')")
    assert Match.objects.count() == 0


def test_the_inviters_page_shows_each_answer_live_and_still_learns_of_one_while_its_socket_is_down(
    page_as, live, off_loop
):
    from matches.invitations import services
    from matches.services import SeatSpec

    ann, bob, carol = users("alice", "bob", "carol")
    invitation, _ = off_loop(
        services.match_open,
        game="dueling-wizards",
        seats=[SeatSpec(user=ann), SeatSpec(user=bob), SeatSpec(user=carol)],
        created_by=ann,
        mode="server",
    )
    alice = page_as("alice")
    # The page's socket goes through here, so the test can cut it and keep it cut.
    sockets, cut = [], []

    def through(socket):
        if cut:
            socket.close()
            return
        socket.connect_to_server()
        sockets.append(socket)

    alice.route_web_socket(re.compile(r"/ws/invitations/"), through)
    alice.goto(f"{live}/invitations/{invitation.id}/")
    alice.wait_for_selector("[data-testid=connection]:text('live')")

    # bob's answer is pushed to alice's page: it shows there with nobody reloading.
    off_loop(services.invitation_accept, invitation_id=invitation.id, user=bob)
    alice.wait_for_selector("[data-invitee=bob] .badge:text('accepted')")
    assert "carol: pending" in alice.inner_text("[data-testid=invitees]").replace("\n", " ")

    # The socket drops and cannot come back; carol's answer reaches the page all the same.
    cut.append(True)
    sockets[-1].close()
    alice.wait_for_selector("[data-testid=connection]:text('reconnecting')")
    off_loop(services.invitation_decline, invitation_id=invitation.id, user=carol)
    alice.wait_for_selector("[data-testid=invitation-status]:has-text('declined')")
    assert Match.objects.count() == 0
