"""League-side event streams (seasons, tournaments): append facts, read them back.

Matches have their own services; everything else the league records (a season's fixtures,
a tournament's registrations, pairings, results and rulings) is a plain stream of facts in
the same event store, with the same guarantees: per-stream seq, optimistic concurrency by
``expected_seq``, idempotent ``event_id``, hash chain, immutability. Projections (fixtures,
standings, brackets) are rebuilt from these events and nothing else.
"""

from __future__ import annotations

import uuid
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from matches import eventstore
from matches.eventstore import EventIdReused, NewEvent
from matches.models import Event, Stream
from matches.outbox import handler, outbox_add


def stream_group(stream_id: str) -> str:
    # Channels group names allow only ASCII letters, digits, hyphens, underscores and periods.
    return "stream." + stream_id.replace(":", ".")


def stream_append(
    *,
    stream_id: str,
    kind: str,
    type: str,
    data: dict[str, Any],
    actor: str,
    expected_seq: int | None = None,
    event_id: uuid.UUID | None = None,
) -> tuple[Event, bool]:
    """Append one fact; returns (event, created). ``expected_seq=None`` appends at the head
    (for facts that do not depend on what came before, e.g. a verified result arriving)."""
    with transaction.atomic():
        Stream.objects.get_or_create(id=stream_id, defaults={"kind": kind})
        stream = eventstore.stream_lock(stream_id=stream_id)
        existing = eventstore.event_find(event_id=event_id)
        if existing is not None:
            if existing.stream_id == stream_id and existing.type == type and existing.data == data:
                return existing, False
            raise EventIdReused("This event_id was already used for a different fact.")
        if expected_seq is not None:
            eventstore.check_expected_seq(stream=stream, expected_seq=expected_seq)
        [event] = eventstore.events_append(
            stream=stream, new_events=[NewEvent(type=type, data=data, actor=actor, event_id=event_id)]
        )
        # Delivered after the commit, and again by the sweeper if Redis is down (matches.outbox).
        outbox_add(topic="league.stream_broadcast", payload={"stream_id": stream_id, "head_seq": event.seq})
    return event, True


def stream_events(*, stream_id: str, after: int = 0) -> list[Event]:
    return eventstore.stream_events(stream_id=stream_id, after=after)


@handler("league.stream_broadcast")
def _broadcast_message(payload: dict[str, Any]) -> None:
    broadcast(stream_id=payload["stream_id"], head_seq=payload["head_seq"])


def broadcast(*, stream_id: str, head_seq: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(stream_group(stream_id), {"type": "stream.update", "head_seq": head_seq})
