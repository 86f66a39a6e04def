"""Appending stream heads to the transparency log and signing checkpoints.

Runs in the background (Celery beat, or ``manage.py checkpoint``), never in a request: a
command appends its event and returns; the next run logs every head that moved since. One
run at a time (an advisory lock on PostgreSQL; SQLite serialises writers by itself), and the
leaves and the checkpoint commit together.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from audit import checkpoint as audit_checkpoint
from audit import merkle
from matches.models import Event, Stream

from . import keys
from .models import Checkpoint, LoggedHead, LogLeaf, MerkleNode
from .selectors import nodes_get

log = logging.getLogger(__name__)

#: pg_advisory_xact_lock key of the log ("wdcp" in ASCII).
LOCK_KEY = 0x77646370


@dataclass
class HeadsLogged:
    appended: list[LogLeaf] = field(default_factory=list)
    #: Streams whose head now contradicts the log (same seq, another hash; or fewer events):
    #: the log keeps what it saw and never records a rewrite as if it were progress.
    conflicts: list[str] = field(default_factory=list)


def _lock() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [LOCK_KEY])


def heads_log() -> HeadsLogged:
    """Append a leaf for every stream whose head moved on since it was last logged."""
    outcome = HeadsLogged()
    with transaction.atomic():
        _lock()
        logged = {row.stream_id: row for row in LoggedHead.objects.all()}
        index = LogLeaf.objects.count()
        moved = []
        for stream_id, seq, head in (
            Stream.objects.filter(head_seq__gt=0).order_by("id").values_list("id", "head_seq", "head_hash")
        ):
            last = logged.get(stream_id)
            if last is not None and (last.seq, last.head_hash) == (seq, head):
                continue
            moved.append((stream_id, seq, head, last))
        # A stream moves on only from the head the log holds: the event at the logged seq must
        # still hash to the logged head (one query for all of them).
        still = _hashes_at([(last.stream_id, last.seq) for _, _, _, last in moved if last is not None])
        new_leaves, heads = [], []
        for stream_id, seq, head, last in moved:
            if last is not None and (seq <= last.seq or still.get((stream_id, last.seq)) != last.head_hash):
                outcome.conflicts.append(stream_id)
                log.error(
                    "Stream %s is at %s/%s but no longer holds the logged head %s/%s: not logged.",
                    stream_id,
                    seq,
                    head,
                    last.seq,
                    last.head_hash,
                )
                continue
            digest = audit_checkpoint.leaf_hash(stream=stream_id, seq=seq, head=head).hex()
            new_leaves.append(LogLeaf(index=index, stream_id=stream_id, seq=seq, head_hash=head, leaf_hash=digest))
            heads.append(LoggedHead(stream_id=stream_id, seq=seq, head_hash=head))
            index += 1
        LogLeaf.objects.bulk_create(new_leaves)
        _grow(index - len(new_leaves), [bytes.fromhex(leaf.leaf_hash) for leaf in new_leaves])
        LoggedHead.objects.bulk_create(
            heads, update_conflicts=True, unique_fields=["stream_id"], update_fields=["seq", "head_hash"]
        )
        outcome.appended = new_leaves
    return outcome


def _hashes_at(points: list[tuple[str, int]]) -> dict[tuple[str, int], str]:
    found: dict[tuple[str, int], str] = {}
    for start in range(0, len(points), 500):
        query = Q()
        for stream_id, seq in points[start : start + 500]:
            query |= Q(stream_id=stream_id, seq=seq)
        found.update(
            ((sid, seq), digest)
            for sid, seq, digest in Event.objects.filter(query).values_list("stream_id", "seq", "hash")
        )
    return found


def _grow(old_size: int, leaves: list[bytes]) -> None:
    """Store the complete subtrees the new leaves complete (level 0: the leaves themselves)."""
    if not leaves:
        return
    stored = nodes_get(merkle.nodes_needed_to_grow(old_size, old_size + len(leaves)))
    made = merkle.new_nodes(old_size, leaves, stored)
    MerkleNode.objects.bulk_create(
        MerkleNode(level=level, index=index, hash=digest.hex()) for (level, index), digest in made.items()
    )


def checkpoint_sign() -> tuple[Checkpoint, bool, HeadsLogged]:
    """Log the heads that moved and sign a checkpoint over the whole log.

    Returns (checkpoint, created, heads): no new leaves means no new checkpoint (the latest
    still describes the log), except for the very first, which may be of the empty tree."""
    heads = heads_log()
    with transaction.atomic():
        _lock()
        size = LogLeaf.objects.count()
        latest = Checkpoint.objects.order_by("-tree_size").first()
        if latest is not None and latest.tree_size == size:
            return latest, False, heads
        private = keys.signing_key()
        public = audit_checkpoint.public_key_of(private)
        root = merkle.range_root(0, size, nodes_get(merkle.perfect_nodes(0, size))).hex()
        timestamp = timezone.now().replace(microsecond=0).isoformat()
        message = audit_checkpoint.body(tree_size=size, root_hash=root, timestamp=timestamp)
        made = Checkpoint.objects.create(
            tree_size=size,
            root_hash=root,
            timestamp=timestamp,
            signature=audit_checkpoint.sign(private, message),
            key_id=audit_checkpoint.key_id(public),
            public_key=public,
        )
    return made, True, heads
