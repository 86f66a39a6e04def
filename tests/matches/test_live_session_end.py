"""A seat's socket lives no longer than the session that opened it: once the player signs out, or
the session expires or is ended elsewhere, the socket stops carrying the seat's frames (its hand,
its draws, what it is asked), and the page reconnects as anyone else would see the match."""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone

from config.asgi import application
from matches import consumers

from .helpers import new_duel

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("no_task_outlives_its_test"),
    pytest.mark.usefixtures("close_thread_connections"),
]

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


@database_sync_to_async
def a_duel():
    from django.contrib.auth import get_user_model

    User = get_user_model()
    alice = User.objects.create_user("alice", password="pw-alice")
    bob = User.objects.create_user("bob", password="pw-bob")
    return alice, bob, new_duel(alice, bob)


@database_sync_to_async
def signed_in(username: str) -> Client:
    client = Client()
    assert client.login(username=username, password=f"pw-{username}")
    return client


def cookie_of(client: Client) -> bytes:
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


@database_sync_to_async
def sign_out(client: Client) -> None:
    assert client.post("/accounts/logout/").status_code == 302


@database_sync_to_async
def expire_session(client: Client) -> None:
    from django.contrib.sessions.models import Session

    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    assert Session.objects.filter(session_key=key).update(expire_date=timezone.now() - timedelta(seconds=1)) == 1


@database_sync_to_async
def a_move(match) -> None:
    """The first legal action of the first seat to move, made by its player."""
    from engines import registry
    from matches import services
    from matches.models import Match

    m = Match.objects.get(pk=match.pk)
    engine = registry.get(m.game)
    seat = engine.to_move(m.state)[0]
    action = engine.legal_actions(m.state, seat)[0]
    user = m.seats.get(index=seat).user
    services.match_act(match_id=m.id, user=user, seat=seat, action=action, expected_seq=m.state_seq)


async def seat_socket(match, client: Client) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(
        application, f"/ws/matches/{match.id}/", headers=[*HEADERS, (b"cookie", cookie_of(client))]
    )
    connected, _ = await socket.connect()
    assert connected
    first = await socket.receive_json_from(timeout=10)
    assert first["match"]["your_seat"] == 0 and first["view"]["hand"]  # alice sees her own cards
    return socket


async def test_a_player_who_signs_out_gets_none_of_the_seats_frames_after_it():
    _alice, _bob, match = await a_duel()
    client = await signed_in("alice")
    other_device = await signed_in("alice")
    socket = await seat_socket(match, client)
    elsewhere = await seat_socket(match, other_device)
    await sign_out(client)
    await a_move(match)
    # The signed-out page's socket is closed (its page reconnects, as a spectator now) instead of
    # being sent alice's next frame; her other device, still signed in, follows the match as before.
    assert await socket.receive_output(timeout=10) == {"type": "websocket.close", "code": 4401}
    assert (await elsewhere.receive_json_from(timeout=10))["match"]["your_seat"] == 0
    await a_move(match)  # nor is anything sent on it between its close and the page's leaving
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect(timeout=30)
    await elsewhere.disconnect()


async def test_a_seat_whose_session_expired_is_closed_at_its_next_check(monkeypatch):
    monkeypatch.setattr(consumers, "GROUP_RENEW_SECONDS", 0.3)
    _alice, _bob, match = await a_duel()
    client = await signed_in("alice")
    socket = await seat_socket(match, client)
    await expire_session(client)
    assert await socket.receive_output(timeout=10) == {"type": "websocket.close", "code": 4401}
    await a_move(match)
    assert await socket.receive_nothing(timeout=0.5)
    await socket.disconnect(timeout=30)


async def test_a_seat_whose_session_still_holds_stays_open_across_its_checks(monkeypatch):
    monkeypatch.setattr(consumers, "GROUP_RENEW_SECONDS", 0.1)
    _alice, _bob, match = await a_duel()
    client = await signed_in("alice")
    socket = await seat_socket(match, client)
    assert await socket.receive_nothing(timeout=1)  # ten checks, and nothing said
    await a_move(match)
    assert (await socket.receive_json_from(timeout=10))["match"]["your_seat"] == 0
    await socket.disconnect()
