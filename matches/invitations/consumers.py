"""The invitation page's socket: tells the page when its invitation changed (live.py)."""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.db import InterfaceError, OperationalError

from matches.consumers import FrameConsumer

from . import selectors
from .live import invitation_group


class InvitationConsumer(FrameConsumer):
    """Only the inviter and the invitees follow an invitation; to anyone else it does not exist
    (4404), as on its page and in the API."""

    async def connect(self):
        invitation_id = self.scope["url_route"]["kwargs"]["invitation_id"]
        try:
            invitation = await database_sync_to_async(selectors.invitation_get)(
                invitation_id=invitation_id, user=self.scope.get("user")
            )
        except (OperationalError, InterfaceError):
            await self.close(code=4503)  # the database is briefly away: the page reconnects
            return
        if invitation is None:
            await self.close(code=4404)
            return
        self.group = invitation_group(invitation.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        self.start_renewing(self.group)
        await self.accept()

    async def disconnect(self, code):
        self.stop_renewing()
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        # The page reads and answers through the API; this socket only tells.
        await self.send_error("unknown_type", "This socket only sends updates; it takes no frames.")

    async def invitation_changed(self, message):
        await self.send_json({"type": "changed"})
