"""Timestamps are read by psycopg's own loader, in C, and give what Django's gave, zone included
(config/postgresql/base.py ``UtcTimestamptzLoader``; issue 17: a stream's timestamps were a
twentieth of a verification's CPU through Django's loader, written in Python)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection, transaction
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from django.utils import timezone

from config.postgresql.base import _PSYCOPG_TIMESTAMPTZ, UtcTimestamptzLoader
from matches.models import Event, Stream

pytestmark = pytest.mark.django_db

# Each as PostgreSQL prints it in UTC: the first and last instants Python has, either side of
# the epoch, a leap day, whole seconds (no fraction printed) and each length of fraction.
TEXTS = [
    "0001-01-01 00:00:00+00",
    "9999-12-31 23:59:59.999999+00",
    "1969-12-31 23:59:59.5+00",
    "1970-01-01 00:00:00+00",
    "2024-02-29 12:00:00.000001+00",
    "2026-12-03 15:50:27.123456+00",
    "2026-12-03 15:50:27.12+00",
]


class _Django(BaseTzLoader):
    # Django's loader as Django registers it for a connection in UTC.
    timezone = datetime.UTC


def _read(sql, params=None):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [row[0] for row in cursor.fetchall()]


def _literal_sql(texts):
    return " UNION ALL ".join(f"SELECT '{text}'::timestamptz" for text in texts)


def test_every_timestamp_reads_as_djangos_loader_read_it_zone_and_all():
    read = _read(_literal_sql(TEXTS))
    expected = [_Django(1184, connection.connection).load(text.encode()) for text in TEXTS]
    assert read == expected
    # The same object as the zone Django names, not an equal one: a value compared by identity
    # of its zone, or printed with it, must not change.
    assert all(value.tzinfo is datetime.UTC for value in read)


def test_a_connection_in_utc_reads_timestamps_without_djangos_python_loader(monkeypatch):
    calls = []
    real = BaseTzLoader.load
    monkeypatch.setattr(BaseTzLoader, "load", lambda self, data: calls.append(data) or real(self, data))
    stream = Stream.objects.create(id="loader:1", kind="match")
    written = datetime.datetime(2026, 12, 3, 15, 50, 27, 123456, tzinfo=datetime.UTC)
    Event.objects.create(stream=stream, seq=1, type="t", data={}, actor="system", recorded_at=written)
    assert list(Event.objects.filter(stream=stream).values_list("recorded_at", flat=True)) == [written]
    assert _read("SELECT now()")[0].tzinfo is datetime.UTC
    assert calls == []
    # Django compares this with its own zone on every new cursor and, were they to differ,
    # would register its loader on that cursor again.
    with connection.cursor() as cursor:
        assert cursor.cursor.adapters.get_loader(1184, 0) is UtcTimestamptzLoader
    assert UtcTimestamptzLoader.timezone == connection.timezone


def test_the_loader_psycopg_is_handed_is_psycopgs_own():
    with connection.cursor() as cursor:
        made = UtcTimestamptzLoader(1184, cursor.cursor)
    assert type(made) is _PSYCOPG_TIMESTAMPTZ


def test_a_session_moved_to_another_zone_reads_as_django_did():
    # Django sets UTC on every connection it opens; a session moved away afterwards (SET TIME
    # ZONE in someone's SQL) gets Django's loader back, whatever that gives.
    text = "2026-07-01 12:00:00+00"
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL TIME ZONE 'Europe/Paris'")
            cursor.execute(f"SELECT '{text}'::timestamptz::text")
            printed = cursor.fetchone()[0]
            cursor.execute(f"SELECT '{text}'::timestamptz")
            read = cursor.fetchone()[0]
            made = UtcTimestamptzLoader(1184, cursor.cursor)
            # Django's loader made in the same session: what it gives depends on the session's zone.
            django_reads = _Django(1184, connection.connection).load(printed.encode())
        # Rolled back to the savepoint, which takes the SET LOCAL with it (the test's own
        # transaction goes on, and a released savepoint would keep the zone until its end).
        transaction.set_rollback(True)
    assert type(made) is not _PSYCOPG_TIMESTAMPTZ
    assert read == django_reads
    assert read.tzinfo is datetime.UTC
    # Back in UTC, the next loader is psycopg's again: the zone is looked at each time.
    with connection.cursor() as cursor:
        cursor.execute("SHOW TIME ZONE")
        assert cursor.fetchone()[0] == "UTC"
        assert type(UtcTimestamptzLoader(1184, cursor.cursor)) is _PSYCOPG_TIMESTAMPTZ


def test_timestamps_written_through_the_orm_come_back_equal():
    stream = Stream.objects.create(id="loader:2", kind="match")
    times = [
        timezone.now(),
        datetime.datetime(1969, 12, 31, 23, 59, 59, 500000, tzinfo=datetime.UTC),
        datetime.datetime(2026, 3, 29, 1, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=2))),
    ]
    for seq, at in enumerate(times, start=1):
        Event.objects.create(stream=stream, seq=seq, type="t", data={}, actor="system", recorded_at=at)
    read = list(Event.objects.filter(stream=stream).order_by("seq").values_list("recorded_at", flat=True))
    assert read == times
    assert [at.isoformat() for at in read] == [at.astimezone(datetime.UTC).isoformat() for at in times]
