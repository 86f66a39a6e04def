"""Who may open a live socket and what each gets: a seat its own frames, everyone else (a stranger,
an anonymous visitor, a player seated in another match, whatever the path or query claims) the
spectators'; a page of another site cannot open one with the user's cookies."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("no_task_outlives_its_test"),
    pytest.mark.usefixtures("close_thread_connections"),
]

SAME_SITE = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


@database_sync_to_async
def two_duels():
    from django.contrib.auth import get_user_model

    from tests.matches.helpers import new_duel

    User = get_user_model()
    alice, bob, carol, dave = (
        User.objects.create_user(n, password=f"pw-{n}") for n in ("alice", "bob", "carol", "dave")
    )
    return new_duel(alice, bob), new_duel(carol, dave)


@database_sync_to_async
def cookie(username: str) -> tuple[bytes, bytes]:
    client = Client()
    assert client.login(username=username, password=f"pw-{username}")
    return b"cookie", f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


async def first_frame(path: str, headers) -> dict | tuple[bool, int | None]:
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, code = await socket.connect(timeout=10)
    if not connected:
        await socket.wait()
        return connected, code
    frame = await socket.receive_json_from(timeout=10)
    await socket.disconnect(timeout=30)
    return frame


@pytest.mark.parametrize("who", [None, "carol"])
async def test_a_visitor_or_a_player_seated_elsewhere_gets_the_spectators_frame_whatever_the_query_says(who):
    duel, _other = await two_duels()
    headers = SAME_SITE + ([await cookie(who)] if who else [])
    for query in ("", "?seat=0", "?seat=0&user=alice&after=0"):
        frame = await first_frame(f"/ws/matches/{duel.id}/{query}", headers)
        assert frame["match"]["your_seat"] is None
        assert frame["view"]["hand"] is None and all(p["hand"] is None for p in frame["view"]["players"])
        assert all(e["data"].get("outcome") is None for e in frame["events"] if e["type"] == "chance")


@pytest.mark.parametrize(
    "path",
    [
        "/ws/matches/{id}/seat/0/",
        "/ws/matches/{id}.seat.0/",
        "/ws/streams/match:{id}/",
        "/ws/streams/match.{id}.seat.0/",
        "/ws/streams/tournament:{id}.seat.0/",
        "/ws/matches/../streams/tournament:{id}/",
    ],
)
async def test_a_crafted_path_reaches_no_seats_group(path):
    duel, _other = await two_duels()
    assert await first_frame(path.format(id=duel.id), SAME_SITE) == (False, 4404)


@pytest.mark.parametrize(
    "origin",
    [
        [(b"origin", b"https://evil.example")],
        [(b"origin", b"http://localhost.evil.example")],
        [],
        [(b"origin", b"null")],
    ],
)
async def test_a_page_of_another_site_or_none_cannot_open_a_players_socket_with_their_cookies(origin):
    duel, _other = await two_duels()
    headers = [(b"host", b"localhost"), await cookie("alice"), *origin]
    connected, _code = await first_frame(f"/ws/matches/{duel.id}/", headers)
    assert not connected
    # The same cookies from the site's own page open the seat.
    frame = await first_frame(f"/ws/matches/{duel.id}/", SAME_SITE + [await cookie("alice")])
    assert frame["match"]["your_seat"] == 0 and frame["view"]["hand"]
