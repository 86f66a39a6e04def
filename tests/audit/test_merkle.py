"""The Merkle tree of audit/merkle.py against RFC 9162 section 2.1 (no database needed)."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from audit import merkle

# The eight leaves and tree heads of the Certificate Transparency reference test data
# (the trees over the first 1..8 of them), which every RFC 6962/9162 implementation checks.
REFERENCE_LEAVES = [
    b"",
    b"\x00",
    b"\x10",
    b"\x20\x21",
    b"\x30\x31",
    b"\x40\x41\x42\x43",
    bytes(range(0x50, 0x58)),
    bytes(range(0x60, 0x70)),
]
REFERENCE_ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]


def leaves(n: int) -> list[bytes]:
    return [merkle.leaf_hash(f"leaf {i}".encode()) for i in range(n)]


def mth(data: list[bytes]) -> bytes:
    """RFC 9162 section 2.1.1 written literally (recursive), to check the iterative root."""
    if not data:
        return hashlib.sha256(b"").digest()
    if len(data) == 1:
        return hashlib.sha256(b"\x00" + data[0]).digest()
    k = 1
    while k * 2 < len(data):
        k *= 2
    return hashlib.sha256(b"\x01" + mth(data[:k]) + mth(data[k:])).digest()


def test_the_empty_tree_is_the_hash_of_nothing():
    assert merkle.root([]) == hashlib.sha256(b"").digest() == merkle.EMPTY_ROOT


def test_leaves_and_nodes_are_hashed_with_distinct_prefixes():
    """RFC 9162 2.1.1: leaf = HASH(0x00 || d), node = HASH(0x01 || left || right)."""
    assert merkle.leaf_hash(b"abc") == hashlib.sha256(b"\x00abc").digest()
    assert merkle.node_hash(b"L" * 32, b"R" * 32) == hashlib.sha256(b"\x01" + b"L" * 32 + b"R" * 32).digest()


@pytest.mark.parametrize("n", range(1, 9))
def test_tree_heads_equal_the_certificate_transparency_reference_data(n):
    hashes = [merkle.leaf_hash(d) for d in REFERENCE_LEAVES[:n]]
    assert merkle.root(hashes).hex() == REFERENCE_ROOTS[n - 1]


@given(st.lists(st.binary(max_size=8), max_size=70))
def test_the_iterative_root_equals_the_recursive_definition(data):
    assert merkle.root([merkle.leaf_hash(d) for d in data]) == mth(data)


def test_an_inclusion_proof_of_a_seven_leaf_tree_is_the_rfc_audit_path():
    """RFC 9162 2.1.5: in the seven-leaf example, the path of d0 is [b, h, i] and of d3 is [c, g, l]."""
    h = leaves(7)
    a, b, c, d, e, f, j = h
    g, hh, i = merkle.node_hash(a, b), merkle.node_hash(c, d), merkle.node_hash(e, f)
    k, l_ = merkle.node_hash(g, hh), merkle.node_hash(i, j)
    assert merkle.inclusion_proof(0, h) == [b, hh, l_]
    assert merkle.inclusion_proof(3, h) == [c, g, l_]
    assert merkle.inclusion_proof(4, h) == [f, j, k]
    assert merkle.inclusion_proof(6, h) == [i, k]


def test_a_consistency_proof_follows_the_rfc_examples():
    """RFC 9162 2.1.5: PROOF(3, D[7]) = [c, d, g, l]; PROOF(4, D[7]) = [l]; PROOF(6, D[7]) = [i, j, k]."""
    h = leaves(7)
    a, b, c, d, e, f, j = h
    g, i = merkle.node_hash(a, b), merkle.node_hash(e, f)
    k, l_ = merkle.node_hash(g, merkle.node_hash(c, d)), merkle.node_hash(i, j)
    assert merkle.consistency_proof(3, h) == [c, d, g, l_]
    assert merkle.consistency_proof(4, h) == [l_]
    assert merkle.consistency_proof(6, h) == [i, j, k]


@settings(max_examples=300)
@given(st.integers(1, 300), st.data())
def test_every_inclusion_proof_verifies(n, data):
    h = leaves(n)
    index = data.draw(st.integers(0, n - 1))
    proof = merkle.inclusion_proof(index, h)
    assert merkle.verify_inclusion(h[index], index, n, proof, merkle.root(h))


@settings(max_examples=300)
@given(st.integers(0, 300), st.data())
def test_every_consistency_proof_verifies(n, data):
    h = leaves(n)
    m = data.draw(st.integers(0, n))
    proof = merkle.consistency_proof(m, h)
    assert merkle.verify_consistency(m, n, merkle.root(h[:m]), merkle.root(h), proof)


@settings(max_examples=300)
@given(st.integers(1, 130), st.data())
def test_an_inclusion_proof_fails_for_any_other_leaf_index_size_or_altered_hash(n, data):
    h = leaves(n)
    index = data.draw(st.integers(0, n - 1))
    proof = merkle.inclusion_proof(index, h)
    head = merkle.root(h)
    assert not merkle.verify_inclusion(merkle.leaf_hash(b"forged"), index, n, proof, head)
    other = data.draw(st.integers(0, n - 1))
    if other != index:
        assert not merkle.verify_inclusion(h[index], other, n, proof, head)
    # A tree grown by one leaf has another root: the old path does not reach it.
    grown = h + [merkle.leaf_hash(b"one more")]
    assert not merkle.verify_inclusion(h[index], index, n + 1, proof, merkle.root(grown))
    if proof:
        at = data.draw(st.integers(0, len(proof) - 1))
        bit = data.draw(st.integers(0, 255))
        altered = list(proof)
        altered[at] = bytes([altered[at][0] ^ (bit | 1)]) + altered[at][1:]
        assert not merkle.verify_inclusion(h[index], index, n, altered, head)
        assert not merkle.verify_inclusion(h[index], index, n, proof[:-1], head)
        assert not merkle.verify_inclusion(h[index], index, n, proof + [proof[0]], head)


@settings(max_examples=300)
@given(st.integers(2, 130), st.data())
def test_a_consistency_proof_fails_when_any_old_leaf_or_proof_hash_is_altered(n, data):
    h = leaves(n)
    m = data.draw(st.integers(1, n - 1))
    proof = merkle.consistency_proof(m, h)
    old, new = merkle.root(h[:m]), merkle.root(h)
    # A log that rewrote one of the first m leaves and rebuilt its tree cannot prove the
    # rewritten tree extends the head an auditor kept.
    victim = data.draw(st.integers(0, m - 1))
    rewritten = list(h)
    rewritten[victim] = merkle.leaf_hash(b"rewritten")
    assert not merkle.verify_consistency(m, n, old, merkle.root(rewritten), merkle.consistency_proof(m, rewritten))
    at = data.draw(st.integers(0, len(proof) - 1))
    altered = list(proof)
    altered[at] = bytes([altered[at][0] ^ 1]) + altered[at][1:]
    assert not merkle.verify_consistency(m, n, old, new, altered)
    assert not merkle.verify_consistency(m, n, old, new, proof[:-1])
    assert not merkle.verify_consistency(m, n, old, new, proof + [new])
    grown = h + [merkle.leaf_hash(b"one more")]
    assert not merkle.verify_consistency(m, n + 1, old, merkle.root(grown), proof)


@given(st.integers(1, 64))
def test_equal_sizes_need_equal_roots_and_an_empty_proof(n):
    h = leaves(n)
    head = merkle.root(h)
    assert merkle.consistency_proof(n, h) == []
    assert merkle.verify_consistency(n, n, head, head, [])
    assert not merkle.verify_consistency(n, n, head, merkle.leaf_hash(b"x"), [])
    assert not merkle.verify_consistency(n, n, head, head, [head])


def test_proofs_beyond_the_tree_are_refused():
    h = leaves(5)
    with pytest.raises(merkle.ProofError):
        merkle.inclusion_proof(5, h)
    with pytest.raises(merkle.ProofError):
        merkle.consistency_proof(6, h)
    assert not merkle.verify_inclusion(h[0], 0, 0, [], merkle.EMPTY_ROOT)
    assert not merkle.verify_consistency(3, 2, merkle.root(h[:3]), merkle.root(h[:2]), [])


def stored_nodes(h: list[bytes]) -> dict:
    """Every complete subtree of the tree over h, built by growing it in uneven steps."""
    nodes: dict = {}
    size = 0
    for step in (1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233):
        chunk = h[size : size + step]
        if not chunk:
            break
        old = {n: nodes[n] for n in merkle.nodes_needed_to_grow(size, size + len(chunk))}
        nodes.update(merkle.new_nodes(size, chunk, old))
        size += len(chunk)
    return nodes


@settings(max_examples=150)
@given(st.integers(0, 300), st.data())
def test_proofs_from_stored_subtrees_equal_proofs_from_the_leaves(n, data):
    """A log that keeps only complete subtrees answers with the same hashes (RFC 9162 ranges)."""
    h = leaves(n)
    nodes = stored_nodes(h)
    assert merkle.range_root(0, n, nodes) == merkle.root(h)
    m = data.draw(st.integers(0, n))
    assert merkle.range_root(0, m, nodes) == merkle.root(h[:m])
    assert [merkle.range_root(lo, hi, nodes) for lo, hi in merkle.consistency_ranges(m, n)] == merkle.consistency_proof(
        m, h
    )
    if n:
        i = data.draw(st.integers(0, n - 1))
        assert [merkle.range_root(lo, hi, nodes) for lo, hi in merkle.inclusion_ranges(i, n)] == merkle.inclusion_proof(
            i, h
        )


def test_a_range_that_is_not_a_subtree_is_refused():
    with pytest.raises(merkle.ProofError):
        merkle.perfect_nodes(1, 3)
