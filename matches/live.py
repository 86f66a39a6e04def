"""Live updates: one Channels group per match stream; every send happens after commit."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from . import selectors
from .models import Match


def group_name(match_id) -> str:
    return f"match.{match_id}"


def broadcast_match(*, match_id, head_seq: int) -> None:
    """Tell every connection on the match that the stream moved. Each connection then
    reads what it missed and its own view, so a seat never receives another's secrets."""
    layer = get_channel_layer()
    if layer is None:
        return
    async_to_sync(layer.group_send)(group_name(match_id), {"type": "match.update", "head_seq": head_seq})


def update_for(*, match_id, user, after: int) -> dict | None:
    """Everything a connection needs to move from ``after`` to the current head."""
    match = selectors.match_get(match_id=match_id)
    if match is None:
        return None
    seat = selectors.viewer_seat(match=match, user=user)
    return {
        "type": "update",
        "after": after,
        "head_seq": match.state_seq,
        "match": selectors.match_summary(match=match, seat=seat),
        "events": selectors.match_events(match=match, seat=seat, after=after),
        "log": selectors.match_log(match=match, after=after),
        "view": selectors.match_view(match=match, seat=seat),
    }


def match_exists(match_id) -> bool:
    return Match.objects.filter(pk=match_id).exists()
