"""The platform's transparency log, as plain data: leaves, signed checkpoints, proofs.

Django-free, so an auditor checks a checkpoint and its proofs with this file, audit/merkle.py
and the ``cryptography`` package alone.

- A leaf records that a stream had a given head: the canonical JSON (sorted keys, no
  whitespace, UTF-8) of ``{"head": <hex>, "seq": <n>, "stream": <id>}``; the tree hashes it
  as RFC 9162 says (``merkle.leaf_hash``).
- A checkpoint is the text below, signed with the platform's Ed25519 key; the signature
  covers exactly these bytes (UTF-8, each line ending in a newline)::

      wizard-duels transparency log
      <tree size, decimal>
      <root hash, lowercase hex>
      <time, ISO 8601 UTC>

- Keys and signatures travel as base64 of their raw bytes (32-byte public key, 64-byte
  signature); a key's id is the first 16 hex digits of SHA-256 of the raw public key.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from . import merkle

ORIGIN = "wizard-duels transparency log"


def leaf_bytes(*, stream: str, seq: int, head: str) -> bytes:
    return json.dumps(
        {"head": head, "seq": seq, "stream": stream}, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode("utf-8")


def leaf_hash(*, stream: str, seq: int, head: str) -> bytes:
    return merkle.leaf_hash(leaf_bytes(stream=stream, seq=seq, head=head))


def body(*, tree_size: int, root_hash: str, timestamp: str) -> bytes:
    """The signed text of a checkpoint."""
    return f"{ORIGIN}\n{tree_size}\n{root_hash}\n{timestamp}\n".encode()


def key_id(public_key_b64: str) -> str:
    return hashlib.sha256(base64.b64decode(public_key_b64)).hexdigest()[:16]


@dataclass(frozen=True)
class Checkpoint:
    tree_size: int
    root_hash: str
    timestamp: str
    signature: str
    key_id: str = ""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Checkpoint:
        return cls(
            tree_size=int(data["tree_size"]),
            root_hash=str(data["root_hash"]),
            timestamp=str(data["timestamp"]),
            signature=str(data["signature"]),
            key_id=str(data.get("key_id", "")),
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "tree_size": self.tree_size,
            "root_hash": self.root_hash,
            "timestamp": self.timestamp,
            "signature": self.signature,
            "key_id": self.key_id,
        }

    def body(self) -> bytes:
        return body(tree_size=self.tree_size, root_hash=self.root_hash, timestamp=self.timestamp)


def sign(private_key_raw: bytes, message: bytes) -> str:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return base64.b64encode(Ed25519PrivateKey.from_private_bytes(private_key_raw).sign(message)).decode("ascii")


def public_key_of(private_key_raw: bytes) -> str:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    public = Ed25519PrivateKey.from_private_bytes(private_key_raw).public_key()
    return base64.b64encode(public.public_bytes(Encoding.Raw, PublicFormat.Raw)).decode("ascii")


def signature_valid(checkpoint: Checkpoint, public_key_b64: str) -> bool:
    """Is the checkpoint signed by the holder of this public key (and unchanged since)?"""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key_b64, validate=True))
        key.verify(base64.b64decode(checkpoint.signature, validate=True), checkpoint.body())
    except (InvalidSignature, ValueError, binascii.Error):
        return False
    return True


def _hashes(proof: Sequence[str]) -> list[bytes] | None:
    try:
        return [bytes.fromhex(p) for p in proof]
    except (TypeError, ValueError):
        return None


def inclusion_valid(
    *, stream: str, seq: int, head: str, index: int, proof: Sequence[str], checkpoint: Checkpoint
) -> bool:
    """Is the leaf (stream, seq, head) at ``index`` of the tree the checkpoint signs?"""
    hashes = _hashes(proof)
    root = _hashes([checkpoint.root_hash])
    if hashes is None or root is None:
        return False
    return merkle.verify_inclusion(
        leaf_hash(stream=stream, seq=seq, head=head), index, checkpoint.tree_size, hashes, root[0]
    )


def consistency_valid(*, first: Checkpoint, second: Checkpoint, proof: Sequence[str]) -> bool:
    """Is the tree of ``first`` a prefix of the tree of ``second`` (nothing logged rewritten)?"""
    hashes = _hashes(proof)
    roots = _hashes([first.root_hash, second.root_hash])
    if hashes is None or roots is None:
        return False
    return merkle.verify_consistency(first.tree_size, second.tree_size, roots[0], roots[1], hashes)
