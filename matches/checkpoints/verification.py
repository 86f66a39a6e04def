"""Holding a stream against the transparency log: every head logged for it must still be there."""

from __future__ import annotations

from matches.models import Event

from .models import LogLeaf


def log_check(*, stream_id: str) -> tuple[int, str] | None:
    """(seq, reason) for the first logged head the stream no longer has, or None if all hold.

    A chain recomputed after a rewrite verifies on its own; it cannot also keep the heads the
    log recorded (and checkpoints signed) before the rewrite."""
    leaves = list(LogLeaf.objects.filter(stream_id=stream_id).order_by("seq").values_list("seq", "head_hash"))
    if not leaves:
        return None
    hashes = dict(Event.objects.filter(stream_id=stream_id, seq__in=[s for s, _ in leaves]).values_list("seq", "hash"))
    for seq, head in leaves:
        if seq not in hashes:
            return seq, f"The transparency log recorded this stream at event {seq}, which is no longer in it."
        if hashes[seq] != head:
            return seq, (
                f"The transparency log recorded head {head[:12]}… at event {seq}; the stream's event "
                f"{seq} now hashes to {hashes[seq][:12]}…: it was rewritten after it was logged."
            )
    return None
