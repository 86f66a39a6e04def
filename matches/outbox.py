"""The transactional outbox: what follows a commit is written with it and delivered after it.

``outbox_add`` records a message inside the caller's transaction and asks for delivery once that
transaction commits. Delivery calls the topic's handler; if the handler fails (Redis or the
broker down, a receiver raising) the message stays pending with a backoff, the client's write is
still reported as the success it is, and ``outbox_sweep`` (Celery beat, or ``manage.py outbox``)
delivers it later. Handlers must be idempotent: a message may be delivered more than once if a
process dies between running the handler and marking it delivered.

A message whose handler has failed OUTBOX_MAX_ATTEMPTS times is dead: tried no more (a poisoned
payload would otherwise be retried for ever and keep /readyz degraded for ever), kept with its
attempts and last error, logged once, counted by /readyz until an operator retries it once its
cause is fixed (``outbox_retry``) or gives up on it for good with a reason (``outbox_discard``).
Each topic says when it registers what makes up for a message of it given up on (``if_given_up``):
a sweep that re-derives the work, or a later message that supersedes it; or, when nothing does,
what is lost for good (``lost``). A topic that nothing makes up for is one that must happen and that
nothing else will do: its death is logged as an error, with what it loses.
"""

from __future__ import annotations

import copy
import functools
import json
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connections, router, transaction
from django.db.models import Count, Min, Q
from django.utils import timezone

from config.rows import Statement, prepared

from .errors import Refusal
from .models import OutboxMessage

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], None]
_HANDLERS: dict[str, Handler] = {}
#: topic -> what makes up for a message of it that is given up on (``handler``'s ``if_given_up``).
_IF_GIVEN_UP: dict[str, str] = {}
#: The topics whose ``if_given_up`` says what is lost for good, nothing making up for it (``lost``).
_LOST_IF_GIVEN_UP: set[str] = set()

#: Seconds before a failed message is tried again: 5, 10, 20 ... capped at five minutes.
BACKOFF_START, BACKOFF_CAP = 5, 300
#: A due message is tried by the sweeper's next run, every 10 s (config/celery.py): the death
#: horizon counts each attempt up to half a minute late (a backlog, a slow handler).
ATTEMPT_LATENESS = timedelta(seconds=30)
#: How long past a message's death the horizon reaches: the sweep that makes up for it still looks
#: at its work that long after it died, so a cause fixed meanwhile (a dead message is logged and
#: keeps /readyz degraded) is caught up without an operator's retry.
AFTER_DEATH = timedelta(hours=6)


def outbox_death_horizon() -> timedelta:
    """How long after its work was written a sweep that makes up for a dead message must still look
    at that work: the longest a message takes to go dead (OUTBOX_MAX_ATTEMPTS attempts, spaced by
    the backoff, each up to ATTEMPT_LATENESS late), and AFTER_DEATH more. About 33 hours with the
    default 300 attempts (the backoff alone spans 24.5 of them).

    A sweep whose window were shorter would stop looking at a verdict or a draft before its message
    died: once dead, nothing would redo its work. So the sweeps named by ``if_given_up`` look back
    this far at least (league/seasons/tasks.py ``followups_window``, league/drafts/services.py
    ``hand_off_window``), and raising OUTBOX_MAX_ATTEMPTS widens them with it. Only a sweeper
    stopped for longer than the margin while a message still had attempts left (the workers or the
    broker down: no attempt is made meanwhile) makes one die later than this; it is then
    ``outbox retry``'s, as its log line says."""
    attempts = settings.OUTBOX_MAX_ATTEMPTS
    # The first attempt follows the commit; attempt k fails and waits before attempt k + 1.
    waits = sum(_backoff(k) for k in range(1, attempts))
    return timedelta(seconds=waits) + attempts * ATTEMPT_LATENESS + AFTER_DEATH


def _backoff(attempts: int) -> int:
    """Seconds before a message that has failed ``attempts`` times is tried again."""
    return min(BACKOFF_CAP, BACKOFF_START * 2 ** min(attempts - 1, 30))  # the cap long before 2**30


def handler(topic: str, *, if_given_up: str | None = None, lost: bool = False) -> Callable[[Handler], Handler]:
    """Register the function that delivers ``topic`` (apps register theirs when they load).

    ``if_given_up``: what makes up for a message of this topic that goes dead or is discarded (the
    sweep that re-derives its work, or why losing it costs nothing lasting), told to the operator
    with it. ``lost``: it says instead what is lost for good, which nothing makes up for; its death
    is logged as an error, with that. None: nothing is said, and its death is logged as an error."""

    def register(fn: Handler) -> Handler:
        if _HANDLERS.get(topic, fn) is not fn:
            raise ValueError(f"outbox topic {topic!r} has two handlers")
        _HANDLERS[topic] = fn
        if if_given_up:
            _IF_GIVEN_UP[topic] = if_given_up
            if lost:
                _LOST_IF_GIVEN_UP.add(topic)
        return fn

    return register


