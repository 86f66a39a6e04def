"""Appending to and reading from the event store.

Writers lock the stream row, check idempotency and the expected sequence, then insert the
events and move the stream's head in one statement, guarded by the head they were chained from.
``UNIQUE(stream, seq)`` stays the last line of defence: if two writers ever slip past
the lock (SQLite has no row locks), the database refuses the second insert and the
caller sees the same 409 as a stale ``expected_seq``.
"""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, connections, router
from django.utils import timezone

from audit.chain import ChainCheck, check_chain, event_hash, hash_payload, payload_of
from config.rows import Columns, Statement, Values, prepared, statements_together
from engines.chance import event_salt

from .models import Event, Stream


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


def as_stored(value: Any) -> Any:
    """``value`` as an event's data reads back from the store: through JSON (tuples as lists,
    keys as text). What a retry's request is compared in with the event stored under its id.
    TypeError or ValueError for what JSON cannot hold."""
    return json.loads(json.dumps(value))


def event_record(event: Event) -> dict[str, Any]:
    """A stored event as the plain dict the Django-free checks take (audit.chain)."""
    return _record(
        event.stream_id,
        event.seq,
        event.event_id,
        event.type,
        event.data,
        event.actor,
        event.recorded_at,
        event.prev_hash,
        event.hash,
        event.salt,
    )


#: An event's columns in ``_record``'s order, for reading records without building models.
_RECORD_COLUMNS = ("stream_id", "seq", "event_id", "type", "data", "actor", "recorded_at", "prev_hash", "hash", "salt")


def _record(stream, seq, event_id, type, data, actor, recorded_at, prev_hash, hash, salt) -> dict[str, Any]:
    return {
        "stream": stream,
        "seq": seq,
        "event_id": str(event_id),
        "type": type,
        "data": data,
        "actor": actor,
        "recorded_at": recorded_at.isoformat(),
        "prev_hash": prev_hash,
        "hash": hash,
        "salt": salt,
    }


def event_payload(event: Event) -> dict:
    """What an event's hash covers, rebuilt from its stored row."""
    return payload_of(event_record(event))


#: Where a command's instant is kept on the stream row it locked (or created): see ``stream_now``.
_NOW = "_command_now"

#: The database's clock as a statement reads it: ``clock_timestamp()``, not the statement's or the
#: transaction's start, which may be from before the lock was granted (a writer waits on it).
DATABASE_CLOCK = "SELECT clock_timestamp()"


def stream_now(stream: Stream):
    """The time of the command holding ``stream``'s lock: every event it appends is recorded at it,
    and its clock checks (a move out of time, a claim on time) are made at it.

    One clock for every web process: the database's, read once under the stream's lock (in the same
    round trip as the lock where one execute takes several statements, ``stream_lock``; else by a
    statement of its own here). Each host's own clock let one running ahead win a timeout claim
    early by its skew, and two hosts stamp one stream's events out of order. Read under the lock,
    after whatever the writer before committed, the stamps of a stream never go backwards. On
    SQLite (the embedded default, one host) the process clock is that one clock."""
    at = stream.__dict__.get(_NOW)
    if at is None:
        at = stream.__dict__[_NOW] = database_now(using=stream._state.db or router.db_for_write(Stream))
    return at


def stream_now_is(stream: Stream, at) -> None:
    """Keep ``at``, the database's clock read under ``stream``'s lock by the caller (in the round
    trip that took it), as the time of the command holding it."""
    stream.__dict__[_NOW] = at


def database_now(*, using: str | None = None):
    """The database's clock now (PostgreSQL), or the process clock where the database keeps none
    that matters (SQLite: embedded, in this very process)."""
    connection = connections[using or router.db_for_write(Stream)]
    if connection.vendor != "postgresql":
        return timezone.now()
    with connection.cursor() as cursor:
        cursor.execute(DATABASE_CLOCK)
        return cursor.fetchone()[0]


def stream_create(*, stream_id: str, kind: str) -> Stream:
    """A new stream. On PostgreSQL its ``created_at`` is the database's clock, which the INSERT
    returns as the time of the command creating it (``stream_now``): no other writer can see the
    row until the command commits, so no lock is needed and no statement is added to read it."""
    connection = connections[router.db_for_write(Stream)]
    if connection.vendor != "postgresql":
        return Stream.objects.create(id=stream_id, kind=kind)
    stream = Stream(id=stream_id, kind=kind)
    qn = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {qn(Stream._meta.db_table)} ({qn('id')}, {qn('kind')}, {qn('head_seq')}, {qn('head_hash')},"
            f" {qn('created_at')}) VALUES (%s, %s, %s, %s, clock_timestamp()) RETURNING {qn('created_at')}",
            [stream.id, stream.kind, stream.head_seq, stream.head_hash],
        )
        stream.created_at = cursor.fetchone()[0]
    stream._state.adding, stream._state.db = False, connection.alias
    stream_now_is(stream, stream.created_at)
    return stream


