"""The invitation rows. Not events: an invitation is a proposal, and nothing of the match it
proposes exists until everyone accepted (then the match's own stream starts)."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

#: The status an invitation shows once INVITATION_TTL_HOURS have passed while it still waited for
#: answers. Worked out from its age, never stored: it holds from that instant, with no task to run,
#: and a changed setting applies to every invitation still waiting.
EXPIRED = "expired"


def expiry_cutoff(now: datetime | None = None) -> datetime:
    """Invitations sent at or before this instant have expired if they still wait for answers."""
    return (now or timezone.now()) - timedelta(hours=settings.INVITATION_TTL_HOURS)


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

    @property
    def expires_at(self) -> datetime:
        return self.created_at + timedelta(hours=settings.INVITATION_TTL_HOURS)

    def shown_status(self, now: datetime | None = None) -> str:
        """The status as pages and the API show it: a waiting invitation past its expiry is "expired"."""
        if self.status == self.Status.PENDING and self.created_at <= expiry_cutoff(now):
            return EXPIRED
        return self.status


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
