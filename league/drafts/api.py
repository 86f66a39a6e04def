"""The drafts API: open a draft, read one, and a coach's moves and the pick clock as commands."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from matches import selectors as match_selectors
from matches import services as match_services
from matches.api.responses import InvitationSerializer
from matches.invitations.models import Invitation
from matches.invitations.selectors import invitation_summary

from ..errors import LeagueError
from . import invitations as draft_invitations
from . import responses, selectors, services
from .models import Draft


class DraftCreateSerializer(serializers.Serializer):
    coaches = serializers.ListField(
        child=serializers.CharField(max_length=400),
        min_length=2,
        max_length=4,
        help_text="Usernames in seat order (seat 0 is player 1); 'ann+bob' is a team of coaches sharing a seat",
    )
    format = serializers.ChoiceField(choices=["basic", "schoolyard", "tournament"], required=False)
    order = serializers.ChoiceField(choices=["snake", "straight"], required=False)
    clock_seconds = serializers.IntegerField(required=False, default=60)  # the service says why a clock is refused
    event_id = serializers.UUIDField(
        required=False,
        help_text="A new UUID per draft; resending the same create "
        "returns what the first made (the room, or the invitation).",
    )

    def validate_coaches(self, entries):
        teams = [[n.strip() for n in entry.split("+") if n.strip()] for entry in entries]
        names = [n for team in teams for n in team]
        users = {u.username: u for u in get_user_model().objects.filter(username__in=names)}
        missing = [n for n in names if n not in users]
        if missing:
            raise serializers.ValidationError(f"No user called {', '.join(missing)}.")
        if len(set(names)) != len(names) or any(not team for team in teams):
            raise serializers.ValidationError("Each coach can hold only one seat.")
        return [[users[n] for n in team] for team in teams]


class DraftCommandSerializer(serializers.Serializer):
    """A draft command's guards: every one appends to the draft's stream. take, pass, ready and
    the clock take nothing else; each other verb's subclass requires its own move."""

    expected_seq = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text="The draft's head_seq this command was based on."
    )
    event_id = serializers.UUIDField(help_text="A new UUID per command; resend it to retry.")


class DraftPickSerializer(DraftCommandSerializer):
    """pick: a wizard from the pool."""

    wizard = serializers.IntegerField(min_value=0, max_value=10_000, help_text="The pool's wizard to pick.")


class DraftLineupSerializer(DraftCommandSerializer):
    """lineup: the wizards who play."""

    wizards = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=10_000),
        max_length=64,
        help_text="The drafted wizards who play, in order.",
    )


class DraftSpellsSerializer(DraftCommandSerializer):
    """spells: the spells bought with the budget."""

    spells = serializers.ListField(
        child=serializers.CharField(max_length=80), max_length=64, help_text="The spells bought."
    )


def _draft_or_404(draft_id):
    draft = selectors.draft_get(draft_match_id=draft_id)
    if draft is None:
        raise NotFound("No such draft.")
    return draft


