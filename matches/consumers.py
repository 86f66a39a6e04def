from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from urllib.parse import parse_qs

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from channels.layers import get_channel_layer
from django.db import InterfaceError, OperationalError

from . import live

log = logging.getLogger(__name__)

#: Bounds on what a client may send over the socket: it only ever asks to resync.
MAX_FRAME_BYTES = 4096
#: Client frames a socket may send at once, and how many more each second gives it: a page sends a
#: resync at most once a second (match.js). Past that the socket is told and closed (4429): every
#: frame costs a parse and an answer on the loop all the process's sockets share.
FRAME_BURST = 10
FRAME_RATE = 1.0
#: A resync replays the caller's whole view, so a client gets one per this many seconds; more are
#: answered with an error frame (the socket stays open).
RESYNC_INTERVAL_SECONDS = 1.0
#: The channel layer forgets group members after its group_expiry (config/settings.py, so that
#: sockets of a killed process do not linger for a day); a live socket renews its membership well
#: within that.
GROUP_RENEW_SECONDS = 120
#: After a renewal failed (a Redis blip), the next try comes this much sooner (keep_membership).
GROUP_RENEW_RETRY_SECONDS = 5


class FrameConsumer(AsyncJsonWebsocketConsumer):
    """A socket whose client frames are validated: whatever arrives (binary, not JSON, JSON that is
    not an object, an unknown type) is answered with an error frame, and the socket stays open,
    unless it sends more frames than FRAME_BURST and FRAME_RATE allow."""

    #: Set once the server closes the socket (``end``): nothing more is read or sent on it.
    ended = False
    #: Frames the socket may still send now (FRAME_BURST at most), as of ``_budget_at``.
    _budget: float = FRAME_BURST
    _budget_at: float | None = None

    async def receive(self, text_data=None, bytes_data=None, **kwargs):
        if self.ended:
            return  # frames already on their way when the socket was closed
        if not self._spend_frame():
            await self.send_error(
                "too_many_frames", f"At most {FRAME_BURST} frames at once and {FRAME_RATE:g} a second."
            )
            await self.end(code=4429)
            return
        if text_data is None:
            await self.send_error("binary_frame", "Send text frames holding a JSON object.")
            return
        if len(text_data) > MAX_FRAME_BYTES:
            await self.send_error("frame_too_large", f"Frames are at most {MAX_FRAME_BYTES} characters.")
            return
        try:
            content = json.loads(text_data)
        except (ValueError, RecursionError):
            await self.send_error("not_json", "A frame must be a JSON object.")
            return
        if not isinstance(content, dict):
            await self.send_error("not_an_object", 'A frame must be a JSON object, like {"type": "resync"}.')
            return
        await self.receive_json(content, **kwargs)

    def _spend_frame(self) -> bool:
        now = time.monotonic()
        if self._budget_at is not None:
            self._budget = min(FRAME_BURST, self._budget + (now - self._budget_at) * FRAME_RATE)
        self._budget_at = now
        if self._budget < 1:
            return False
        self._budget -= 1
        return True

    async def __call__(self, scope, receive, send):
        # channels' AsyncConsumer.__call__ sets up the same (scope, channel layer and name, send)
        # but then waits on the socket and the layer with await_many_dispatch: per message a new
        # task for the next receive and an asyncio.wait over both, about twice the event-loop
        # work of a standing task per source (a measure of the loop alone: 1,000 consumers, one
        # message each, 70-80 us a message against 30-37 us on this machine; _dispatch_from).
        # Messages are still dispatched one at a time, in the order they arrived; a source's
        # error is raised here, as there.
        self.scope = scope
        self.channel_layer = get_channel_layer(self.channel_layer_alias)
        sources = [receive]
        if self.channel_layer is not None:
            self.channel_name = await self.channel_layer.new_channel()
            self.channel_receive = functools.partial(self.channel_layer.receive, self.channel_name)
            sources.append(self.channel_receive)
        self.base_send = send
        try:
            await _dispatch_from(sources, self.dispatch)
        except StopConsumer:
            pass
        finally:
            # However the consumer ends: an error out of a source or a handler (a Redis read
            # error raised into its receive) skips disconnect, and the renewal would go on
            # re-adding a dead channel to its group, holding the consumer, for good.
            self.stop_renewing()

    async def dispatch(self, message):
        # channels' AsyncConsumer.dispatch first runs close_old_connections through
        # sync_to_async: a hop to the one sync thread and back for every message, so one frame
        # for 1,000 sockets queued 1,000 hops on that thread, one after another (the live fan-out
        # benchmark's bare send at 10 x 100: daphne CPU 1.05-1.15 s for its 3,000 frames with
        # the hop, 0.66 s without). These consumers reach the database only through
        # database_sync_to_async, which closes old connections itself before and after each
        # call, so the hop did nothing for them. The rest is AsyncConsumer.dispatch's.
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def send_error(self, code: str, detail: str) -> None:
        await self.send_json({"type": "error", "code": code, "detail": detail})

    async def keep_membership(self, *groups: str) -> None:
        """Renews the socket's membership of ``groups`` (joined just before this starts) until the
        socket ends. A failed renewal (a Redis blip) is tried again soon: the membership still
        stands until the layer's group_expiry after the last renewal that succeeded, so the page
        misses nothing and is left alone, where closing its socket at the first failure would send
        every page of the process through a reconnect and a full catch-up read for a blip. Only
        when the next try would come after the membership may have lapsed is the socket closed
        instead: from then on frames may pass it by unseen while the page still says it is live,
        and a page that reconnects catches up from what it holds (or keeps reconnecting, showing
        that it is, until Redis is back). After each renewal the socket is closed (4401) if what
        entitled it to its groups no longer holds (``entitled``)."""
        expiry = getattr(self.channel_layer, "group_expiry", 86400)
        renewed = time.monotonic()
        delay = GROUP_RENEW_SECONDS
        while True:
            await asyncio.sleep(delay)
            try:
                for group in groups:
                    await self.channel_layer.group_add(group, self.channel_name)
            except Exception as error:
                if delay == GROUP_RENEW_SECONDS:  # once per outage, not at every retry of every socket
                    log.warning("group %s: renewing the membership failed (%r); trying again", group, error)
                delay = min(GROUP_RENEW_RETRY_SECONDS, GROUP_RENEW_SECONDS)
                if time.monotonic() + delay >= renewed + expiry:
                    log.warning("group %s: membership not renewed within the group expiry; closing the socket", group)
                    await self.close(code=4503)
                    return
                continue
            renewed, delay = time.monotonic(), GROUP_RENEW_SECONDS
            if not await self.entitled():
                await self.end(code=4401)
                return

    async def entitled(self) -> bool:
        """Whether the socket may still have what it was given on connect (checked at each renewal)."""
        return True

    async def end(self, *, code: int) -> None:
        self.ended = True
        await self.close(code=code)

    def start_renewing(self, *groups: str) -> None:
        self._renewal = asyncio.ensure_future(self.keep_membership(*groups))

    def stop_renewing(self) -> None:
        renewal = getattr(self, "_renewal", None)
        if renewal is not None:
            renewal.cancel()


