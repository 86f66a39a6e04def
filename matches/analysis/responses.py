"""What the analysis and what-if endpoints answer, as the schema states it (response-only
serializers: the selectors build the bodies). The odds of a chance event, a sandbox's views and
steps differ per game and stay free-form objects, said so in their descriptions."""

from __future__ import annotations

from rest_framework import serializers

from matches.api.responses import MatchResultSerializer, ToMoveField, game_object
from matches.models import Match


class SeatLabelSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0)
    label = serializers.CharField()


class MatchAnalysisSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    game = serializers.CharField()
    engine_version = serializers.CharField()
    verdict = serializers.ChoiceField(choices=Match.Verdict.values)
    seats = SeatLabelSerializer(many=True)
    computed_at = serializers.DateTimeField()
    explained = serializers.CharField(help_text="What luck counts, in words.")
    analysis_version = serializers.IntegerField()
    odds_fingerprint = serializers.CharField(help_text="Changes when the engine's odds code changes.")
    chance_events = serializers.ListField(
        child=game_object("One chance event: its seq, the exact odds of each outcome that mattered, its luck."),
    )
    luck = game_object("Each seat's luck: its series over the match and its totals.")


class PlayerLuckRowSerializer(serializers.Serializer):
    match = serializers.UUIDField()
    game = serializers.CharField()
    seat = serializers.IntegerField(min_value=0)
    luck = serializers.FloatField()
    finished_at = serializers.DateTimeField(allow_null=True)


class GameLuckSerializer(serializers.Serializer):
    game = serializers.CharField()
    matches = serializers.IntegerField(min_value=0)
    luck = serializers.FloatField()


class PlayerLuckSerializer(serializers.Serializer):
    username = serializers.CharField()
    verified_matches = serializers.IntegerField(min_value=0)
    analysed = serializers.IntegerField(min_value=0, help_text="How many of verified_matches are counted so far.")
    luck = serializers.FloatField()
    luck_per_match = serializers.FloatField(allow_null=True, help_text="Null before any match is analysed.")
    by_game = GameLuckSerializer(many=True)
    recent = PlayerLuckRowSerializer(many=True, help_text="The latest analysed matches, newest first.")
    explained = serializers.CharField()


class FairnessCellSerializer(serializers.Serializer):
    label = serializers.CharField()
    observed = serializers.IntegerField(min_value=0)
    expected = serializers.FloatField()


class FairnessGroupSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="e.g. die:1-6, pool:52, draw-tenths.")
    title = serializers.CharField()
    n = serializers.IntegerField(min_value=0)
    cells = FairnessCellSerializer(many=True)
    chi_square = serializers.FloatField()
    df = serializers.IntegerField(min_value=0)
    p_value = serializers.FloatField()
    enough_data = serializers.BooleanField()
    flagged = serializers.BooleanField(help_text="Enough data and a p-value below flag_below.")


class FairnessReportSerializer(serializers.Serializer):
    scope = serializers.CharField(help_text="'platform' or the player's username.")
    mode = serializers.ChoiceField(choices=Match.Mode.values)
    matches = serializers.IntegerField(min_value=0)
    explained = serializers.CharField()
    events = serializers.IntegerField(min_value=0)
    skipped = serializers.IntegerField(min_value=0)
    flag_below = serializers.FloatField()
    dice = FairnessGroupSerializer(many=True)
    draw_tenths = FairnessGroupSerializer(allow_null=True, help_text="Null before any draw.")
    pools = FairnessGroupSerializer(many=True)
    flagged = serializers.ListField(child=serializers.CharField(), help_text="The flagged groups' keys.")


class SandboxSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    match = serializers.UUIDField(help_text="The finished match it branched from.")
    game = serializers.CharField()
    branched_at = serializers.IntegerField(min_value=0)
    expires_at = serializers.DateTimeField()
    bot_seats = serializers.ListField(child=serializers.IntegerField(min_value=0))
    seats = serializers.IntegerField(min_value=1)
    to_move = ToMoveField(help_text="The seats to move now, or 'chance' when a random draw is due.")
    chance = game_object("The pending random draw; null otherwise.", allow_null=True)
    original = serializers.JSONField(
        allow_null=True, help_text="Branched just before a chance event: the outcome the match had there; else null."
    )
    view = game_object("The whole state as a spectator sees it, with seat_views (one per seat).")
    legal = serializers.DictField(
        child=serializers.ListField(child=game_object("An action, to send as is.")),
        help_text="Seat (as text) -> its legal actions, for the seats you play by hand.",
    )
    result = MatchResultSerializer(allow_null=True, help_text="Once the sandbox's game is over; else null.")
    steps = serializers.ListField(child=game_object("One step played in the sandbox."))


class SandboxRowSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    match = serializers.UUIDField()
    game = serializers.CharField()
    branched_at = serializers.IntegerField(min_value=0)
    steps = serializers.IntegerField(min_value=0, help_text="How many steps were played.")
    expires_at = serializers.DateTimeField()


class SandboxListSerializer(serializers.Serializer):
    results = SandboxRowSerializer(many=True)
