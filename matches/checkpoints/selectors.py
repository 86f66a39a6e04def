"""Reading the transparency log: checkpoints and the proofs an auditor asks for."""

from __future__ import annotations

from dataclasses import dataclass

from audit import merkle

from .models import Checkpoint, LogLeaf


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


def leaf_hashes(*, size: int) -> list[bytes]:
    rows = LogLeaf.objects.filter(index__lt=size).order_by("index").values_list("leaf_hash", flat=True)
    return [bytes.fromhex(h) for h in rows]


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
            "stream": self.leaf.stream_id, "seq": self.leaf.seq, "head_hash": self.leaf.head_hash,
            "leaf_index": self.leaf.index, "leaf_hash": self.leaf.leaf_hash, "tree_size": self.tree_size,
            "proof": self.proof, "checkpoint": self.checkpoint.as_dict() if self.checkpoint else None,
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
        raise ProofUnavailable("That stream head is not in the checkpoint's tree (not logged yet?).",
                               "not_logged")
    proof = merkle.inclusion_proof(leaf.index, leaf_hashes(size=size))
    return Inclusion(leaf, [p.hex() for p in proof], size, checkpoint)


def consistency(*, first: int, second: int) -> tuple[Checkpoint | None, Checkpoint | None, list[str]]:
    """The proof that the tree of ``first`` leaves is a prefix of the tree of ``second``."""
    if first > second:
        raise ProofUnavailable("The first tree size must not be larger than the second.", "bad_sizes")
    second, new = _size(second)
    _, old = _size(first)
    proof = merkle.consistency_proof(first, leaf_hashes(size=second))
    return old, new, [p.hex() for p in proof]
