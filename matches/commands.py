"""The one command runner: every write to every kind of stream (match, draft, tournament, season).

A command that appends to an existing stream (``command_run``), in one transaction:

1. locks what the command changes (``lock``: e.g. the match or tournament row), then the stream row;
2. looks up its ``event_id``: seen before, the command is a retry and gets the stored event back
   (if it is the same command; another command under a used id is 409 ``event_id_reused``). A new
   command skips this lookup (a query per command): a retry always fails the steps below (its stored
   event moved the head past its ``expected_seq``, or its insert meets the unique ``event_id``; one
   that appends nothing under its id looks it up before it commits), and a failed command is looked
   up after its rollback and, if its id is stored, run again with step 2;
3. checks who is asking (``authorize``), then ``expected_seq`` against the stream's head (stale:
   409 ``stale_seq``, nothing written). ``expected_seq`` is required (None is refused): every client
   entry point (API, pages) passes the head the command was based on, and the API requires an
   ``event_id`` too. ``AT_HEAD`` is for in-process callers deciding at the head under the lock: the
   platform's own facts (a verified result arriving, whose ``event_id`` derives from what it records,
   so it lands once), management commands, tests;
4. runs ``execute(subject, appender)``, which decides and appends through the ``Appender`` (the
   first event takes the command's ``event_id``) and records the outbox rows for what follows.

A command that creates a stream (``command_create``) returns what the first create under its
``event_id`` made (``created`` False) instead of making a second one, also when two retries race:
it looks the id up only when its insert fails (a retry's meets the unique ``event_id``; the
loser of a race waits on the winner's and then finds it), as ``command_run`` does.
Refusals are ``EventStoreError``s or the caller's own errors, raised before anything is written.
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.db import transaction

from . import eventstore
from .eventstore import EventIdReused, EventStoreError, NewEvent
from .models import Event, Stream
from .outbox import outbox_add

T = TypeVar("T")


def platform_event_id(namespace: uuid.UUID, name: str) -> uuid.UUID:
    """The id of a fact the platform appends about a match (its verified result, a retraction),
    the same every time it is asked, so a follow-up delivered twice lands the fact once. Event ids
    are unique across every stream and clients choose their own: an id derived from the match id
    alone, which is public, could be taken first by anyone in a stream they may write to, and the
    platform's fact would then be refused as a reused id and never recorded. So ``name`` is keyed
    with the server's ``EVENT_ID_KEY`` first."""
    keyed = hmac.new(settings.EVENT_ID_KEY.encode(), name.encode(), hashlib.sha256).hexdigest()
    return uuid.uuid5(namespace, keyed)


class _AtHead:
    """``expected_seq=AT_HEAD``: append at whatever the head is (platform facts only)."""

    def __repr__(self) -> str:
        return "AT_HEAD"


AT_HEAD = _AtHead()


class GuardMissing(EventStoreError):
    """A command without the ``expected_seq`` it was based on (None rather than a seq or ``AT_HEAD``)."""

    status = 400
    code = "guard_missing"


@dataclass
class Appender:
    """What ``execute`` appends with: events go to the locked stream, the command's
    ``event_id`` goes to its first event, outbox rows go into the same transaction."""

    stream: Stream
    event_id: uuid.UUID | None
    events: list[Event] = field(default_factory=list)

    def append(self, new_events: list[NewEvent], *, secret: bytes | None = None, then=None) -> list[Event]:
        """``then``: as ``eventstore.events_append``'s."""
        new_events = list(new_events)
        if not self.events and new_events and new_events[0].event_id is None and self.event_id is not None:
            new_events[0].event_id = self.event_id
        appended = eventstore.events_append(stream=self.stream, new_events=new_events, secret=secret, then=then)
        self.events += appended
        return appended

    @staticmethod
    def outbox(topic: str, payload: dict[str, Any]) -> None:
        outbox_add(topic=topic, payload=payload)


@dataclass
class CommandResult(Generic[T]):
    subject: T  # what ``lock`` returned (the match, the tournament row), or None
    stream: Stream
    events: list[Event]
    created: bool  # False: a retry, ``events`` holds the stored event
    value: Any = None  # what ``execute`` returned


def _same_command_or_refuse(existing: Event, stream_id: str | None, same: Callable[[Event], bool]) -> None:
    if (stream_id is not None and existing.stream_id != stream_id) or not same(existing):
        raise EventIdReused("This event_id was already used for a different command. Use a new id for a new command.")


