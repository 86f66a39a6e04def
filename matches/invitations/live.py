"""Invitation pages told live that their invitation changed (an answer, a cancel, the match made).

An answer records an outbox message in its own transaction (matches.outbox); after the commit the
message tells the invitation's group, and each socket of it (consumers.py) tells its page, which
reads the invitation again through the API. The frame carries nothing but that, so a socket shows
nobody anything its page could not read anyway.
"""

from __future__ import annotations

from channels.layers import get_channel_layer

from matches.live import send_messages
from matches.outbox import handler, outbox_add

TOPIC = "invitation.changed"


def invitation_group(invitation_id) -> str:
    return f"invitation.{invitation_id}"


def invitation_changed(invitation) -> None:
    """Inside the answer's transaction: its pages hear of it once that commits."""
    outbox_add(topic=TOPIC, payload={"invitation_id": str(invitation.pk)})


@handler(TOPIC, if_given_up="its pages miss one nudge to read the invitation again; a page read again shows it")
def _tell_pages(payload: dict) -> None:
    # Idempotent: a page told twice reads the invitation twice. Sent as the match broadcasts are,
    # within LIVE_BROADCAST_TIMEOUT (matches/live.py run_sends): a Redis that never answers leaves
    # the message to the sweeper instead of holding the answer's request for the socket timeout.
    layer = get_channel_layer()
    if layer is not None:
        send_messages(layer, [(invitation_group(payload["invitation_id"]), {"type": "invitation.changed"})])
