"""The organiser's desk in headless Chromium (issue 16): on a tournament with check-in,
the organiser checks a player in from the players list, undoes it, checks them in again,
and the player's own open page shows it without a reload."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.models import Tournament
from matches.commands import AT_HEAD

pytestmark = pytest.mark.browser


def test_the_organiser_checks_a_player_in_at_the_desk_and_can_undo_it(page_as, live, off_loop):
    User = get_user_model()
    org, *players = [User.objects.create_user(n, password=f"pw-{n}") for n in ("org", "ann", "ben")]

    def setup():
        t = services.tournament_create(
            created_by=org, name="Desk Cup", game="dueling-wizards", format="swiss", options={"check_in_required": True}
        )
        for p in players:
            services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        return t

    t = off_loop(setup)
    desk = page_as("org")
    desk.goto(f"{live}/tournaments/{t.id}/")
    desk.wait_for_selector("[data-testid=connection]:text('live')")
    ann = page_as("ann")
    ann.goto(f"{live}/tournaments/{t.id}/")
    ann.wait_for_selector("[data-testid=connection]:text('live')")
    # A player has no desk buttons, only their own check-in.
    assert ann.locator("[data-testid^=desk-check-in-]").count() == 0

    desk.click("[data-testid=desk-check-in-ann]")
    desk.wait_for_selector("[data-testid=player-state-ann]:has-text('checked in at the desk')")
    desk.wait_for_selector("[data-testid=desk-undo-check-in-ann]")
    ann.wait_for_selector("[data-testid=my-status]:has-text('checked in')")
    state = Tournament.objects.get(pk=t.pk).state
    assert state["players"][str(players[0].pk)]["checked_in"]
    assert not state["players"][str(players[1].pk)]["checked_in"]

    desk.click("[data-testid=desk-undo-check-in-ann]")
    desk.wait_for_selector("[data-testid=desk-check-in-ann]")
    ann.wait_for_selector("[data-testid=check-in]")  # her own button is back
    assert not Tournament.objects.get(pk=t.pk).state["players"][str(players[0].pk)]["checked_in"]
