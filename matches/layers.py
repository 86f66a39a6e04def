"""The channel layer: channels-redis' list layer, with a process's sockets served by one reader.

channels-redis' ``RedisChannelLayer`` already keeps one Redis queue per process: a group_send
writes one message per process, naming every local channel it is for, so a frame for 100
sockets of one daphne is one message there (0.1 Redis round trips a socket's frame at 10 x 100,
counted with MONITOR in the live fan-out benchmark). What cost was the hand-over inside the
process: its ``receive()`` makes every waiting socket race for a lock with two tasks and an
``asyncio.wait`` (the winner reads Redis for everyone; the others cancel their lock waits), and
it drops and rebuilds the socket's ``asyncio.Queue`` after every message. Here one reader task
per process reads, and each waiting receive is one future that the reader completes.

The reader reads as the stock ``receive_single`` does, a batch at a time: one script (the stock
read's restore of the backup queue, then up to ``BATCH`` waiting messages moved to the backup
queue, as its BZPOPMIN and ZADD move one) and, once they are handed over, one ZREM of them from
the backup; only when nothing waits does it block, in the stock ``_brpop_with_clean``. The stock
read takes four round trips a message (at 50 x 20 the reader's share went from 600 round trips
to about 20). The guarantees are the stock layer's: a message stays in Redis (its queue, or the
backup queue that the next read puts back in front) until the reader has it, and the reader hands
it to the local buffers with no await in between; the next read waits for the last ZREM (the
stock per-channel lock), so a handed-over message is not restored. Expiry, capacity and groups
are the stock code's, and a socket's buffer drops its oldest message past the capacity, as the
stock ``BoundedQueue`` does. A receive is cancelled when its socket goes away: what the reader
handed over for that socket goes with it, as in the stock layer, unless another receive waits on
the same channel (then that one gets it); what the reader has not read stays in Redis. This leans
on channels-redis internals (``_brpop_with_clean``, ``_backup_channel_name``,
``receive_cleaners``), hence the pin below 4.4 in pyproject.toml.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
import weakref

from channels_redis.core import RedisChannelLayer
from redis.driver_info import DriverInfo

log = logging.getLogger(__name__)

#: What every new Redis connection of the layer tells the server about its client (CLIENT SETINFO),
#: looked up once a process. Left to redis-py 8, each new connection looks its own version up in
#: the installed packages' metadata (importlib.metadata: a scan of sys.path, about a millisecond):
#: when a thousand sockets leave at once, each ``group_discard`` opens a connection, and that scan
#: was a fifth of daphne's samples while those sockets' neighbours waited for their frames.
DRIVER_INFO = DriverInfo()

#: The most messages one read moves from the channel's queue to its backup queue and hands over.
BATCH = 100

#: The stock read's restore (the backup queue back in front of the channel's queue), then up to
#: ARGV[1] messages moved from the queue to the backup with their scores, oldest first.
BATCH_READ = """
local backed_up = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
for i = #backed_up, 1, -2 do
    redis.call('ZADD', KEYS[1], backed_up[i], backed_up[i - 1])