_STREAM = Columns(Stream, "stream")


@functools.cache
def _stream_lock_sql(alias: str) -> str:
    return f"{_STREAM.by_pk(connections[alias])} FOR UPDATE"


def stream_lock(*, stream_id: str) -> Stream:
    """Take the stream's append lock for the rest of the transaction (Stream.DoesNotExist if there
    is no such stream). Where one execute takes two statements, the database's clock comes back in
    the same round trip, read once the lock is held: the command's time (``stream_now``)."""
    connection = connections[router.db_for_write(Stream)]
    if not statements_together(connection):
        return Stream.objects.select_for_update().get(pk=stream_id)
    with connection.cursor() as cursor:
        cursor.execute(f"{prepared(cursor, _stream_lock_sql(connection.alias))}; {DATABASE_CLOCK}", [stream_id])
        row = cursor.fetchone()
        cursor.nextset()
        (now,) = cursor.fetchone()
    if row is None:
        raise Stream.DoesNotExist(f"No stream {stream_id!r}.")
    stream = _STREAM.build(connection, row)
    stream_now_is(stream, now)
    return stream


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


def events_append(
    *,
    stream: Stream,
    new_events: Iterable[NewEvent],
    secret: bytes | None = None,
    then: Callable[[list[Event]], list[Statement]] | None = None,
) -> list[Event]:
    """Append events to a stream whose lock the caller holds (inside transaction.atomic).

    ``secret``: the stream secret of a salted stream (docs/AUDIT.md); every event appended
    after the first then carries ``HMAC(secret, "salt:<stream>:<seq>")`` inside what its
    hash covers, so nobody without the secret can test a guess at hidden content.

    ``then`` (only where ``statements_together``): given the events about to be inserted (seq,
    hash and all, no id yet), the statements the caller would send next in this transaction; they
    go in the insert's own round trip, after it, and each is read once the events are in. If the
    append is refused they may have run, but the refusal rolls back the caller's transaction."""
    rows = []
    now = stream_now(stream)
    seq, prev = stream.head_seq, stream.head_hash
    for new in new_events:
        seq += 1
        recorded_at = new.recorded_at or now
        event_id = new.event_id or uuid.uuid4()
        salt = event_salt(secret, stream.id, seq) if secret is not None and seq > 1 else None
        payload = hash_payload(
            stream=stream.id,
            seq=seq,
            event_id=str(event_id),
            type=new.type,
            data=new.data,
            actor=new.actor,
            recorded_at=recorded_at.isoformat(),
            salt=salt,
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
                salt=salt,
            )
        )
        prev = digest
    if not rows:
        return []
    statements = then(rows) if then is not None else []
    try:
        # No savepoint: on a conflict the caller's whole transaction is abandoned anyway.
        moved = _insert_and_move_head(stream, rows, statements)
    except IntegrityError as exc:
        if statements and _table_of(exc) not in (None, Event._meta.db_table, Stream._meta.db_table):
            raise  # one of the caller's statements, as if it had been sent on its own
        # Another writer took this seq (or this event_id) first.
        raise StaleSequence(
            "Another change reached this stream first. Reload and try again.",
            head_seq=stream.head_seq,
        ) from exc
    if not moved:
        raise StaleSequence(
            "Another change reached this stream first. Reload and try again.",
            head_seq=stream.head_seq,
        )
    stream.head_seq, stream.head_hash = seq, prev
    return rows


def _table_of(error: Exception) -> str | None:
    """The table a database error names (psycopg's diagnostics), if it names one."""
    diag = getattr(error.__cause__, "diag", None)
    return getattr(diag, "table_name", None)


_EVENT_COLUMNS = ("seq", "event_id", "type", "data", "actor", "recorded_at", "prev_hash", "hash", "salt")
# Typed once in the VALUES list: PostgreSQL takes every later row's types from the first row's.
_FIRST_ROW = "(%s::integer, %s::uuid, %s::varchar, %s::jsonb, %s::varchar, %s::timestamptz, %s::varchar, %s::varchar, %s::varchar)"
_NEXT_ROW = "(" + ", ".join(["%s"] * len(_EVENT_COLUMNS)) + ")"


#: The most events an append sends by its prepared statement (``_insert_and_move_head``).
PREPARED_ROWS = 8


