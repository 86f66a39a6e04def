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
