"""Connections under real infrastructure (issue 15, "Why": live play died on the Redis channel layer;
concurrent requests opened PostgreSQL connections without limit. "Deliver" item 7)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from config.asgi import application
from matches import services
from tests.conftest import database_url

ROOT = Path(__file__).resolve().parents[2]


def on_the_redis_list_layer() -> bool:
    """channels-redis' list layer, or the project's subclass of it (matches/layers.py: the same
    Redis lists, read the same way, handed to the sockets by one reader)."""
    from channels_redis.core import RedisChannelLayer
    from django.utils.module_loading import import_string

    return issubclass(import_string(settings.CHANNEL_LAYERS["default"]["BACKEND"]), RedisChannelLayer)


@database_sync_to_async
def duel_between_new_players():
    from django.contrib.auth import get_user_model

    from tests.matches.helpers import new_duel

    User = get_user_model()
    alice = User.objects.create_user("alice", password="pw-alice")
    bob = User.objects.create_user("bob", password="pw-bob")
    return alice, bob, new_duel(alice, bob)


@database_sync_to_async
def defend(match, user, seat):
    from engines import registry

    match.refresh_from_db()
    action = registry.get(match.game).legal_actions(match.state, seat)[0]
    services.match_act(
        match_id=match.id, user=user, seat=seat, action=action, expected_seq=match.state_seq, event_id=uuid.uuid4()
    )
    match.refresh_from_db()
    return match.state_seq


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_an_idle_match_socket_on_the_redis_layer_stays_open_and_then_receives_a_move(close_thread_connections):
    # The real layer, as deployed (CI sets REDIS_URL); the in-memory layer has no socket to time out.
    assert on_the_redis_list_layer(), "set REDIS_URL: this test is about the Redis channel layer"
    alice, bob, match = await duel_between_new_players()
    socket_ = WebsocketCommunicator(
        application, f"/ws/matches/{match.id}/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
    )
    connected, _ = await socket_.connect()
    assert connected
    first = await socket_.receive_json_from(timeout=10)
    # redis-py 8's 5 s socket timeout cut the layer's blocking receive: the socket closed with 1011
    # after 5.2 s of silence. Thirty seconds is six of those.
    await asyncio.sleep(30)
    assert await socket_.receive_nothing(timeout=0.2), "the idle socket was closed or sent something"
    head = await defend(match, bob, 1)
    update = await socket_.receive_json_from(timeout=10)
    assert [e["seq"] for e in update["events"]] == list(range(first["head_seq"] + 1, head + 1))
    await socket_.disconnect(timeout=30)


SOCKETS = 150  # past redis-py's default pool of 100 connections


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_closing_many_match_sockets_at_once_leaves_no_stale_group_members(close_thread_connections):
    """300 sockets closed at once left 200 group members behind (their group_discard found the
    layer's pool of 100 connections exhausted), each then kept for a day's group expiry."""
    import redis.asyncio as aioredis
    from channels.layers import get_channel_layer

    from matches import live

    assert on_the_redis_list_layer(), "set REDIS_URL: this test is about the Redis channel layer"
    _, _, match = await duel_between_new_players()
    sockets = []
    for _ in range(SOCKETS):
        s = WebsocketCommunicator(application, f"/ws/matches/{match.id}/", headers=[(b"origin", b"http://localhost")])
        connected, _ = await s.connect(timeout=30)
        assert connected
        await s.receive_json_from(timeout=30)
        sockets.append(s)
    layer = get_channel_layer()
    key = layer._group_key(live.group_name(match.id))
    client = aioredis.Redis.from_url(settings.REDIS_URL)
    try:
        assert await client.zcard(key) == SOCKETS
        # A generous timeout: a consumer still closing when it ran out was cancelled instead, and
        # channels-redis can wait forever on a receive cancelled that way (on a loaded machine).
        await asyncio.gather(*(s.disconnect(timeout=60) for s in sockets))
        assert await client.zcard(key) == 0
    finally:
        await client.aclose()


# A burst of requests beyond what PostgreSQL allows ----------------------------------------------

CONNECTION_LIMIT = 6
BURST = 40


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def limited_role(transactional_db):
    """A login role PostgreSQL lets hold at most CONNECTION_LIMIT connections. The shared server's
    max_connections is the same refusal ("too many connections") at a size this machine's other
    users share; a role limit brings it within reach of a small burst without starving them."""
    from django.db import connection

    role = f"wd_burst_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cur:
        cur.execute("SHOW max_connections")
        max_connections = int(cur.fetchone()[0])
        cur.execute(
            f'CREATE ROLE "{role}" LOGIN CONNECTION LIMIT {CONNECTION_LIMIT} IN ROLE '
            f'"{connection.settings_dict["USER"] or "postgres"}"'
        )
    try:
        yield role, max_connections
    finally:
        with connection.cursor() as cur:
            cur.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = %s", [role])
            cur.execute(f'DROP ROLE IF EXISTS "{role}"')


@pytest.fixture
def server_as(limited_role):
    procs = []

    def start(**env_overrides) -> str:
        role, _ = limited_role
        url = database_url()
        url = "postgresql://" + role + "@" + url.split("@", 1)[1] if "@" in url else url
        port = _free_port()
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "DEBUG": "false",
            "SECRET_KEY": "burst-test-" + "k" * 40,
            "ALLOWED_HOSTS": "127.0.0.1",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "THROTTLE_USER": "100000/minute",
            "THROTTLE_ANON": "100000/minute",
            **env_overrides,
        }
        env.pop("CELERY_BROKER_URL", None)
        proc = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        procs.append(proc)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                return f"http://127.0.0.1:{port}"
            except OSError:
                time.sleep(0.2)
        raise AssertionError("daphne did not start listening")

    yield start
    for proc in procs:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def test_a_burst_beyond_the_connection_limit_answers_every_request_without_error(
    server_as, limited_role, make_user, client_for
):
    _, max_connections = limited_role
    assert CONNECTION_LIMIT < BURST and CONNECTION_LIMIT < max_connections
    users = [make_user(f"burst{i}") for i in range(4)]
    tokens = [client_for(u)._credentials["HTTP_AUTHORIZATION"] for u in users]
    base = server_as(DB_POOL_MAX_SIZE="3", DB_POOL_MIN_SIZE="1", DB_POOL_TIMEOUT="30")
    # One request first, so the burst measures connections, not the engine registry's first load.
    urllib.request.urlopen(f"{base}/api/engines/", timeout=30).read()
    start = threading.Barrier(BURST)
    results: list = [None] * BURST

    def post(i: int) -> None:
        body = json.dumps(
            {"game": "dueling-wizards", "seats": [{"username": users[i % 4].username}, {"bot": "random"}]}
        ).encode()
        request = urllib.request.Request(
            f"{base}/api/matches/",
            data=body,
            method="POST",
            headers={"Content-Type": "application/json", "Authorization": tokens[i % 4]},
        )
        start.wait(timeout=60)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                results[i] = (response.status, response.read()[:200])
        except urllib.error.HTTPError as exc:
            results[i] = (exc.code, exc.read()[:300])
        except OSError as exc:
            results[i] = (None, repr(exc).encode())

    threads = [threading.Thread(target=post, args=(i,)) for i in range(BURST)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=180)
    failures = [r for r in results if r is None or r[0] != 201]
    # Without a pool each request thread opened its own connection: those past the limit got
    # "too many connections" and an HTML 500 (issue 15 saw it past max_connections).
    assert not failures, failures[:3]
    from matches.models import Match

    assert Match.objects.count() == BURST
