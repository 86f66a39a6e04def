"""What the match and invitation endpoints answer, as the schema states it.

Response-only serializers: the views build their bodies in the selectors and never pass through
these; they exist so /api/schema/ gives a client every field's type and tests/hardening/
test_schema_conformance.py holds the real bodies to it. What differs per game (an engine's view,
an action, a chance spec, an event's data) stays a free-form object, said so in its description.
"""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from matches.invitations.models import Invitee
from matches.invitations.selectors import STATUSES
from matches.models import Match

from .serializers import JSONObjectField

#: The seats to move: seat numbers, or "chance" when a random draw is due.
TO_MOVE_ITEM = {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "enum": ["chance"]}]}


@extend_schema_field({"type": "array", "items": TO_MOVE_ITEM})
class ToMoveField(serializers.ListField):
    """Seat numbers to move, or "chance" for a pending random draw."""


def game_object(help_text: str, **kwargs) -> JSONObjectField:
    """A free-form object whose keys the game decides (they differ per engine)."""
    return JSONObjectField(help_text=f"{help_text} Its keys differ per game (free-form).", **kwargs)


class MatchSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0)
    username = serializers.CharField(allow_null=True, help_text="The account that plays it; null for a bot.")
    bot = serializers.CharField(allow_null=True, help_text="The bot that plays it; null for a person.")
    label = serializers.CharField(help_text="How pages name the seat (a username with partners, or 'random bot').")
    in_game = serializers.BooleanField(
        help_text="Whether the seat still plays: false once the match is over, and once the rules put it out "
        "while others play on (a knocked-out wizard, a retired caster), when it may no longer resign."
    )
    left = serializers.ChoiceField(
        choices=["resigned", "timeout"],
        allow_null=True,
        help_text="Why the seat left the match, or null while it plays (or played to the end): 'resigned' or "
        "'timeout' (its time ran out and someone claimed it). A seat that left a game of three or more while two "
        "others still played is out of it for good and the others play on; one whose leaving ended the match is "
        "named in the result too.",
    )


class MatchClocksSerializer(serializers.Serializer):
    control = JSONObjectField(help_text="The time control as created (see POST /api/matches/).")
    left = serializers.ListField(child=serializers.FloatField(), help_text="Seconds left per seat, now.")
    running = serializers.ListField(
        child=serializers.IntegerField(min_value=0), help_text="The seats whose clock runs (none once finished)."
    )
    as_of = serializers.DateTimeField()


class MatchVerificationSerializer(serializers.Serializer):
    verdict = serializers.ChoiceField(choices=Match.Verdict.values, help_text="The verifier's last verdict.")
    seq = serializers.IntegerField(
        allow_null=True,
        help_text="The event at which the verifier found the match disputed; null when it is verified or not yet "
        "verified.",
    )
    reason = serializers.CharField(allow_null=True, help_text="Why it disputes the match; null otherwise.")
    verified_at = serializers.DateTimeField(
        allow_null=True, help_text="When the read this verdict is based on began (the database's clock)."
    )
    disputed_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When a verification first found this match disputed; set for good, whatever a later one "
        "finds: such a match stays out of ratings, seasons and tournaments.",
    )


class MatchResultSerializer(serializers.Serializer):
    placements = serializers.ListField(child=serializers.IntegerField(), help_text="Per seat: 1 = first; ties share.")
    scores = serializers.ListField(child=serializers.FloatField(), help_text="Per seat.")
    winners = serializers.ListField(child=serializers.IntegerField(min_value=0), help_text="The seats placed first.")


class MatchSummarySerializer(serializers.Serializer):
    """A match as GET /api/matches/{id}/ answers it."""

    id = serializers.UUIDField()
    game = serializers.CharField()
    game_title = serializers.CharField()
    engine_version = serializers.CharField()
    mode = serializers.ChoiceField(choices=Match.Mode.values)
    status = serializers.ChoiceField(choices=Match.Status.values)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    seats = MatchSeatSerializer(many=True)
    your_seat = serializers.IntegerField(allow_null=True, help_text="The caller's seat; null if they hold none.")
    head_seq = serializers.IntegerField(min_value=0, help_text="Send it as expected_seq with a move.")
    to_move = ToMoveField(help_text="The seats to move now, or 'chance' when a random draw is due.")
    chance = game_object(
        "Tabletop: what the table must enter next (dice ranges, a shuffle size, cards to draw); null otherwise.",
        allow_null=True,
    )
    chance_entered_by = serializers.ListField(
        child=serializers.IntegerField(min_value=0), help_text="The seats that may enter that chance outcome."
    )
    result = MatchResultSerializer(allow_null=True, help_text="Null until finished; a game may add keys (e.g. reason).")
    clocks = MatchClocksSerializer(allow_null=True, help_text="Null for an untimed match.")
    head_hash = serializers.CharField(allow_null=True, help_text="The hash of the last event; null before any.")
    seed_commitment = serializers.CharField(allow_null=True)
    seed = serializers.CharField(allow_null=True, help_text="Revealed once finished (server-dealt matches).")
    verification = MatchVerificationSerializer()


