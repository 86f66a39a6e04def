from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from matches.models import Match


@extend_schema_field({"type": "object", "additionalProperties": True})
class JSONObjectField(serializers.JSONField):
    """A JSON value its serializer or view refuses unless it is an object: the schema says so, so a
    client built from it does not send a number or a list there."""


class SeatInSerializer(serializers.Serializer):
    username = serializers.CharField(required=False, max_length=150, help_text="The account that plays this seat.")
    bot = serializers.CharField(required=False, max_length=40, help_text="Or a bot, e.g. 'random'.")

    def validate(self, attrs):
        if bool(attrs.get("username")) == bool(attrs.get("bot")):
            raise serializers.ValidationError("Give a seat either a username or a bot, not both.")
        if attrs.get("username"):
            user = get_user_model().objects.filter(username=attrs["username"]).first()
            if user is None:
                raise serializers.ValidationError(f"There is no user called '{attrs['username']}'.")
            attrs["user"] = user
        return attrs


class MatchCreateSerializer(serializers.Serializer):
    game = serializers.CharField(
        max_length=64,
        help_text="A game's name from GET /api/engines/. A draft (iwdl-draft) is not made here: it is opened "
        "in a draft room, POST /api/drafts/ (400 draft_needs_a_room otherwise).",
    )
    mode = serializers.ChoiceField(choices=Match.Mode.values, default=Match.Mode.SERVER)
    config = JSONObjectField(required=False, default=dict)
    seats = SeatInSerializer(many=True, max_length=16)
    event_id = serializers.UUIDField(
        required=False, help_text="A new UUID per match; resending the same create returns the match it made."
    )
    time_control = serializers.JSONField(
        required=False,
        default=dict,
        help_text='{} (untimed), {"kind": "fischer", "base": seconds, "increment": seconds} or '
        '{"kind": "correspondence", "days_per_move": days}',
    )

    def validate_config(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError("config must be a JSON object.")
        return value


class CommandSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=64)
    # Every command that appends to a stream carries both (ARCHITECTURE.md, "Commands and side effects").
    expected_seq = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text="The match's head_seq this move was based on."
    )
    event_id = serializers.UUIDField(help_text="A new UUID per move; resend it to retry.")
    action = JSONObjectField(required=False, help_text="The move, as legal/ lists it.")
    chance = serializers.JSONField(required=False, help_text="Tabletop only: the outcome shown at the table.")

    def get_fields(self):
        # The declared fields made anew from the arguments they were declared with, as DRF's
        # deepcopy makes them (Field.__deepcopy__), without copying those arguments, which are
        # all numbers and text here: every action POST validates this body, and the deepcopy was
        # about 3% of its CPU (issue 17, P5).
        return {name: type(f)(*f._args, **f._kwargs) for name, f in self._declared_fields.items()}

    def validate(self, attrs):
        if ("action" in attrs) == ("chance" in attrs):
            raise serializers.ValidationError("Send either an action or a chance outcome.")
        if "action" in attrs and not isinstance(attrs["action"], dict):
            raise serializers.ValidationError("action must be a JSON object.")
        return attrs


class TimeoutClaimSerializer(serializers.Serializer):
    expected_seq = serializers.IntegerField(min_value=0, max_value=2**31 - 1)
    event_id = serializers.UUIDField()


class ResignSerializer(serializers.Serializer):
    expected_seq = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text="The match's head_seq the resignation was based on."
    )
    event_id = serializers.UUIDField(help_text="A new UUID per resignation; resend it to retry.")


class EngineSerializer(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField()
    version = serializers.CharField()
    min_seats = serializers.IntegerField()
    max_seats = serializers.IntegerField()
    bots = serializers.ListField(child=serializers.CharField())
    draft = serializers.BooleanField(
        help_text="A draft, not a game: made in a draft room (POST /api/drafts/), a league or a tournament, "
        "never with POST /api/matches/ (400 draft_needs_a_room)."
    )
