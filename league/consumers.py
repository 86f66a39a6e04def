from __future__ import annotations

import re

from matches.consumers import FrameConsumer

from .streams import stream_group

# Seasons and tournaments are public: anyone may follow them.
_STREAM_ID = re.compile(r"^(season|tournament):[0-9a-f-]{1,64}$")


class StreamConsumer(FrameConsumer):
    """Tells a standings, bracket or round page that its stream moved (it then refetches)."""

    async def connect(self):
        self.stream_id = self.scope["url_route"]["kwargs"]["stream_id"]
        if not _STREAM_ID.match(self.stream_id):
            await self.close(code=4404)
            return
        await self.channel_layer.group_add(stream_group(self.stream_id), self.channel_name)
        self.start_renewing(stream_group(self.stream_id))
        await self.accept()

    async def disconnect(self, code):
        self.stop_renewing()
        if hasattr(self, "stream_id"):
            await self.channel_layer.group_discard(stream_group(self.stream_id), self.channel_name)

    async def receive_json(self, content, **kwargs):
        # Nothing to ask of a stream socket: it only tells; any frame is answered, never fatal.
        await self.send_error("unknown_type", "This socket only sends updates; it takes no frames.")

    async def stream_update(self, message):
        await self.send_json({"type": "update", "head_seq": message["head_seq"]})
