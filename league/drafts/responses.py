"""What the drafts endpoints answer, as the schema states it (response-only serializers: the
selectors build the bodies). The draft itself is a match of the draft engine: its summary is the
match's, and its view (pool, picks) is the engine's, free-form."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from matches.api.responses import InvitationSerializer, MatchSummarySerializer, game_object


class DraftSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField(help_text="The draft's id (its draft match's).")
    draft = MatchSummarySerializer(help_text="The draft match: seats, head_seq, to_move, status.")
    clock_seconds = serializers.IntegerField(min_value=0, help_text="Seconds per pick; 0: no clock.")
    deadline = serializers.DateTimeField(allow_null=True, help_text="When the pick clock runs out; null if none.")
    server_time = serializers.DateTimeField(help_text="The server's clock now, to count down from.")
    match = serializers.UUIDField(allow_null=True, help_text="The match the draft made, once it ended.")
    hand_off = serializers.BooleanField(help_text="Whether the match is created when the draft ends.")


class DraftPageSerializer(serializers.Serializer):
    results = DraftSummarySerializer(many=True)


class DraftDetailSerializer(DraftSummarySerializer):
    view = game_object("What the caller may see of the draft (pool, picks, budgets).")


class DraftClockSerializer(DraftSummarySerializer):
    acted_for = serializers.ListField(
        child=serializers.IntegerField(min_value=0), help_text="The seats the auto-pick acted for."
    )


class DraftActedSerializer(DraftSummarySerializer):
    created = serializers.BooleanField(help_text="False for a retry (the same event_id).")
    head_seq = serializers.IntegerField(min_value=1, help_text="The seq of the move's last event.")


#: A create retried with the same event_id answers what the first one made: the draft or an invitation.
DRAFT_OR_INVITATION = PolymorphicProxySerializer(
    component_name="DraftOrInvitation",
    serializers=[DraftSummarySerializer, InvitationSerializer],
    resource_type_field_name=None,
)
