"""An entry the organiser made, in headless Chromium: the organiser's players list marks the player
as not confirmed (no emails), and says it in the organiser's panel once the event runs; no one else's page does. Every wait is on what the page shows."""

from __future__ import annotations

import pytest

from league.tournaments import services
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
