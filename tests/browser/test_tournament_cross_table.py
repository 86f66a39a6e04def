"""The cross table of a double round robin (everyone meets everyone twice): each cell holds both
meetings of its pair, the row player's points from the first then the second, "·" for one with
no result yet, and says so in words (a key under the table, each cell's title)."""

from __future__ import annotations

import pytest

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_state
from league.tournaments.standings import progress
from matches.commands import AT_HEAD

from .people import users

pytestmark = pytest.mark.browser


def play_rounds(t, org, people, winner_of, *, until=lambda s: False):
    """Report and confirm every open pairing, round after round, pairing the next round when one
    is complete, until ``until(state)`` or the end. ``winner_of(a, b, played)`` picks each winner,
    ``played`` being how many times the pair has already met."""
    by_id = {str(u.pk): u for u in people}
    while True:
        s = tournament_state(tournament=Tournament.objects.get(pk=t.pk))
        if until(s):
            return
        open_ = [r for r in s["pairings"].values() if r["status"] == "pending" and len(r["players"]) == 2]
        if not open_:
            if progress(s)["finished"]:
                return
            services.tournament_pair_next(tournament=t, by=org, expected_seq=AT_HEAD)
            continue
        for r in open_:
            a, b = r["players"]
            played = [m for m in s["pairings"].values() if set(m["players"]) == {a, b} and m["status"] == "final"]
            winner = winner_of(by_id[a], by_id[b], len(played))
            services.tournament_report(
                tournament=t, pairing=r["id"], user=by_id[a], result={"winner": str(winner.pk)}, expected_seq=AT_HEAD
            )
            services.tournament_confirm(tournament=t, pairing=r["id"], user=by_id[b], expected_seq=AT_HEAD)


def test_a_double_round_robin_cross_table_shows_both_meetings_of_each_pair(page_as, live, off_loop):
    org, ann, ben, cat = users("org", "ann", "ben", "cat")
    people = (ann, ben, cat)

    def winner_of(a, b, leg):
        # Ann and Ben take a leg each; Cat loses every game.
        if {a, b} == {ann, ben}:
            return ann if leg == 0 else ben
        return a if b == cat else b

    def ann_and_ben_met_once(s):
        met = [
            r
            for r in s["pairings"].values()
            if set(r["players"]) == {str(ann.pk), str(ben.pk)} and r["status"] == "final"
        ]
        return len(met) == 1

    def setup():
        t = services.tournament_create(
            created_by=org, name="Two Legs", game="dueling-wizards", format="round_robin", options={"double": True}
        )
        for p in people:
            services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
        play_rounds(t, org, people, winner_of, until=ann_and_ben_met_once)
        return t

    t = off_loop(setup)
    page = page_as(None)
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    # After the first leg: Ann's win over Ben, the second meeting still to come.
    page.wait_for_selector("[data-testid=rr-ann-ben]:text-is('1 ·')")
    assert page.text_content("[data-testid=rr-ben-ann]").strip() == "0 ·"
    assert "first meeting then second" in page.text_content("[data-testid=rr-grid-key]")

    off_loop(lambda: play_rounds(t, org, people, winner_of))
    # The live page redraws: both legs in one cell, in the order played, each side's own points.
    page.wait_for_selector("[data-testid=rr-ann-ben]:text-is('1 0')")
    assert page.text_content("[data-testid=rr-ben-ann]").strip() == "0 1"
    assert page.text_content("[data-testid=rr-ann-cat]").strip() == "1 1"
    assert page.text_content("[data-testid=rr-cat-ann]").strip() == "0 0"
    title = page.get_attribute("[data-testid=rr-ann-ben]", "title")
    assert title.startswith("ann against ben: first meeting (round ")
    assert "1 point(s); second meeting (round " in title and title.endswith("0 point(s)")