class MatchPageSerializer(serializers.Serializer):
    count = serializers.IntegerField(min_value=0)
    results = MatchSummarySerializer(many=True)


class MatchEventSerializer(serializers.Serializer):
    """An event as the caller may see it: whole once finished, hidden parts redacted while live."""

    stream = serializers.CharField()
    seq = serializers.IntegerField(min_value=1)
    event_id = serializers.UUIDField()
    type = serializers.CharField(help_text="e.g. created, action, chance, finished.")
    data = game_object("What happened (an action, a chance outcome...), redacted as the caller may see it.")
    actor = serializers.CharField(help_text="'user:<id>', 'server' or 'system'.")
    recorded_at = serializers.DateTimeField()
    prev_hash = serializers.CharField()
    hash = serializers.CharField()
    salt = serializers.CharField(allow_null=True, help_text="Only to a caller who sees the whole event; else null.")


class EventPageSerializer(serializers.Serializer):
    head_seq = serializers.IntegerField(min_value=0)
    events = MatchEventSerializer(many=True)
    next_after = serializers.IntegerField(
        allow_null=True, help_text="Ask again with after= this for the next page; null at the head."
    )


class LogLineSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=1)
    text = serializers.CharField(allow_blank=True)


class MatchLogSerializer(serializers.Serializer):
    log = LogLineSerializer(many=True)


class MatchStateSerializer(serializers.Serializer):
    seq = serializers.IntegerField(min_value=0, help_text="The seq this view is after.")
    view = game_object(
        "What the caller may see of the game (once finished, of every seat; a past view of a finished "
        "match adds seat_views, one per seat)."
    )


class MatchLegalSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0)
    head_seq = serializers.IntegerField(min_value=0)
    to_move = serializers.BooleanField(help_text="Whether the seat is to move now (else actions is empty).")
    actions = serializers.ListField(
        child=game_object("An action, to send as is in POST actions/."), help_text="The legal actions."
    )


class MatchCommandResultSerializer(serializers.Serializer):
    created = serializers.BooleanField(help_text="False when the event_id was seen before (a retry).")
    head_seq = serializers.IntegerField(min_value=0)
    events = MatchEventSerializer(many=True, help_text="The events the command appended (or appended before).")
    status = serializers.ChoiceField(choices=Match.Status.values)


class InviteeSerializer(serializers.Serializer):
    username = serializers.CharField()
    response = serializers.ChoiceField(choices=Invitee.Response.values)


class InvitationSerializer(serializers.Serializer):
    """An invitation as its inviter or an invitee sees it."""

    id = serializers.UUIDField()
    kind = serializers.CharField(help_text="'match' or 'draft'.")
    status = serializers.ChoiceField(choices=STATUSES)
    game = serializers.CharField(allow_null=True)
    inviter = serializers.CharField()
    seats = serializers.ListField(child=serializers.CharField(), help_text="Each seat by name.")
    invitees = InviteeSerializer(many=True)
    you_invited = serializers.BooleanField()
    your_response = serializers.ChoiceField(
        choices=Invitee.Response.values, allow_null=True, help_text="Null if you are not invited."
    )
    request = JSONObjectField(
        help_text="What is proposed (game, mode, config...): the create command as asked. Free-form, per kind."
    )
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
    match = serializers.UUIDField(allow_null=True, help_text="The match made on the last acceptance.")
    url = serializers.CharField(allow_null=True, help_text="Where the match (or draft) is, once made.")
    page = serializers.CharField(help_text="The invitation's page.")


class InvitationPageSerializer(serializers.Serializer):
    count = serializers.IntegerField(min_value=0)
    results = InvitationSerializer(many=True)


#: A create retried with the same event_id answers what the first one made: a match or an invitation.
MATCH_OR_INVITATION = PolymorphicProxySerializer(
    component_name="MatchOrInvitation",
    serializers=[MatchSummarySerializer, InvitationSerializer],
    resource_type_field_name=None,
)
