from __future__ import annotations

from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from . import live


class MatchConsumer(AsyncJsonWebsocketConsumer):
    """A seat or spectator following one match.

    Connect with ``?after=N`` (the last seq the client holds) to catch up. Each message
    carries the events after the client's last seq, so a reconnecting client gets every
    event exactly once; the view in it is the caller's own (hidden cards redacted).
    """

    async def connect(self):
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope.get("user")
        self.last_seq = _parse_after(self.scope.get("query_string", b""))
        if self.last_seq is None or not await database_sync_to_async(live.match_exists)(self.match_id):
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(live.group_name(self.match_id), self.channel_name)
        await self.accept()
        await self.send_update(force=True)

    async def disconnect(self, code):
        if hasattr(self, "match_id"):
            await self.channel_layer.group_discard(live.group_name(self.match_id), self.channel_name)

    async def receive_json(self, content, **kwargs):
        # Clients act through the REST API; the socket only asks to resync.
        if content.get("type") == "resync":
            await self.send_update(force=True)

    async def match_update(self, message):
        await self.send_update(force=True)

    async def send_update(self, *, force: bool):
        update = await database_sync_to_async(live.update_for)(
            match_id=self.match_id, user=self.user, after=self.last_seq
        )
        if update is None:
            return
        if update["events"] or force:
            # Advance by the events actually sent (not the head read a moment earlier), so
            # an event committed between the two reads is sent once, next time.
            if update["events"]:
                self.last_seq = max(self.last_seq, update["events"][-1]["seq"])
            await self.send_json(update)


def _parse_after(query_string: bytes) -> int | None:
    values = parse_qs(query_string.decode("latin-1")).get("after", ["0"])
    try:
        after = int(values[0])
    except ValueError:
        return None
    return after if after >= 0 else None
