"""JSON endpoints: a Wizarding Duels Group checked by the engine, and a player's saved setups."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.api.errors import error_response
from matches.api.serializers import JSONObjectField

from . import checks, selectors, services


class GroupCheckSerializer(serializers.Serializer):
    config = JSONObjectField(required=False, default=dict, help_text='{"pack": id, "galleons": budget}')
    group = JSONObjectField(help_text="The Group action: {type: group, models, leader, artifacts, spellbook, quests}")
    potions = serializers.JSONField(
        required=False,
        default=None,
        allow_null=True,
        help_text='The Stock action: {"type": "potions", "potions": [six ids]}',
    )


class SetupSaveSerializer(serializers.Serializer):
    game = serializers.CharField(max_length=64)
    name = serializers.CharField(max_length=80)
    data = serializers.JSONField(help_text='{"config": {...}, "actions": [...]}: what the game\'s checks accept')


class RefusalSerializer(serializers.Serializer):
    code = serializers.CharField()
    detail = serializers.CharField()


class GroupRefusalsSerializer(serializers.Serializer):
    group = RefusalSerializer(allow_null=True, help_text="The roster's refusal; null if the engine accepts it.")
    quests = RefusalSerializer(allow_null=True, help_text="The quest deck's refusal; null if accepted.")
    stock = RefusalSerializer(allow_null=True, help_text="The potion Stock's refusal; null if accepted or not sent.")


class GroupCheckConfigSerializer(serializers.Serializer):
    pack = serializers.CharField()
    galleons = serializers.IntegerField()


class GroupReportSerializer(serializers.Serializer):
    """The engine's verdict on each part, in its own words."""

    legal = serializers.BooleanField(help_text="Whether every part is accepted.")
    refusals = GroupRefusalsSerializer()
    config = GroupCheckConfigSerializer(help_text="The pack and budget the parts were checked against.")


class SetupSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    name = serializers.CharField()
    data = serializers.JSONField(help_text='{"config": {...}, "actions": [...]}, as saved.')
    updated_at = serializers.DateTimeField()


class SetupListSerializer(serializers.Serializer):
    setups = SetupSerializer(many=True)


class WizardingDuelsGroupCheck(APIView):
    """Anyone may ask (the builder works before signing in); nothing is written."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        request=GroupCheckSerializer,
        responses=GroupReportSerializer,
        summary="Wizarding Duels: the engine's verdict on a Group, its quest deck and a potion Stock",
    )
    def post(self, request):
        ser = GroupCheckSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        if len(str(request.data)) > checks.MAX_SETUP_CHARS * 2:
            return error_response("setup_too_large", "That Group is far larger than any legal one.", 400)
        try:
            report = checks.wizarding_duels(d["config"], d["group"], d["potions"])
        except checks.SetupShapeError as exc:
            return error_response(exc.code, exc.message, 400)
        return Response(report)


class SetupList(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[OpenApiParameter("game", str)],
        responses=SetupListSerializer,
        summary="Your saved setups (for one game, or all)",
    )
    def get(self, request):
        game = request.query_params.get("game") or None
        return Response(
            {"setups": [selectors.setup_summary(s) for s in selectors.setup_list(user=request.user, game=game)]}
        )

    @extend_schema(
        request=SetupSaveSerializer,
        responses={200: SetupSerializer, 201: SetupSerializer},
        summary="Save a setup (the same name replaces it); the game's engine must accept it",
    )
    def post(self, request):
        ser = SetupSaveSerializer(data=request.data)
        ser.is_valid(raise_exception=True)
        d = ser.validated_data
        try:
            setup, created = services.setup_save(user=request.user, game=d["game"], name=d["name"], data=d["data"])
        except services.SetupError as exc:
            return error_response(exc.code, exc.message, exc.status)
        return Response(
            selectors.setup_summary(setup), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK
        )


class SetupDetail(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={204: None}, summary="Delete one of your saved setups")
    def delete(self, request, setup_id: int):
        try:
            services.setup_delete(user=request.user, setup_id=setup_id)
        except services.SetupError as exc:
            return error_response(exc.code, exc.message, exc.status)
        return Response(status=status.HTTP_204_NO_CONTENT)
