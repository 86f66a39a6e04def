"""An entry the organiser made, in headless Chromium: the organiser's players list marks the player
as not confirmed (no emails), and says it in the organiser's panel once the event runs; no one else's page does. Every wait is on what the page shows."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.models import Tournament
from matches.commands import AT_HEAD

from .people import users

pytestmark = pytest.mark.browser


def cup_with_bob_entered_by_the_organiser():
    org, bob, ann, _ = users("org", "bob", "ann", "eve")
    t = services.tournament_create(created_by=org, name="Entry Cup", game="dueling-wizards", format="swiss")
    services.tournament_register(tournament=t, user=ann, expected_seq=AT_HEAD)
    services.tournament_register(tournament=t, user=bob, by=org, expected_seq=AT_HEAD)
    return t


def test_the_organiser_sees_who_has_not_confirmed_and_a_spectator_does_not(page_as, live, off_loop):
    t = off_loop(cup_with_bob_entered_by_the_organiser)
    desk = page_as("org")
    desk.goto(f"{live}/tournaments/{t.id}/")
    desk.wait_for_selector("[data-testid=unconfirmed-bob]:text-is('not confirmed: no emails')")
    assert desk.locator("[data-testid=unconfirmed-ann]").count() == 0

    spectators = [page_as(name) for name in ("eve", None)]
    for spectator in spectators:
        spectator.goto(f"{live}/tournaments/{t.id}/")
        spectator.wait_for_selector("[data-testid=player-state-bob]")
        assert spectator.locator("[data-testid^=unconfirmed]").count() == 0

    # Once the event runs the players list is gone: the organiser's panel says it instead.
    org = t.created_by
    off_loop(lambda: services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD))
    desk.wait_for_selector("[data-testid=unconfirmed]:text-is('Not confirmed, so no emails: bob')")
    for spectator in spectators:
        spectator.wait_for_selector("[data-testid=status]:has-text('Round')")
        assert spectator.locator("[data-testid^=unconfirmed]").count() == 0


def test_bob_confirms_the_entry_the_organiser_made_and_both_pages_show_it(page_as, live, off_loop):
    t = off_loop(cup_with_bob_entered_by_the_organiser)
    desk = page_as("org")
    desk.goto(f"{live}/tournaments/{t.id}/")
    desk.wait_for_selector("[data-testid=connection]:text('live')")
    desk.wait_for_selector("[data-testid=unconfirmed-bob]")

    bob = page_as("bob")
    bob.goto(f"{live}/tournaments/{t.id}/")
    bob.wait_for_selector("[data-testid=connection]:text('live')")
    bob.wait_for_selector("[data-testid=entered-by-organiser]:has-text('until you confirm')")
    head = int(bob.locator("#tournament").get_attribute("data-head-seq"))
    bob.click("[data-testid=confirm-entry]")

    # The answer is drawn: a newer head, the note and the button gone, bob still registered.
    bob.wait_for_selector(f"#tournament[data-head-seq='{head + 1}']")
    bob.wait_for_selector("[data-testid=confirm-entry]", state="detached")
    assert bob.locator("[data-testid=entered-by-organiser]").count() == 0
    assert bob.inner_text("[data-testid=my-status]") == "registered"
    assert bob.locator("[data-testid=error]").is_hidden()
    # The organiser's open page hears it over the socket: bob is no longer marked.
    desk.wait_for_selector("[data-testid=unconfirmed-bob]", state="detached")
    desk.wait_for_selector("[data-testid=player-state-bob]")
    bob_id = str(get_user_model().objects.get(username="bob").pk)
    assert Tournament.objects.get(pk=t.pk).state["players"][bob_id]["entry_confirmed"] is True
