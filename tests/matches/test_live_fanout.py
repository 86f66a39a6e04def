"""Live fan-out (issue 17, P5): a move's frames are built once by the broadcast (one for all
spectators, one per seat), passed on by each socket without reading the database, and a
socket that fell behind a frame's window catches up from the database, nothing missed or
repeated."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer

from matches import live
from matches.models import OutboxMessage

from .test_live import act, connect, setup_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("close_thread_connections")]


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_move_reaches_every_spectator_without_a_database_read_per_socket(monkeypatch):
    alice, bob, match = await setup_match()
    reads = []
    real = live.update_for
    monkeypatch.setattr(live, "update_for", lambda **kw: reads.append(kw) or real(**kw))
    spectators = [await connect(match) for _ in range(6)]
    seats = {name: await connect(match, name) for name in ("alice", "bob")}
    for s in [*spectators, *seats.values()]:
        await s.receive_json_from(timeout=5)
    assert len(reads) == 8  # one catch-up read per socket on connect

    action = await act(match, bob, 1)
    frames = [await s.receive_json_from(timeout=5) for s in spectators]
    mine = {name: await s.receive_json_from(timeout=5) for name, s in seats.items()}
    assert len(reads) == 8  # and none for the move: the broadcast built the frames
    assert all(f == frames[0] for f in frames)
    assert [e["seq"] for e in frames[0]["events"]] == [4] and frames[0]["after"] == 3
    assert frames[0]["events"][0]["data"]["action"].get("card") is None  # a spectator sees no secret
    assert frames[0]["match"]["your_seat"] is None
    assert mine["bob"]["events"][0]["data"]["action"] == action and mine["bob"]["match"]["your_seat"] == 1
    assert mine["alice"]["events"][0]["data"]["action"].get("card") is None
    for s in [*spectators, *seats.values()]:
        assert await s.receive_nothing(timeout=0.2)  # each got the move once
        await s.disconnect()


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_socket_behind_the_frames_window_reads_what_it_missed_once(monkeypatch):
    monkeypatch.setattr(live, "FRAME_WINDOW", 1)  # a frame reaches one event back
    alice, bob, match = await setup_match()
    watcher = await connect(match)
    seen = [e["seq"] for e in (await watcher.receive_json_from(timeout=5))["events"]]
    await act(match, bob, 1)
    await act(match, alice, 0)  # resolves the round: several events in one commit
    await database_sync_to_async(match.refresh_from_db)()
    while seen[-1] < match.state_seq:
        seen += [e["seq"] for e in (await watcher.receive_json_from(timeout=5))["events"]]
    assert seen == list(range(1, match.state_seq + 1))
    assert await watcher.receive_nothing(timeout=0.3)
    await watcher.disconnect()


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_frame_encoded_once_is_sent_as_it_is_or_trimmed_to_what_the_socket_has_not_sent():
    alice, bob, match = await setup_match()
    watcher = await connect(match)
    head = (await watcher.receive_json_from(timeout=5))["head_seq"]  # what the socket has sent

    def frame(after, upto):
        seqs = range(after + 1, upto + 1)
        return {
            "type": "update",
            "after": after,
            "head_seq": upto,
            "match": {"head_seq": upto},
            "events": [{"seq": n} for n in seqs],
            "log": [{"seq": n, "text": f"line {n}"} for n in seqs],
            "view": {"seats": {1: "keys the JSON text spells as strings"}},
        }

    layer, group = get_channel_layer(), live.group_name(match.pk)
    await layer.group_send(group, live.frame_message(frame(head, head + 2)))
    assert await watcher.receive_from(timeout=5) == json.dumps(frame(head, head + 2))  # the broadcast's text
    await layer.group_send(group, live.frame_message(frame(head + 1, head + 3)))  # crosses what it sent
    trimmed = await watcher.receive_json_from(timeout=5)
    assert trimmed["after"] == head + 2 and [e["seq"] for e in trimmed["events"]] == [head + 3]
    assert trimmed["log"] == [{"seq": head + 3, "text": f"line {head + 3}"}] and trimmed["view"] == {
        "seats": {"1": "keys the JSON text spells as strings"}
    }
    await layer.group_send(group, live.frame_message(frame(head, head + 1)))  # all of it sent already
    assert await watcher.receive_nothing(timeout=0.3)
    await watcher.disconnect()


def test_a_frame_older_than_what_a_socket_sent_is_dropped_and_a_newer_one_trimmed():
    frame = {
        "type": "update",
        "after": 2,
        "head_seq": 5,
        "match": {},
        "view": {},
        "events": [{"seq": n} for n in (3, 4, 5)],
        "log": [{"seq": 4, "text": "x"}, {"seq": 5, "text": "y"}],
    }
    assert live.frame_for_socket(frame, 6) is None
    trimmed = live.frame_for_socket(frame, 4)
    assert [e["seq"] for e in trimmed["events"]] == [5] and trimmed["log"] == [{"seq": 5, "text": "y"}]
    assert trimmed["after"] == 4 and frame["events"][0] == {"seq": 3}  # the shared frame is untouched


def test_a_broadcast_frame_carries_only_the_events_its_commit_added(make_user, client_for):
    # Every move builds the frames whether anyone watches or not: a frame redacts the commit's
    # events for each seat, not the last FRAME_WINDOW of them.

    from .helpers import first_legal, fresh, new_duel, post_action

    alice, bob = make_user("alice"), make_user("bob")
    match = new_duel(alice, bob)
    clients = {0: client_for(alice), 1: client_for(bob)}
    for _ in range(4):
        m = fresh(match)
        seat = clients[0].get(f"/api/matches/{m.id}/").json()["to_move"][0]
        assert post_action(clients[seat], m, seat, first_legal(clients[seat], m, seat)[0]).status_code == 201
    match = fresh(match)
    before = match.state_seq
    seat = clients[0].get(f"/api/matches/{match.id}/").json()["to_move"][0]
    assert post_action(clients[seat], match, seat, first_legal(clients[seat], match, seat)[0]).status_code == 201
    match = fresh(match)
    payload = OutboxMessage.objects.filter(topic="match.broadcast").order_by("-pk").first().payload
    assert payload["after"] == before and payload["head_seq"] == match.state_seq
    frames = live.frames_for(match, payload["after"])
    for frame in frames.values():
        assert [e["seq"] for e in frame["events"]] == list(range(before + 1, match.state_seq + 1))
        assert frame["after"] == before
    # An older message without "after" still gets the whole window (up to FRAME_WINDOW events).
    assert len(live.frames_for(match)[None]["events"]) == min(match.state_seq, live.FRAME_WINDOW)


def test_an_action_post_reads_the_match_once_for_its_command_and_its_broadcast(make_user, client_for):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from .helpers import first_legal, fresh, new_duel, post_action

    alice, bob = make_user("alice"), make_user("bob")
    match = new_duel(alice, bob)
    client = client_for(bob)
    action, seq = first_legal(client, match, 1)[0], fresh(match).state_seq
    with CaptureQueriesContext(connection) as queries:
        response = post_action(client, match, 1, action, expected_seq=seq)
    assert response.status_code == 201 and response.json()["head_seq"] == fresh(match).state_seq
    reads = [q["sql"] for q in queries if q["sql"].startswith("SELECT")]
    # The command's lock; the broadcast after the commit builds its frames from the command's
    # match and events (live.broadcast_held), reading neither again, nor the log lines.
    assert len([s for s in reads if 'FROM "matches_match"' in s]) == 1, reads
    assert not [s for s in reads if 'FROM "matches_event"' in s or 'FROM "matches_matchlog"' in s], reads
    # The seats once, joined to their users: the command's seat check and the frames share it.
    seat_reads = [s for s in reads if 'FROM "matches_seat"' in s]
    assert len(seat_reads) == 1 and all('JOIN "auth_user"' in s for s in seat_reads), seat_reads
    assert OutboxMessage.objects.filter(topic="match.broadcast", delivered_at__isnull=True).count() == 0


@pytest.mark.usefixtures("no_task_outlives_its_test")
async def test_a_broadcast_on_redis_sends_from_a_loop_of_its_own_not_the_servers(monkeypatch):
    # The test's loop stands for daphne's: a frame still reaches its socket, and the group_send
    # did not wait in the server loop's queue behind the sockets' writes.
    layer = get_channel_layer()
    if not isinstance(layer, RedisChannelLayer):
        pytest.fail("Run with REDIS_URL set: the project's channel layer is channels-redis'.")
    alice, bob, match = await setup_match()
    watcher = await connect(match)
    await watcher.receive_json_from(timeout=5)
    sent = []
    real = live.group_send_all

    async def spy(layer, sends):
        sent.append((asyncio.get_running_loop(), [group for group, _ in sends]))
        await real(layer, sends)

    monkeypatch.setattr(live, "group_send_all", spy)
    await act(match, bob, 1)
    frame = await watcher.receive_json_from(timeout=5)
    assert [e["seq"] for e in frame["events"]] == [frame["head_seq"]]
    await act(match, alice, 0)  # the round resolves: its events and the draws after it, one frame
    frame = await watcher.receive_json_from(timeout=5)
    assert frame["events"][-1]["seq"] == frame["head_seq"]
    server = asyncio.get_running_loop()
    # The spectators' frame and both seats' went together, from a loop that is not the server's,
    # the same loop for every broadcast of the process.
    assert [groups for _, groups in sent] == [
        [live.group_name(match.pk)] + [live.seat_group(match.pk, s) for s in (0, 1)]
    ] * 2
    assert sent[0][0] is not server and sent[0][0] is sent[1][0]
    await watcher.disconnect()


def test_a_sender_thread_that_is_gone_is_replaced_as_after_a_fork(monkeypatch):
    sent = []

    class Layer(RedisChannelLayer):
        def __init__(self):
            pass

    async def send_all():
        sent.append(threading.current_thread())

    dead = threading.Thread(target=lambda: None)
    dead.start()
    dead.join()
    inherited = asyncio.new_event_loop()
    monkeypatch.setattr(live, "_sender", (inherited, dead))
    try:
        live.run_sends(Layer(), send_all)
        live.run_sends(Layer(), send_all)
        assert sent[0] is not dead and sent[0].name == "broadcast-sender" and sent[1] is sent[0]
    finally:
        inherited.close()
        started, thread = live._sender
        started.call_soon_threadsafe(started.stop)
        thread.join(timeout=5)


def test_a_warmed_sender_has_the_redis_connections_a_burst_of_broadcasts_sends_on():
    layer = get_channel_layer()
    if not isinstance(layer, RedisChannelLayer):
        pytest.fail("Run with REDIS_URL set: the project's channel layer is channels-redis'.")
    live.warm_sender(sends=6).result(timeout=10)
    pool = layer._layers[live._sender_loop()].get_connection(0).connection_pool
    opened = len(pool._available_connections) + len(pool._in_use_connections)

    async def send_all():
        # Six requests' broadcasts at once, each sent as a broadcast sends (one pipeline at a time).
        sends = [[(f"warm.{i}.{g}", {"type": "match.frame"}) for g in range(3)] for i in range(6)]
        await asyncio.gather(*(live.group_send_all(layer, broadcast) for broadcast in sends))

    live.run_sends(layer, send_all)
    assert opened >= 6 and len(pool._available_connections) + len(pool._in_use_connections) == opened
