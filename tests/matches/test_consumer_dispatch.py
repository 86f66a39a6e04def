"""The consumers' own dispatch loop (issue 17, P5): what channels' await_many_dispatch does, with a
standing task per source: every message dispatched once, one at a time, in the order it arrived;
a source's error raised; the sources stopped when the loop ends."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import StopConsumer

from matches.consumers import _dispatch_from

pytestmark = pytest.mark.usefixtures("no_task_outlives_its_test")  # the sources' tasks end with the loop


def source_of(queue: asyncio.Queue):
    async def receive():
        item = await queue.get()
        if isinstance(item, Exception):
            raise item
        return item

    return receive


async def test_messages_of_two_sources_are_dispatched_once_each_one_at_a_time_in_arrival_order():
    socket, layer = asyncio.Queue(), asyncio.Queue()
    seen, busy = [], []

    async def dispatch(message):
        busy.append(message)
        assert len(busy) == 1, busy  # never two handlers at once
        await asyncio.sleep(0.001)  # a handler that awaits (a send, a database read)
        seen.append(message["n"])
        busy.pop()
        if message["n"] == 199:
            raise StopConsumer

    for n in range(200):
        await (socket if n % 3 == 0 else layer).put({"n": n})
        if n % 7 == 0:
            await asyncio.sleep(0.002)
    loop = asyncio.ensure_future(_dispatch_from([source_of(socket), source_of(layer)], dispatch))
    with pytest.raises(StopConsumer):
        await asyncio.wait_for(loop, 10)
    assert sorted(seen) == list(range(200))  # none missed, none twice
    # Each source's messages in its own order (what the two sockets of channels promise).
    assert [n for n in seen if n % 3 == 0] == list(range(0, 200, 3))
    assert [n for n in seen if n % 3] == [n for n in range(200) if n % 3]


async def test_a_sources_error_is_raised_and_the_other_source_is_stopped():
    socket, layer = asyncio.Queue(), asyncio.Queue()
    receives = []

    async def watched():
        receives.append(asyncio.current_task())
        return await source_of(socket)()

    await layer.put(ConnectionError("Redis is away"))
    with pytest.raises(ConnectionError):
        await asyncio.wait_for(_dispatch_from([watched, source_of(layer)], lambda message: None), 5)
    assert receives and all(task.done() for task in receives)


async def test_a_sources_error_is_raised_after_what_the_other_source_delivered_before_it():
    socket, layer = asyncio.Queue(), asyncio.Queue()
    seen, release = [], asyncio.Event()

    async def dispatch(message):
        seen.append(message["n"])
        if message["n"] == 0:
            await release.wait()  # a slow handler: the next messages arrive while it runs

    await socket.put({"n": 0})
    loop = asyncio.ensure_future(_dispatch_from([source_of(socket), source_of(layer)], dispatch))
    await asyncio.sleep(0.01)
    await layer.put({"n": 1})
    await asyncio.sleep(0.01)
    await socket.put(ConnectionError("the socket went away"))
    await asyncio.sleep(0.01)
    release.set()
    with pytest.raises(ConnectionError):
        await asyncio.wait_for(loop, 5)
    assert seen == [0, 1]


async def test_a_source_is_read_ahead_by_one_message_at_most_while_a_handler_runs():
    socket, layer = asyncio.Queue(), asyncio.Queue()
    seen, release = [], asyncio.Event()

    async def dispatch(message):
        seen.append(message["n"])
        await release.wait()

    for n in range(5):
        await layer.put({"n": n})
    loop = asyncio.ensure_future(_dispatch_from([source_of(socket), source_of(layer)], dispatch))
    await asyncio.sleep(0.02)
    assert seen == [0] and layer.qsize() >= 3  # one in the handler, at most one more read
    release.set()
    await asyncio.sleep(0.02)
    assert seen == [0, 1, 2, 3, 4]
    loop.cancel()
    with pytest.raises(asyncio.CancelledError):
        await loop
