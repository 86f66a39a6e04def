"""What the league, season, club and rating endpoints answer, as the schema states it.

Response-only serializers (the views build their bodies themselves): they give a client every
field's type, and tests/hardening/test_schema_conformance.py holds the real bodies to them."""

from __future__ import annotations

from rest_framework import serializers

from league.seasons.models import Fixture


def slugs(help_text: str = "") -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), help_text=help_text)


class LeagueCreatedSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    game = serializers.CharField()
    points = serializers.ListField(child=serializers.FloatField(), help_text="For a win, a draw, a loss.")
    tiebreaks = slugs("The tie-breaks in the order they apply.")


class LeagueRowSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    game = serializers.CharField()
    clubs = serializers.IntegerField(min_value=0, help_text="How many clubs.")
    seasons = serializers.ListField(child=serializers.IntegerField(min_value=1), help_text="The seasons' numbers.")


class LeagueListSerializer(serializers.Serializer):
    results = LeagueRowSerializer(many=True)


class ClubRowSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    plane = serializers.CharField(allow_blank=True)
    colours = serializers.ListField(child=serializers.CharField(), help_text="Two #rrggbb colours.")


class SeasonSerializer(serializers.Serializer):
    league = serializers.CharField()
    number = serializers.IntegerField(min_value=1)
    stream = serializers.CharField()
    head_seq = serializers.IntegerField(min_value=0, help_text="Send it as expected_seq with a fixture command.")
    double = serializers.BooleanField(help_text="Whether every pair meets home and away.")
    clubs = slugs("Every club of the season.")
    divisions = serializers.DictField(
        child=slugs(), allow_null=True, help_text="Division name -> its clubs; null for one table."
    )
    division_order = slugs("The divisions, top first (empty for one table).")
    points = serializers.ListField(child=serializers.FloatField(), help_text="For a win, a draw, a loss.")
    tiebreaks = slugs()
    start_date = serializers.DateField()


class LeagueDetailSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    game = serializers.CharField()
    points = serializers.ListField(child=serializers.FloatField())
    tiebreaks = slugs()
    clubs = ClubRowSerializer(many=True)
    seasons = SeasonSerializer(many=True)


class FixtureSerializer(serializers.Serializer):
    key = serializers.CharField()
    round = serializers.IntegerField(min_value=1)
    date = serializers.DateField()
    division = serializers.CharField(allow_blank=True, help_text="Empty for a season of one table.")
    home = serializers.CharField()
    away = serializers.CharField()
    status = serializers.ChoiceField(choices=Fixture.Status.values)
    home_left = serializers.IntegerField(allow_null=True, help_text="Home wizards left standing; null until played.")
    away_left = serializers.IntegerField(allow_null=True)
    walkover_winner = serializers.CharField(allow_null=True)
    ruling = serializers.CharField(allow_null=True, help_text="The organiser's last ruling and why; null if none.")
    draft = serializers.UUIDField(allow_null=True)
    match = serializers.UUIDField(allow_null=True)


class FixtureListSerializer(serializers.Serializer):
    fixtures = FixtureSerializer(many=True)


class StandingRowSerializer(serializers.Serializer):
    position = serializers.IntegerField(min_value=1)
    club = serializers.CharField()
    name = serializers.CharField()
    colours = serializers.ListField(child=serializers.CharField())
    played = serializers.IntegerField(min_value=0)
    won = serializers.IntegerField(min_value=0)
    drawn = serializers.IntegerField(min_value=0)
    lost = serializers.IntegerField(min_value=0)
    points = serializers.FloatField(help_text="A whole number unless the league awards fractions.")
    wizard_difference = serializers.IntegerField()
    wizards_remaining = serializers.IntegerField()
    form = serializers.CharField(allow_blank=True, help_text="The last results, oldest first (W, D, L).")
    tiebreak = serializers.CharField(
        allow_null=True, help_text="The criterion that put this club above the next; null if none was needed."
    )
    tiebreak_text = serializers.CharField(allow_null=True)


class SeasonStandingsSerializer(serializers.Serializer):
    season = SeasonSerializer()
    standings = StandingRowSerializer(many=True)


class MovementSerializer(serializers.Serializer):
    upper = serializers.CharField()
    lower = serializers.CharField()
    promoted = slugs()
    relegated = slugs()
    playoff = slugs()


class SeasonClosedSerializer(serializers.Serializer):
    final = serializers.DictField(
        child=slugs(), help_text="Division name ('' for one table) -> its clubs in final order."
    )
    movements = MovementSerializer(many=True)


class ClubResultSerializer(serializers.Serializer):
    fixture = serializers.CharField()
    opponent = serializers.CharField()
    home = serializers.BooleanField()
    wizards_left = serializers.IntegerField(allow_null=True, help_text="Null for a walkover.")
    opponent_left = serializers.IntegerField(allow_null=True)
    outcome = serializers.ChoiceField(choices=["W", "D", "L"])


class ClubSquadSerializer(serializers.Serializer):
    fixture = serializers.CharField()
    wizards = serializers.ListField(child=serializers.JSONField(), help_text="As the match's config lists them.")
    spells = serializers.ListField(child=serializers.JSONField(), help_text="As the match's config lists them.")


class RatingPointSerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    match = serializers.UUIDField()


class ClubDetailSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    plane = serializers.CharField(allow_blank=True)
    colours = serializers.ListField(child=serializers.CharField())
    league = serializers.CharField()
    coaches = serializers.ListField(child=serializers.CharField(), help_text="Usernames.")
    results = ClubResultSerializer(many=True)
    squads = ClubSquadSerializer(many=True)
    rating_history = RatingPointSerializer(many=True)


class RatingSerializer(serializers.Serializer):
    competitor = serializers.CharField(help_text="'club:<slug>' or 'user:<id>'.")
    label = serializers.CharField(allow_blank=True)
    system = serializers.CharField()
    rating = serializers.FloatField()
    deviation = serializers.FloatField()
    sort_key = serializers.FloatField()
    matches = serializers.IntegerField(min_value=0)


class LeaderboardSerializer(serializers.Serializer):
    game = serializers.CharField()
    ratings = RatingSerializer(many=True)


class ClubCreatedSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class ClubCoachesSerializer(serializers.Serializer):
    club = serializers.CharField()
    coaches = serializers.ListField(child=serializers.CharField(), help_text="Usernames.")


class ClubLuckSerializer(serializers.Serializer):
    club = serializers.CharField()
    name = serializers.CharField()
    fixtures = serializers.IntegerField(min_value=0, help_text="Fixtures counted (analysed).")
    luck = serializers.FloatField()


class SeasonLuckSerializer(serializers.Serializer):
    league = serializers.CharField()
    season = serializers.IntegerField(min_value=1)
    verified_fixtures = serializers.IntegerField(min_value=0)
    analysed = serializers.IntegerField(min_value=0)
    clubs = ClubLuckSerializer(many=True, help_text="Most fortunate first.")
    explained = serializers.CharField()
