"""A Swiss with a top-8 cut played to a champion in headless Chromium (issue 16, Deliver 6):
the organiser creates it through the page's form with the cut, pairs the rounds and the cut
from the page, and rules the final there; most results go in through the services (the page's
ruling controls are tested in test_tournament_flows.py). The page shows the playoff bracket
once the Swiss is cut, then the champion and the final places of the whole event."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_state
from matches.commands import AT_HEAD

pytestmark = pytest.mark.browser


def open_pairings(t):
    t.refresh_from_db()
    s = tournament_state(tournament=t)
    return s, [r for r in s["pairings"].values() if r["status"] == "pending" and None not in r["players"]]


def test_an_organiser_plays_a_swiss_with_a_top_eight_cut_to_a_champion(page_as, live, off_loop):
    User = get_user_model()
    org_user = User.objects.create_user("cutorg", password="pw-cutorg")
    names = [f"sw{i:02d}" for i in range(1, 17)]
    players = [User.objects.create_user(n, password=f"pw-{n}") for n in names]

    org = page_as("cutorg")
    org.goto(f"{live}/tournaments/")
    form = "[data-testid=new-tournament]"
    org.fill(f"{form} input[name=name]", "Open with a cut")
    org.select_option(f"{form} select[name=format]", "swiss")
    org.fill(f"{form} input[name=rounds]", "3")
    org.fill(f"{form} input[name=cut]", "8")
    org.select_option(f"{form} select[name=cut_format]", "single_elimination")
    org.click(f"{form} button[type=submit]")
    org.wait_for_selector("[data-testid=connection]:text('live')")
    org.wait_for_selector("[data-testid=organiser] [data-testid=start]")
    t = Tournament.objects.get(name="Open with a cut")
    assert (t.state["options"]["cut"], t.state["options"]["cut_format"]) == (8, "single_elimination")

    def register_all():
        for p in players:
            services.tournament_register(tournament=t, user=p, by=org_user, expected_seq=AT_HEAD)

    off_loop(register_all)
    org.wait_for_selector("[data-testid=players] li[data-player='sw16']")
    org.click("[data-testid=start]")
    org.wait_for_selector("[data-testid=round-1]")

    def settle_round():
        # The lower registration number wins every game, so the field's order is known.
        _, pending = open_pairings(t)
        for record in pending:
            services.tournament_rule(
                tournament=t,
                pairing=record["id"],
                by=org_user,
                result={"winner": min(record["players"], key=int)},
                expected_seq=AT_HEAD,
            )

    for number in (1, 2, 3):
        off_loop(settle_round)
        org.wait_for_selector("[data-testid=status]:has-text('complete')")
        if number < 3:
            org.click("[data-testid=pair-next]")
            org.wait_for_selector(f"[data-testid=round-{number + 1}]")
    # After the three Swiss rounds the event is not over: the cut is still to be paired.
    assert org.locator("[data-testid=champion]").count() == 0
    assert org.locator("[data-testid=bracket]").count() == 0

    org.click("[data-testid=pair-next]")
    org.wait_for_selector("[data-testid=bracket]")
    org.wait_for_selector("h3:text('Playoff')")
    s = off_loop(lambda: open_pairings(t)[0])
    seeds = s["stage"]["seeds"]
    assert len(seeds) == 8 and s["stage"]["qualified"] == seeds
    # The top seed is on the first quarter-final's drawing, by name.
    top = s["players"][seeds[0]]["name"]
    assert top in {org.text_content("[data-testid=slot-M1-0]"), org.text_content("[data-testid=slot-M1-1]")}

    seed_rank = {p: i for i, p in enumerate(seeds)}

    def settle_bracket_round():
        _, pending = open_pairings(t)
        for record in pending:
            services.tournament_rule(
                tournament=t,
                pairing=record["id"],
                by=org_user,
                result={"winner": min(record["players"], key=seed_rank.get)},
                expected_seq=AT_HEAD,
            )

    off_loop(settle_bracket_round)  # quarter-finals
    off_loop(settle_bracket_round)  # semi-finals
    s, pending = off_loop(lambda: open_pairings(t))
    (final,) = pending
    finalists = [s["players"][p]["name"] for p in final["players"]]
    org.wait_for_selector(f"[data-testid=match-label-{final['id']}]:has-text('Final')")
    # The organiser rules the final on the page: the better seed wins.
    winner = min(final["players"], key=seed_rank.get)
    org.select_option(f"[data-testid=rule-select-{final['id']}]", value=f"w:{winner}")
    org.once("dialog", lambda dialog: dialog.accept())
    org.click(f"[data-testid=rule-{final['id']}]")

    champion = s["players"][winner]["name"]
    assert champion == top and champion in finalists
    org.wait_for_selector(f"[data-testid=champion]:text('Winner: {champion}')")
    org.wait_for_selector("[data-testid=status]:text('Finished')")
    org.wait_for_selector(f"[data-match={final['id']}][data-winner={champion}]")
    # The final places: the eight of the playoff first, the champion on top, then the other
    # eight in their Swiss order.
    places = org.locator("[data-testid=final-places] tbody tr")
    places.nth(15).wait_for()
    assert places.count() == 16
    rows = [places.nth(i).locator("td").all_inner_texts() for i in range(16)]
    assert rows[0][:2] == ["1", champion]
    assert {r[1] for r in rows[:8]} == {s["players"][p]["name"] for p in seeds}
    assert all(r[2] == "playoff" for r in rows[:8]) and all(r[2] == "first stage" for r in rows[8:])
