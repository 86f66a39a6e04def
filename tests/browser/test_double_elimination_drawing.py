"""The double-elimination bracket as drawn on the tournament page (issue 18): the grand final and
its second match (the reset) are both drawn, to the right of the winners' and losers' brackets;
every connector runs from one match's right edge to a slot of the match it feeds; the finals
carry one name each, the same in the drawing and in the match list; and mid-event the top seeds
holding byes are not listed last."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_state
from matches.commands import AT_HEAD

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# Each match's box (the union of its two slot rectangles), and each connector's two ends.
GEOMETRY = """() => {
  const boxes = {};
  for (const g of document.querySelectorAll("[data-testid=bracket] g.br-match")) {
    const rects = [...g.querySelectorAll("rect")].map((r) => r.getBBox());
    const x = Math.min(...rects.map((r) => r.x)), y = Math.min(...rects.map((r) => r.y));
    boxes[g.dataset.match] = { bracket: g.dataset.bracket, x, y,
      right: Math.max(...rects.map((r) => r.x + r.width)), bottom: Math.max(...rects.map((r) => r.y + r.height)),
      label: g.querySelector(".br-id").textContent };
  }
  const links = [...document.querySelectorAll("[data-testid=bracket] path.br-link")].map((p) => {
    const n = p.getAttribute("d").match(/-?[\\d.]+/g).map(Number);  // M x y H x2 V y2 H x3
    return { from: p.dataset.from, to: p.dataset.to, start: [n[0], n[1]], end: [n[4], n[3]] };
  });
  const svg = document.querySelector("[data-testid=bracket]").viewBox.baseVal;
  return { boxes, links, width: svg.width, height: svg.height };
}"""


def test_the_double_elimination_drawing_places_and_links_every_match(page_as, live, off_loop):
    User = get_user_model()
    org, *players = [
        User.objects.create_user(n, password=f"pw-{n}") for n in ("org", "s1", "s2", "s3", "s4", "s5", "s6")
    ]

    def setup():
        t = services.tournament_create(
            created_by=org,
            name="Double Six",
            game="dueling-wizards",
            format="double_elimination",
            options={"bracket_reset": True},
        )
        for p in players:
            services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
        # One first-round result: seeds 1 and 2 hold byes and have not played yet.
        pairings = tournament_state(tournament=Tournament.objects.get(pk=t.pk))["pairings"]
        record = next(r for r in pairings.values() if r["status"] == "pending")
        services.tournament_rule(
            tournament=t, pairing=record["id"], by=org, result={"winner": record["players"][0]}, expected_seq=AT_HEAD
        )
        return t

    t = off_loop(setup)
    page = page_as("org")
    page.goto(f"{live}/tournaments/{t.id}/")
    page.wait_for_selector("[data-testid=bracket] g.br-match")
    api = page.evaluate("id => fetch(`/api/tournaments/${id}/`).then((r) => r.json())", str(t.id))
    bracket = api["bracket"]
    found = page.evaluate(GEOMETRY)
    boxes, links = found["boxes"], found["links"]
    if ARTIFACTS.is_dir():
        page.locator("[data-testid=bracket]").screenshot(path=str(ARTIFACTS / "double-elimination-bracket.png"))

    # Every match is drawn, the reset included.
    assert set(boxes) == {m["id"] for m in bracket["matches"]}
    by_kind = {}
    for m in bracket["matches"]:
        by_kind.setdefault(m["bracket"], []).append(m["id"])
    (gf,), (reset,) = by_kind["grand_final"], by_kind["reset"]
    sides = by_kind["winners"] + by_kind["losers"]
    # The finals sit to the right of both brackets, level between the two finals feeding the grand final.
    assert boxes[gf]["x"] > max(boxes[m]["right"] for m in sides)
    assert boxes[reset]["x"] > boxes[gf]["right"]
    feeders = [m["id"] for m in bracket["matches"] if m["winner_to"] and m["winner_to"][0] == gf]
    assert {boxes[m]["bracket"] for m in feeders} == {"winners", "losers"}
    centre = (boxes[gf]["y"] + boxes[gf]["bottom"]) / 2
    assert min(boxes[m]["y"] for m in feeders) < centre < max(boxes[m]["bottom"] for m in feeders)
    assert all(0 <= b["x"] and b["right"] <= found["width"] and b["bottom"] <= found["height"] for b in boxes.values())

    # One connector per winner's route, each from its match's right edge to the slot it fills.
    routes = {(m["id"], m["winner_to"][0]) for m in bracket["matches"] if m["winner_to"]}
    assert {(link["from"], link["to"]) for link in links} == routes and len(links) == len(routes)
    for link in links:
        a, b = boxes[link["from"]], boxes[link["to"]]
        assert link["start"][0] == pytest.approx(a["right"]) and a["y"] < link["start"][1] < a["bottom"], link
        assert link["end"][0] == pytest.approx(b["x"]) and b["y"] < link["end"][1] < b["bottom"], link
        assert b["x"] > a["right"], link  # a connector always runs forward, never back under the brackets

    # The finals carry one name each.
    labels = {m: boxes[m]["label"] for m in boxes}
    assert labels[gf] == f"{gf} · Grand final"
    assert labels[reset] == f"{reset} · Grand final 2 (if needed)"
    winners_final = max(by_kind["winners"], key=lambda m: boxes[m]["x"])
    losers_final = max(by_kind["losers"], key=lambda m: boxes[m]["x"])
    assert labels[winners_final] == f"{winners_final} · Winners' final"
    assert labels[losers_final] == f"{losers_final} · Losers' final"
    named = [text for text in labels.values() if "·" in text]
    assert len(named) == 4
    # The match list beside the drawing names a match as the drawing does.
    for row in page.locator("[data-testid^=match-label-]").all():
        match_id = row.get_attribute("data-testid").removeprefix("match-label-")
        assert row.inner_text() == labels[match_id]

    # Mid-event the byes' holders stand with the first-round winner at the top, not last.
    rows = page.locator("[data-testid=standings] tbody tr")
    assert rows.count() == 6
    top = [r.split("\t")[1].strip() for r in rows.all_inner_texts() if r.split("\t")[0].strip() == "1"]
    assert {"s1", "s2"} <= set(top)


@pytest.mark.parametrize("losers_champion_wins", [True, False])
def test_the_second_grand_final_is_named_by_whether_it_is_played(page_as, live, off_loop, losers_champion_wins):
    User = get_user_model()
    org, *players = [User.objects.create_user(n, password=f"pw-{n}") for n in ("org", "a1", "a2", "a3", "a4")]

    def setup():
        t = services.tournament_create(
            created_by=org,
            name="Four",
            game="dueling-wizards",
            format="double_elimination",
            options={"bracket_reset": True},
        )
        for p in players:
            services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
        for _ in range(10):
            state = tournament_state(tournament=Tournament.objects.get(pk=t.pk))
            pending = [r for r in state["pairings"].values() if r["status"] == "pending"]
            if not pending:
                break
            for r in pending:
                # The lower seed wins every match before the grand final; there, side 1 (the
                # losers' bracket champion) or side 0 (the winners' one) wins.
                final = r["bracket_match"] == grand_final_id(t)
                winner = r["players"][1 if losers_champion_wins else 0] if final else max(r["players"], key=int)
                services.tournament_rule(
                    tournament=t, pairing=r["id"], by=org, result={"winner": winner}, expected_seq=AT_HEAD
                )
            if any(r["bracket_match"] == grand_final_id(t) for r in pending):
                break
        return t

    t = off_loop(setup)
    page = page_as("org")
    page.goto(f"{live}/tournaments/{t.id}/")
    gf = grand_final_id(t)
    page.wait_for_selector(f"[data-testid=bracket] g[data-match={gf}][data-status=done]")
    reset = page.get_attribute("[data-testid=bracket] g[data-bracket=reset]", "data-match")
    label = page.text_content(f"[data-testid=label-{reset}]")
    if losers_champion_wins:
        assert label == f"{reset} · Grand final 2"
        assert page.get_attribute(f"[data-testid=bracket] g[data-match={reset}]", "data-status") == "ready"
        assert page.locator(f"[data-testid=bracket] path[data-from={gf}][data-to={reset}]").count() == 1
    else:
        assert label == f"{reset} · Grand final 2 (not needed)"
        page.wait_for_selector("[data-testid=champion]")


def grand_final_id(t) -> str:
    from league.tournaments.projection import bracket_of

    state = tournament_state(tournament=Tournament.objects.get(pk=t.pk))
    return next(m.id for m in bracket_of(state).matches if m.bracket == "grand_final")
