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
