"""Appends per second through the event store's service path, against raw INSERTs of
the same rows on the same PostgreSQL, in one run (the ratio is what to compare).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wizard_duels \
        .venv/bin/python benchmarks/bench_event_store.py [--events 2000] [--batch 100]

Runs on a scratch test database that it creates and drops.
"""

from __future__ import annotations

import argparse
import json
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
    parser.add_argument("--batch", type=int, default=100, help="events per transaction in the batch part")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL server.")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run(args.events, args.batch)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(n: int, batch: int) -> None:
    from matches import eventstore
    from matches.autoplay import autoplay_match
    from matches.commands import AT_HEAD, command_run
    from matches.models import Event, Match

    # Realistic payloads: the data of a real Dueling Wizards match's events, cycled.
    sample = autoplay_match(game="dueling-wizards", seats=2)
    # Its first event is left out: it declares a salted stream, which these unsalted ones are not.
    events = Event.objects.filter(stream_id=sample.stream_id, seq__gt=1).order_by("seq")
    payloads = [(e.type, e.data) for e in events]
    rows = [payloads[i % len(payloads)] for i in range(n)]
    now = timezone.now()
    raw_seq = 0

    def raw_insert(chunk) -> None:
        # The same columns, hashes precomputed: one multi-row INSERT per transaction.
        nonlocal raw_seq
        params = []
        for etype, data in chunk:
            raw_seq += 1
            params += [
                "bench:raw",
                raw_seq,
                str(uuid.uuid4()),
                etype,
                json.dumps(data),
                "bench",
                now,
                "0" * 64,
                "0" * 64,
            ]
        values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s, %s, %s)"] * len(chunk))
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO matches_event (stream_id, seq, event_id, type, data, actor, recorded_at, prev_hash, hash)"
                f" VALUES {values}",
                params,
            )

    def service_append(stream_id: str, chunk, expected_seq: int) -> None:
        # What every writer does: lock the stream, check the expected seq, hash, insert, move the head.
        with transaction.atomic():
            stream = eventstore.stream_lock(stream_id=stream_id)
            eventstore.check_expected_seq(stream=stream, expected_seq=expected_seq)
            eventstore.events_append(
                stream=stream, new_events=[eventstore.NewEvent(type=t, data=d, actor="bench") for t, d in chunk]
            )

    def runner_append(stream_id: str, chunk) -> None:
        # The command runner as the API drives it: a fresh event_id, so the idempotency guard is live.
        command_run(
            stream_id=stream_id,
            expected_seq=AT_HEAD,
            event_id=uuid.uuid4(),
            execute=lambda _subject, appender: appender.append(
                [eventstore.NewEvent(type=t, data=d, actor="bench") for t, d in chunk]
            ),
        )

    for stream_id in ("bench:raw", "bench:svc", "bench:run", "bench:svcb"):
        eventstore.stream_create(stream_id=stream_id, kind="bench")

    # Taken in turns, transaction by transaction, so a change in the machine's load hits each alike.
    raw = svc = runner = 0.0
    for i, row in enumerate(rows):
        start = time.perf_counter()
        raw_insert([row])
        raw += time.perf_counter() - start
        start = time.perf_counter()
        service_append("bench:svc", [row], i)
        svc += time.perf_counter() - start
        start = time.perf_counter()
        runner_append("bench:run", [row])
        runner += time.perf_counter() - start

    raw_b = svc_b = 0.0
    chunks = [rows[i : i + batch] for i in range(0, n, batch)]
    done = 0
    for chunk in chunks:
        start = time.perf_counter()
        raw_insert(chunk)
        raw_b += time.perf_counter() - start
        start = time.perf_counter()
        service_append("bench:svcb", chunk, done)
        svc_b += time.perf_counter() - start
        done += len(chunk)

    # Whole matches through the match services (engine, projection, log, verification).
    matches = max(1, n // max(1, len(payloads)))
    start = time.perf_counter()
    events_before = Event.objects.count()
    for _ in range(matches):
        autoplay_match(game="dueling-wizards", seats=2)
    full = time.perf_counter() - start
    full_events = Event.objects.count() - events_before
    assert Match.objects.filter(verdict="verified").count() == matches + 1
    assert eventstore.chain_check(eventstore.stream_events(stream_id="bench:svc")).ok
    assert eventstore.chain_check(eventstore.stream_events(stream_id="bench:svcb")).ok

    print(f"Event store appends on PostgreSQL, {n} events")
    print("  one event per transaction, taken in turns:")
    print(f"    raw INSERT               : {n / raw:10,.0f} events/s")
    print(f"    eventstore service path  : {n / svc:10,.0f} events/s   ({svc / raw:.2f}x the raw time)")
    print(f"    command runner + event_id: {n / runner:10,.0f} events/s   ({runner / raw:.2f}x the raw time)")
    print(f"  {batch} events per transaction ({len(chunks)} transactions), taken in turns:")
    print(f"    raw multi-row INSERT     : {n / raw_b:10,.0f} events/s")
    print(f"    eventstore service path  : {n / svc_b:10,.0f} events/s   ({svc_b / raw_b:.2f}x the raw time)")
    print(
        f"  full match path (+engine, projection, log, verify): "
        f"{full_events / full:,.0f} events/s over {matches} matches ({(full / full_events) / (raw / n):.2f}x raw per event)"
    )
    print(f"  engine: {registry.get('dueling-wizards').title} v{registry.get('dueling-wizards').version}")


if __name__ == "__main__":
    main()
