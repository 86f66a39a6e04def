from __future__ import annotations

from django.db import models

from matches.models import Match


class Draft(models.Model):
    """A draft room around a draft stream.

    The picks themselves are events in ``draft_match``'s stream (an ``iwdl-draft`` match),
    so they are replayed and verified like any match. This row holds what the league adds:
    the pick clock, and the Wizard Dodgeball match the finished draft hands off to.
    """

    draft_match = models.OneToOneField(Match, on_delete=models.PROTECT, related_name="draft_room")
    match = models.OneToOneField(Match, null=True, blank=True, on_delete=models.PROTECT, related_name="from_draft")
    clock_seconds = models.PositiveIntegerField(default=60)
    hand_off = models.BooleanField(default=True, help_text="Create the match when the draft ends")
    # The lost hand-off sweep's failures to make the match (league/drafts/services.py
    # ``drafts_hand_off_lost``), and when it tries again: a draft that always fails is tried less
    # and less often, and neither fills the sweep's batches nor logs its error every minute.
    hand_off_failures = models.PositiveIntegerField(default=0)
    hand_off_retry_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Draft {self.draft_match_id}"
