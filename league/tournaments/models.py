from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Tournament(models.Model):
    """A tournament around its event stream ``tournament:<id>``.

    The events are the truth. This row is an index for listings (name, game, format,
    status copied from the events) and a cache of the folded projection with the seq it
    was folded to; ``services.projection_rebuild`` drops and rebuilds it from the events.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=64)
    format = models.CharField(max_length=32)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=16, default="registration")
    state = models.JSONField(default=dict)
    state_seq = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def stream_id(self) -> str:
        return f"tournament:{self.id}"


class Entrant(models.Model):
    """A user among a tournament's players (the keys of the cached projection's ``players``,
    whatever their status), kept with that cache by the command runner and rebuilt with it: the
    player page finds a player's tournaments through this index instead of reading every
    tournament's JSON state."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "tournament"], name="tournament_entrant_once")]


# --------------------------------------------------------------------------------------
# Reach (league/tournaments/reach/): who hears about a tournament outside its pages. Plain
# rows, not events: a webhook's secret must never enter the public stream, and these are the
# organiser's delivery settings, not facts of the tournament.


class WebhookEndpoint(models.Model):
    """A URL the organiser registered; every delivery to it is signed with ``secret``."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=100)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]


class WebhookDelivery(models.Model):
    """One event POSTed to one endpoint, with its attempts: the organiser's delivery log."""

    PENDING, DELIVERED, FAILED = "pending", "delivered", "failed"

    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    # "<endpoint>:<what happened>": the same happening is delivered once however often it is queued.
    key = models.CharField(max_length=200, unique=True)
    event = models.CharField(max_length=32)
    body = models.JSONField()
    status = models.CharField(max_length=16, default=PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=500, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]


class EmbedSettings(models.Model):
    """The origins allowed to frame a tournament's widgets (CSP frame-ancestors); none by default."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="embed")
    origins = models.JSONField(default=list)


class EmailSent(models.Model):
    """An email that went out, by its idempotency key: a re-delivered outbox message sends nothing twice."""

    key = models.CharField(max_length=200, unique=True)
    sent_at = models.DateTimeField(auto_now_add=True)


class EmailOptOut(models.Model):
    """A user who asked for no tournament emails."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
