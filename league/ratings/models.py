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
    """Projection: a competitor's rating after one verified match, for rating charts.

    Keyed by (competitor, game, sequence): a competitor has one point per result, and the key
    leads by competitor so the player page reads a person's points in every game through it.
    On PostgreSQL the table is partitioned by game (migration 0005, ``partitions.py``): a rebuild
    empties its game's partition and builds that partition's indexes after writing its points,
    instead of maintaining them row by row and leaving the old points as dead rows (issue 17,
    P4b). There the indexes below are each partition's own, without the game (a partition holds
    one game) except in the default partition; the parent has none, so the names below exist
    only on SQLite, and an index migration of this model needs its PostgreSQL part by hand."""

    pk = models.CompositePrimaryKey("competitor", "game", "sequence")
    game = models.CharField(max_length=64)
    competitor = models.CharField(max_length=120)
    match_id = models.UUIDField()
    sequence = models.BigIntegerField()
    rating = models.FloatField()
    deviation = models.FloatField()
    #: Glicko-2's volatility after the match (null under OpenSkill, and on points written before
    #: it was kept): with it a late result rewinds the ratings to just before it (projection.py).
    volatility = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["game", "competitor", "sequence"]
        indexes = [
            # Is this match in the ratings yet? And which results follow a late one?
            models.Index(fields=["game", "match_id"], name="ratingpoint_game_match"),
            models.Index(fields=["game", "sequence"], name="ratingpoint_game_sequence"),
        ]


class RatingCheckpoint(models.Model):
    """The last result a game's ratings include (written with the ratings, in one transaction).
    Its row is also the lock that puts one game's rating updates in a queue."""

    game = models.CharField(max_length=64, unique=True)
    sequence = models.BigIntegerField(default=0)