end
redis.call('DEL', KEYS[2])
local popped = redis.call('ZPOPMIN', KEYS[1], tonumber(ARGV[1]))
local members = {}
for i = 1, #popped, 2 do
    redis.call('ZADD', KEYS[2], popped[i + 1], popped[i])
    members[#members + 1] = popped[i]
end
return members
"""


class SharedReaderRedisChannelLayer(RedisChannelLayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.hosts = [{"driver_info": DRIVER_INFO, **host} for host in self.hosts]
        #: Messages the reader handed over, by process-local channel, oldest first.
        self._buffers: dict[str, collections.deque] = {}
        #: The futures of the receives waiting on each channel, first come first served.
        self._getters: dict[str, collections.deque] = {}
        self._reader: asyncio.Task | None = None
        #: The last read's removal of its message from the backup queue.
        self._cleaner: asyncio.Future | None = None
        #: Per event loop, per host: the group changes waiting for the next batch.
        self._batches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._flushers: set[asyncio.Task] = set()

    async def receive(self, channel):
        if "!" not in channel:
            return await super().receive(channel)
        assert self.require_valid_channel_name(channel)
        real_channel = self.non_local_name(channel)
        assert real_channel.endswith(self.client_prefix + "!"), "Wrong client prefix"
        loop = asyncio.get_running_loop()
        if self.receive_count and self.receive_event_loop is not loop:
            raise RuntimeError("Two event loops are trying to receive() on one channel layer at once!")
        self.receive_count += 1
        self.receive_event_loop = loop
        cancelled = False
        try:
            while not self._buffers.get(channel):
                reader = self._reader
                if reader is None or reader.done() or reader.get_loop() is not loop:
                    self._reader = loop.create_task(self._read(real_channel))
                waiter = loop.create_future()
                self._getters.setdefault(channel, collections.deque()).append(waiter)
                try:
                    await waiter
                except BaseException as error:
                    self._forget(channel, waiter)
                    if channel not in self._getters and isinstance(error, asyncio.CancelledError):
                        # Nobody else waits on it: the socket is going away. What was handed
                        # over for it goes too, as in the stock layer (else it stays for good).
                        self._buffers.pop(channel, None)
                    elif waiter.done() and not waiter.cancelled() and self._buffers.get(channel):
                        # Woken, then cancelled before taking the message: it goes to the next.
                        self._wake(channel)
                    raise
            buffer = self._buffers[channel]
            message = buffer.popleft()
            if not buffer:
                del self._buffers[channel]
            return message
        except asyncio.CancelledError:
            cancelled = True
            raise
        finally:
            self.receive_count -= 1
            if self.receive_count == 0:
                self.receive_event_loop = None
                if cancelled and self._reader is not None:
                    # The last socket went away. As in the stock layer when the receive that was
                    # reading is cancelled: a message in the backup queue is restored by the next
                    # read, and the receive ends once the read has (redis-py drops its connection
                    # first). Otherwise (the last receive returned) the reader stops by itself at its
                    # pop's timeout.
                    reader, self._reader = self._reader, None
                    await _stop(reader)

    # Group membership, batched (issue 17, P5). When a thousand sockets leave at once (a match
    # ends, a network blip), each consumer's stock ``group_discard`` took a connection of its own
    # from the pool for its one ZREM: the pool opened hundreds of new connections in a burst, and
    # kept them. Here the changes asked for while a batch is on its way go together, in the order
    # asked, as one pipeline on one connection, and each caller returns when its change is made
    # (or gets the batch's error), as with the stock call. A socket's add and its discard, asked
    # in that order, are made in that order, even in one batch.

    async def group_add(self, group, channel):
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        await self._membership(group, ("add", self._group_key(group), channel))

    async def group_discard(self, group, channel):
        assert self.require_valid_group_name(group), "Group name not valid"
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        await self._membership(group, ("discard", self._group_key(group), channel))

    async def _membership(self, group: str, change: tuple[str, str, str]) -> None:
        loop = asyncio.get_running_loop()
        index = self.consistent_hash(group)
        batches = self._batches.setdefault(loop, {})
        done = loop.create_future()
        if index in batches:
            batches[index].append((change, done))  # the next batch of the flusher on its way
        else:
            batches[index] = [(change, done)]
            # Not awaited here: the flusher outlives a caller that is cancelled, so the others
            # in its batch still get their answers.
            flusher = loop.create_task(self._flush_membership(batches, index))
            self._flushers.add(flusher)  # a task nothing refers to may be collected mid-way
            flusher.add_done_callback(self._flushers.discard)
        await done

    async def _flush_membership(self, batches: dict, index: int) -> None:
        # One batch at a time per host: what is asked while a batch is on its way goes next.
        batch: list = []
        try:
            while batches[index]:
                batch, batches[index] = batches[index], []
                pipe = self.connection(index).pipeline(transaction=False)
                for (kind, key, channel), _done in batch:
                    if kind == "add":
                        pipe.zadd(key, {channel: time.time()})
                        pipe.expire(key, self.group_expiry)
                    else:
                        pipe.zrem(key, channel)
                try:
                    await pipe.execute()
                except Exception as error:
                    _answer(batch, error)
                else:
                    _answer(batch, None)
                batch = []
        except Exception as error:  # no connection to be had, or a bug: nobody waits forever
            _answer(batch + batches.get(index, []), error)  # the callers have it; nobody awaits this task
        except asyncio.CancelledError as cancelled:  # with the loop
            _answer(batch + batches.get(index, []), cancelled)
            raise
        finally:
            del batches[index]

    async def close_pools(self):
        # And so flush(): the reader reads through these pools. A reader the last receive left
        # (it returned, nobody receives) stops by itself at its pop's timeout, or here.
        reader, self._reader = self._reader, None
        if reader is not None and reader.get_loop() is asyncio.get_running_loop():
            await _stop(reader)
        await super().close_pools()

    def _forget(self, channel: str, waiter: asyncio.Future) -> None:
        getters = self._getters.get(channel)
        if getters is None:
            return
        try:
            getters.remove(waiter)
        except ValueError:
            pass  # already taken off by _wake
        if not getters:
            del self._getters[channel]

    def _wake(self, channel: str) -> None:
        getters = self._getters.get(channel)
        loop = asyncio.get_running_loop()
        while getters:
            waiter = getters.popleft()
            # A waiter of another loop is a receive that loop's close left behind (tests).
            if not waiter.done() and waiter.get_loop() is loop:
                waiter.set_result(None)
                break
        if getters is not None and not getters:
            del self._getters[channel]

    def _hand_over(self, channel: str, message: dict) -> None:
        buffer = self._buffers.get(channel)
        if buffer is None:
            buffer = self._buffers[channel] = collections.deque()
        elif len(buffer) >= self.capacity:
            buffer.popleft()  # the stock BoundedQueue's rule: a socket that stopped reading loses its oldest
        buffer.append(message)
        self._wake(channel)

    def _fail_one(self, error: Exception) -> None:
        loop = asyncio.get_running_loop()
        for getters in self._getters.values():
            for waiter in getters:
                if not waiter.done() and waiter.get_loop() is loop:
                    waiter.set_exception(error)
                    return

    async def _read(self, real_channel: str) -> None:
        """Reads while any receive is in progress, as the stock receive_single does."""
        index = self.consistent_hash(real_channel)
        channel_key = self.prefix + real_channel
        while self.receive_count:
            try:
                await self._read_one(index, channel_key, real_channel)
            except Exception as error:
                # The stock layer raises a read's error in the one receive that was reading;
                # here, in the first receive waiting, and the reader goes on.
                self._fail_one(error)
                await asyncio.sleep(0.1)

    async def _read_one(self, index: int, channel_key: str, real_channel: str) -> None:
        cleaner = self._cleaner
        if cleaner is not None and cleaner.get_loop() is asyncio.get_running_loop():
            # The read puts the backup queue back in front of the channel's queue, so it waits
            # until the last messages have left it (the stock layer's per-channel lock). Shielded:
            # a cancelled reader must not cancel that cleanup (the messages would come again).
            try:
                await asyncio.shield(cleaner)
            except asyncio.CancelledError:
                raise
            except Exception:
                pass  # as in the stock layer: the messages are restored and come again
        self._cleaner = None
        backup = self._backup_channel_name(channel_key)
        connection = self.connection(index)
        # What is waiting, up to a batch, in one round trip: the stock read's restore script, then
        # the messages moved to the backup queue as its BZPOPMIN and ZADD move one.
        contents = await connection.eval(BATCH_READ, 2, channel_key, backup, BATCH)
        if not contents:
            content = await self._brpop_with_clean(index, channel_key, timeout=self.brpop_timeout)
            if content is None:
                return  # the pop timed out: read again if anyone still receives
            contents = [content]
        self._cleaner = asyncio.ensure_future(connection.zrem(backup, *contents))
        self.receive_cleaners.append(self._cleaner)
        self._cleaner.add_done_callback(self.receive_cleaners.remove)
        for content in contents:
            message = self.deserialize(content)
            message_channel = message.pop("__asgi_channel__", real_channel)
            if isinstance(message_channel, list):
                for name in message_channel:
                    self._hand_over(name, message)
            else:
                self._hand_over(message_channel, message)


def _answer(batch: list, error: BaseException | None) -> None:
    for _change, done in batch:
        if done.done():
            continue
        if error is None:
            done.set_result(None)
        elif isinstance(error, asyncio.CancelledError):
            done.cancel()
        else:
            done.set_exception(error)


async def _stop(reader: asyncio.Task) -> None:
    """Cancels the reader until it ends: on Python 3.11 asyncio.wait_for, which redis-py sends
    with, loses a cancellation that meets the send's completion, and the reader would then wait
    out its blocking pop."""
    while not reader.done():
        reader.cancel()
        await asyncio.wait([reader], timeout=0.1)


#: Each channel key of a group send gets its message unless it already holds its capacity, and its
#: expiry is renewed when it does; returns how many keys were full. The same rule as channels-redis'
#: ``group_send`` (a full channel keeps what it has and gets nothing), written here for the
#: pipelined send. KEYS: the channel keys; ARGV: a message per key, a capacity per key, the
#: score to add with, the expiry in seconds.
GROUP_SEND = """
local keys = #KEYS
local score, expiry = ARGV[2 * keys + 1], ARGV[2 * keys + 2]
local full = 0
for i = 1, keys do
    if redis.call('ZCARD', KEYS[i]) < tonumber(ARGV[keys + i]) then
        redis.call('ZADD', KEYS[i], score, ARGV[i])
        redis.call('EXPIRE', KEYS[i], expiry)
    else
        full = full + 1
    end
end
return full
"""


async def group_send_all(layer: RedisChannelLayer, sends: list[tuple[str, dict]]) -> None:
    """channels-redis' ``group_send`` of each (group, message), its commands pipelined: one round
    trip per Redis host for every group's members (old ones dropped first), one per host for
    every message (each channel key's old messages dropped, once, then ``GROUP_SEND`` per
    message, with its own time and capacities). Three group_sends (a move's spectators and two
    seats) were twelve round trips, and redis-py's Python per command was most of a broadcast's
    CPU (issue 17, P5: benchmarks/bench_broadcast_cpu.py). A socket that joins its group after
    the members are read joined after the commit being broadcast, and reads it from the database
    (consumers.py), as with one group_send. Uses channels-redis internals, as ``group_send``
    does (pinned below 4.4 in pyproject.toml)."""
    now = int(time.time())
    groups: dict[int, list[int]] = {}
    for position, (group, _) in enumerate(sends):
        assert layer.require_valid_group_name(group), "Group name not valid"
        groups.setdefault(layer.consistent_hash(group), []).append(position)

    async def members_on(index: int) -> list[tuple[int, list[str]]]:
        pipe = layer.connection(index).pipeline(transaction=False)
        for position in groups[index]:
            key = layer._group_key(sends[position][0])
            pipe.zremrangebyscore(key, min=0, max=now - layer.group_expiry)
            pipe.zrange(key, 0, -1)
        replies = await pipe.execute()
        return [(p, [name.decode("utf8") for name in names]) for p, names in zip(groups[index], replies[1::2])]

    members = dict(pair for pairs in await asyncio.gather(*(members_on(i) for i in groups)) for pair in pairs)
    # Per host of the channel keys: each key's old messages dropped, then each message's script.
    expired: dict[int, dict[bytes | str, None]] = {}
    scripts: dict[int, list[tuple[int, list, list]]] = {}
    for position, (_, message) in enumerate(sends):
        by_host, messages, capacities = layer._map_channel_keys_to_connection(members[position], message)
        for index, keys in by_host.items():
            expired.setdefault(index, {}).update(dict.fromkeys(keys))
            args = [messages[key] for key in keys] + [capacities[key] for key in keys]
            scripts.setdefault(index, []).append((position, keys, args))

    async def send_on(index: int) -> list[tuple[int, int]]:
        pipe = layer.connection(index).pipeline(transaction=False)
        for key in expired[index]:
            pipe.zremrangebyscore(key, min=0, max=int(time.time()) - int(layer.expiry))
        for _, keys, args in scripts[index]:
            pipe.eval(GROUP_SEND, len(keys), *keys, *args, time.time(), layer.expiry)
        replies = await pipe.execute()
        return [(position, over) for (position, _, _), over in zip(scripts[index], replies[len(expired[index]) :])]

    for results in await asyncio.gather(*(send_on(i) for i in scripts)):
        for position, over in results:
            if over > 0:
                log.info(
                    "%s of %s channels over capacity in group %s", over, len(members[position]), sends[position][0]
                )