class DraftList(APIView):
    @extend_schema(responses=responses.DraftPageSerializer, summary="Drafts, newest first", operation_id="drafts_list")
    def get(self, request):
        drafts = Draft.objects.select_related("draft_match", "match")[:100]
        return Response({"results": [selectors.draft_summary(draft=d, user=request.user) for d in drafts]})

    @extend_schema(
        request=DraftCreateSerializer,
        responses={
            201: responses.DraftSummarySerializer,
            202: InvitationSerializer,
            200: responses.DRAFT_OR_INVITATION,
        },
        summary="Open a draft (or invite the other coaches to it)",
        description="201 with the draft when it seats nobody else (or an organiser opens it); otherwise "
        "202 with an invitation: the draft opens when every other coach accepted "
        "(POST /api/invitations/{id}/accept/). The same event_id again returns the invitation. A draft "
        "that seats no other person counts against MAX_OPEN_BOT_MATCHES_PER_USER with the account's matches "
        "against bots: past it, 409 too_many_bot_matches.",
    )
    def post(self, request):
        s = DraftCreateSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        config = {k: s.validated_data[k] for k in ("format", "order") if k in s.validated_data}
        opened, created = draft_invitations.draft_open(
            seats=[
                match_services.SeatSpec(user=team[0], partners=tuple(team[1:])) for team in s.validated_data["coaches"]
            ],
            created_by=request.user,
            config=config,
            clock_seconds=s.validated_data["clock_seconds"],
            event_id=s.validated_data.get("event_id"),
        )
        if isinstance(opened, Invitation):
            return Response(
                invitation_summary(invitation=opened, user=request.user),
                status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK,
            )
        return Response(
            selectors.draft_summary(draft=opened, user=request.user),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class DraftDetail(APIView):
    @extend_schema(
        responses=responses.DraftDetailSerializer, summary="A draft: pool, picks, clock deadline, resulting match"
    )
    def get(self, request, draft_id):
        draft = _draft_or_404(draft_id)
        data = selectors.draft_summary(draft=draft, user=request.user)
        seat = match_selectors.viewer_seat(match=draft.draft_match, user=request.user)
        data["view"] = match_selectors.match_view(match=draft.draft_match, seat=seat)
        return Response(data)


class DraftClock(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=DraftCommandSerializer,
        responses=responses.DraftClockSerializer,
        summary="The pick clock ran out: the configured auto-pick acts (refused before the deadline)",
    )
    def post(self, request, draft_id):
        draft = _draft_or_404(draft_id)
        s = DraftCommandSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        acted = services.draft_clock_expire(
            draft=draft, expected_seq=s.validated_data["expected_seq"], event_id=s.validated_data["event_id"]
        )
        return Response({"acted_for": acted, **selectors.draft_summary(draft=draft, user=request.user)})


#: URL verb -> how the draft engine spells the action, and the verb's own serializer (its fields
#: beyond the guards are the action's).
DRAFT_ACTIONS = {
    "pick": ("pick", DraftPickSerializer),
    "take": ("take_first_pick", DraftCommandSerializer),
    "pass": ("pass_first_pick", DraftCommandSerializer),
    "lineup": ("lineup", DraftLineupSerializer),
    "spells": ("spells", DraftSpellsSerializer),
    "ready": ("ready", DraftCommandSerializer),
}
GUARDS = ("expected_seq", "event_id")
#: A body for each verb, shown as the request's examples: the verb is in the path, so the schema's
#: "one of" cannot be tied to it by a discriminator.
DRAFT_GUARDS_EXAMPLE = {"expected_seq": 7, "event_id": "9b2e4f1a-6c3d-4e8b-a5f7-1d0c2b3a4e5f"}
DRAFT_EXAMPLES = {
    "pick": {"wizard": 3},
    "take": {},
    "pass": {},
    "lineup": {"wizards": [3, 5, 8]},
    "spells": {"spells": ["freeze", "shield"]},
    "ready": {},
}
assert set(DRAFT_EXAMPLES) == set(DRAFT_ACTIONS)


class DraftAction(APIView):
    """Shorthands for a coach's draft moves; the same as POST /api/matches/{id}/actions/."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        # One of the verbs' own serializers (the verb in the path says which).
        request=PolymorphicProxySerializer(
            component_name="DraftCommandBody",
            serializers=list(dict.fromkeys(serializer for _, serializer in DRAFT_ACTIONS.values())),
            resource_type_field_name=None,
        ),
        parameters=[OpenApiParameter("verb", str, OpenApiParameter.PATH, enum=list(DRAFT_ACTIONS))],
        examples=[
            OpenApiExample(verb, value={**DRAFT_GUARDS_EXAMPLE, **body}, request_only=True, summary=f"{verb}: its body")
            for verb, body in DRAFT_EXAMPLES.items()
        ],
        responses={201: responses.DraftActedSerializer, 200: responses.DraftActedSerializer},
        operation_id="drafts_act",
        summary="pick {wizard} | take | pass | lineup {wizards} | spells {spells} | ready",
    )
    def post(self, request, draft_id, verb):
        if verb not in DRAFT_ACTIONS:
            raise NotFound(f"Unknown draft action '{verb}'.")
        draft = _draft_or_404(draft_id)
        kind, serializer = DRAFT_ACTIONS[verb]
        s = serializer(data=request.data)
        s.is_valid(raise_exception=True)
        move = {f: v for f, v in s.validated_data.items() if f not in GUARDS}
        seat = match_selectors.viewer_seat(match=draft.draft_match, user=request.user)
        if seat is None:
            raise LeagueError("You are not a coach in this draft.", code="not_a_coach", status=403)
        outcome = match_services.match_act(
            match_id=draft.draft_match_id,
            user=request.user,
            seat=seat,
            action={"type": kind, **move},
            expected_seq=s.validated_data["expected_seq"],
            event_id=s.validated_data["event_id"],
        )
        draft.refresh_from_db()
        return Response(
            {
                "created": outcome.created,
                "head_seq": outcome.events[-1].seq,
                **selectors.draft_summary(draft=draft, user=request.user),
            },
            status=status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK,
        )