def outbox_add(*, topic: str, payload: dict[str, Any]) -> OutboxMessage:
    """Record a message in the current transaction; it is delivered after the commit."""
    return outbox_add_all(messages=[(topic, payload)])[0]


def outbox_add_all(
    *, messages: list[tuple[str, dict[str, Any]]], deliver_first: dict[int, Callable[[], None]] | None = None
) -> list[OutboxMessage]:
    """Record several messages in the current transaction with one INSERT; each is delivered
    after the commit, in the order given.

    ``deliver_first`` (message index -> function): what delivers that message the first time,
    right after this commit, in place of the topic's handler: the handler's work done from what
    the caller holds in memory (a broadcast built from the command's match and events, not read
    again). It must do what the handler would do with the payload. It runs under the same rules
    (after the commit, the row locked, marked delivered only if it returns); any later try (it
    failed, or the process died after the commit) is the handler's, from the database. A message
    without one is first delivered by its topic's handler, with the payload this process wrote,
    not read back."""
    rows = _rows(messages)
    _insert(rows)
    _deliver_after_commit(rows, deliver_first)
    return rows


def outbox_add_all_statement(
    *, messages: list[tuple[str, dict[str, Any]]], deliver_first: dict[int, Callable[[], None]] | None = None
) -> Statement:
    """``outbox_add_all`` as a statement to send with others in one execute (PostgreSQL,
    ``statements_together``): the messages are recorded, and their delivery asked for, once it
    has run (``Statement.read``)."""
    rows = _rows(messages)
    sql, params = _insert_sql(rows)

    def read(cursor) -> None:
        _inserted(rows, cursor)
        _deliver_after_commit(rows, deliver_first)

    return Statement(sql, params, read, prepare=True)


def _rows(messages: list[tuple[str, dict[str, Any]]]) -> list[OutboxMessage]:
    for topic, _payload in messages:
        if topic not in _HANDLERS:
            raise ValueError(f"no outbox handler for {topic!r}")
    now = timezone.now()
    return [
        OutboxMessage(topic=topic, payload=payload, created_at=now, available_at=now) for topic, payload in messages
    ]


def _deliver_after_commit(rows: list[OutboxMessage], deliver_first: dict[int, Callable[[], None]] | None) -> None:
    first = deliver_first or {}
    for index, row in enumerate(rows):
        # The first delivery needs nothing read back: the process that wrote the row holds its
        # topic and its payload (a verdict's two messages were a SELECT ... FOR UPDATE each
        # before the mark; issue 17, P7). The payload is handed over as the database gives it
        # back, decoded from its JSON (a UUID as text, a tuple as a list), and as it was when
        # added: the handler sees what any later try, the sweeper's, would see.
        deliver = first.get(index) or functools.partial(_handle, row.topic, _stored(row.payload))
        # A rolled-back transaction drops its on_commit callbacks, and with them what they hold.
        transaction.on_commit(functools.partial(_deliver_quietly, row.pk, deliver))


