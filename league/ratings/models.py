from django.db import models


class Rating(models.Model):
    """Projection: a competitor's current rating in one game (rebuilt from verified results)."""

    game = models.CharField(max_length=64)
    competitor = models.CharField(max_length=120, help_text="'user:<id>' or 'club:<slug>'")
    label = models.CharField(max_length=150)
    system = models.CharField(max_length=16)
    rating = models.FloatField()
    deviation = models.FloatField()
    volatility = models.FloatField(null=True, blank=True)
    sort_key = models.FloatField(help_text="conservative rating the leaderboard sorts by")
    matches = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["game", "-sort_key"]
        constraints = [models.UniqueConstraint(fields=["game", "competitor"], name="rating_game_competitor_unique")]


class RatingPoint(models.Model):
    """Projection: a competitor's rating after one verified match, for rating charts."""

    game = models.CharField(max_length=64)
    competitor = models.CharField(max_length=120)
    match_id = models.UUIDField()
    sequence = models.BigIntegerField()
    rating = models.FloatField()
    deviation = models.FloatField()

    class Meta:
        ordering = ["game", "competitor", "sequence"]
        indexes = [models.Index(fields=["game", "competitor", "sequence"])]


class RatingCheckpoint(models.Model):
    """The last result a game's ratings include (written with the ratings, in one transaction)."""

    game = models.CharField(max_length=64, unique=True)
    sequence = models.BigIntegerField(default=0)
