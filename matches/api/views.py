from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from engines import registry
from matches import selectors, services
from matches.invitations import selectors as invitation_selectors
from matches.invitations import services as invitation_services
from matches.invitations.models import Invitation
from matches.models import Match

from . import responses
from .serializers import (
    CommandSerializer,
    EngineSerializer,
    MatchCreateSerializer,
    ResignSerializer,
    TimeoutClaimSerializer,
)


def _match_or_404(match_id) -> Match:
    match = selectors.match_get(match_id=match_id)
    if match is None:
        raise NotFound("No such match.")
    return match


#: No query parameter of this API counts past this (a seq, an offset, a seat); a larger number is a
#: mistake or a probe, refused before it reaches the database (whose columns would overflow).
MAX_QUERY_INT = 2**31 - 1
#: /events/ answers at most this many events unless asked for fewer (then follow next_after).
EVENTS_PAGE = 200
EVENTS_PAGE_MAX = 1000


def int_param(request, name: str, default: int | None, *, maximum: int = MAX_QUERY_INT) -> int | None:
    """A whole-number query parameter between 0 and ``maximum`` (400 ``invalid_request`` otherwise)."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    text = raw.strip()
    if text.startswith("-") and text[1:].isascii() and text[1:].isdigit():
        raise ValidationError({name: ["Must be 0 or more."]})
    if not (text.isascii() and text.isdigit()):
        raise ValidationError({name: [f"'{raw[:40]}' is not a whole number."]})
    if len(text) > len(str(maximum)) or int(text) > maximum:
        raise ValidationError({name: [f"Must be at most {maximum}."]})
    return int(text)


_int_param = int_param


def int_parameter(
    name: str, description: str = "", *, maximum: int = MAX_QUERY_INT, required: bool = False
) -> OpenApiParameter:
    """How the schema states a whole-number query parameter: the bounds its view enforces, so a
    client built from the schema never sends what the view refuses."""
    schema = {"type": "integer", "minimum": 0, "maximum": maximum}
    return OpenApiParameter(name, schema, required=required, description=description)


class ExpensiveReadThrottle(SimpleRateThrottle):
    """The stricter "expensive" rate (settings: THROTTLE_EXPENSIVE), per account or, for anonymous
    callers, per address: for reads that replay a stream or list it whole."""

    scope = "expensive"

    def get_cache_key(self, request, view):
        ident = request.user.pk if request.user and request.user.is_authenticated else self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


def with_expensive_throttle(view) -> list:
    return [*APIView.get_throttles(view), ExpensiveReadThrottle()]


class EngineList(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=EngineSerializer(many=True), summary="The games this platform runs")
    def get(self, request):
        data = [
            {
                "name": e.name,
                "title": e.title,
                "version": e.version,
                "min_seats": e.min_seats,
                "max_seats": e.max_seats,
                "bots": list(services.engine_bots(e)),
                "draft": e.draft,
            }
            for e in registry.latest()
        ]
        return Response(EngineSerializer(data, many=True).data)


class MatchList(APIView):
    @extend_schema(
        parameters=[
            OpenApiParameter("status", str, enum=Match.Status.values),
            OpenApiParameter("game", str),
            int_parameter("limit", "At most this many (default 50)", maximum=200),
            int_parameter("offset", "Skip this many"),
        ],
        responses=responses.MatchPageSerializer,
        summary="Matches, newest first",
        operation_id="matches_list",
    )
    def get(self, request):
        qs = Match.objects.prefetch_related("seats__user")
        if request.query_params.get("status"):
            qs = qs.filter(status=request.query_params["status"])
        if request.query_params.get("game"):
            qs = qs.filter(game=request.query_params["game"])
        limit = _int_param(request, "limit", 50, maximum=200)
        offset = _int_param(request, "offset", 0)
        page = list(qs[offset : offset + limit])
        return Response(
            {
                "count": qs.count(),
                "results": [
                    selectors.match_summary(match=m, seat=selectors.viewer_seat(match=m, user=request.user))
                    for m in page
                ],
            }
        )

    @extend_schema(
        request=MatchCreateSerializer,
        responses={
            201: responses.MatchSummarySerializer,
            202: responses.InvitationSerializer,
            200: responses.MATCH_OR_INVITATION,
        },
        summary="Create a match (or invite the other players to it)",
        description=(
            "Against bots (or as an organiser) the match starts at once: 201 with the match. A match that "
            "seats other people is an invitation until each of them accepts (POST /api/invitations/{id}/accept/): "
            "202 with the invitation; its `url` leads to the match once the last one accepted. The same "
            "event_id again returns what the first create made (200). One account has at most "
            "MAX_OPEN_BOT_MATCHES_PER_USER (10) unfinished matches and drafts that seat no other person: past "
            "that, 409 too_many_bot_matches and nothing is made (a finished one frees its place)."
        ),
    )
    def post(self, request):
        serializer = MatchCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        seats = [services.SeatSpec(user=s.get("user"), bot=s.get("bot", "")) for s in data["seats"]]
        if not request.user.is_staff and all(s.user != request.user for s in seats):
            raise PermissionDenied("You can create a match only for a seat of your own (organisers excepted).")
        # The one decision between inviting and creating (as the new-match page makes it): nobody is
        # seated without saying yes. A retry with the same event_id, also one racing the first, gets
        # what the first made: 200.
        opened, created = invitation_services.match_open(
            game=data["game"],
            seats=seats,
            created_by=request.user,
            mode=data["mode"],
            config=data["config"],
            time_control=data.get("time_control"),
            event_id=data.get("event_id"),
        )
        if isinstance(opened, Invitation):
            invitation = invitation_selectors.invitation_get(invitation_id=opened.id, user=request.user)
            return Response(
                invitation_selectors.invitation_summary(invitation=invitation, user=request.user),
                status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK,
            )
        match = selectors.match_get(match_id=opened.id)
        seat = selectors.viewer_seat(match=match, user=request.user)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(selectors.match_summary(match=match, seat=seat), status=code)


class MatchDetail(APIView):
    @extend_schema(responses=responses.MatchSummarySerializer, summary="A match: seats, status, result, verification")
    def get(self, request, match_id):
        match = _match_or_404(match_id)
        seat = selectors.viewer_seat(match=match, user=request.user)
        return Response(selectors.match_summary(match=match, seat=seat))


class MatchEvents(APIView):
    get_throttles = with_expensive_throttle

    @extend_schema(
        parameters=[
            int_parameter("after", "Only events with a greater seq"),
            int_parameter(
                "limit", f"At most this many (default {EVENTS_PAGE}; then follow next_after)", maximum=EVENTS_PAGE_MAX
            ),
        ],
        responses=responses.EventPageSerializer,
        summary="The match's events (hidden information redacted while live)",
    )
    def get(self, request, match_id):
        match = _match_or_404(match_id)
        seat = selectors.viewer_seat(match=match, user=request.user)
        after = _int_param(request, "after", 0)
        # Paged by default: a whole long match in one answer was the cheapest way to load the server.
        limit = _int_param(request, "limit", EVENTS_PAGE, maximum=EVENTS_PAGE_MAX) or EVENTS_PAGE
        upto = after + limit  # seqs are contiguous: a page is (after, after + limit]
        events = selectors.match_events(match=match, seat=seat, after=after, upto=upto)
        return Response(
            {
                "head_seq": match.state_seq,
                "events": events,
                "next_after": events[-1]["seq"] if events and events[-1]["seq"] < match.state_seq else None,
            }
        )


class MatchLog(APIView):
    @extend_schema(
        parameters=[int_parameter("after", "Only events with a greater seq")],
        responses=responses.MatchLogSerializer,
        summary="Readable match log",
    )
    def get(self, request, match_id):
        match = _match_or_404(match_id)
        return Response({"log": selectors.match_log(match=match, after=_int_param(request, "after", 0))})


class MatchState(APIView):
    def get_throttles(self):
        # The current view is a row read; a past one is replayed (bounded by snapshots, still costly).
        if self.request.method == "GET" and self.request.query_params.get("at"):
            return with_expensive_throttle(self)
        return super().get_throttles()

    @extend_schema(
        parameters=[int_parameter("at", "The view after this seq (default: now)")],
        responses=responses.MatchStateSerializer,
        summary="What the caller may see of the game, now or after event N",
    )
    def get(self, request, match_id):
        match = _match_or_404(match_id)
        seat = selectors.viewer_seat(match=match, user=request.user)
        at = _int_param(request, "at", None)
        if at is None or at >= match.state_seq:
            return Response({"seq": match.state_seq, "view": selectors.match_view(match=match, seat=seat)})
        return Response({"seq": at, "view": selectors.match_state_at(match=match, seat=seat, at=at)})


class MatchLegal(APIView):
    @extend_schema(
        parameters=[int_parameter("seat", "Default: the caller's seat (required if you hold none)")],
        responses={
            200: responses.MatchLegalSerializer,
            403: OpenApiResponse(description="permission_denied: another seat's actions while the match is live."),
        },
        summary="The legal actions of a seat now",
    )
    def get(self, request, match_id):
        match = _match_or_404(match_id)
        own = selectors.viewer_seat(match=match, user=request.user)
        seat = _int_param(request, "seat", own)
        if seat is None:
            raise ValidationError({"seat": ["Say which seat (you hold none in this match)."]})
        if seat != own and match.status != Match.Status.FINISHED:
            # Legal actions can reveal a hand, so only the seat's holder may ask while live.
            raise PermissionDenied(f"Seat {seat} is not yours.")
        engine = selectors.engine_for(match)
        to_move = engine.to_move(match.state)
        actions = engine.legal_actions(match.state, seat) if seat in to_move else []
        return Response({"seat": seat, "head_seq": match.state_seq, "to_move": seat in to_move, "actions": actions})


class MatchActions(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=CommandSerializer,
        responses={201: responses.MatchCommandResultSerializer, 200: responses.MatchCommandResultSerializer},
        summary="Act for your seat (or record a tabletop chance outcome)",
        description=(
            "Send the seq your move was based on as expected_seq; if the stream has moved on, "
            "the answer is 409 stale_seq and nothing is written. Send an event_id (UUID) to make "
            "retries safe: the same id again returns the stored event (200) instead of a duplicate. "
            "A tabletop outcome is entered only by a seat that may see it (403 outcome_not_yours) and "
            "is still in the game (409 seat_out_of_game: a seat that left, or that the rules put out)."
        ),
    )
    def post(self, request, match_id):
        serializer = CommandSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        common = dict(
            match_id=match_id,
            user=request.user,
            seat=data["seat"],
            expected_seq=data["expected_seq"],
            event_id=data.get("event_id"),
        )
        if "action" in data:
            outcome = services.match_act(action=data["action"], **common)
        else:
            outcome = services.match_record_chance(outcome=data["chance"], **common)
        # The match as the command left it (its head and status as committed, or a retry's as read
        # under its lock) answers: no second read, so also no database gone since the commit can
        # turn a committed move into a 503 the client would take for "not written".
        match = outcome.match
        seat = data["seat"]
        return Response(
            {
                "created": outcome.created,
                "head_seq": match.state_seq,
                "events": [selectors.event_public(match=match, event=e, seat=seat) for e in outcome.events],
                "status": match.status,
            },
            status=status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK,
        )


class MatchTimeout(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=TimeoutClaimSerializer,
        responses={201: responses.MatchSummarySerializer, 200: responses.MatchSummarySerializer},
        summary="Claim a win on time: ends the match if a running clock is out",
        description="Anyone signed in may claim; the server checks the clocks against the recorded times "
        "(409 time_not_up otherwise). The seat whose time ran out loses on time; in a game of three or more "
        "whose engine plays on, while two other seats still play, it leaves the game instead (its seat's "
        "`left` is 'timeout') and the others play on: the match stays live.",
    )
    def post(self, request, match_id):
        return _match_ending(request, match_id, TimeoutClaimSerializer, services.match_claim_timeout)


def _match_ending(request, match_id, serializer_class, command) -> Response:
    """A command that ends the match off the board (a claim on time, a resignation), or takes a
    seat out of a game the others play on (the ruling "Leaving"): the match's
    summary as the caller sees it, 201 when this call ended it, 200 for a retry of the same event_id."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    outcome = command(
        match_id=match_id,
        user=request.user,
        expected_seq=serializer.validated_data["expected_seq"],
        event_id=serializer.validated_data["event_id"],
    )
    match = selectors.match_get(match_id=outcome.match.id)
    seat = selectors.viewer_seat(match=match, user=request.user)
    return Response(
        selectors.match_summary(match=match, seat=seat),
        status=status.HTTP_201_CREATED if outcome.created else status.HTTP_200_OK,
    )


class MatchResign(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=ResignSerializer,
        responses={201: responses.MatchSummarySerializer, 200: responses.MatchSummarySerializer},
        summary="Resign: concede the match for the seat you play",
        description="Only a person seated in the match (the seat's player or a partner) may resign, and only "
        "their own seat (403 not_your_seat otherwise); the match ends at once, that seat (in a game of sides, "
        "its side) losing as it would on time, with the result's reason 'resigned'; but in a game of three or "
        "more whose engine plays on, while two other seats still play, the seat leaves the game (its `left` "
        "is 'resigned', and it places below every seat still playing) and the others play on: the match "
        "stays live. A finished match is 409 "
        "match_finished, a draft of more than two coaches 409 draft_not_resignable (a coach resigning a "
        "two-coach draft forfeits it: no match is made from it, and a season fixture's goes to the other club "
        "as a walkover), a seat the rules have already put out of the game (a wizard knocked out, a caster "
        "retired) 409 seat_out_of_game; a refusal writes nothing. The same event_id again "
        "returns the match as the first resignation left it (200).",
    )
    def post(self, request, match_id):
        return _match_ending(request, match_id, ResignSerializer, services.match_resign)
