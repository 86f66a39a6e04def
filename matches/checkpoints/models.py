"""The transparency log: one leaf per stream head it has seen, and signed checkpoints over them.

Like every projection these rows live in the same database as the events, so someone with
table ownership could rewrite them too; what they cannot do is make a rewritten tree agree
with a checkpoint somebody saved earlier (see audit/checkpoint.py).
"""

from __future__ import annotations

from django.db import models


class LogLeaf(models.Model):
    """Leaf ``index`` of the tree: stream ``stream_id`` had head ``head_hash`` at ``seq``."""

    index = models.PositiveBigIntegerField(unique=True)
    stream_id = models.CharField(max_length=100)
    seq = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64)
    leaf_hash = models.CharField(max_length=64)
    logged_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["index"]
        indexes = [models.Index(fields=["stream_id", "-index"])]
        constraints = [models.UniqueConstraint(fields=["stream_id", "seq"], name="logleaf_stream_seq_unique")]

    def __str__(self) -> str:
        return f"#{self.index} {self.stream_id}@{self.seq}"


class LoggedHead(models.Model):
    """The last head logged for each stream, so each run compares heads instead of re-reading the log."""

    stream_id = models.CharField(primary_key=True, max_length=100)
    seq = models.PositiveIntegerField()
    head_hash = models.CharField(max_length=64)


class Checkpoint(models.Model):
    """A signed tree head: ``signature`` covers audit.checkpoint.body(tree_size, root_hash, timestamp)."""

    tree_size = models.PositiveBigIntegerField(unique=True)
    root_hash = models.CharField(max_length=64)
    timestamp = models.CharField(max_length=40, help_text="ISO 8601 UTC, exactly as signed")
    signature = models.CharField(max_length=100)
    key_id = models.CharField(max_length=16)
    public_key = models.CharField(max_length=60)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-tree_size"]

    def __str__(self) -> str:
        return f"checkpoint {self.tree_size} {self.root_hash[:12]}"

    def as_dict(self) -> dict:
        return {
            "tree_size": self.tree_size,
            "root_hash": self.root_hash,
            "timestamp": self.timestamp,
            "signature": self.signature,
            "key_id": self.key_id,
        }


class StreamAudit(models.Model):
    """The last verdict of a stream's verifier (matches.stream_verifiers), whatever its kind:
    what scheduled re-verification reads to pick the streams checked longest ago."""

    stream_id = models.CharField(primary_key=True, max_length=100)
    kind = models.CharField(max_length=32)
    ok = models.BooleanField()
    seq = models.PositiveIntegerField(null=True, blank=True)
    reason = models.TextField(blank=True, default="")
    head_seq = models.PositiveIntegerField(default=0)
    checked_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["checked_at"])]


class MerkleNode(models.Model):
    """A complete subtree of the log: leaves [index * 2**level, (index + 1) * 2**level).
    Level 0 holds the leaf hashes. Kept so a proof or a tree head reads O(log n) rows instead
    of re-hashing every leaf (audit.merkle.perfect_nodes)."""

    level = models.PositiveSmallIntegerField()
    index = models.PositiveBigIntegerField()
    hash = models.CharField(max_length=64)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["level", "index"], name="merklenode_level_index_unique")]
