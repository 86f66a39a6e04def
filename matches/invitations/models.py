"""The invitation rows. Not events: an invitation is a proposal, and nothing of the match it
proposes exists until everyone accepted (then the match's own stream starts)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Invitation(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for answers"
        ACCEPTED = "accepted", "Accepted: started"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # What is proposed: "match" or "draft" (matches.invitations.kinds; league registers drafts).
    kind = models.CharField(max_length=16)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent")
    # The client's id for the create command: the same id again returns this invitation.
    event_id = models.UUIDField(unique=True, null=True, blank=True)
    # The create command as asked (seats by user id, game, configuration...), replayed on acceptance.
    request = models.JSONField(default=dict)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    # The match (for a draft: the draft's stream) made when the last invitee accepted.
    match = models.OneToOneField(
        "matches.Match", null=True, blank=True, on_delete=models.PROTECT, related_name="invitation"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "matches"
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.kind} invitation {self.id} ({self.status})"


class Invitee(models.Model):
    class Response(models.TextChoices):
        PENDING = "pending", "Not answered yet"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"

    invitation = models.ForeignKey(Invitation, on_delete=models.CASCADE, related_name="invitees")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_received")
    response = models.CharField(max_length=16, choices=Response.choices, default=Response.PENDING)
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        app_label = "matches"
        ordering = ["invitation", "id"]
        constraints = [models.UniqueConstraint(fields=["invitation", "user"], name="invitee_once_per_invitation")]

    def __str__(self) -> str:
        return f"{self.user} on {self.invitation_id}: {self.response}"
