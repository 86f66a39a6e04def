"""Cached analyses and what-if sandboxes. Neither is a source of truth: the event store is, and
nothing here is ever written to it. An analysis can be dropped and recomputed from the events;
a sandbox is a private scratch copy with an owner and an expiry."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class MatchAnalysis(models.Model):
    """The analysis of a finished match (compute.analyse), computed once and kept while the code
    that made it is the code that would make it now."""

    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, related_name="analysis")
    engine_version = models.CharField(max_length=32)
    # A digest of the engine's odds code (compute.odds_fingerprint): new stakes mean a new analysis.
    odds_fingerprint = models.CharField(max_length=32)
    analysis_version = models.PositiveIntegerField()
    data = models.JSONField(default=dict)
    # Per seat, the match's luck as a float (also in ``data``): summed across matches by the database.
    luck = models.JSONField(default=list)
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"analysis of {self.match_id} (v{self.analysis_version})"


class Sandbox(models.Model):
    """A private what-if branched from a finished match's replay: its own state, moves and chance,
    never recorded in the event store; only its owner sees it, and it expires."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sandboxes")
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="sandboxes")
    # The replay's seq it was branched after (0: before the first event).
    branched_at = models.PositiveIntegerField()
    game = models.CharField(max_length=64)
    engine_version = models.CharField(max_length=32)
    config = models.JSONField(default=dict)
    seats = models.PositiveSmallIntegerField()
    # Seats the game's bot plays on its own (the others are played by hand, by the owner).
    bot_seats = models.JSONField(default=list)
    state = models.JSONField(default=dict)
    # What happened since the branch: [{"n", "kind", "seat"?, "action"?, "outcome"?, "text", "odds"?}]
    steps = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["owner", "expires_at"])]

    def __str__(self) -> str:
        return f"sandbox {self.id} of {self.match_id}@{self.branched_at}"
