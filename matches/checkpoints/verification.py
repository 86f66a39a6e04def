"""Holding a stream against the transparency log: every head logged for it must still be there."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import connections

from matches.models import Event

from .models import LogLeaf


def log_check(*, stream_id: str) -> tuple[int, str] | None:
    """(seq, reason) for the first logged head the stream no longer has, or None if all hold.

    A chain recomputed after a rewrite verifies on its own; it cannot also keep the heads the
    log recorded (and checkpoints signed) before the rewrite."""
    leaves = logged_heads(stream_ids=[stream_id]).get(stream_id, [])
    if not leaves:
        return None
    hashes = dict(Event.objects.filter(stream_id=stream_id, seq__in=[s for s, _ in leaves]).values_list("seq", "hash"))
    return heads_check(leaves, hashes)


def logged_heads(*, stream_ids: list[str]) -> dict[str, list[tuple[int, str]]]:
    """The (seq, head) pairs the log recorded for each of many streams, in seq order, read in one
    query (a batch of verifications, which holds each stream against them with ``heads_check``)."""
    rows = LogLeaf.objects.filter(stream_id__in=stream_ids).order_by("stream_id", "seq")
    return heads_by_stream(rows.values_list("stream_id", "seq", "head_hash"))


def heads_by_stream(rows: Iterable[tuple[str, int, str]]) -> dict[str, list[tuple[int, str]]]:
    """(stream id, seq, head) rows, in stream and seq order, as ``logged_heads`` gives them."""
    found: dict[str, list[tuple[int, str]]] = {}
    for stream_id, seq, head in rows:
        found.setdefault(stream_id, []).append((seq, head))
    return found


def logged_heads_sql(alias: str, streams: str) -> str:
    """``logged_heads``' read as one statement for the streams ``streams`` (a subquery of stream
    ids) names, for a caller that sends it with others; its rows go to ``heads_by_stream``."""
    qn = connections[alias].ops.quote_name
    return (
        f"SELECT {qn('stream_id')}, {qn('seq')}, {qn('head_hash')} FROM {qn(LogLeaf._meta.db_table)}"
        f" WHERE {qn('stream_id')} IN ({streams}) ORDER BY {qn('stream_id')}, {qn('seq')}"
    )


def heads_check(leaves: list[tuple[int, str]], hashes: dict[int, str]) -> tuple[int, str] | None:
    """``log_check`` of a stream whose logged (seq, head) pairs, in seq order, and whose events'
    hashes by seq are read already."""
    for seq, head in leaves:
        if seq not in hashes:
            return seq, f"The transparency log recorded this stream at event {seq}, which is no longer in it."
        if hashes[seq] != head:
            return seq, (
                f"The transparency log recorded head {head[:12]}… at event {seq}; the stream's event "
                f"{seq} now hashes to {hashes[seq][:12]}…: it was rewritten after it was logged."
            )
    return None
