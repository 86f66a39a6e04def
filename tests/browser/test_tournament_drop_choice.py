"""Dropping a player from the organiser's desk (issue 16's day at the venue): no player is
chosen in advance, and the one the organiser picked is still the one dropped when a live update
redraws the page between picking and pressing (it used to fall back to the first name, so the
wrong player was dropped; seen under scripts/test-browser-under-load)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_state
from matches.commands import AT_HEAD

pytestmark = pytest.mark.browser


def statuses(t):
    state = tournament_state(tournament=Tournament.objects.get(pk=t.pk))
    User = get_user_model()
    return {User.objects.get(pk=int(pid)).username: p["status"] for pid, p in state["players"].items()}


def test_the_player_picked_to_drop_is_the_one_dropped_even_after_a_live_redraw(page_as, live, off_loop):
    User = get_user_model()
    org, *players = [User.objects.create_user(n, password=f"pw-{n}") for n in ("org", "ann", "ben", "cat", "dan")]

    def setup():
        t = services.tournament_create(
            created_by=org, name="Drop Desk", game="dueling-wizards", format="swiss", options={"rounds": 3}
        )
        for p in players:
            services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
        return t

    t = off_loop(setup)
    page = page_as("org")
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.wait_for_selector("[data-testid=drop-select]")
    assert page.input_value("[data-testid=drop-select]") == ""
    page.click("[data-testid=drop]")
    page.wait_for_selector("[data-testid=error]:has-text('Choose the player to drop')")
    assert set(statuses(t).values()) == {"active"}

    page.select_option("[data-testid=drop-select]", "cat")
    # Another table's result arrives and the page redraws before the organiser presses Drop.
    pairing, record = next(iter(tournament_state(tournament=Tournament.objects.get(pk=t.pk))["pairings"].items()))
    off_loop(
        lambda: services.tournament_rule(
            tournament=t, pairing=pairing, by=org, result={"winner": record["players"][0]}, expected_seq=AT_HEAD
        )
    )
    page.wait_for_selector(f"[data-testid=result-{pairing}]:has-text('won')")
    assert page.input_value("[data-testid=drop-select]") == "cat"
    page.click("[data-testid=drop]")
    page.wait_for_selector("[data-testid=standings] tr:has-text('cat (dropped)')")
    assert statuses(t) == {"ann": "active", "ben": "active", "cat": "dropped", "dan": "active"}
