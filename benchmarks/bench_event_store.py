"""Appends per second through the event store's service path, against raw INSERTs of
the same rows on the same PostgreSQL, in one run (the ratio is what to compare).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wizard_duels \
        .venv/bin/python benchmarks/bench_event_store.py [--events 2000]

Runs on a scratch test database that it creates and drops.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402

from engines import registry  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=2000)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL server.")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run(args.events)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(n: int) -> None:
    from matches import eventstore
    from matches.autoplay import autoplay_match
    from matches.models import Event, Match

    # Realistic payloads: the data of a real Dueling Wizards match's events, cycled.
    sample = autoplay_match(game="dueling-wizards", seats=2)
    payloads = [(e.type, e.data) for e in Event.objects.filter(stream_id=sample.stream_id).order_by("seq")]
    rows = [payloads[i % len(payloads)] for i in range(n)]

    # Raw INSERTs: one row per statement and per transaction, hashes precomputed.
    eventstore.stream_create(stream_id="bench:raw", kind="bench")
    now = timezone.now()
    prepared = []
    for i, (etype, data) in enumerate(rows, start=1):
        prepared.append(("bench:raw", i, str(uuid.uuid4()), etype, data))
    import json

    start = time.perf_counter()
    with connection.cursor() as cursor:
        for stream_id, seq, event_id, etype, data in prepared:
            with transaction.atomic():
                cursor.execute(
                    "INSERT INTO matches_event (stream_id, seq, event_id, type, data, actor, recorded_at, prev_hash, hash)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    [stream_id, seq, event_id, etype, json.dumps(data), "bench", now, "0" * 64, "0" * 64],
                )
    raw = time.perf_counter() - start

    # Service path: lock the stream, check expected seq, hash, insert, move the head.
    eventstore.stream_create(stream_id="bench:svc", kind="bench")
    start = time.perf_counter()
    for i, (etype, data) in enumerate(rows):
        with transaction.atomic():
            stream = eventstore.stream_lock(stream_id="bench:svc")
            eventstore.check_expected_seq(stream=stream, expected_seq=i)
            eventstore.events_append(
                stream=stream, new_events=[eventstore.NewEvent(type=etype, data=data, actor="bench")]
            )
    svc = time.perf_counter() - start

    # Whole matches through the match services (engine, projection, log, verification).
    matches = max(1, n // max(1, len(payloads)))
    start = time.perf_counter()
    events_before = Event.objects.count()
    for _ in range(matches):
        autoplay_match(game="dueling-wizards", seats=2)
    full = time.perf_counter() - start
    full_events = Event.objects.count() - events_before
    assert Match.objects.filter(verdict="verified").count() == matches + 1

    print(f"Event store appends on PostgreSQL, {n} events, one transaction each")
    print(f"  raw INSERT               : {n / raw:10,.0f} events/s")
    print(f"  eventstore service path  : {n / svc:10,.0f} events/s   ({svc / raw:.2f}x the raw time)")
    print(
        f"  full match path (+engine, projection, log, verify): "
        f"{full_events / full:,.0f} events/s over {matches} matches ({(full / full_events) / (raw / n):.2f}x raw per event)"
    )
    print(f"  engine: {registry.get('dueling-wizards').title} v{registry.get('dueling-wizards').version}")


if __name__ == "__main__":
    main()
