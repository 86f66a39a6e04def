"""Reading the transparency log: checkpoints and the proofs an auditor asks for."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q

from audit import merkle

from .models import Checkpoint, LogLeaf, MerkleNode


class ProofUnavailable(Exception):
    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message, self.code = message, code


def checkpoint_latest() -> Checkpoint | None:
    return Checkpoint.objects.order_by("-tree_size").first()


def checkpoint_get(*, tree_size: int) -> Checkpoint | None:
    return Checkpoint.objects.filter(tree_size=tree_size).first()


def checkpoints_recent(*, limit: int = 50, offset: int = 0) -> list[Checkpoint]:
    return list(Checkpoint.objects.order_by("-tree_size")[offset : offset + limit])


def nodes_get(wanted: Iterable[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
    """Stored complete subtrees by (level, index), in one query."""
    by_level: dict[int, set[int]] = {}
    for level, index in wanted:
        by_level.setdefault(level, set()).add(index)
    if not by_level:
        return {}
    query = Q()
    for level, indexes in by_level.items():
        query |= Q(level=level, index__in=sorted(indexes))
    return {
        (level, index): bytes.fromhex(digest)
        for level, index, digest in MerkleNode.objects.filter(query).values_list("level", "index", "hash")
    }


def _hashes(ranges: list[tuple[int, int]]) -> list[str]:
    nodes = nodes_get(n for lo, hi in ranges for n in merkle.perfect_nodes(lo, hi))
    return [merkle.range_root(lo, hi, nodes).hex() for lo, hi in ranges]


def leaves_of(*, stream_id: str) -> list[LogLeaf]:
    return list(LogLeaf.objects.filter(stream_id=stream_id).order_by("index"))


@dataclass
class Inclusion:
    leaf: LogLeaf
    proof: list[str]
    tree_size: int
    checkpoint: Checkpoint | None

    def as_dict(self) -> dict:
        return {
            "stream": self.leaf.stream_id,
            "seq": self.leaf.seq,
            "head_hash": self.leaf.head_hash,
            "leaf_index": self.leaf.index,
            "leaf_hash": self.leaf.leaf_hash,
            "tree_size": self.tree_size,
            "proof": self.proof,
            "checkpoint": self.checkpoint.as_dict() if self.checkpoint else None,
        }


def _size(tree_size: int | None) -> tuple[int, Checkpoint | None]:
    """A tree size the log has signed up to (default: the latest checkpoint's), and its
    checkpoint if one was signed at exactly that size. Proofs for any size up to the latest
    are given, so an auditor can check the one checkpoint they kept, whatever became of it here."""
    latest = checkpoint_latest()
    if latest is None:
        raise ProofUnavailable("No checkpoint has been signed yet.", "no_checkpoint")
    if tree_size is None:
        return latest.tree_size, latest
    if tree_size > latest.tree_size:
        raise ProofUnavailable(f"The log has signed {latest.tree_size} leaves, not {tree_size}.", "no_checkpoint")
    return tree_size, checkpoint_get(tree_size=tree_size)


def inclusion(*, stream_id: str, seq: int | None = None, tree_size: int | None = None) -> Inclusion:
    """The proof that the tree of ``tree_size`` leaves holds the stream's head: the given seq's,
    or the latest head that tree covers."""
    size, checkpoint = _size(tree_size)
    leaves = LogLeaf.objects.filter(stream_id=stream_id, index__lt=size)
    if seq is not None:
        leaves = leaves.filter(seq=seq)
    leaf = leaves.order_by("-index").first()
    if leaf is None:
        raise ProofUnavailable("That stream head is not in the checkpoint's tree (not logged yet?).", "not_logged")
    return Inclusion(leaf, _hashes(merkle.inclusion_ranges(leaf.index, size)), size, checkpoint)


def consistency(*, first: int, second: int) -> tuple[Checkpoint | None, Checkpoint | None, list[str]]:
    """The proof that the tree of ``first`` leaves is a prefix of the tree of ``second``."""
    if first > second:
        raise ProofUnavailable("The first tree size must not be larger than the second.", "bad_sizes")
    second, new = _size(second)
    _, old = _size(first)
    return old, new, _hashes(merkle.consistency_ranges(first, second))


def checkpoint_covering(*, stream_id: str, seq: int) -> tuple[LogLeaf | None, Checkpoint | None]:
    """The log leaf of the stream's head at ``seq`` and the first signed checkpoint whose tree holds it."""
    leaf = LogLeaf.objects.filter(stream_id=stream_id, seq=seq).order_by("index").first()
    if leaf is None:
        return None, None
    return leaf, Checkpoint.objects.filter(tree_size__gt=leaf.index).order_by("tree_size").first()