def _stored(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` as its row's JSON column reads back."""
    return json.loads(json.dumps(payload))


def _deliver_quietly(message_id: int, deliver: Callable[[], None] | None = None) -> None:
    # Runs after the commit, in the request: nothing here may turn a committed write into an error.
    try:
        outbox_deliver(message_id=message_id, deliver=deliver)
    except Exception:  # the message stays pending; the sweeper tries again
        log.exception("outbox: delivering message %s failed; the sweeper will retry", message_id)


def _insert(rows: list[OutboxMessage]) -> None:
    """Insert new messages and set their ids: on PostgreSQL one INSERT written here, where
    ``bulk_create`` built it through the ORM's compiler on every action POST (347 against 209 µs
    of CPU; issue 17, P5). ``created_at`` is the caller's: the row is new, and it was set with
    ``available_at``."""
    connection = _db()
    if connection.vendor != "postgresql":
        OutboxMessage.objects.bulk_create(rows)
        return
    with connection.cursor() as cursor:
        cursor.execute(*_insert_sql(rows))
        _inserted(rows, cursor)


def _db():
    """The outbox's database wrapper itself: each attribute read through django.db.connection, a
    proxy, looks the wrapper up again in a context-local, and the fields' preparing of values
    reads several (issue 17, P5)."""
    return connections[router.db_for_write(OutboxMessage)]


def _insert_sql(rows: list[OutboxMessage]) -> tuple[str, list[Any]]:
    connection = _db()
    # Every field but the id, each with the value its instance holds (the model's defaults
    # included), as the field prepares it for the database.
    params = [f.get_db_prep_save(getattr(row, f.attname), connection) for row in rows for f in _FIELDS]
    qn = connection.ops.quote_name
    columns = ", ".join(qn(f.column) for f in _FIELDS)
    values = ", ".join(["(" + ", ".join(["%s"] * len(_FIELDS)) + ")"] * len(rows))
    return f"INSERT INTO {qn(OutboxMessage._meta.db_table)} ({columns}) VALUES {values} RETURNING id", params


def _inserted(rows: list[OutboxMessage], cursor) -> None:
    # PostgreSQL returns a multi-row VALUES insert's rows in their order (bulk_create relies on it
    # as well).
    for row, (pk,) in zip(rows, cursor.fetchall(), strict=True):
        row.pk = pk
        row._state.adding, row._state.db = False, cursor.db.alias


#: What ``_insert`` writes: every concrete field but the id.
_FIELDS = [f for f in OutboxMessage._meta.concrete_fields if not f.primary_key]


def outbox_deliver(*, message_id: int, deliver: Callable[[], None] | None = None) -> bool:
    """Deliver one pending message; True if this call delivered it. ``deliver``: what runs in
    place of the topic's handler (``outbox_add_all``'s ``deliver_first``).

    One transaction holds the row locked while the message is delivered, so no other process
    delivers it at the same time (a locked row is skipped, not waited for), and its delivery is
    committed with the handler's writes: a handler that fails leaves none of them, and a process
    that dies while delivering leaves the row pending (its connection's transaction is rolled
    back). A failed attempt is recorded after that rollback (``_failed``), also when it is the
    commit that refuses the handler's writes (a deferred foreign key). A dead message is not
    delivered (``outbox_retry`` makes it pending again)."""
    try:
        with transaction.atomic():
            if deliver is None:
                pending = OutboxMessage.objects.filter(pk=message_id, delivered_at__isnull=True, dead_at__isnull=True)
                message = pending.select_for_update(skip_locked=True).first()
                if message is None:
                    return False  # delivered already, or another process is delivering it now
                pending.update(delivered_at=timezone.now())
                run = functools.partial(_handle, message.topic, message.payload)
            else:
                # The first delivery from memory needs neither the topic nor the payload: the row
                # is locked and marked by one statement (the same skip-locked lock, taken in a
                # subquery), not read first, nor held in a savepoint (issue 17, P5: an action
                # POST's first delivery was seven queries, BEGIN, SELECT ... FOR UPDATE,
                # SAVEPOINT, RELEASE, UPDATE, COMMIT around the broadcast; now three).
                if not _mark_delivered(message_id):
                    return False
                run = deliver
            try:
                run()
                if transaction.get_rollback():
                    # The handler caught a database error of its own (a write "there already",
                    # without a savepoint) and returned: its transaction can only be rolled back,
                    # the mark with it, so the message was counted delivered, stayed pending, and
                    # was run again by every sweep for ever without an attempt counted.
                    raise RuntimeError(
                        "the handler returned after a database error it caught: its writes and the "
                        "delivered mark could only be rolled back"
                    )
            except Exception as exc:
                raise _DeliveryFailed from exc  # rolls the transaction back, the mark with it
    except _DeliveryFailed as failed:
        _failed(message_id, failed.__cause__)
        return False
    except IntegrityError as refused:
        # The commit refused the handler's writes: PostgreSQL checks Django's foreign keys there
        # (they are deferred), so a handler writing a row for one deleted meanwhile returned
        # normally. The handler's failure, not an outage: an attempt like any other, where it
        # propagated and stopped every sweep at this message, the younger ones behind it, for
        # ever (it never went dead).
        _failed(message_id, refused)
        return False
    return True


def _handle(topic: str, payload: dict[str, Any]) -> None:
    handle = _HANDLERS.get(topic)
    if handle is None:
        # A topic this process's code does not know: during a rolling deploy an old process sweeps
        # a message only the new code handles (or, after one, a row of a topic since renamed). A
        # failed attempt, tried again later by a process that knows it, not an error that stopped
        # the sweep at this message with every younger one behind it.
        raise LookupError(f"no handler for outbox topic {topic!r} in this process's code")
    handle(payload)


#: ``_mark_delivered``'s statement on PostgreSQL: the ORM's, written out.
_MARK_DELIVERED = (
    f'UPDATE "{OutboxMessage._meta.db_table}" SET "delivered_at" = %s WHERE "id" IN'
    f' (SELECT "id" FROM "{OutboxMessage._meta.db_table}" WHERE "delivered_at" IS NULL AND "dead_at" IS NULL'
    ' AND "id" = %s FOR UPDATE SKIP LOCKED)'
)


def _mark_delivered(message_id: int) -> bool:
    """Locks the pending row (skipping it if another process holds it) and marks it delivered,
    in one statement; True if it did. On PostgreSQL the statement is written out: building it
    with the ORM took more CPU than the rest of the bookkeeping (a first delivery's BEGIN, this
    and COMMIT: 0.65 ms of CPU with the ORM's statement, 0.2 ms without it, in every action
    POST; issue 17, P5). Elsewhere (SQLite, which has no row locks) the ORM builds it."""
    connection = _db()
    if connection.vendor != "postgresql":
        pending = OutboxMessage.objects.filter(pk=message_id, delivered_at__isnull=True, dead_at__isnull=True)
        locked = pending.select_for_update(skip_locked=True).values("pk")
        return bool(OutboxMessage.objects.filter(pk__in=locked).update(delivered_at=timezone.now()))
    with connection.cursor() as cursor:
        cursor.execute(prepared(cursor, _MARK_DELIVERED), [timezone.now(), message_id])
        return cursor.rowcount > 0


class _DeliveryFailed(Exception):
    """A handler (or ``deliver``) raised; its exception is the cause. The database's own errors
    around it (reaching the row, the commit) are not this: they propagate, as the sweeper's task
    must fail during an outage (tests/hardening/test_database_outage.py); but for a commit that
    refuses the handler's writes (``outbox_deliver``)."""


def _failed(message_id: int, exc: Exception) -> None:
    """Record a failed attempt and when to try again (its transaction was rolled back first), or,
    when it was the last attempt allowed, that the message is dead.

    Under the row's lock, and only on a row still pending: of two processes that both failed it
    (one took the row between the other's rollback and its record), one records its attempt
    while the other skips the locked row or finds it dead, so no attempt is counted past the last
    and a message goes dead, and is logged dead, once."""
    with transaction.atomic():
        message = (
            OutboxMessage.objects.select_for_update(skip_locked=True)
            .filter(pk=message_id, delivered_at__isnull=True, dead_at__isnull=True)
            .first()
        )
        if message is None:  # another process took it meanwhile (and records its own attempt)
            return
        message.attempts += 1
        now = timezone.now()
        message.available_at = now + timedelta(seconds=_backoff(message.attempts))
        message.last_error = f"{type(exc).__name__}: {exc}"[:2000]
        if message.attempts >= settings.OUTBOX_MAX_ATTEMPTS:
            message.dead_at = now
        message.save(update_fields=["attempts", "available_at", "last_error", "dead_at"])
    if message.dead_at is None:
        log.warning("outbox: %s failed (attempt %s): %s", message, message.attempts, message.last_error)
        return
    # Once, by the process whose record made it dead: an operator must hear of a message that
    # nothing will deliver any more, and of what (if anything) makes up for it.
    log.log(
        logging.WARNING if message.topic in _IF_GIVEN_UP.keys() - _LOST_IF_GIVEN_UP else logging.ERROR,
        "outbox: %s is dead after %s attempts, not tried again; last error: %s. %s",
        message,
        message.attempts,
        message.last_error,
        made_up_for(message.topic, message_id=message.pk),
    )


def made_up_for(topic: str, *, message_id: int) -> str:
    """What makes up for a message of ``topic`` given up on, as a sentence for the operator."""
    made_up = _IF_GIVEN_UP.get(topic)
    retry = f"manage.py outbox retry {message_id}"
    if made_up and topic in _LOST_IF_GIVEN_UP:
        return f"If it stays given up on, nothing makes up for it: {made_up}. Run {retry} once its cause is fixed."
    if made_up:
        return f"If it stays given up on: {made_up} ({retry} delivers it itself once its cause is fixed)."
    return f"If it stays given up on, nothing makes up for it: run {retry} once its cause is fixed."


def outbox_sweep(*, limit: int = 500, now=None) -> int:
    """Deliver the pending messages whose backoff has passed, oldest first; returns how many."""
    now = now or timezone.now()
    pending = list(
        OutboxMessage.objects.filter(delivered_at__isnull=True, dead_at__isnull=True, available_at__lte=now)
        .order_by("id")
        .values_list("pk", flat=True)[:limit]
    )
    delivered = sum(1 for pk in pending if outbox_deliver(message_id=pk))
    outbox_prune(before=now - timedelta(days=KEEP_DELIVERED_DAYS))
    return delivered


def outbox_backlog(*, now) -> tuple[int, datetime | None, int]:
    """How many messages are due and undelivered at ``now`` (their backoff has passed), when the
    oldest of them was written (None when there is none), and how many are dead and not discarded,
    waiting for an operator: what readiness reports. A dead message is not part of the backlog (no
    sweep will deliver it, so its age would keep the backlog "degraded" for ever); it is counted
    apart."""
    due = Q(dead_at__isnull=True, available_at__lte=now)
    found = OutboxMessage.objects.filter(delivered_at__isnull=True).aggregate(
        pending=Count("pk", filter=due),
        oldest=Min("created_at", filter=due),
        dead=Count("pk", filter=Q(dead_at__isnull=False, discarded_at__isnull=True)),
    )
    return found["pending"], found["oldest"], found["dead"]


#: Delivered messages are kept this long (to look into a problem), then deleted by the sweeper.
KEEP_DELIVERED_DAYS = 2


def outbox_prune(*, before, batch: int = 5000) -> int:
    """Delete messages delivered before ``before`` (a bounded batch per call)."""
    old = list(
        OutboxMessage.objects.filter(delivered_at__lt=before).order_by("id").values_list("pk", flat=True)[:batch]
    )
    return OutboxMessage.objects.filter(pk__in=old).delete()[0] if old else 0


# What an operator does with a dead message (manage.py outbox) ------------------------------------


def outbox_retry(*, message_id: int) -> OutboxMessage:
    """Make a dead message pending again, due now, its attempts counted from 0 (its last error is
    kept until the next attempt replaces it); returns the message as it was, for the audit line.
    Refused for a message that is not dead (pending, delivered) or that was discarded for good."""
    with transaction.atomic():
        message = OutboxMessage.objects.select_for_update().filter(pk=message_id).first()
        if message is None:
            raise Refusal(f"No outbox message #{message_id}.", code="outbox_message_not_found", status=404)
        if message.discarded_at is not None:
            raise Refusal(
                f"{message} was discarded for good ({message.discard_reason}): it is not retried.",
                code="outbox_message_discarded",
                status=409,
            )
        if message.dead_at is None:
            state = "delivered" if message.delivered_at is not None else "pending"
            raise Refusal(
                f"{message} is not dead but {state}: there is nothing to retry.",
                code="outbox_message_not_dead",
                status=409,
            )
        was = copy.copy(message)
        message.dead_at, message.attempts, message.available_at = None, 0, timezone.now()
        message.save(update_fields=["dead_at", "attempts", "available_at"])
    log.info("outbox: %s retried by an operator (it was dead after %s attempts)", message, was.attempts)
    return was


def outbox_discard(*, message_id: int, reason: str) -> OutboxMessage:
    """Give up on an undelivered message for good (dead or still pending), keeping ``reason`` on it:
    it is neither tried nor retried again, nor counted by readiness. A reason is required, so that
    whoever finds the row later knows why the work it stood for was never done."""
    reason = " ".join(reason.split())
    if not reason:
        raise Refusal(
            "Say why the message is given up on (--reason): it is kept on the message.",
            code="outbox_discard_needs_reason",
        )
    with transaction.atomic():
        # Skip-locked: a message a process is delivering right now is not waited for (nor
        # discarded under it); its delivery may yet succeed.
        message = OutboxMessage.objects.select_for_update(skip_locked=True).filter(pk=message_id).first()
        if message is None:
            if OutboxMessage.objects.filter(pk=message_id).exists():
                raise Refusal(
                    f"outbox message #{message_id} is being delivered right now: look again in a moment.",
                    code="outbox_message_busy",
                    status=409,
                )
            raise Refusal(f"No outbox message #{message_id}.", code="outbox_message_not_found", status=404)
        if message.delivered_at is not None or message.discarded_at is not None:
            state = "delivered" if message.delivered_at is not None else "discarded already"
            raise Refusal(
                f"{message} is {state}: there is nothing to give up on.",
                code="outbox_message_not_undelivered",
                status=409,
            )
        now = timezone.now()
        message.dead_at = message.dead_at or now
        message.discarded_at, message.discard_reason = now, reason[:2000]
        message.save(update_fields=["dead_at", "discarded_at", "discard_reason"])
    log.warning("outbox: %s discarded by an operator after %s attempts: %s", message, message.attempts, reason)
    return message
