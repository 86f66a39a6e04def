from __future__ import annotations

from django.conf import settings
from django.db import models

from matches.models import Match, Stream


class League(models.Model):
    """A competition run in seasons for one of the platform's games."""

    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=120)
    game = models.CharField(max_length=64, default="wizard-dodgeball")
    points = models.JSONField(default=list, help_text="[win, draw, loss]")
    tiebreaks = models.JSONField(default=list)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    def __str__(self) -> str:
        return self.name


class Club(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="clubs")
    slug = models.SlugField(unique=True)
    name = models.CharField(max_length=120)
    plane = models.CharField(max_length=120, blank=True)
    colours = models.JSONField(default=list)
    emblem = models.CharField(max_length=32, blank=True)
    coaches = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="clubs")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Season(models.Model):
    """A season: its facts are events in ``stream``; the fields below are projections."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    number = models.PositiveIntegerField()
    stream = models.OneToOneField(Stream, on_delete=models.PROTECT, related_name="season")
    config = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    projected_seq = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["league", "-number"]
        constraints = [models.UniqueConstraint(fields=["league", "number"], name="season_league_number_unique")]

    def __str__(self) -> str:
        return f"{self.league.name} season {self.number}"


class Fixture(models.Model):
    """Projection of a season's fixture facts (scheduled, postponed, started, result, ruling)."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        POSTPONED = "postponed", "Postponed"
        IN_PLAY = "in_play", "In play"
        PLAYED = "played", "Played"
        WALKOVER = "walkover", "Walkover"

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="fixtures")
    key = models.CharField(max_length=120)
    round = models.PositiveIntegerField()
    date = models.DateField()
    division = models.CharField(max_length=60, blank=True, default="")
    home = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="home_fixtures")
    away = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="away_fixtures")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SCHEDULED)
    draft = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    home_left = models.PositiveSmallIntegerField(null=True, blank=True)
    away_left = models.PositiveSmallIntegerField(null=True, blank=True)
    walkover_winner = models.ForeignKey(Club, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    ruling = models.TextField(blank=True, default="")
    result_seq = models.PositiveIntegerField(null=True, blank=True, help_text="the season event that set the result")

    class Meta:
        ordering = ["season", "round", "id"]
        constraints = [models.UniqueConstraint(fields=["season", "key"], name="fixture_season_key_unique")]

    def __str__(self) -> str:
        return f"R{self.round} {self.home} v {self.away}"