def command_run(
    *,
    stream_id: str | Callable[[T], str],
    expected_seq: int | _AtHead | None,
    event_id: uuid.UUID | str | None,
    execute: Callable[[T, Appender], Any],
    lock: Callable[[], T] | None = None,
    authorize: Callable[[T], None] | None = None,
    same: Callable[[Event], bool] = lambda event: True,
    replay: Callable[[T, Stream, Event], Any] | None = None,
    stream_kind: str | None = None,
    stream_of: Callable[[T], Stream] | None = None,
) -> CommandResult[T]:
    """Run one command against an existing stream (see the module's docstring).

    ``stream_id``: the stream, or a function of the locked subject giving it.
    ``same(event)``: whether a stored event under this ``event_id`` was made by this very command.
    ``replay``: what a retry returns as ``value``. ``stream_kind``: make the stream if it does not
    exist yet (league facts about a stream another transaction is still creating). ``stream_of``:
    the stream row as ``lock`` already locked it with the subject (one statement for both)."""
    if expected_seq is None:
        raise GuardMissing("Send the head seq this command was based on as expected_seq.")
    if isinstance(event_id, str):
        event_id = uuid.UUID(event_id)
    run = dict(
        stream_id=stream_id,
        expected_seq=expected_seq,
        event_id=event_id,
        execute=execute,
        lock=lock,
        authorize=authorize,
        same=same,
        replay=replay,
        stream_kind=stream_kind,
        stream_of=stream_of,
    )
    # A retry is rare, and it cannot pass unnoticed: its stored event has moved the head past its
    # expected_seq, or (AT_HEAD) the insert meets the unique event_id. So a new command skips the
    # lookup, and one that fails is looked up after its transaction is rolled back; if the id is
    # stored, the command runs again the careful way, which finds it under the locks.
    try:
        return _command_run(**run, look_up=False)
    except Exception:
        if event_id is None or eventstore.event_find(event_id=event_id) is None:
            raise
    return _command_run(**run, look_up=True)


def _command_run(
    *, stream_id, expected_seq, event_id, execute, lock, authorize, same, replay, stream_kind, stream_of, look_up: bool
) -> CommandResult:
    with transaction.atomic():
        subject = lock() if lock is not None else None
        if callable(stream_id):
            stream_id = stream_id(subject)
        if stream_of is not None:
            stream = stream_of(subject)
        else:
            if stream_kind is not None:
                Stream.objects.get_or_create(id=stream_id, defaults={"kind": stream_kind})
            stream = eventstore.stream_lock(stream_id=stream_id)
        existing = eventstore.event_find(event_id=event_id) if look_up else None
        if existing is not None:
            _same_command_or_refuse(existing, stream_id, same)
            value = replay(subject, stream, existing) if replay is not None else None
            return CommandResult(subject, stream, [existing], False, value)
        if authorize is not None:
            authorize(subject)
        if expected_seq is not AT_HEAD:
            eventstore.check_expected_seq(stream=stream, expected_seq=expected_seq)
        appender = Appender(stream=stream, event_id=event_id)
        value = execute(subject, appender)
        if not look_up and event_id is not None and not any(e.event_id == event_id for e in appender.events):
            # Nothing appended under the id, so no unique index checked it: look it up after all.
            if eventstore.event_find(event_id=event_id) is not None:
                raise _StoredBefore
    return CommandResult(subject, stream, appender.events, True, value)


class _StoredBefore(Exception):
    """A command that passed every check was a retry all along (rolls its transaction back)."""


def command_create(
    *,
    stream_id: str,
    kind: str,
    event_id: uuid.UUID | str | None,
    execute: Callable[[Appender], T],
    found: Callable[[Event], T],
    same: Callable[[Event], bool] = lambda event: True,
) -> tuple[T, bool]:
    """Create a stream and run ``execute`` to append its first events (and make the rows around
    it); returns (what it made, True). With an ``event_id`` already stored: (``found(event)``,
    False) if ``same(event)``, else 409 ``event_id_reused``. ``found`` gets the stored first event."""
    if isinstance(event_id, str):
        event_id = uuid.UUID(event_id)
    # As in command_run, a new create skips the event_id lookup: a retry's insert meets the unique
    # event_id (waiting for a concurrent first create to commit), and whatever a create fails on
    # is answered from the stored event when its id turns out to be stored.
    try:
        with transaction.atomic():  # a savepoint inside a caller's transaction: a lost race leaves nothing
            # No lock: the new row is invisible to every other transaction until this one commits.
            stream = eventstore.stream_create(stream_id=stream_id, kind=kind)
            appender = Appender(stream=stream, event_id=event_id)
            made = execute(appender)
            if event_id is not None and not any(e.event_id == event_id for e in appender.events):
                # Nothing appended under the id, so no unique index checked it: look it up after all.
                if eventstore.event_find(event_id=event_id) is not None:
                    raise _StoredBefore
    except Exception:
        existing = eventstore.event_find(event_id=event_id)
        if existing is None:
            raise
        _same_command_or_refuse(existing, None, same)
        return found(existing), False
    return made, True
