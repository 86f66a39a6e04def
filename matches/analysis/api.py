"""The analysis API: a finished match's odds and luck, a player's luck, the fairness report, and
what-if sandboxes. Every endpoint says who may ask: the analysis of a finished match and the
fairness report are public (every event of a finished match is); a sandbox is its creator's alone.
All of them replay streams or read many events, so they take the stricter "expensive" throttle."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from ..api.serializers import JSONObjectField
from ..api.views import _match_or_404, with_expensive_throttle
from ..models import Match
from . import responses, selectors, services

#: Analyses a player's luck request may compute on the spot (the rest on later requests).
LUCK_FILL_PER_REQUEST = 10


def _user_or_404(username: str):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise NotFound("No such player.")
    return user


def _mode(request) -> str:
    mode = request.query_params.get("mode") or Match.Mode.SERVER
    if mode not in Match.Mode.values:
        raise serializers.ValidationError({"mode": [f"One of {', '.join(Match.Mode.values)}."]})
    return mode


_MODE = OpenApiParameter(
    "mode", str, enum=Match.Mode.values, description="Server-dealt outcomes (default) or those entered at real tables"
)


class MatchAnalysisView(APIView):
    permission_classes = [permissions.AllowAny]
    get_throttles = with_expensive_throttle

    @extend_schema(
        responses={
            200: responses.MatchAnalysisSerializer,
            409: OpenApiResponse(description="match_not_finished: the match is still being played."),
        },
        summary="A finished match's analysis: the exact odds of every chance event and each seat's luck",
        description="Computed on the first request and kept; computed again when the engine's odds code or "
        "this analysis changes. 409 match_not_finished while the match is live.",
    )
    def get(self, request, match_id):
        match = _match_or_404(match_id)
        analysis = services.analysis_ensure(match=match)
        return Response(selectors.analysis_public(match=match, analysis=analysis))


class PlayerLuckView(APIView):
    permission_classes = [permissions.AllowAny]
    get_throttles = with_expensive_throttle

    @extend_schema(
        responses=responses.PlayerLuckSerializer,
        summary="A player's luck over their verified matches",
        description=f"Analyses not yet computed are computed, {LUCK_FILL_PER_REQUEST} per request; "
        "'analysed' says how many of 'verified_matches' are counted so far.",
    )
    def get(self, request, username):
        user = _user_or_404(username)
        services.analyses_fill(matches=selectors.player_matches(user=user), limit=LUCK_FILL_PER_REQUEST)
        return Response(selectors.player_luck(user=user))


class FairnessView(APIView):
    permission_classes = [permissions.AllowAny]
    get_throttles = with_expensive_throttle

    @extend_schema(
        parameters=[_MODE],
        responses=responses.FairnessReportSerializer,
        summary="The fairness report of the whole platform: dice faces and draw positions against "
        "the exact uniform odds, with chi-square p-values",
    )
    def get(self, request):
        return Response(selectors.fairness_report(mode=_mode(request)))


class PlayerFairnessView(APIView):
    permission_classes = [permissions.AllowAny]
    get_throttles = with_expensive_throttle

    @extend_schema(
        parameters=[_MODE],
        responses=responses.FairnessReportSerializer,
        summary="The fairness report over every finished match a player played",
    )
    def get(self, request, username):
        return Response(selectors.fairness_report(user=_user_or_404(username), mode=_mode(request)))


# -- sandboxes -------------------------------------------------------------------


class BranchSerializer(serializers.Serializer):
    at = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text="Branch after this event of the replay (0: before the first)."
    )
    bot_seats = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=64),
        required=False,
        default=list,
        max_length=16,
        help_text="Seats the game's bot plays; you play the others by hand.",
    )
    hand_chance = serializers.BooleanField(
        required=False, default=False, help_text="Roll every chance event yourself (re-roll or pick)."
    )


class SandboxActionSerializer(serializers.Serializer):
    seat = serializers.IntegerField(min_value=0, max_value=64)
    action = JSONObjectField(help_text="The move, as the sandbox's legal lists it.")

    def validate_action(self, value):
        if not isinstance(value, dict):
            raise serializers.ValidationError("action must be a JSON object.")
        return value


class SandboxChanceSerializer(serializers.Serializer):
    outcome = serializers.JSONField(
        required=False, allow_null=True, help_text="The outcome you pick; leave it out for a fresh server roll."
    )


def _sandbox_or_404(request, sandbox_id):
    sandbox = selectors.sandbox_get(sandbox_id=sandbox_id, owner=request.user)
    if sandbox is None:
        raise NotFound("No such sandbox (or it has expired).")
    return sandbox


class MatchWhatIfView(APIView):
    permission_classes = [permissions.IsAuthenticated]
    get_throttles = with_expensive_throttle

    @extend_schema(
        request=BranchSerializer,
        responses={201: responses.SandboxSerializer},
        summary="Branch a private what-if sandbox from a finished match's replay",
        description="Never recorded in the event store; only you see it; it expires after "
        f"{services.SANDBOX_HOURS} hours.",
    )
    def post(self, request, match_id):
        data = _valid(BranchSerializer, request)
        match = _match_or_404(match_id)
        sandbox = services.sandbox_create(
            match=match, owner=request.user, at=data["at"], bot_seats=data["bot_seats"], hand_chance=data["hand_chance"]
        )
        return Response(selectors.sandbox_public(sandbox=sandbox), status=status.HTTP_201_CREATED)


def _valid(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class SandboxList(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses=responses.SandboxListSerializer,
        summary="Your what-if sandboxes (not yet expired)",
        operation_id="sandboxes_list",
    )
    def get(self, request):
        from django.utils import timezone

        own = request.user.sandboxes.filter(expires_at__gt=timezone.now())
        return Response(
            {
                "results": [
                    {
                        "id": str(s.id),
                        "match": str(s.match_id),
                        "game": s.game,
                        "branched_at": s.branched_at,
                        "steps": len(s.steps),
                        "expires_at": s.expires_at.isoformat(),
                    }
                    for s in own
                ]
            }
        )


class SandboxDetail(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses=responses.SandboxSerializer, summary="A sandbox of yours: every seat's view, legal moves, steps"
    )
    def get(self, request, sandbox_id):
        return Response(selectors.sandbox_public(sandbox=_sandbox_or_404(request, sandbox_id)))

    @extend_schema(responses={204: None}, summary="Delete a sandbox of yours")
    def delete(self, request, sandbox_id):
        services.sandbox_delete(sandbox_id=sandbox_id, owner=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SandboxActions(APIView):
    permission_classes = [permissions.IsAuthenticated]
    get_throttles = with_expensive_throttle

    @extend_schema(
        request=SandboxActionSerializer,
        responses=responses.SandboxSerializer,
        summary="Play a move by hand in your sandbox (the bots and the server's dice answer)",
    )
    def post(self, request, sandbox_id):
        data = _valid(SandboxActionSerializer, request)
        sandbox = services.sandbox_act(
            sandbox_id=sandbox_id, owner=request.user, seat=data["seat"], action=data["action"]
        )
        return Response(selectors.sandbox_public(sandbox=sandbox))


class SandboxChance(APIView):
    permission_classes = [permissions.IsAuthenticated]
    get_throttles = with_expensive_throttle

    @extend_schema(
        request=SandboxChanceSerializer,
        responses=responses.SandboxSerializer,
        summary="Re-roll the pending chance event of your sandbox, or pick its outcome",
    )
    def post(self, request, sandbox_id):
        data = _valid(SandboxChanceSerializer, request)
        sandbox = services.sandbox_chance(sandbox_id=sandbox_id, owner=request.user, outcome=data.get("outcome"))
        return Response(selectors.sandbox_public(sandbox=sandbox))


class SandboxBot(APIView):
    permission_classes = [permissions.IsAuthenticated]
    get_throttles = with_expensive_throttle

    @extend_schema(
        request=None,
        responses=responses.SandboxSerializer,
        summary="Let the game's bot make the next move in your sandbox (or the server roll)",
    )
    def post(self, request, sandbox_id):
        sandbox = services.sandbox_play_on(sandbox_id=sandbox_id, owner=request.user)
        return Response(selectors.sandbox_public(sandbox=sandbox))