def _insert_and_move_head(stream: Stream, rows: list[Event], statements: list[Statement] = ()) -> bool:
    """Insert the events and move the stream's head to the last of them, only if the head is
    still where the events were chained from; False (nothing written) if it is not.

    On PostgreSQL this is one statement, so an append costs one round trip beyond the lock;
    ``statements`` (``events_append``'s ``then``) go in the same round trip."""
    # The wrapper itself: each attribute of django.db.connection, a proxy, looks it up again in a
    # context-local, and the fields' preparing of values reads several (issue 17, P5).
    connection = connections[router.db_for_write(Event)]
    first, last = rows[0], rows[-1]
    if statements and not statements_together(connection):
        raise ValueError("statements sent with an append need statements_together")
    if connection.vendor != "postgresql":
        if not Stream.objects.filter(pk=stream.pk, head_seq=first.seq - 1, head_hash=first.prev_hash).update(
            head_seq=last.seq, head_hash=last.hash
        ):
            return False
        Event.objects.bulk_create(rows)
        return True
    data_field = Event._meta.get_field("data")
    params: list[Any] = [last.seq, last.hash, stream.pk, first.seq - 1, first.prev_hash]
    for event in rows:
        params += [
            event.seq,
            event.event_id,
            event.type,
            data_field.get_db_prep_value(event.data, connection),
            event.actor,
            event.recorded_at,
            event.prev_hash,
            event.hash,
            event.salt,
        ]
    columns = ", ".join(_EVENT_COLUMNS)
    sql = (
        f"WITH head AS (UPDATE {Stream._meta.db_table} SET head_seq = %s, head_hash = %s"
        " WHERE id = %s AND head_seq = %s AND head_hash = %s RETURNING id)"
        f" INSERT INTO {Event._meta.db_table} (stream_id, {columns})"
        f" SELECT head.id, {', '.join('v.' + c for c in _EVENT_COLUMNS)}"
        f" FROM head, (VALUES {', '.join([_FIRST_ROW] + [_NEXT_ROW] * (len(rows) - 1))}) AS v({columns})"
        " RETURNING id, seq"
    )
    with connection.cursor() as cursor:
        # A person's command appends an event or a few: those shapes are prepared, each once per
        # session (config/rows.py). A batch (bots playing on, a season's fixtures) runs as text:
        # its planning is shared by its many rows, and its shapes, one per length, are not kept.
        texts = [prepared(cursor, sql) if len(rows) <= PREPARED_ROWS else sql]
        for statement in statements:
            texts.append(prepared(cursor, statement.sql) if statement.prepare else statement.sql)
            params += statement.params
        sql = "; ".join(texts)
        cursor.execute(sql, params)
        ids = {seq: pk for pk, seq in cursor.fetchall()}
        if not ids:
            return False
        for event in rows:
            event.pk = ids[event.seq]
            event._state.adding, event._state.db = False, connection.alias
        for statement in statements:
            cursor.nextset()
            statement.read(cursor)
    return True


def stream_events(*, stream_id: str, after: int = 0, upto: int | None = None) -> list[Event]:
    qs = Event.objects.filter(stream_id=stream_id, seq__gt=after)
    if upto is not None:
        qs = qs.filter(seq__lte=upto)
    return list(qs.order_by("seq"))


def streams_records(*, stream_ids: list[str]) -> dict[str, list[dict[str, Any]]]:
    """Many whole streams in one query (a batch of verifications): each stream's events in seq
    order, as ``event_record`` gives them, by stream id; a stream with no events is absent. Read
    as rows, not models: building a season's 90,000 events as models cost seconds of CPU."""
    rows = Event.objects.filter(stream_id__in=stream_ids).order_by("stream_id", "seq").values_list(*_RECORD_COLUMNS)
    return records_by_stream(rows)


def records_by_stream(rows: Iterable[tuple]) -> dict[str, list[dict[str, Any]]]:
    """``_RECORD_COLUMNS`` rows, ordered by stream and seq, as records by stream id."""
    found: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        found.setdefault(row[0], []).append(_record(*row))
    return found


#: ``_RECORD_COLUMNS`` as a hand-written statement reads them (``streams_records_sql``), the event id as
#: the text a record holds.
RECORD_VALUES = Values(Event, "event", _RECORD_COLUMNS, as_text=("event_id",))


@functools.cache
def streams_records_sql(alias: str, streams: str) -> str:
    """``streams_records``' read as one statement, for a caller that sends it with others
    (``statements_together``): the events of the streams that ``streams`` (a subquery of stream
    ids) names, in ``_RECORD_COLUMNS`` order. Each row goes through ``RECORD_VALUES.convert`` first."""
    connection = connections[alias]
    qn = connection.ops.quote_name
    stream = f"{qn('event')}.{qn(Event._meta.get_field('stream').column)}"
    return (
        f"SELECT {RECORD_VALUES.select(connection)} FROM {qn(Event._meta.db_table)} {qn('event')}"
        f" WHERE {stream} IN ({streams}) ORDER BY {stream}, {qn('event')}.{qn('seq')}"
    )


def chain_check(events: Iterable[Event], secret: bytes | None = None) -> ChainCheck:
    """Check seqs run 1, 2, 3..., every hash covers its event and the one before, and (in a
    salted stream, given its revealed secret) every salt is the one the secret gives."""
    return check_chain((event_record(e) for e in events), secret)
