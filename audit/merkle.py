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
from collections.abc import Sequence

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


# Proofs are lists of subtree hashes, MTH(D[lo:hi]); the functions below name the ranges, so a
# log that keeps the hashes of its complete subtrees (see ``perfect_nodes``) can answer from
# O(log n) stored nodes instead of re-hashing every leaf.


def inclusion_ranges(index: int, size: int) -> list[tuple[int, int]]:
    """The leaf ranges whose subtree hashes make PATH(index, D[size]) (RFC 9162 2.1.3.1)."""
    if not 0 <= index < size:
        raise ProofError(f"Leaf {index} is not in a tree of {size} leaves.")
    ranges: list[tuple[int, int]] = []
    lo, hi = 0, size
    # Walk down from the root, noting each sibling subtree; the RFC lists them from the leaf
    # up, so the list is reversed at the end.
    while hi - lo > 1:
        k = _split(hi - lo)
        if index < lo + k:
            ranges.append((lo + k, hi))
            hi = lo + k
        else:
            ranges.append((lo, lo + k))
            lo += k
    ranges.reverse()
    return ranges


def consistency_ranges(old_size: int, size: int) -> list[tuple[int, int]]:
    """The leaf ranges whose subtree hashes make PROOF(old_size, D[size]) (RFC 9162 2.1.4.1).
    Empty when the sizes are equal or the old tree is empty (every tree extends the empty one)."""
    if not 0 <= old_size <= size:
        raise ProofError(f"A tree of {size} leaves cannot extend one of {old_size}.")
    if old_size == 0 or old_size == size:
        return []
    return _subproof(old_size, 0, size, True)


def _subproof(m: int, lo: int, hi: int, whole: bool) -> list[tuple[int, int]]:
    """SUBPROOF(m, D[lo:hi], whole), as ranges."""
    if m == hi - lo:
        return [] if whole else [(lo, hi)]
    k = _split(hi - lo)
    if m <= k:
        return _subproof(m, lo, lo + k, whole) + [(lo + k, hi)]
    return _subproof(m - k, lo + k, hi, False) + [(lo, lo + k)]


def inclusion_proof(index: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PATH(m, D[n]) of RFC 9162 section 2.1.3.1: the audit path of leaf ``index``."""
    return [root(leaves[lo:hi]) for lo, hi in inclusion_ranges(index, len(leaves))]


def consistency_proof(old_size: int, leaves: Sequence[bytes]) -> list[bytes]:
    """PROOF(m, D[n]) of RFC 9162 section 2.1.4.1: proves the tree of the first ``old_size``
    leaves is a prefix of the tree of all of them."""
    return [root(leaves[lo:hi]) for lo, hi in consistency_ranges(old_size, len(leaves))]


# --------------------------------------------------------------------------------------
# Stored subtrees. Node (level, index) is the complete subtree over leaves
# [index * 2**level, (index + 1) * 2**level); level 0 holds the leaf hashes. Every range the
# RFC's recursion meets starts on a multiple of its largest power-of-two part, so it is a run
# of such nodes, combined right to left.


def perfect_nodes(lo: int, hi: int) -> list[tuple[int, int]]:
    """The complete subtrees making MTH(D[lo:hi]), left to right, as (level, index)."""
    nodes = []
    while lo < hi:
        k = _split(hi - lo) if hi - lo > 1 else 1
        if k * 2 == hi - lo:  # hi - lo is itself a power of two
            k = hi - lo
        level = k.bit_length() - 1
        if lo % k:
            raise ProofError(f"Leaves [{lo}, {hi}) are not a range of the tree.")
        nodes.append((level, lo >> level))
        lo += k
    return nodes


def range_root(lo: int, hi: int, nodes: dict[tuple[int, int], bytes]) -> bytes:
    """MTH(D[lo:hi]) from stored complete subtrees (``nodes`` maps (level, index) to hash)."""
    if lo == hi:
        return EMPTY_ROOT
    parts = [nodes[n] for n in perfect_nodes(lo, hi)]
    acc = parts[-1]
    for part in reversed(parts[:-1]):
        acc = node_hash(part, acc)
    return acc


def new_nodes(
    old_size: int, new_leaves: Sequence[bytes], stored: dict[tuple[int, int], bytes]
) -> dict[tuple[int, int], bytes]:
    """The complete subtrees (level >= 0) that appending ``new_leaves`` to a tree of
    ``old_size`` leaves completes. ``stored`` must hold the nodes ``nodes_needed_to_grow``
    names; the result holds the new leaves at level 0 and every new inner node."""
    size = old_size + len(new_leaves)
    made = {(0, old_size + i): leaf for i, leaf in enumerate(new_leaves)}
    level = 1
    while (1 << level) <= size:
        for index in range(old_size >> level, size >> level):
            left, right = (level - 1, 2 * index), (level - 1, 2 * index + 1)
            made[(level, index)] = node_hash(made.get(left) or stored[left], made.get(right) or stored[right])
        level += 1
    return made


def nodes_needed_to_grow(old_size: int, size: int) -> list[tuple[int, int]]:
    """The old nodes ``new_nodes`` reads: at each level, the left child of the first new node
    when that child was already complete."""
    needed = []
    level = 1
    while (1 << level) <= size:
        first = old_size >> level
        if first < size >> level and 2 * first < old_size >> (level - 1):
            needed.append((level - 1, 2 * first))
        level += 1
    return needed


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


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes, proof: Sequence[bytes]) -> bool:
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
