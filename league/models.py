"""League models live beside their features; Django finds them through this module."""

from .drafts.models import Draft  # noqa: F401
from .ratings.models import Rating, RatingCheckpoint, RatingPoint  # noqa: F401
from .seasons.models import Club, Fixture, League, Season  # noqa: F401
