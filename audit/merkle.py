"""A Merkle tree in the manner of RFC 9162 (Certificate Transparency 2.0), section 2.1.

Written from the RFC's definitions, with nothing but ``hashlib``, so anyone can check a
proof with a copy of this file:

- the hash of an empty tree is SHA-256 of nothing;
- a leaf's hash is SHA-256(0x00 || leaf bytes);
- an inner node's hash is SHA-256(0x01 || left || right), where the left subtree holds the
  largest power of two of the leaves that is smaller than their number (section 2.1.1);
- an inclusion proof (audit path, section 2.1.3) and a consistency proof (section 2.1.4)
  are lists of node hashes, verified by the algorithms of sections 2.1.3.2 and 2.1.4.2.

The distinct prefixes keep a leaf from ever being passed off as an inner node (a second
preimage) and the other way round.

Functions take the leaves' hashes (``leaf_hash`` of each leaf's bytes), so a log that
stores its leaf hashes never has to re-read the leaves to prove anything.
"""

from __future__ import annotations

import hashlib
from typing import Sequence

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()


class ProofError(ValueError):
    """A proof was asked for that cannot exist (e.g. a leaf beyond the tree)."""


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n >= 2): the size of the left subtree."""
    k = 1
    while k << 1 < n:
        k <<= 1
    return k


def root(leaves: Sequence[bytes]) -> bytes:
    """MTH(D[n]) over the given leaf hashes.

    Computed bottom-up, pairing neighbours level by level and carrying a lone last node up
    unchanged; this builds exactly the left-balanced tree of the recursive definition, in
    linear time and without recursion depth limits.
    """
    if not leaves:
        return EMPTY_ROOT
    level = list(leaves)
    while len(level) > 1:
        paired = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0]


def inclusion_proof(index: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PATH(m, D[n]) of RFC 9162 section 2.1.3.1: the audit path of leaf ``index``."""
    n = len(leaves)
    if not 0 <= index < n:
        raise ProofError(f"Leaf {index} is not in a tree of {n} leaves.")
    path: list[bytes] = []
    lo, hi, m = 0, n, index
    # Walk down from the root, noting each sibling subtree's hash; the RFC lists them from
    # the leaf up, so the list is reversed at the end.
    while hi - lo > 1:
        k = _split(hi - lo)
        if m < k:
            path.append(root(leaves[lo + k : hi]))
            hi = lo + k
        else:
            path.append(root(leaves[lo : lo + k]))
            lo, m = lo + k, m - k
    path.reverse()
    return path


def consistency_proof(old_size: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PROOF(m, D[n]) of RFC 9162 section 2.1.4.1: proves the tree of the first ``old_size``
    leaves is a prefix of the tree of all of them. Empty when the sizes are equal or the old
    tree is empty (every tree extends the empty one)."""
    n = len(leaves)
    if not 0 <= old_size <= n:
        raise ProofError(f"A tree of {n} leaves cannot extend one of {old_size}.")
    if old_size == 0 or old_size == n:
        return []
    return _subproof(old_size, leaves, True)


def _subproof(m: int, leaves: Sequence[bytes], whole: bool) -> list[bytes]:
    n = len(leaves)
    if m == n:
        return [] if whole else [root(leaves)]
    k = _split(n)
    if m <= k:
        return _subproof(m, leaves[:k], whole) + [root(leaves[k:])]
    return _subproof(m - k, leaves[k:], False) + [root(leaves[:k])]


def verify_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes], expected_root: bytes) -> bool:
    """RFC 9162 section 2.1.3.2: does ``proof`` put the leaf hash ``leaf`` at ``index`` in the
    tree of ``size`` leaves whose root is ``expected_root``?"""
    if not 0 <= index < size or any(len(p) != HASH_SIZE for p in proof):
        return False
    fn, sn = index, size - 1
    r = leaf
    for p in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == expected_root


def verify_consistency(
    old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]
) -> bool:
    """RFC 9162 section 2.1.4.2: is the tree (``old_size``, ``old_root``) a prefix of the tree
    (``new_size``, ``new_root``)? Equal sizes need equal roots and an empty proof; the empty
    tree is a prefix of every tree."""
    if not 0 <= old_size <= new_size or any(len(p) != HASH_SIZE for p in proof):
        return False
    if old_size == new_size:
        return not proof and old_root == new_root
    if old_size == 0:
        return not proof and old_root == EMPTY_ROOT
    if not proof:
        return False
    path = list(proof)
    if old_size & (old_size - 1) == 0:  # an exact power of two: the old root is a node of the new tree
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            if not fn & 1:
                while fn and not fn & 1:
                    fn >>= 1
                    sn >>= 1
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == old_root and sr == new_root and sn == 0
