"""Scores on the tournament page: a best-of-three Swiss round reported 2-1 from the page shows
its game score in the pairing list, and the standings say which tie-break parted the players
on the same score, in words under the rank."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_state
from matches.commands import AT_HEAD

from .people import users

pytestmark = pytest.mark.browser


def state(t):
    return tournament_state(tournament=Tournament.objects.get(pk=t.pk))


def test_a_best_of_three_reported_two_one_shows_its_score_and_the_tie_break_in_words(page_as, live, off_loop):
    User = get_user_model()
    org, *players = users("org", "ann", "ben", "cat", "dan")

    def setup():
        t = services.tournament_create(
            created_by=org,
            name="Best of Three Open",
            game="dueling-wizards",
            format="swiss",
            # Game-win percentage parts the two winners: one won 2-1, the other 2-0.
            options={"rounds": 2, "best_of": 3, "tiebreaks": ["gwp"]},
        )
        for p in players:
            services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
        return t

    t = off_loop(setup)
    (first, one), (second, two) = list(state(t)["pairings"].items())[:2]
    reporter, opponent = (User.objects.get(pk=p) for p in one["players"])
    page = page_as(reporter.username)
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    # The reporter picks the game score on the page: won two games to one.
    page.click(f"[data-testid=report-{first}-{reporter.username}-2-1]")
    page.wait_for_selector(f"[data-testid=result-{first}]:has-text('awaiting confirmation')")
    assert state(t)["pairings"][first]["reports"][str(reporter.pk)] == {
        "winner": str(reporter.pk),
        "games": [2, 1],
    }

    def the_rest():
        services.tournament_confirm(tournament=t, pairing=first, user=opponent, expected_seq=AT_HEAD)
        winner = two["players"][1]
        services.tournament_rule(
            tournament=t, pairing=second, by=org, result={"winner": winner, "games": [0, 2]}, expected_seq=AT_HEAD
        )
        return User.objects.get(pk=winner).username

    clean_winner = off_loop(the_rest)
    page.wait_for_selector(f"[data-testid=result-{first}]:text('{reporter.username} won 2–1')")
    page.wait_for_selector(f"[data-testid=result-{second}]:text('{clean_winner} won 2–0')")
    # 2-0 is a game-win percentage of 100%, 2-1 of 66.7%: the same score, parted by it.
    ahead = page.locator(f"[data-testid=decided-by-{clean_winner}]")
    behind = page.locator(f"[data-testid=decided-by-{reporter.username}]")
    ahead.wait_for()
    assert ahead.inner_text() == f"ahead of {reporter.username} on game-win %: 100% to 66.7%"
    assert behind.inner_text() == f"behind {clean_winner} on game-win %: 66.7% to 100%"
    # The words sit in the rank's cell, read with it.
    assert behind.evaluate("node => node.closest('td').classList.contains('rank')")
