"""The channel layer's one reader per process (matches/layers.py, issue 17 P5): the sockets of a
process get what the stock channels-redis layer would give them, in the same order, once each,
and a cancelled receive or reader loses nothing."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from channels.exceptions import ChannelFull
from django.conf import settings

from matches.layers import SharedReaderRedisChannelLayer, group_send_all

pytestmark = pytest.mark.usefixtures("no_task_outlives_its_test")


@pytest.fixture
async def layer():
    assert settings.REDIS_URL, "set REDIS_URL: these tests are about the Redis channel layer"
    layer = SharedReaderRedisChannelLayer(
        hosts=[{"address": settings.REDIS_URL}], prefix=f"test-{uuid.uuid4().hex[:8]}", capacity=5, expiry=2
    )
    yield layer
    await layer.flush()


async def until_waiting(task: asyncio.Task) -> None:
    for _ in range(100):
        await asyncio.sleep(0.01)  # the receive is waiting (and the reader in its blocking pop)
    assert not task.done()


async def test_messages_to_one_channel_arrive_in_the_order_sent(layer):
    channel = await layer.new_channel()
    for n in range(4):
        await layer.send(channel, {"type": "t", "n": n})
    assert [(await layer.receive(channel))["n"] for _ in range(4)] == [0, 1, 2, 3]


async def test_one_group_send_reaches_every_waiting_channel_of_the_process_once(layer):
    channels = [await layer.new_channel() for _ in range(50)]
    for channel in channels:
        await layer.group_add("watchers", channel)
    receives = [asyncio.ensure_future(layer.receive(channel)) for channel in channels]
    await until_waiting(receives[0])
    await layer.group_send("watchers", {"type": "t", "n": 1})
    await layer.group_send("watchers", {"type": "t", "n": 2})
    assert [m["n"] for m in await asyncio.gather(*receives)] == [1] * 50
    assert [(await layer.receive(channel))["n"] for channel in channels] == [2] * 50
    nothing_more = [asyncio.ensure_future(layer.receive(channel)) for channel in channels]
    await until_waiting(nothing_more[0])
    assert not any(task.done() for task in nothing_more)  # each got each message once
    for task in nothing_more:
        task.cancel()
    await asyncio.gather(*nothing_more, return_exceptions=True)


async def test_a_receive_cancelled_while_waiting_loses_no_later_message(layer):
    channel = await layer.new_channel()
    waiting = asyncio.ensure_future(layer.receive(channel))
    await until_waiting(waiting)
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    await layer.send(channel, {"type": "t", "n": 1})
    assert (await layer.receive(channel))["n"] == 1


async def test_a_receive_cancelled_just_after_being_woken_leaves_the_message_for_the_next(layer):
    channel = await layer.new_channel()
    first = asyncio.ensure_future(layer.receive(channel))
    second = asyncio.ensure_future(layer.receive(channel))
    await until_waiting(first)
    layer._hand_over(channel, {"type": "t", "n": 1})  # what the reader does with a message read
    first.cancel()  # woken, but cancelled before it ran
    assert (await asyncio.wait_for(second, 10))["n"] == 1
    assert first.cancelled()


async def test_a_reader_cancelled_between_its_pop_and_the_hand_over_leaves_the_message_in_redis(layer, monkeypatch):
    channel = await layer.new_channel()
    popped = asyncio.Event()
    stock = layer._brpop_with_clean

    async def pop_then_stall(*args, **kwargs):
        content = await stock(*args, **kwargs)
        if content is not None:
            popped.set()
            await asyncio.Event().wait()  # cancelled here: the message is in the backup queue only
        return content

    monkeypatch.setattr(layer, "_brpop_with_clean", pop_then_stall)
    waiting = asyncio.ensure_future(layer.receive(channel))
    await until_waiting(waiting)
    await layer.send(channel, {"type": "t", "n": 1})
    await asyncio.wait_for(popped.wait(), 10)
    waiting.cancel()  # the last receive: the reader is cancelled with it
    await asyncio.gather(waiting, return_exceptions=True)
    monkeypatch.setattr(layer, "_brpop_with_clean", stock)
    assert (await asyncio.wait_for(layer.receive(channel), 10))["n"] == 1  # restored from the backup
    again = asyncio.ensure_future(layer.receive(channel))
    await until_waiting(again)  # and only once
    again.cancel()
    await asyncio.gather(again, return_exceptions=True)


async def test_a_reader_cancelled_after_taking_a_batch_leaves_the_batch_in_redis_in_order(layer, monkeypatch):
    channel = await layer.new_channel()
    for n in range(3):
        await layer.send(channel, {"type": "t", "n": n})  # waiting, so one read takes all three
    moved = asyncio.Event()
    real_connection = layer.connection

    class StallAfterTheBatch:
        def __init__(self, connection):
            self.connection = connection

        def __getattr__(self, name):
            return getattr(self.connection, name)

        async def eval(self, script, *args):
            result = await self.connection.eval(script, *args)
            if result:
                moved.set()
                await asyncio.Event().wait()  # cancelled here: the three are in the backup queue only
            return result

    monkeypatch.setattr(layer, "connection", lambda index: StallAfterTheBatch(real_connection(index)))
    waiting = asyncio.ensure_future(layer.receive(channel))
    await asyncio.wait_for(moved.wait(), 10)
    waiting.cancel()  # the last receive: the reader is cancelled with it
    await asyncio.gather(waiting, return_exceptions=True)
    monkeypatch.setattr(layer, "connection", real_connection)
    assert [(await asyncio.wait_for(layer.receive(channel), 10))["n"] for _ in range(3)] == [0, 1, 2]
    again = asyncio.ensure_future(layer.receive(channel))
    await until_waiting(again)  # each once
    again.cancel()
    await asyncio.gather(again, return_exceptions=True)


async def test_a_read_error_reaches_a_waiting_receive_and_the_next_receive_reads_again(layer, monkeypatch):
    channel = await layer.new_channel()
    stock = layer._brpop_with_clean
    failures = [ConnectionError("Redis went away")]

    async def fail_once(*args, **kwargs):
        if failures:
            raise failures.pop()
        return await stock(*args, **kwargs)

    monkeypatch.setattr(layer, "_brpop_with_clean", fail_once)
    with pytest.raises(ConnectionError):
        await asyncio.wait_for(layer.receive(channel), 10)
    await layer.send(channel, {"type": "t", "n": 1})
    assert (await asyncio.wait_for(layer.receive(channel), 10))["n"] == 1


async def test_capacity_and_expiry_are_the_stock_layers(layer):
    channel = await layer.new_channel()
    for n in range(5):
        await layer.send(channel, {"type": "t", "n": n})
    with pytest.raises(ChannelFull):
        await layer.send(channel, {"type": "t", "n": 5})
    await asyncio.sleep(3)  # past the 2 s expiry: the next send drops the old messages
    await layer.send(channel, {"type": "t", "n": 6})
    assert (await layer.receive(channel))["n"] == 6


async def test_group_sends_pipelined_together_reach_each_channel_as_one_group_send_each_would(layer):
    # Two server processes (their own local channels, one Redis key each) and a channel of no
    # process; a group nobody is in; a channel that is full keeps its messages and gets none.
    other = SharedReaderRedisChannelLayer(hosts=[{"address": settings.REDIS_URL}], prefix=layer.prefix, capacity=5)
    here, there = [await layer.new_channel() for _ in range(3)], [await other.new_channel() for _ in range(2)]
    # A full channel of no process: a process's channels share one Redis key, and its capacity.
    plain, full = f"plain.{uuid.uuid4().hex}", f"full.{uuid.uuid4().hex}"
    for channel in [here[0], here[1], there[0], plain]:
        await layer.group_add("spectators", channel)
    for group, channel in [("seat.0", here[2]), ("seat.1", there[1]), ("seat.1", full)]:
        await layer.group_add(group, channel)
    for n in range(5):
        await layer.send(full, {"type": "t", "n": n})
    sends = [(group, {"type": "t", "to": group}) for group in ("spectators", "seat.0", "seat.1", "nobody")]
    await group_send_all(layer, sends)
    got = {
        channel: (await (other if channel in there else layer).receive(channel))["to"]
        for channel in [*here, *there, plain]
    }
    assert got == {
        here[0]: "spectators",
        here[1]: "spectators",
        there[0]: "spectators",
        plain: "spectators",
        here[2]: "seat.0",
        there[1]: "seat.1",
    }
    assert [(await layer.receive(full))["n"] for _ in range(5)] == [0, 1, 2, 3, 4]
    nothing_more = [asyncio.ensure_future(layer.receive(channel)) for channel in [*here, plain, full]]
    nothing_more += [asyncio.ensure_future(other.receive(channel)) for channel in there]
    await until_waiting(nothing_more[0])
    assert not any(task.done() for task in nothing_more)  # each channel got its message once
    for task in nothing_more:
        task.cancel()
    await asyncio.gather(*nothing_more, return_exceptions=True)
    await other.close_pools()


async def test_new_connections_name_the_client_without_looking_its_version_up_again(layer, monkeypatch):
    # A thousand sockets leaving at once open a connection each for their group_discard; redis-py
    # 8 looked its own version up in the installed packages for every one of them.
    import redis
    import redis.utils

    lookups = []
    monkeypatch.setattr(redis.utils, "get_lib_version", lambda: lookups.append(1) or "0")
    pool = layer.connection(0).connection_pool
    connections = [pool.make_connection() for _ in range(3)]
    assert lookups == []
    assert {c.driver_info.lib_version for c in connections} == {redis.__version__}
    # Still named to a server that keeps client names (CLIENT SETINFO, Redis 7.2 and later).
    assert {c.driver_info.formatted_name for c in connections} == {"redis-py"}
    assert await layer.connection(0).ping()


def _connections_opened(layer) -> int:
    pool = layer.connection(0).connection_pool
    return len(pool._available_connections) + len(pool._in_use_connections)


async def test_three_hundred_sockets_joining_and_leaving_at_once_do_it_over_one_connection(layer):
    # Each stock group_add and group_discard took a connection of its own from the pool: a crowd
    # leaving at once (a match's end, a network blip) opened hundreds in a burst.
    channels = [f"specific.{uuid.uuid4().hex}!{n}" for n in range(300)]
    await layer.group_add("spectators", channels[0])
    before = _connections_opened(layer)
    await asyncio.gather(*(layer.group_add("spectators", channel) for channel in channels))
    members = await layer.connection(0).zrange(layer._group_key("spectators"), 0, -1)
    assert sorted(m.decode() for m in members) == sorted(channels)
    await asyncio.gather(*(layer.group_discard("spectators", channel) for channel in channels))
    assert await layer.connection(0).zrange(layer._group_key("spectators"), 0, -1) == []
    assert _connections_opened(layer) - before <= 1


async def test_a_join_and_a_leave_asked_one_after_the_other_are_made_in_that_order(layer):
    stays, goes = f"specific.{uuid.uuid4().hex}!a", f"specific.{uuid.uuid4().hex}!b"
    await asyncio.gather(
        layer.group_add("watchers", goes),
        layer.group_discard("watchers", stays),
        layer.group_discard("watchers", goes),
        layer.group_add("watchers", stays),
    )
    members = await layer.connection(0).zrange(layer._group_key("watchers"), 0, -1)
    assert [m.decode() for m in members] == [stays]


async def test_a_failed_batch_reaches_every_caller_and_the_next_one_is_made(layer, monkeypatch):
    import redis.asyncio.client
    from redis.exceptions import ConnectionError as RedisConnectionError

    real = redis.asyncio.client.Pipeline.execute
    failures = iter([RedisConnectionError("Redis went away")])

    async def once_failing(self, *args, **kwargs):
        failure = next(failures, None)
        if failure is not None:
            raise failure
        return await real(self, *args, **kwargs)

    monkeypatch.setattr(redis.asyncio.client.Pipeline, "execute", once_failing)
    channels = [f"specific.{uuid.uuid4().hex}!{n}" for n in range(5)]
    outcomes = await asyncio.gather(
        *(layer.group_add("watchers", channel) for channel in channels), return_exceptions=True
    )
    assert all(isinstance(outcome, RedisConnectionError) for outcome in outcomes)
    await layer.group_add("watchers", channels[0])
    members = await layer.connection(0).zrange(layer._group_key("watchers"), 0, -1)
    assert [m.decode() for m in members] == [channels[0]]


async def test_a_batch_that_cannot_even_start_answers_its_callers_and_the_next_one_is_made(layer, monkeypatch):
    # Whatever ends a batch early (here its connection cannot be had), nobody waits forever.
    real = layer.connection
    monkeypatch.setattr(layer, "connection", lambda index: (_ for _ in ()).throw(RuntimeError("no pool")))
    outcomes = await asyncio.wait_for(
        asyncio.gather(*(layer.group_add("watchers", f"specific.x!{n}") for n in range(3)), return_exceptions=True),
        timeout=5,
    )
    assert [type(outcome) for outcome in outcomes] == [RuntimeError] * 3
    monkeypatch.setattr(layer, "connection", real)
    await layer.group_add("watchers", "specific.x!0")
    assert await layer.connection(0).zrange(layer._group_key("watchers"), 0, -1) == [b"specific.x!0"]


async def test_a_batch_cancelled_on_its_way_cancels_its_callers_and_the_next_one_is_made(layer, monkeypatch):
    # The loop shutting down cancels the flusher mid-pipeline: its callers are cancelled with it
    # (none waits forever), and a later change starts a batch of its own.
    import redis.asyncio.client

    real = redis.asyncio.client.Pipeline.execute
    stuck = asyncio.Event()

    async def never_answers(self, *args, **kwargs):
        stuck.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(redis.asyncio.client.Pipeline, "execute", never_answers)
    callers = [asyncio.ensure_future(layer.group_add("watchers", f"specific.y!{n}")) for n in range(3)]
    await asyncio.wait_for(stuck.wait(), timeout=5)
    [flusher] = layer._flushers
    flusher.cancel()
    outcomes = await asyncio.wait_for(asyncio.gather(*callers, return_exceptions=True), timeout=5)
    assert [type(outcome) for outcome in outcomes] == [asyncio.CancelledError] * 3
    monkeypatch.setattr(redis.asyncio.client.Pipeline, "execute", real)
    await asyncio.wait_for(layer.group_add("watchers", "specific.y!0"), timeout=5)
    assert await layer.connection(0).zrange(layer._group_key("watchers"), 0, -1) == [b"specific.y!0"]
