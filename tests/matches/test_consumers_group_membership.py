"""A socket's group membership (matches/consumers.py, keep_membership): the channel layer forgets a
member after its group_expiry, so every socket renews its own. A renewal that fails once (a Redis
blip) must not leave the socket open and deaf once the membership lapses; one that cannot be
renewed in time closes the socket, so its page reconnects and catches up; and a consumer that ends,
however it ends, stops renewing."""

from __future__ import annotations

import asyncio
import copy

import pytest
import redis.exceptions
from channels.db import database_sync_to_async
from channels.layers import channel_layers, get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import override_settings

from config.asgi import application
from league import streams
from matches import consumers, live, services

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("no_task_outlives_its_test"),
    pytest.mark.usefixtures("close_thread_connections"),
]

HEADERS = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
#: The layer's group expiry in these tests, and the renewal period well within it.
EXPIRY, RENEW = 2, 0.5
TOURNAMENT = "tournament:0f0f0f0f-0000-4000-8000-000000000000"


@pytest.fixture
def short_expiry(monkeypatch):
    """The production layer (channels-redis with the shared reader), forgetting members after
    EXPIRY seconds, and sockets renewing every RENEW seconds."""
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    assert layers["default"]["BACKEND"] == "matches.layers.SharedReaderRedisChannelLayer", "needs REDIS_URL"
    layers["default"]["CONFIG"]["group_expiry"] = EXPIRY
    monkeypatch.setattr(consumers, "GROUP_RENEW_SECONDS", RENEW)
    with override_settings(CHANNEL_LAYERS=layers):
        channel_layers.backends = {}
        yield get_channel_layer()
    channel_layers.backends = {}


def failing_renewals(monkeypatch, layer, *, failures: int | None) -> list[str]:
    """The layer's group_add, with the renewals after the connect's add failing as in a Redis blip:
    the first ``failures`` of them, or all (None). Returns the calls made."""
    real_add = layer.group_add
    calls: list[str] = []

    async def group_add(group, channel):
        calls.append(group)
        renewal = len(calls) - 1
        if renewal >= 1 and (failures is None or renewal <= failures):
            raise redis.exceptions.ConnectionError("Connection reset by peer")
        await real_add(group, channel)

    monkeypatch.setattr(layer, "group_add", group_add)
    return calls


@database_sync_to_async
def a_duel():
    from django.contrib.auth import get_user_model

    from tests.matches.helpers import new_duel

    User = get_user_model()
    return new_duel(User.objects.create_user("alice"), User.objects.create_user("bob"))


@database_sync_to_async
def bob_moves(match) -> int:
    from engines import registry
    from matches.models import Match

    m = Match.objects.get(pk=match.pk)
    action = registry.get(m.game).legal_actions(m.state, 1)[0]
    services.match_act(match_id=m.id, user=m.seats.get(index=1).user, seat=1, action=action, expected_seq=m.state_seq)
    return Match.objects.get(pk=match.pk).state_seq


async def open_socket(path: str, *, first_frame: bool) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, path, headers=HEADERS)
    connected, _ = await socket.connect()
    assert connected
    if first_frame:
        await socket.receive_json_from(timeout=10)
    return socket


async def match_socket_and_its_next_update():
    match = await a_duel()
    socket = await open_socket(f"/ws/matches/{match.id}/", first_frame=True)

    async def update() -> dict:
        return {"type": "update", "head_seq": await bob_moves(match)}

    return socket, update


async def stream_socket_and_its_next_update():
    socket = await open_socket(f"/ws/streams/{TOURNAMENT}/", first_frame=False)

    async def update() -> dict:
        await database_sync_to_async(streams.broadcast)(stream_id=TOURNAMENT, head_seq=7)
        return {"type": "update", "head_seq": 7}

    return socket, update


SOCKETS = {"match": match_socket_and_its_next_update, "stream": stream_socket_and_its_next_update}


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", SOCKETS)
async def test_a_socket_whose_renewal_failed_once_still_gets_the_next_update_after_the_group_expiry(
    monkeypatch, short_expiry, kind
):
    calls = failing_renewals(monkeypatch, short_expiry, failures=1)
    socket, next_update = await SOCKETS[kind]()
    await asyncio.sleep(2 * EXPIRY)  # past the expiry: only renewals after the failed one keep it a member
    expected = await next_update()
    try:
        frame = await socket.receive_json_from(timeout=10)
    finally:
        await socket.disconnect(timeout=30)
    assert len(calls) >= 3, calls  # the connect's add, the failed renewal, and renewals after it
    assert {key: frame.get(key) for key in expected} == expected


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", SOCKETS)
async def test_a_socket_whose_membership_cannot_be_renewed_before_it_lapses_is_closed_for_its_page_to_reconnect(
    monkeypatch, short_expiry, kind
):
    failing_renewals(monkeypatch, short_expiry, failures=None)
    socket, _ = await SOCKETS[kind]()
    loop = asyncio.get_running_loop()
    opened = loop.time()
    try:
        closed = await socket.receive_output(timeout=3 * EXPIRY)
        took = loop.time() - opened
    finally:
        await socket.disconnect(timeout=30)
    # Closed (a page reconnects on any close, and catches up) before the membership lapsed.
    assert closed == {"type": "websocket.close", "code": 4503}
    assert took < EXPIRY, f"closed {took:.1f} s after the connect's add, past the group expiry"


def renewals() -> list[asyncio.Task]:
    return [
        task
        for task in asyncio.all_tasks()
        if not task.done() and getattr(task.get_coro(), "__qualname__", "") == "FrameConsumer.keep_membership"
    ]


@pytest.mark.timeout(60)
async def test_a_socket_ended_by_a_redis_read_error_stops_renewing_its_membership(monkeypatch, short_expiry):
    layer = short_expiry
    match = await a_duel()
    socket = await open_socket(f"/ws/matches/{match.id}/", first_frame=True)
    key = layer._group_key(live.group_name(match.id))
    conn = layer.connection(layer.consistent_hash(live.group_name(match.id)))
    [member] = await conn.zrange(key, 0, -1)

    # Redis resets the reader's next reads: the shared reader raises the error into a waiting
    # receive (matches/layers.py, _fail_one), which ends that consumer with it, as under daphne.
    real_read_one, failed = layer._read_one, []

    async def read_one(*args):
        if len(failed) < 5:
            failed.append(True)
            raise redis.exceptions.ConnectionError("Connection reset by peer")
        return await real_read_one(*args)

    monkeypatch.setattr(layer, "_read_one", read_one)
    await bob_moves(match)  # ends the reader's current pop; its next read fails
    try:
        await asyncio.wait_for(asyncio.shield(socket.future), timeout=15)
    except redis.exceptions.ConnectionError:
        pass
    assert socket.future.done() and isinstance(socket.future.exception(), redis.exceptions.ConnectionError)
    left = renewals()
    score = await conn.zscore(key, member)
    await asyncio.sleep(3 * RENEW)  # several renewal periods after the consumer ended
    assert not left, "the ended consumer's renewal still runs"
    assert await conn.zscore(key, member) == score, "the ended consumer's channel is still being renewed"
