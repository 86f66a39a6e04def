"""Appends per second through the event store's service path, against raw INSERTs of
the same rows on the same PostgreSQL, in one run (the ratio is what to compare).

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/wizard_duels \
        .venv/bin/python benchmarks/bench_event_store.py [--events 2000] [--batch 100] [--batch-transactions 60]

Every part takes the project's path and its raw baseline in turns (which goes first alternates),
so a change in the machine's load hits both alike; besides the totals it prints the median of
the per-turn ratios and their quartiles, which one slow transaction cannot move.
Runs on a scratch test database that it creates and drops.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
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
    parser.add_argument("--batch-transactions", type=int, default=60, help="transactions in the batch part (each side)")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL server.")
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        run(args.events, args.batch, args.batch_transactions)
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


def run(n: int, batch: int, batch_transactions: int) -> None:
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

    def timed(fn, *args) -> float:
        start = time.perf_counter()
        fn(*args)
        return time.perf_counter() - start

    # Taken in turns, transaction by transaction, the order rotating, so a change in the machine's
    # load hits each alike.
    raw_t, svc_t, run_t = [], [], []
    for i, row in enumerate(rows):
        turns = [
            (raw_t, lambda: raw_insert([row])),
            (svc_t, lambda: service_append("bench:svc", [row], i)),
            (run_t, lambda: runner_append("bench:run", [row])),
        ]
        for times, fn in turns[i % 3 :] + turns[: i % 3]:
            times.append(timed(fn))
    raw, svc, runner = sum(raw_t), sum(svc_t), sum(run_t)

    # The batch part: its own number of transactions (ten were too few to judge under load).
    payload_count = len(payloads)
    chunks = [[payloads[(t * batch + i) % payload_count] for i in range(batch)] for t in range(batch_transactions)]
    raw_bt, svc_bt = [], []
    for t, chunk in enumerate(chunks):
        turns = [(raw_bt, lambda: raw_insert(chunk)), (svc_bt, lambda: service_append("bench:svcb", chunk, t * batch))]
        for times, fn in turns if t % 2 == 0 else turns[::-1]:
            times.append(timed(fn))
    raw_b, svc_b = sum(raw_bt), sum(svc_bt)

    # Whole matches through the match services (engine, projection, log, verification), each
    # followed by as many single raw INSERTs as it wrote events: the baseline in the same minutes.
    matches = max(1, n // max(1, payload_count))
    full = full_raw = 0.0
    full_events = 0
    per_match = []
    for m in range(matches):
        before = Event.objects.count()
        start = time.perf_counter()
        autoplay_match(game="dueling-wizards", seats=2)
        took = time.perf_counter() - start
        written = Event.objects.count() - before
        base = sum(timed(raw_insert, [rows[(m + k) % len(rows)]]) for k in range(written))
        full, full_raw, full_events = full + took, full_raw + base, full_events + written
        per_match.append(took / base)
    assert Match.objects.filter(verdict="verified").count() == matches + 1
    assert eventstore.chain_check(eventstore.stream_events(stream_id="bench:svc")).ok
    assert eventstore.chain_check(eventstore.stream_events(stream_id="bench:svcb")).ok
    assert eventstore.chain_check(eventstore.stream_events(stream_id="bench:run")).ok

    def spread(project: list[float], baseline: list[float]) -> str:
        ratios = [p / b for p, b in zip(project, baseline)]
        q1, med, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else (ratios[0],) * 3
        return f"median of the turns {med:.2f}x (quartiles {q1:.2f}x-{q3:.2f}x)"

    print(f"Event store appends on PostgreSQL, {n} events")
    print("  one event per transaction, taken in turns:")
    print(f"    raw INSERT               : {n / raw:10,.0f} events/s")
    print(
        f"    eventstore service path  : {n / svc:10,.0f} events/s   ({svc / raw:.2f}x the raw time; {spread(svc_t, raw_t)})"
    )
    print(
        f"    command runner + event_id: {n / runner:10,.0f} events/s   ({runner / raw:.2f}x the raw time; {spread(run_t, raw_t)})"
    )
    print(f"  {batch} events per transaction ({len(chunks)} transactions each), taken in turns:")
    print(f"    raw multi-row INSERT     : {len(chunks) * batch / raw_b:10,.0f} events/s")
    print(
        f"    eventstore service path  : {len(chunks) * batch / svc_b:10,.0f} events/s   "
        f"({svc_b / raw_b:.2f}x the raw time; {spread(svc_bt, raw_bt)})"
    )
    print(
        f"  full match path (+engine, projection, log, verify): {full_events / full:,.0f} events/s over {matches} matches;"
        f" the same number of single raw INSERTs after each: {full_events / full_raw:,.0f} events/s"
    )
    med = statistics.median(per_match)
    print(f"    {full / full_raw:.2f}x raw per event (median of the matches {med:.2f}x)")
    print(f"  engine: {registry.get('dueling-wizards').title} v{registry.get('dueling-wizards').version}")


if __name__ == "__main__":
    main()
