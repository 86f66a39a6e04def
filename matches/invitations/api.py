"""The invitations API: list and read your invitations; accept, decline (invitees), cancel (inviter)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from matches.api.responses import InvitationPageSerializer, InvitationSerializer
from matches.api.views import int_param, int_parameter

from . import selectors, services


class InvitationAnswerSerializer(serializers.Serializer):
    """The answer carries nothing but its verb; a body, if sent, must be an empty object."""


class InvitationList(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=selectors.STATUSES),
            OpenApiParameter("role", str, enum=["sent", "received"], description="Default: both"),
            int_parameter("limit", "At most this many (default 50)", maximum=200),
            int_parameter("offset", "Skip this many"),
        ],
        responses=InvitationPageSerializer,
        summary="Your invitations, sent and received, newest first",
        operation_id="invitations_list",
    )
    def get(self, request):
        state = request.query_params.get("status") or None
        role = request.query_params.get("role") or None
        if state is not None and state not in selectors.STATUSES:
            raise ValidationError({"status": [f"One of {', '.join(selectors.STATUSES)}."]})
        if role is not None and role not in ("sent", "received"):
            raise ValidationError({"role": ["'sent' or 'received'."]})
        limit = int_param(request, "limit", 50, maximum=200)
        offset = int_param(request, "offset", 0)
        qs = selectors.invitations_for(user=request.user, status=state, role=role)
        page = list(qs[offset : offset + limit])
        return Response(
            {
                "count": qs.count(),
                "results": [selectors.invitation_summary(invitation=i, user=request.user) for i in page],
            }
        )


class InvitationDetail(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        responses=InvitationSerializer,
        summary="An invitation you sent or received",
        operation_id="invitations_retrieve",
    )
    def get(self, request, invitation_id):
        invitation = selectors.invitation_get(invitation_id=invitation_id, user=request.user)
        if invitation is None:
            raise NotFound("No such invitation.", code="invitation_not_found")
        return Response(selectors.invitation_summary(invitation=invitation, user=request.user))


class InvitationAnswer(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=InvitationAnswerSerializer,
        parameters=[OpenApiParameter("verb", str, OpenApiParameter.PATH, enum=list(services.ANSWERS))],
        responses=InvitationSerializer,
        summary="accept or decline (an invitee), cancel (the inviter)",
        description="The last acceptance creates the match or draft: the answer's `url` leads there. Answering "
        "the same way again returns the invitation as it stands; answering a closed invitation is "
        "409 invitation_closed, one that expired unanswered (INVITATION_TTL_HOURS after it was sent: its "
        "`expires_at`) 409 invitation_expired. Whoever is neither its inviter nor invited gets 404.",
        operation_id="invitations_answer",
    )
    def post(self, request, invitation_id, verb):
        answer = services.ANSWERS.get(verb)
        if answer is None:
            raise NotFound(f"Invitations are answered with {', '.join(services.ANSWERS)}.", code="unknown_verb")
        if request.data:  # {} and an empty form are falsy; anything else is a mistake
            raise ValidationError({"non_field_errors": ["Send no body (or an empty JSON object)."]})
        invitation = answer(invitation_id=invitation_id, user=request.user)
        invitation = selectors.invitation_get(invitation_id=invitation.id, user=request.user)
        return Response(
            selectors.invitation_summary(invitation=invitation, user=request.user), status=status.HTTP_200_OK
        )
