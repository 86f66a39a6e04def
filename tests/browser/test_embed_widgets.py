"""Embeddable widgets in headless Chromium: a page on another origin (a static page served by
Python's http.server on its own port) frames the standings and bracket widgets once the organiser
has allowed that origin on the tournament page, and cannot frame them before, nor another
tournament's; the framed bracket follows a result without a reload."""

from __future__ import annotations

import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.models import EmbedSettings, WebhookEndpoint
from matches.commands import AT_HEAD
from tests.browser.people import hold_first_answer

pytestmark = pytest.mark.browser

HOST_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Club news</title></head>
<body><h1>Our club's tournament</h1>
<iframe id="standings" title="standings" src="{live}/tournaments/{t}/embed/standings/" width="600" height="300"></iframe>
<iframe id="bracket" title="bracket" src="{live}/tournaments/{t}/embed/bracket/" width="900" height="400"></iframe>
<iframe id="other" title="other" src="{live}/tournaments/{other}/embed/standings/" width="600" height="200"></iframe>
<script>
  // Counts the frames that finished loading, whether they show the widget or the browser's refusal.
  let loaded = 0;
  for (const f of document.querySelectorAll("iframe")) f.addEventListener("load", () => {{ document.body.dataset.loaded = ++loaded; }});
</script></body></html>
"""


class SilentHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def other_origin(tmp_path):
    """A static site on another port: another origin than the live server's."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(SilentHandler, directory=str(tmp_path)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield tmp_path, f"http://localhost:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def frame_shows_widget(page, frame_id: str) -> bool:
    frame = page.frame_locator(f"#{frame_id}")
    return frame.locator("[data-testid=embed]").count() > 0


def test_another_site_frames_the_widgets_only_once_the_organiser_allows_it(
    page_as, live, off_loop, browser, other_origin
):
    User = get_user_model()
    org, ann, ben, cat, dan = [
        User.objects.create_user(n, password=f"pw-{n}") for n in ("org", "ann", "ben", "cat", "dan")
    ]

    def setup():
        t = services.tournament_create(
            created_by=org, name="Club Cup", game="dueling-wizards", format="single_elimination"
        )
        other = services.tournament_create(created_by=org, name="Other Cup", game="dueling-wizards", format="swiss")
        for p in (ann, ben, cat, dan):
            services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
        services.tournament_start(tournament=t, by=org, expected_seq=AT_HEAD)
        return t, other

    t, other = off_loop(setup)
    folder, origin = other_origin
    (folder / "news.html").write_text(HOST_PAGE.format(live=live, t=t.id, other=other.id))

    # A visitor of the club's site; not page_as: the browser's refusal to frame a page is logged as a
    # CSP error on the host page, which here is what the test expects.
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        visitor = context.new_page()
        visitor.set_default_timeout(30_000)
        visitor.goto(f"{origin}/news.html")
        visitor.wait_for_selector("body[data-loaded='3']")
        assert not frame_shows_widget(visitor, "standings")
        assert not frame_shows_widget(visitor, "bracket")

        # The organiser allows the club's site on the tournament page.
        desk = page_as("org")
        desk.goto(f"{live}/tournaments/{t.id}/")
        desk.fill("[data-testid=embed-origins]", f"{origin}/")
        desk.click("[data-testid=embed-save]")
        desk.wait_for_selector("[data-testid=embed-saved]:has-text('Saved: 1 site')")
        assert desk.locator("[data-testid=embed-origins]").input_value() == origin
        assert EmbedSettings.objects.get(tournament=t).origins == [origin]
        # A refused origin is explained and changes nothing.
        desk.fill("[data-testid=embed-origins]", "https://club.example/news")
        desk.click("[data-testid=embed-save]")
        desk.wait_for_selector("[data-testid=reach-error]:has-text('not an origin')")
        assert EmbedSettings.objects.get(tournament=t).origins == [origin]
        # A webhook to the server's own network is refused on the page with the reason.
        desk.fill("[data-testid=webhook-url]", "http://127.0.0.1:9/hook")
        desk.click("[data-testid=webhook-add]")
        desk.wait_for_selector("[data-testid=reach-error]:has-text('private')")
        assert not WebhookEndpoint.objects.filter(tournament=t).exists()

        visitor.reload()
        standings = visitor.frame_locator("#standings")
        standings.locator("[data-testid=standings]").wait_for()
        for name in ("ann", "ben", "cat", "dan"):
            assert standings.locator(f"[data-testid=standings] >> text={name}").count() == 1
        bracket = visitor.frame_locator("#bracket")
        bracket.locator("[data-testid=bracket]").wait_for()
        bracket.locator("[data-testid=connection]:text('live')").wait_for()
        # Another tournament of the same organiser allowed nobody: still refused.
        visitor.wait_for_selector("body[data-loaded='3']")
        assert not frame_shows_widget(visitor, "other")

        # A result arrives: the framed bracket shows the winner without a reload.
        def play_first_semi_final():
            state = services.current_state(t)
            record = next(r for r in state["pairings"].values() if r["status"] == "pending")
            a, b = (User.objects.get(pk=int(p)) for p in record["players"])
            services.tournament_report(
                tournament=t, pairing=record["id"], user=a, result={"winner": str(a.pk)}, expected_seq=AT_HEAD
            )
            services.tournament_confirm(tournament=t, pairing=record["id"], user=b, expected_seq=AT_HEAD)
            return record["id"], a.username

        match_id, winner = off_loop(play_first_semi_final)
        bracket.locator(f"g.br-match[data-match='{match_id}'][data-winner='{winner}']").wait_for()
    finally:
        context.close()


def test_sites_typed_before_the_saved_ones_arrive_are_not_overwritten(page_as, live, off_loop):
    org = get_user_model().objects.create_user("org", password="pw-org")
    t = off_loop(
        lambda: services.tournament_create(created_by=org, name="Slow Cup", game="dueling-wizards", format="swiss")
    )
    desk = page_as("org")
    hold_first_answer(desk, "/embed/", "GET")
    desk.goto(f"{live}/tournaments/{t.id}/")
    desk.wait_for_function("() => typeof window.__release === 'function'")
    desk.fill("[data-testid=embed-origins]", "https://club.example")
    desk.evaluate("() => window.__release()")
    desk.wait_for_function("() => window.__lateSeen === true")
    assert desk.input_value("[data-testid=embed-origins]") == "https://club.example"
    desk.click("[data-testid=embed-save]")
    desk.wait_for_selector("[data-testid=embed-saved]:has-text('Saved: 1 site')")
    assert EmbedSettings.objects.get(tournament=t).origins == ["https://club.example"]
