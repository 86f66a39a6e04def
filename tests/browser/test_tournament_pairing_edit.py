"""An organiser edits a pairing after the round is paired (issue 16's day at the venue): two
players swapped between tables, confirmed by a dialog that names the change, the choice kept
through a live redraw; both players then see their new opponent and why it changed."""

from __future__ import annotations

import pytest

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_state
from matches.commands import AT_HEAD

from .people import users

pytestmark = pytest.mark.browser


def current_state(t):
    return tournament_state(tournament=Tournament.objects.get(pk=t.pk))


def test_an_organiser_swaps_two_players_and_both_see_the_new_opponent_and_the_reason(page_as, live, off_loop):
    org, *players = users("org", "ann", "ben", "cat", "dan", "eve", "fay")
    name = {str(u.pk): u.username for u in players}

    def setup():
        t = services.tournament_create(
            created_by=org, name="Edit Desk", game="dueling-wizards", format="swiss", options={"rounds": 3}
        )
        for p in players:
            services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
        return t

    t = off_loop(setup)
    first, second, third = (current_state(t)["pairings"][k] for k in current_state(t)["rounds"][0]["pairings"])
    a, a_old = (name[p] for p in first["players"])
    b_old, b = (name[p] for p in second["players"])

    page = page_as("org")
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.wait_for_selector("[data-testid=swap-1]")
    # Nobody is picked in advance; pressing without a choice says what is missing.
    assert page.input_value("[data-testid=swap-1]") == "" and page.input_value("[data-testid=swap-2]") == ""
    page.click("[data-testid=swap]")
    page.wait_for_selector("[data-testid=error]:has-text('Choose the two players')")

    page.select_option("[data-testid=swap-1]", a)
    page.select_option("[data-testid=swap-2]", b)
    page.fill("[data-testid=edit-reason]", "They travelled together")
    # Another table's result arrives and the page redraws before the organiser presses Swap.
    off_loop(
        lambda: services.tournament_rule(
            tournament=t, pairing=third["id"], by=org, result={"winner": third["players"][0]}, expected_seq=AT_HEAD
        )
    )
    page.wait_for_selector(f"[data-testid=result-{third['id']}]:has-text('won')")
    assert page.input_value("[data-testid=swap-1]") == a and page.input_value("[data-testid=swap-2]") == b
    assert page.input_value("[data-testid=edit-reason]") == "They travelled together"

    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click("[data-testid=swap]")
    page.wait_for_selector("[data-testid=round-edits-1]:has-text('Swapped by the organiser')")
    assert asked and a in asked[0] and b in asked[0] and "round 1" in asked[0]
    page.wait_for_selector(f"tr[data-pairing={first['id']}]:has-text('{b} v {a_old}')")

    # Each player in the swap sees their new opponent and the organiser's reason.
    for who, opponent in ((a, b_old), (a_old, b)):
        view = page_as(who)
        view.goto(f"{live}/tournaments/{t.id}/")
        view.wait_for_selector(f"[data-testid=my-next]:has-text('against {opponent}')")
        note = view.locator("[data-testid=my-next] [data-testid=pairing-note]")
        assert "Swapped by the organiser" in note.inner_text() and "They travelled together" in note.inner_text()
        assert "They travelled together" in view.locator("[data-testid=round-edits-1]").inner_text()

    swapped = current_state(t)["pairings"]
    assert [name[p] for p in swapped[first["id"]]["players"]] == [b, a_old]
    assert [name[p] for p in swapped[second["id"]]["players"]] == [b_old, a]
