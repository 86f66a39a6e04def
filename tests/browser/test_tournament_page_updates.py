"""The tournament page reloads for news only, and redraws only for a change: an update at or
before the head it shows (a command's own update arriving after its answer) sets off no reload,
and a reload that brings back what the page shows leaves its fields alone. A pointless redraw in
the middle of typing a seed replaced the field and lost the keystroke (one CI run's "Save seeds"
saved the order as it was; session 40)."""

from __future__ import annotations

import json
import uuid

import pytest
from rest_framework.test import APIClient

from tests.browser.people import users

pytestmark = pytest.mark.browser


def _tournament_with_players(organiser, names) -> str:
    client = APIClient()
    client.force_authenticate(organiser)
    tid = client.post(
        "/api/tournaments/",
        {"name": "Quiet Cup", "game": "dueling-wizards", "format": "swiss", "event_id": str(uuid.uuid4())},
        format="json",
    ).json()["id"]
    for name in names:
        head = client.get(f"/api/tournaments/{tid}/").json()["head_seq"]
        answer = client.post(
            f"/api/tournaments/{tid}/register/",
            {"user": name, "expected_seq": head, "event_id": str(uuid.uuid4())},
            format="json",
        )
        assert answer.status_code == 201, answer.json()
    return tid


def _update(page, head: int) -> None:
    # What the server's socket sends (league/consumers.py), handed to the page's own handler.
    page.evaluate(
        "frame => window.__tournamentSocket.onmessage({ data: frame })",
        json.dumps({"type": "update", "head_seq": head}),
    )


def test_an_update_the_page_already_shows_neither_reloads_nor_redraws_it(page_as, live, off_loop):
    organiser, *_ = off_loop(lambda: users("quietorg", "qp1", "qp2"))
    tid = off_loop(lambda: _tournament_with_players(organiser, ["qp1", "qp2"]))
    page = page_as("quietorg")
    page.goto(f"{live}/tournaments/{tid}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    page.wait_for_selector("[data-testid=players] li[data-player=qp2]")
    head = int(page.get_attribute("#tournament", "data-head-seq"))
    # A seed typed and not saved, and a mark on the list: a redraw would replace both fields.
    page.fill("[data-testid=seed-qp2]", "1")
    page.evaluate("document.querySelector('[data-testid=players]').dataset.mark = 'before'")
    # The page's reloads counted, and a mark left once each reload's answer has been taken in:
    # ``load`` hands the answer to ``accept`` as soon as its JSON is read, and this timer runs
    # after that, so the test waits on the page, not on a guess at how long it takes.
    page.evaluate(
        """() => {
        const fetched = window.fetch;
        window.__reloads = 0;
        window.__reloadsTakenIn = 0;
        window.fetch = async (...args) => {
          window.__reloads += 1;
          const answer = await fetched(...args);
          const json = answer.json.bind(answer);
          answer.json = async () => {
            const body = await json();
            setTimeout(() => { window.__reloadsTakenIn += 1; }, 0);
            return body;
          };
          return answer;
        };
      }"""
    )

    _update(page, head - 1)  # an earlier command's update, late
    _update(page, head)  # the page's own command's update, after its answer
    _update(page, head + 1)  # news: this one reloads (the server still says ``head``)
    page.wait_for_function("() => window.__reloadsTakenIn === 1")

    assert page.evaluate("window.__reloads") == 1
    # The reload brought back what the page shows: nothing was redrawn, the typed seed is as typed.
    assert page.evaluate("document.querySelector('[data-testid=players]').dataset.mark") == "before"
    assert page.input_value("[data-testid=seed-qp2]") == "1"
