"""The organiser's day in headless Chromium (issue 16): the round timer the organiser starts,
pauses and extends shows on a player's open page without a reload, counting down; the
pairing sheet and the match slips print to PDF with every player and table of the round,
without the site's navigation, one slip per page."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from pypdf import PdfReader

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_state
from matches.commands import AT_HEAD

pytestmark = pytest.mark.browser

NAMES = ("ann", "ben", "cat", "dan", "eve")


def started_swiss(off_loop):
    User = get_user_model()
    org = User.objects.create_user("org", password="pw-org")
    players = [User.objects.create_user(n, password=f"pw-{n}") for n in NAMES]

    def setup():
        t = services.tournament_create(
            created_by=org,
            name="Venue Cup",
            game="dueling-wizards",
            format="swiss",
            options={"rounds": 3, "round_minutes": 30},
        )
        for p in players:
            services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
        return t

    return off_loop(setup)


def pdf_text(page) -> tuple[str, int]:
    reader = PdfReader(io.BytesIO(page.pdf(format="A4")))
    return "\n".join(p.extract_text() for p in reader.pages), len(reader.pages)


def test_the_organiser_runs_the_round_timer_and_a_players_page_follows_it(page_as, live, off_loop):
    t = started_swiss(off_loop)
    desk = page_as("org")
    desk.goto(f"{live}/tournaments/{t.id}/")
    desk.wait_for_selector("[data-testid=connection]:text('live')")
    ann = page_as("ann")
    ann.goto(f"{live}/tournaments/{t.id}/players/ann/")
    ann.wait_for_selector("[data-testid=connection]:text('live')")
    ann.wait_for_selector("[data-testid=player-next]")
    # No timer yet: the player sees none, and has no timer buttons ever.
    assert ann.locator("[data-testid=round-timer]").count() == 0

    assert desk.input_value("[data-testid=timer-minutes]") == "30"  # the tournament's round length
    desk.click("[data-testid=timer-start]")
    clock = ann.locator("[data-testid=round-timer-left]")
    clock.filter(has_text=re.compile(r"Round 1: (30:00|29:\d\d) left")).wait_for()
    assert ann.locator("[data-testid^=timer-]").count() == 0
    # It counts down in the page: the text moves on by itself.
    first = clock.inner_text()
    ann.wait_for_function(
        "(t) => document.querySelector('[data-testid=round-timer-left]').textContent !== t", arg=first
    )

    desk.click("[data-testid=timer-pause]")
    clock.filter(has_text=re.compile(r"paused · 29:\d\d left")).wait_for()
    paused = clock.inner_text()
    desk.fill("[data-testid=timer-extend-minutes]", "5")
    desk.click("[data-testid=timer-extend]")
    clock.filter(has_text=re.compile(r"paused · 34:\d\d left")).wait_for()
    # Paused, the time left holds still: the same seconds as at the pause, five minutes more.
    assert clock.inner_text().split("34:")[1] == paused.split("29:")[1]

    desk.click("[data-testid=timer-resume]")
    clock.filter(has_text=re.compile(r"^Round 1: 34:\d\d left$")).wait_for()
    timer = Tournament.objects.get(pk=t.pk).state["timer"]
    assert timer["extended"] == 300 and not timer["paused"]


def test_the_pairing_sheet_prints_to_pdf_with_every_player_and_table(page_as, live, off_loop):
    t = started_swiss(off_loop)
    desk = page_as("org")
    desk.goto(f"{live}/tournaments/{t.id}/")
    desk.wait_for_selector("[data-testid=connection]:text('live')")
    desk.click("[data-testid=print-pairings-link]")
    desk.wait_for_selector("[data-testid=print-pairings]")

    text, _ = pdf_text(desk)
    state = tournament_state(tournament=Tournament.objects.get(pk=t.pk))
    names = {pid: p["name"] for pid, p in state["players"].items()}
    tables = sorted((r for r in state["pairings"].values() if len(r["players"]) == 2), key=lambda r: r["board"])
    assert "Venue Cup: pairings, round 1" in text
    for table, record in enumerate(tables, start=1):
        first, second = (names[p] for p in record["players"])
        assert re.search(rf"\b{table}\s+{first}\s+{second}\b", text), f"table {table} ({first} v {second}):\n{text}"
    bye = next(r for r in state["pairings"].values() if len(r["players"]) == 1)
    assert f"Bye: {names[bye['players'][0]]}" in text
    assert all(n in text for n in NAMES)
    # Paper gets the sheet, not the site: no navigation, no links back.
    assert "Fairness" not in text and "the tournament" not in text

    desk.click("text=match slips")
    desk.wait_for_selector("[data-testid=slip]")
    slips, pages = pdf_text(desk)
    assert pages == len(tables)  # one slip per page
    for table, record in enumerate(tables, start=1):
        assert f"table {table}" in slips and all(names[p] in slips for p in record["players"])
