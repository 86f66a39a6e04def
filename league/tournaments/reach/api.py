"""The reach settings over HTTP: an organiser's webhooks (the secret in the create's answer
only) with their delivery log, the origins allowed to frame the widgets, a player's opt-out
of tournament emails. Refusals are ``{"code", "detail"}``; only the organiser sees or changes a
tournament's settings."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import selectors as tournament_selectors
from ..access import is_organiser
from ..errors import refuse
from . import selectors, services

#: What a read of a tournament's settings answers anyone but its organiser.
NOT_ORGANISER = OpenApiResponse(description="not_organiser: only the tournament's organiser may see this.")


def _organisers_tournament(request, tournament_id):
    t = tournament_selectors.tournament_get(tournament_id=tournament_id)
    if t is None:
        raise NotFound("No such tournament.")
    if not is_organiser(t, request.user):
        raise refuse("Only the tournament's organiser may see or change this.", "not_organiser", 403)
    return t


class WebhookInput(serializers.Serializer):
    url = serializers.CharField(max_length=500)


class EmbedInput(serializers.Serializer):
    origins = serializers.ListField(
        child=serializers.CharField(max_length=300, allow_blank=True, trim_whitespace=False),
        max_length=services.MAX_ORIGINS,
    )


class EmailsInput(serializers.Serializer):
    opted_out = serializers.BooleanField()


class DeliverySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.CharField(help_text="pairing, result or finished.")
    event_id = serializers.CharField(allow_null=True, help_text="The delivered body's id.")
    status = serializers.ChoiceField(choices=["pending", "delivered", "failed"])
    attempts = serializers.IntegerField(min_value=0)
    last_status_code = serializers.IntegerField(allow_null=True)
    last_error = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    delivered_at = serializers.DateTimeField(allow_null=True)
    next_attempt_at = serializers.DateTimeField(allow_null=True)


class WebhookSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    secret_hint = serializers.CharField(help_text="The secret's last four characters (it is shown once, at creation).")
    created_at = serializers.DateTimeField()
    deliveries = DeliverySerializer(many=True, help_text="The latest deliveries, newest first.")


class WebhookListSerializer(serializers.Serializer):
    webhooks = WebhookSerializer(many=True)
    events = serializers.ListField(child=serializers.CharField(), help_text="What a webhook is told of.")


class WebhookCreatedSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    secret = serializers.CharField(help_text="Signs every delivery; shown this once.")
    signature_header = serializers.CharField(help_text="The header carrying the signature.")


class OriginsSerializer(serializers.Serializer):
    origins = serializers.ListField(child=serializers.CharField(), help_text="scheme://host[:port] each.")


class EmailsSerializer(serializers.Serializer):
    opted_out = serializers.BooleanField()
    email = serializers.CharField(allow_blank=True, required=False, help_text="Where they go (on a read only).")


class TournamentWebhooks(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses={200: WebhookListSerializer, 403: NOT_ORGANISER},
        summary="The organiser's webhooks and their delivery log",
    )
    def get(self, request, tournament_id):
        t = _organisers_tournament(request, tournament_id)
        return Response({"webhooks": selectors.webhooks(tournament=t), "events": ["pairing", "result", "finished"]})

    @extend_schema(
        request=WebhookInput,
        responses={201: WebhookCreatedSerializer},
        summary="Register a webhook URL; the answer shows its signing secret, this once",
    )
    def post(self, request, tournament_id):
        t = _organisers_tournament(request, tournament_id)
        s = WebhookInput(data=request.data)
        s.is_valid(raise_exception=True)
        endpoint, secret = services.webhook_create(tournament=t, by=request.user, url=s.validated_data["url"])
        return Response(
            {"id": endpoint.pk, "url": endpoint.url, "secret": secret, "signature_header": "Wizard-Duels-Signature"},
            status=status.HTTP_201_CREATED,
        )


class TournamentWebhook(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses={204: None}, summary="Remove a webhook (its log goes with it)")
    def delete(self, request, tournament_id, webhook_id):
        t = _organisers_tournament(request, tournament_id)
        services.webhook_delete(tournament=t, by=request.user, webhook_id=webhook_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class TournamentEmbed(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses={200: OriginsSerializer, 403: NOT_ORGANISER}, summary="The origins allowed to frame the widgets"
    )
    def get(self, request, tournament_id):
        t = _organisers_tournament(request, tournament_id)
        return Response({"origins": selectors.embed_origins(tournament=t)})

    @extend_schema(request=EmbedInput, responses=OriginsSerializer, summary="Set the origins (scheme://host[:port])")
    def put(self, request, tournament_id):
        t = _organisers_tournament(request, tournament_id)
        s = EmbedInput(data=request.data)
        s.is_valid(raise_exception=True)
        return Response(
            {"origins": services.embed_origins_set(tournament=t, by=request.user, origins=s.validated_data["origins"])}
        )


class TournamentEmails(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=EmailsSerializer, summary="Whether you get tournament emails")
    def get(self, request):
        return Response({"opted_out": selectors.email_opted_out(user=request.user), "email": request.user.email})

    @extend_schema(request=EmailsInput, responses=EmailsSerializer, summary="Turn tournament emails off or on")
    def put(self, request):
        s = EmailsInput(data=request.data)
        s.is_valid(raise_exception=True)
        return Response(
            {"opted_out": services.email_opt_out_set(user=request.user, opted_out=s.validated_data["opted_out"])}
        )
