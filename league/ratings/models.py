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
    #: Glicko-2's volatility after the match (null under OpenSkill, and on points written before
    #: it was kept): with it a late result rewinds the ratings to just before it (projection.py).
    volatility = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["game", "competitor", "sequence"]
        indexes = [
            # A competitor's points, game by game: the player page reads them without naming a
            # game, which an index led by the game could not serve (PostgreSQL before 18 has no
            # skip scan); reads that name the game too are served as well as before.
            models.Index(fields=["competitor", "game", "sequence"], name="ratingpoint_competitor"),
            # Is this match in the ratings yet? And which results follow a late one?
            models.Index(fields=["game", "match_id"], name="ratingpoint_game_match"),
            models.Index(fields=["game", "sequence"], name="ratingpoint_game_sequence"),
        ]


class RatingCheckpoint(models.Model):
    """The last result a game's ratings include (written with the ratings, in one transaction).
    Its row is also the lock that puts one game's rating updates in a queue."""

    game = models.CharField(max_length=64, unique=True)
    sequence = models.BigIntegerField(default=0)
