"""Live play over the match websocket (ARCHITECTURE.md "Live play"; issue 2, item 6)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from config.asgi import application
from matches import services
from matches.models import Match

from .helpers import new_duel

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]


@database_sync_to_async
def setup_match():
    from django.contrib.auth import get_user_model

    User = get_user_model()
    alice = User.objects.create_user("alice", password="pw-alice")
    bob = User.objects.create_user("bob", password="pw-bob")
    return alice, bob, new_duel(alice, bob)


@database_sync_to_async
def session_cookie(username: str) -> bytes:
    client = Client()
    assert client.login(username=username, password=f"pw-{username}")
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}".encode()


async def connect(match: Match, username: str | None = None, after: int = 0) -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if username:
        headers.append((b"cookie", await session_cookie(username)))
    communicator = WebsocketCommunicator(application, f"/ws/matches/{match.id}/?after={after}", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    return communicator


@database_sync_to_async
def act(match, user, seat):
    from engines import registry

    match.refresh_from_db()
    action = registry.get(match.game).legal_actions(match.state, seat)[0]
    services.match_act(match_id=match.id, user=user, seat=seat, action=action, expected_seq=match.state_seq)
    match.refresh_from_db()
    return action


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_each_seat_and_spectator_gets_its_own_view_on_connect():
    alice, bob, match = await setup_match()
    sockets = {name: await connect(match, name) for name in ("alice", "bob", None)}
    first = {name: await s.receive_json_from(timeout=5) for name, s in sockets.items()}
    assert [e["seq"] for e in first["bob"]["events"]] == [1, 2, 3]  # created, then two private draws
    assert len(first["bob"]["view"]["hand"]) == 3 and first["bob"]["match"]["your_seat"] == 1
    assert first["alice"]["view"]["players"][1]["hand"] is None
    assert first[None]["view"]["hand"] is None and first[None]["match"]["your_seat"] is None
    for s in sockets.values():
        await s.disconnect()


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_move_reaches_everyone_after_commit_with_secrets_kept():
    alice, bob, match = await setup_match()
    sockets = {name: await connect(match, name) for name in ("alice", "bob", None)}
    for s in sockets.values():
        await s.receive_json_from(timeout=5)
    action = await act(match, bob, 1)
    updates = {name: await s.receive_json_from(timeout=5) for name, s in sockets.items()}
    for update in updates.values():
        assert [e["seq"] for e in update["events"]] == [4]
        assert update["log"] == [{"seq": 4, "text": "Seat 1 chose a defence."}]
    assert updates["bob"]["events"][0]["data"]["action"] == action
    assert updates["alice"]["events"][0]["data"]["action"].get("card") is None
    assert updates[None]["events"][0]["data"]["action"].get("card") is None
    assert updates["alice"]["view"]["to_move"] == [0]
    for s in sockets.values():
        await s.disconnect()


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_client_that_reconnects_catches_up_with_nothing_missed_or_repeated():
    alice, bob, match = await setup_match()
    socket = await connect(match, "alice")
    seen = [e["seq"] for e in (await socket.receive_json_from(timeout=5))["events"]]
    await socket.disconnect()
    # While alice is away, both players move (two events, and more if the round resolves).
    await act(match, bob, 1)
    await act(match, alice, 0)
    socket = await connect(match, "alice", after=seen[-1])
    update = await socket.receive_json_from(timeout=5)
    caught_up = [e["seq"] for e in update["events"]]
    assert caught_up == list(range(seen[-1] + 1, match.state_seq + 1))
    assert [line["seq"] for line in update["log"]] == caught_up
    await act(match, alice, 0)  # bob attacks next round, so alice defends first
    nxt = await socket.receive_json_from(timeout=5)
    assert [e["seq"] for e in nxt["events"]] == [caught_up[-1] + 1]
    await socket.disconnect()


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_socket_for_a_match_that_does_not_exist_is_closed():
    import uuid

    class Missing:
        id = uuid.uuid4()

    communicator = WebsocketCommunicator(
        application, f"/ws/matches/{Missing.id}/", headers=[(b"origin", b"http://localhost")]
    )
    connected, code = await communicator.connect()
    assert not connected and code == 4404
    await communicator.wait()


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_socket_with_a_nonsense_after_is_closed():
    alice, bob, match = await setup_match()
    communicator = WebsocketCommunicator(
        application, f"/ws/matches/{match.id}/?after=yesterday", headers=[(b"origin", b"http://localhost")]
    )
    connected, code = await communicator.connect()
    assert not connected and code == 4404
    await communicator.wait()