class MatchConsumer(FrameConsumer):
    """A seat or spectator following one match.

    Connect with ``?after=N`` (the last seq the client holds) to catch up. Each message
    carries the events after the client's last seq, so a reconnecting client gets every
    event exactly once; the view in it is the caller's own (hidden cards redacted).
    Send ``{"type": "resync"}`` for the current view again (at most one a second).

    A seat's socket lasts as long as the session that opened it: signing out closes it at once
    (``session_ended``), an expired or otherwise ended session at the next renewal (``entitled``),
    with code 4401, and the page reconnects as whoever its cookies now say.
    """

    #: A seat's session key (None for a spectator, whose frames hide nothing from anyone).
    session_key: str | None = None

    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope.get("user")
        self.last_seq = _parse_after(self.scope.get("query_string", b""))
        self.last_resync = 0.0
        seat = None
        try:
            exists = self.last_seq is not None
            if exists:
                exists, seat = await database_sync_to_async(live.viewer)(self.match_id, self.user)
        except (OperationalError, InterfaceError):
            await self.close(code=4503)  # the database is briefly away: the page reconnects
            return
        if not exists:
            await self.close(code=4404)
            return
        # A seat's sockets get the seat's frames, everyone else the spectators' (live.py).
        self.groups = [live.viewer_group(self.match_id, seat)]
        if seat is not None:
            session = self.scope.get("session")
            self.session_key = session.session_key if session is not None else None
            self.groups.append(live.user_group(self.user.pk))
        for group in self.groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.start_renewing(*self.groups)
        await self.accept()
        await self.send_update(force=True)

    async def disconnect(self, code):
        self.stop_renewing()
        for group in getattr(self, "groups", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def session_ended(self, message):
        """One of the seat's user's sessions was signed out (live.py): this socket's, or another."""
        if self.session_key is not None and message["session"] == live.session_tag(self.session_key):
            await self.end(code=4401)

    async def entitled(self) -> bool:
        if self.session_key is None:
            return True
        try:
            return await database_sync_to_async(live.session_holds)(session_key=self.session_key, user_id=self.user.pk)
        except (OperationalError, InterfaceError):
            return True  # the database is briefly away: the next renewal asks again

    async def receive_json(self, content, **kwargs):
        # Clients act through the REST API; the socket only asks to resync.
        if content.get("type") != "resync":
            await self.send_error("unknown_type", 'The only frame a client sends is {"type": "resync"}.')
            return
        now = time.monotonic()
        if now - self.last_resync < RESYNC_INTERVAL_SECONDS:
            await self.send_error("throttled", "One resync a second; the last one is on its way.")
            return
        self.last_resync = now
        await self.send_update(force=True)

    async def match_frame(self, message):
        """A frame built once by the broadcast for this socket's group: passed on without a
        database read, unless this socket is further behind than the frame reaches."""
        if self.ended:
            return
        text = message.get("text")
        # Frames sent without their text (verdicts, processes from before it was sent along) carry the frame.
        frame = message["frame"] if text is None else None
        after, head = (message["after"], message["head_seq"]) if frame is None else (frame["after"], frame["head_seq"])
        if after > self.last_seq:
            await self.send_update(force=True)  # a gap: read what is missing
            return
        if head < self.last_seq:
            return  # older than what this socket already sent (frames from two commits can cross)
        if text is not None and after == self.last_seq:
            # The usual case: this socket sends the whole frame, as the broadcast encoded it. A
            # frame's events run up to its head (live.frames_for), so that is what it has sent.
            self.last_seq = head
            await self.send(text_data=text)
            return
        # Overlapping what this socket sent: only what follows it (decoded here, on this rarer path).
        update = live.frame_for_socket(frame if frame is not None else json.loads(text), self.last_seq)
        if update["events"]:
            self.last_seq = update["events"][-1]["seq"]
        await self.send_json(update)

    async def match_update(self, message):
        # Sent by processes from before the broadcast built frames (live.py): kept so a message
        # queued across a deploy re-reads instead of closing the socket for want of a handler.
        await self.send_update(force=True)

    async def send_update(self, *, force: bool):
        if self.ended:
            return
        try:
            update = await database_sync_to_async(live.update_for)(
                match_id=self.match_id, user=self.user, after=self.last_seq
            )
        except (OperationalError, InterfaceError):
            # Nothing was sent, so last_seq stays: the next update (or a resync) catches up.
            await self.send_error("database_unavailable", "Updates are delayed; they resume by themselves.")
            return
        if update is None:
            return
        if update["events"] or force:
            # Advance by the events actually sent (not the head read a moment earlier), so
            # an event committed between the two reads is sent once, next time.
            if update["events"]:
                self.last_seq = max(self.last_seq, update["events"][-1]["seq"])
            await self.send_json(update)


async def _dispatch_from(sources, dispatch) -> None:
    """Dispatches what ``sources`` (receive callables) give, one message at a time, until a
    dispatch or a source raises. Each source is read by a task of its own, which dispatches what
    it read under a lock the sources share: a source is read ahead by at most one message (the
    one waiting for the lock), as a pending receive task of await_many_dispatch holds one, and
    the lock serves its waiters first come first served, so messages go in the order they
    arrived and a source's error is raised after what arrived before it. The reading task
    dispatches itself, rather than handing each message through a queue to one dispatching
    task: one task switch and a queue's wake-up less per message, which for a frame is paid by
    every socket of the process (a measure of the loop alone, 1,000 consumers with a message
    each, best of 20 rounds, runs on the loaded machine: 4-19 us a message through the queue,
    2.0-2.9 us here)."""
    lock = asyncio.Lock()

    async def pump(source):
        while True:
            try:
                message = await source()
            except Exception:
                async with lock:
                    raise
            async with lock:
                await dispatch(message)

    pumps = [asyncio.ensure_future(pump(source)) for source in sources]
    try:
        done, _ = await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()
    finally:
        for task in pumps:
            task.cancel()
        for task in pumps:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass  # the first error was raised above; a second one at once has nowhere to go


def _parse_after(query_string: bytes) -> int | None:
    values = parse_qs(query_string.decode("latin-1")).get("after", ["0"])
    try:
        after = int(values[0])
    except ValueError:
        return None
    return after if 0 <= after < 2**53 else None


class NotFoundConsumer(AsyncJsonWebsocketConsumer):
    """The last websocket route: an address no consumer serves (a match id that is not a UUID, a
    mistyped path) is refused with close code 4404 instead of a routing exception."""

    async def connect(self):
        await self.close(code=4404)
