"""What an attacker with database access does, for the audit tests."""

from __future__ import annotations

import base64
import os
from contextlib import contextmanager

from django.db import connection

from matches import eventstore
from matches.models import Event, Stream


@contextmanager
def triggers_disabled():
    """Switch the events table's immutability off for this session (needs table ownership)."""
    with connection.cursor() as cursor:
        cursor.execute("SET session_replication_role = replica")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = origin")


def alter_event(event: Event, **fields) -> None:
    with triggers_disabled():
        Event.objects.filter(pk=event.pk).update(**fields)


def rehash_stream(stream_id: str, from_seq: int = 1) -> str:
    """A careful forger: recompute every hash from ``from_seq`` on and the stream's stored head."""
    events = list(Event.objects.filter(stream_id=stream_id).order_by("seq"))
    prev = events[from_seq - 2].hash if from_seq > 1 else "0" * 64
    with triggers_disabled():
        for event in events[from_seq - 1 :]:
            digest = eventstore.event_hash(prev, eventstore.event_payload(event))
            Event.objects.filter(pk=event.pk).update(prev_hash=prev, hash=digest)
            prev = digest
    Stream.objects.filter(pk=stream_id).update(head_hash=prev)
    return prev


def new_signing_key() -> str:
    return base64.b64encode(os.urandom(32)).decode("ascii")
