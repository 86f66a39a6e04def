"""League models live beside their features; Django finds them through this module."""

from .drafts.models import Draft  # noqa: F401
