"""Text people choose reaches the tournament page's script (static/js/tournaments/tournament.js) from
the API and the live socket: a player's reason for disputing a result is shown to everyone. It shows
as the text it is; none of it becomes markup on the page, and nothing in it runs."""

from __future__ import annotations

import pytest

from league.tournaments import services
from matches.commands import AT_HEAD
from tests.league.tournaments.helpers import open_pairings

from .people import users

pytestmark = pytest.mark.browser

HOSTILE = '"><img src=x data-testid=injected onerror=alert(1)><script>alert(2)</script>'


def test_a_dispute_reason_and_a_tournament_name_show_as_text_on_the_tournament_page(page_as, live, off_loop):
    org, ann, ben = users("org", "ann", "ben")

    def setup():
        t = services.tournament_create(
            created_by=org, name=HOSTILE, game="dueling-wizards", format="swiss", options={"rounds": 2}
        )
        for p in (ann, ben):
            services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
        return t, open_pairings(t)[0]["id"]

    t, pairing = off_loop(setup)
    page = page_as(None)
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")

    # Reported, then disputed with the hostile reason: the page hears of it over its socket.
    off_loop(
        lambda: services.tournament_report(
            tournament=t, pairing=pairing, user=ann, result={"winner": str(ann.pk)}, expected_seq=AT_HEAD
        )
    )
    off_loop(
        lambda: services.tournament_dispute(
            tournament=t, pairing=pairing, user=ben, reason=HOSTILE, expected_seq=AT_HEAD
        )
    )
    cell = page.locator(f"[data-testid=result-{pairing}]").first
    page.wait_for_selector(f"[data-testid=result-{pairing}]:has-text('disputed:')")
    assert cell.text_content() == f"disputed: {HOSTILE}"
    assert page.locator("[data-testid=tournament-name]").text_content().strip() == HOSTILE
    assert page.locator("[data-testid=injected]").count() == 0
    assert page.locator("img[src=x]").count() == 0
    assert dialogs == []
