"""Websocket opens are counted per address, as API requests are (THROTTLE_SOCKETS): each open
reads the match and sends its whole view, as GET .../events/ does, and one address looping on
opens would otherwise read the database without bound. Refused opens read nothing."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("no_task_outlives_its_test"),
    pytest.mark.usefixtures("close_thread_connections"),
]


@database_sync_to_async
def a_duel():
    from django.contrib.auth import get_user_model

    from tests.matches.helpers import new_duel

    User = get_user_model()
    return new_duel(User.objects.create_user("alice"), User.objects.create_user("bob"))


async def open_from(path: str, address: str) -> tuple[WebsocketCommunicator, bool, int | None]:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost"), (b"x-forwarded-for", address.encode())]
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await socket.connect(timeout=10)
    return socket, connected, code


async def test_an_address_past_its_socket_opens_is_refused_while_another_address_connects(settings):
    settings.THROTTLE_SOCKETS = "3/minute"
    settings.PROXY_COUNT = 1
    match = await a_duel()
    paths = [f"/ws/matches/{match.id}/", "/ws/streams/tournament:0f0f0f0f-0000-4000-8000-000000000000/"]
    opened = []
    for i in range(3):
        socket, connected, _ = await open_from(paths[i % 2], "203.0.113.7")
        assert connected
        opened.append(socket)
    for path in paths:
        socket, connected, code = await open_from(path, "203.0.113.7")
        assert (connected, code) == (False, 4429)
        await socket.wait()
    socket, connected, _ = await open_from(paths[0], "198.51.100.2")
    assert connected
    opened.append(socket)
    for socket in opened:
        await socket.disconnect(timeout=30)


async def test_the_default_budget_lets_a_page_reconnect_many_times_a_minute():
    match = await a_duel()
    for _ in range(60):
        socket, connected, _ = await open_from(f"/ws/matches/{match.id}/", "203.0.113.7")
        assert connected
        await socket.disconnect(timeout=30)
