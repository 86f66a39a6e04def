"""The organiser's "Rule" and "Correct" on a tournament page (issue 18): neither has an outcome
chosen in advance, both ask for confirmation naming the outcome, and a dismissed confirmation
sends nothing and writes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_state
from matches.commands import AT_HEAD

pytestmark = pytest.mark.browser


def state(t):
    return tournament_state(tournament=Tournament.objects.get(pk=t.pk))


def test_rule_and_correct_need_a_chosen_outcome_and_a_confirmation(page_as, live, off_loop):
    User = get_user_model()
    org, *players = [User.objects.create_user(n, password=f"pw-{n}") for n in ("org", "ann", "ben", "cat", "dan")]

    def setup():
        t = services.tournament_create(
            created_by=org, name="Careful Cup", game="dueling-wizards", format="swiss", options={"rounds": 2}
        )
        for p in players:
            services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
        return t

    t = off_loop(setup)
    pairing, record = next(iter(state(t)["pairings"].items()))
    first, second = (User.objects.get(pk=p).username for p in record["players"])
    page = page_as("org")
    sent = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    asked = []

    def answer(accept):
        def handle(dialog):
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        page.once("dialog", handle)

    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    select = f"[data-testid=rule-select-{pairing}]"
    page.wait_for_selector(select)
    # Nothing is picked for the organiser.
    assert page.input_value(select) == ""
    page.click(f"[data-testid=rule-{pairing}]")
    page.wait_for_selector("[data-testid=error]:has-text('Choose the result')")
    assert not asked

    # The pick survives the page being redrawn by a websocket update (another table's result).
    page.select_option(select, label=f"{second} won")
    other, other_record = next((p, r) for p, r in state(t)["pairings"].items() if p != pairing)
    off_loop(
        lambda: services.tournament_rule(
            tournament=t, pairing=other, by=org, result={"winner": other_record["players"][0]}, expected_seq=AT_HEAD
        )
    )
    page.wait_for_selector(f"[data-testid=result-{other}]:has-text('won')")
    assert page.input_value(select) == f"w:{record['players'][1]}"

    # A dismissed confirmation sends nothing.
    answer(accept=False)
    page.click(f"[data-testid=rule-{pairing}]")
    assert asked and f"{second} won" in asked[-1]
    assert state(t)["pairings"][pairing]["status"] == "pending"

    # Confirmed, the chosen outcome is written: one command only, the dismissed one never left.
    answer(accept=True)
    page.click(f"[data-testid=rule-{pairing}]")
    page.wait_for_selector(f"[data-testid=result-{pairing}]:text('{second} won')")
    assert [u for u in sent if "/rule/" in u] == [f"{live}/api/tournaments/{t.id}/pairings/{pairing}/rule/"]
    winner = state(t)["pairings"][pairing]["result"]["winner"]
    assert User.objects.get(pk=winner).username == second

    # Correcting it: again no outcome chosen in advance, and a dismissed confirmation changes nothing.
    correct = f"[data-testid=correct-select-{pairing}]"
    page.wait_for_selector(correct)
    assert page.input_value(correct) == ""
    page.select_option(correct, label=f"{first} won")
    answer(accept=False)
    page.click(f"[data-testid=correct-{pairing}]")
    assert f"{first} won" in asked[-1]
    assert not [u for u in sent if "/correct/" in u]
    answer(accept=True)
    page.click(f"[data-testid=correct-{pairing}]")
    page.wait_for_selector(f"[data-testid=result-{pairing}]:text('{first} won')")
    assert len([u for u in sent if "/correct/" in u]) == 1
    winner = state(t)["pairings"][pairing]["result"]["winner"]
    assert User.objects.get(pk=winner).username == first
