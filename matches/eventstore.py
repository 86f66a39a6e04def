"""Appending to and reading from the event store.

Writers lock the stream row, check idempotency and the expected sequence, then insert.
``UNIQUE(stream, seq)`` stays the last line of defence: if two writers ever slip past
the lock (SQLite has no row locks), the database refuses the second insert and the
caller sees the same 409 as a stale ``expected_seq``.
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass, field
from typing import Any, Iterable

from django.db import IntegrityError
from django.utils import timezone

from engines.base import canonical_json

from .models import GENESIS_HASH, Event, Stream


class EventStoreError(Exception):
    status = 400
    code = "event_store_error"

    def __init__(self, message: str, **extra: Any):
        super().__init__(message)
        self.message = message
        self.extra = extra


class StaleSequence(EventStoreError):
    status = 409
    code = "stale_seq"


class EventIdReused(EventStoreError):
    status = 409
    code = "event_id_reused"


@dataclass
class NewEvent:
    type: str
    data: dict[str, Any]
    actor: str
    event_id: uuid.UUID | None = None
    recorded_at: Any = field(default=None)


def hash_payload(*, stream_id: str, seq: int, event_id: str, type: str, data: Any, actor: str, recorded_at: str) -> dict:
    return {
        "stream": stream_id,
        "seq": seq,
        "event_id": event_id,
        "type": type,
        "data": data,
        "actor": actor,
        "recorded_at": recorded_at,
    }


def event_hash(prev_hash: str, payload: dict) -> str:
    return hashlib.sha256(prev_hash.encode("ascii") + canonical_json(payload)).hexdigest()


def event_payload(event: Event) -> dict:
    """What an event's hash covers, rebuilt from its stored row."""
    return hash_payload(
        stream_id=event.stream_id,
        seq=event.seq,
        event_id=str(event.event_id),
        type=event.type,
        data=event.data,
        actor=event.actor,
        recorded_at=event.recorded_at.isoformat(),
    )


def stream_create(*, stream_id: str, kind: str) -> Stream:
    return Stream.objects.create(id=stream_id, kind=kind)


def stream_lock(*, stream_id: str) -> Stream:
    """Take the stream's append lock for the rest of the transaction."""
    return Stream.objects.select_for_update().get(pk=stream_id)


def event_find(*, event_id: uuid.UUID | str | None) -> Event | None:
    if event_id is None:
        return None
    return Event.objects.filter(event_id=event_id).first()


def check_expected_seq(*, stream: Stream, expected_seq: int) -> None:
    if expected_seq != stream.head_seq:
        raise StaleSequence(
            f"This command was based on event {expected_seq}, but the stream is at event {stream.head_seq}. "
            "Reload and try again.",
            expected_seq=expected_seq,
            head_seq=stream.head_seq,
        )


def events_append(*, stream: Stream, new_events: Iterable[NewEvent]) -> list[Event]:
    """Append events to a stream whose lock the caller holds (inside transaction.atomic)."""
    rows = []
    now = timezone.now()
    seq, prev = stream.head_seq, stream.head_hash
    for new in new_events:
        seq += 1
        recorded_at = new.recorded_at or now
        event_id = new.event_id or uuid.uuid4()
        payload = hash_payload(
            stream_id=stream.id,
            seq=seq,
            event_id=str(event_id),
            type=new.type,
            data=new.data,
            actor=new.actor,
            recorded_at=recorded_at.isoformat(),
        )
        digest = event_hash(prev, payload)
        rows.append(
            Event(
                stream=stream,
                seq=seq,
                event_id=event_id,
                type=new.type,
                data=new.data,
                actor=new.actor,
                recorded_at=recorded_at,
                prev_hash=prev,
                hash=digest,
            )
        )
        prev = digest
    if not rows:
        return []
    try:
        # No savepoint: on a conflict the caller's whole transaction is abandoned anyway.
        Event.objects.bulk_create(rows)
    except IntegrityError as exc:
        # Another writer took this seq (or this event_id) first.
        raise StaleSequence(
            "Another change reached this stream first. Reload and try again.",
            head_seq=stream.head_seq,
        ) from exc
    stream.head_seq, stream.head_hash = seq, prev
    Stream.objects.filter(pk=stream.pk).update(head_seq=seq, head_hash=prev)
    return rows


def stream_events(*, stream_id: str, after: int = 0, upto: int | None = None) -> list[Event]:
    qs = Event.objects.filter(stream_id=stream_id, seq__gt=after)
    if upto is not None:
        qs = qs.filter(seq__lte=upto)
    return list(qs.order_by("seq"))


@dataclass
class ChainCheck:
    ok: bool
    seq: int | None = None
    reason: str = ""
    head_hash: str = GENESIS_HASH


def chain_check(events: Iterable[Event]) -> ChainCheck:
    """Check seqs run 1, 2, 3... and every hash covers its event and the one before."""
    prev = GENESIS_HASH
    expected = 1
    for event in events:
        if event.seq != expected:
            return ChainCheck(False, expected, f"Event {expected} is missing from the stream.", prev)
        if event.prev_hash != prev:
            return ChainCheck(False, event.seq, "Its prev_hash does not match the hash of the event before it.", prev)
        if event_hash(prev, event_payload(event)) != event.hash:
            return ChainCheck(False, event.seq, "Its content does not match its hash: the event was altered.", prev)
        prev = event.hash
        expected += 1
    return ChainCheck(True, head_hash=prev)
