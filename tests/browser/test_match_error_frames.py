"""The match page and the server's error frames ({"type": "error", "code", "detail"},
matches/consumers.py): none is an update. "throttled" answers a resync within a second of another
(the page sends one after every refused move); "database_unavailable" says the server could not
read what the page missed, so the page is behind until it catches up: it must say so, never "live"
over an old board, and catch up by itself."""

from __future__ import annotations

import json
import time
import uuid

import pytest

from matches import services
from matches.models import Match
from tests.browser.people import users

pytestmark = pytest.mark.browser

DATABASE_UNAVAILABLE = json.dumps(
    {"type": "error", "code": "database_unavailable", "detail": "Updates are delayed; they resume by themselves."}
)


def a_duel(off_loop):
    alice, bob = users("alice", "bob")
    return off_loop(
        lambda: services.match_create(
            game="dueling-wizards", seats=[services.SeatSpec(user=alice), services.SeatSpec(user=bob)], created_by=alice
        )
    )


def bob_defends(match) -> int:
    from engines import registry

    m = Match.objects.get(pk=match.pk)
    action = registry.get(m.game).legal_actions(m.state, 1)[0]
    services.match_act(
        match_id=m.id,
        user=m.seats.get(index=1).user,
        seat=1,
        action=action,
        expected_seq=m.state_seq,
        event_id=uuid.uuid4(),
    )
    return Match.objects.get(pk=match.pk).state_seq


def test_a_page_whose_catch_up_fails_says_it_is_not_up_to_date_and_catches_up_by_itself(page_as, live, off_loop):
    """The page reconnects while a move is made; the server's catch-up read on the new socket
    fails (what it sends when the database is briefly away), and so does the read for the page's
    first resync. The page must show that it is behind, not "live", and ask again until it shows
    the move."""
    match = a_duel(off_loop)
    page = page_as(None)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    sockets = []
    resyncs: list[float] = []  # when the page asked the second socket to resync

    def route(ws):
        server = ws.connect_to_server()
        sockets.append(ws)
        failing = 2 if len(sockets) == 2 else 0  # the connect's catch-up and the first resync's
        answers = [0]

        def to_server(message):
            if len(sockets) == 2 and ws is sockets[1] and '"resync"' in str(message):
                resyncs.append(time.monotonic())
            server.send(message)

        def from_server(message):
            answers[0] += 1
            ws.send(DATABASE_UNAVAILABLE if answers[0] <= failing else message)

        ws.on_message(to_server)
        server.on_message(from_server)

    page.route_web_socket("**/ws/matches/**", route)
    page.goto(f"{live}/matches/{match.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    before = int(page.get_attribute("#match", "data-head-seq"))
    # Every state of the badge from now on, with the head the board shows beside it.
    page.evaluate(
        """() => {
            const root = document.querySelector('#match');
            const conn = root.querySelector('[data-testid=connection]');
            window.__shown = [];
            new MutationObserver(() => window.__shown.push([conn.textContent, Number(root.dataset.headSeq)]))
                .observe(conn, { childList: true, characterData: true, subtree: true });
        }"""
    )

    page.evaluate("window.__match.socket.close()")
    head = off_loop(bob_defends, match)  # while the page is reconnecting
    assert head > before
    page.wait_for_selector("[data-testid=connection]:text('not up to date')")
    assert int(page.get_attribute("#match", "data-head-seq")) == before
    page.wait_for_function("head => Number(document.querySelector('#match').dataset.headSeq) === head", arg=head)
    page.wait_for_selector("[data-testid=connection]:text('live')")

    shown = page.evaluate("window.__shown")
    assert not [state for state in shown if state[0] == "live" and state[1] < head], shown
    assert errors == [], errors
    # It asked again after its first resync failed too, and never faster than the server's one a second.
    assert len(resyncs) >= 2, resyncs
    assert all(b - a >= 0.9 for a, b in zip(resyncs, resyncs[1:], strict=False)), resyncs


def test_a_throttled_resync_is_not_taken_for_an_update_and_the_page_stays_live(page_as, live, off_loop):
    """The page sends a resync after every refused move (ctx.act): two within a second are
    answered with the current view, then {"type": "error", "code": "throttled"}. Sent here from
    the page's socket in one go, so the second is throttled however slow the machine is."""
    match = a_duel(off_loop)
    page = page_as("alice")
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{live}/matches/{match.id}/")
    page.wait_for_selector("[data-testid=connection]:text('live')")
    head = int(page.get_attribute("#match", "data-head-seq"))
    # Listeners added now run after the page's own handler of each frame (set when it connected).
    page.evaluate(
        """() => {
            const socket = window.__match.socket;
            window.__handled = [];
            socket.addEventListener('message', (e) => {
                const frame = JSON.parse(e.data);
                window.__handled.push(frame.code || frame.type);
            });
            socket.send(JSON.stringify({ type: 'resync' }));
            socket.send(JSON.stringify({ type: 'resync' }));
        }"""
    )
    page.wait_for_function("() => window.__handled.includes('throttled')")
    assert errors == [], f"the match page threw on the server's error frame: {errors}"
    assert page.inner_text("[data-testid=connection]") == "live"
    assert int(page.get_attribute("#match", "data-head-seq")) == head
    assert page.evaluate("window.__handled") == ["update", "throttled"]
