"""Tournaments over HTTP. Refusals are ``{"code", "detail"}`` (matches/api/errors.py) and
write nothing; every command requires ``expected_seq`` (409 ``stale_seq`` when the tournament
moved on) and ``event_id`` (a retry returns the stored outcome); a create with an ``event_id``
already used for the same create returns the tournament it made (200)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from league.errors import LeagueError
from league.tournaments import selectors, services, timer_services
from league.tournaments.api import responses
from league.tournaments.api import serializers as commands
from league.tournaments.api.serializers import NAME_MAX
from league.tournaments.formats import registry as formats
from matches.api.views import int_param


class CreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    game = serializers.CharField(max_length=64)
    format = serializers.ChoiceField(choices=formats.names())
    options = serializers.DictField(required=False, default=dict)
    event_id = serializers.UUIDField(
        required=False, help_text="A new UUID per tournament; resending the same create returns it."
    )


def _tournament_or_404(tournament_id):
    t = selectors.tournament_get(tournament_id=tournament_id)
    if t is None:
        raise NotFound("No such tournament.")
    return t


def _target(request, data):
    name = data.get("user")
    if not name:
        return request.user
    user = get_user_model().objects.filter(username=name).first()
    if user is None:
        raise LeagueError(f"No user called {name}.", code="unknown_user", status=400)
    return user


def _outcome(request, outcome) -> Response:
    body = selectors.tournament_summary(tournament=outcome.tournament, user=request.user, state=outcome.state)
    body["created"] = outcome.created
    body["events"] = [{"seq": e.seq, "type": e.type, "event_id": str(e.event_id)} for e in outcome.events]
    return Response(body, status=status.HTTP_201_CREATED if outcome.created and outcome.events else status.HTTP_200_OK)


class TournamentList(APIView):
    @extend_schema(
        responses=responses.TournamentListSerializer,
        summary="Tournaments, newest first",
        operation_id="tournaments_list",
    )
    def get(self, request):
        return Response({"results": selectors.tournament_list()})

    @extend_schema(
        request=CreateSerializer,
        responses={201: responses.TournamentSerializer, 200: responses.TournamentSerializer},
        summary="Create a tournament (you become its organiser)",
    )
    def post(self, request):
        if not request.user.is_authenticated:
            raise LeagueError("Sign in to organise a tournament.", code="not_authenticated", status=401)
        s = CreateSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        t, created = services.tournament_create_or_get(
            created_by=request.user,
            name=s.validated_data["name"],
            game=s.validated_data["game"],
            format=s.validated_data["format"],
            options=s.validated_data["options"],
            event_id=s.validated_data.get("event_id"),
        )
        return Response(
            selectors.tournament_summary(tournament=t, user=request.user),
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class TournamentDetail(APIView):
    @extend_schema(
        responses=responses.TournamentSerializer,
        summary="A tournament: players, rounds, bracket, standings, your next match, head_seq; "
        "?player=<username> adds that player's page (next match, results, standing)",
    )
    def get(self, request, tournament_id):
        t = _tournament_or_404(tournament_id)
        player = None
        if len(request.query_params.get("player", "")) > NAME_MAX:
            raise NotFound("No such player in this tournament.")
        if request.query_params.get("player"):
            player = selectors.player_id_of(selectors.tournament_state(tournament=t), request.query_params["player"])
            if player is None:
                raise NotFound("No such player in this tournament.")
        return Response(selectors.tournament_summary(tournament=t, user=request.user, player=player))


def common(d):
    """Every command's guards (required by every command's serializer)."""
    return {"expected_seq": d.get("expected_seq"), "event_id": d.get("event_id")}


def _tournament_verbs():
    return {
        "register": lambda r, t, d: services.tournament_register(
            tournament=t, user=_target(r, d), by=r.user, club=d.get("club"), rating=d.get("rating"), **common(d)
        ),
        "withdraw": lambda r, t, d: services.tournament_withdraw(
            tournament=t, user=_target(r, d), by=r.user, **common(d)
        ),
        "check-in": lambda r, t, d: services.tournament_check_in(
            tournament=t, user=_target(r, d), by=r.user, **common(d)
        ),
        # The player's own confirmation of an entry the organiser made (naming another: refused).
        "confirm-entry": lambda r, t, d: services.tournament_confirm_entry(
            tournament=t, user=_target(r, d), by=r.user, **common(d)
        ),
        "check-in-undo": lambda r, t, d: services.tournament_check_in_undo(
            tournament=t, user=_target(r, d), by=r.user, reason=d.get("reason", ""), **common(d)
        ),
        "seed": lambda r, t, d: services.tournament_seed(
            tournament=t, by=r.user, method=d["method"], order=d.get("order"), **common(d)
        ),
        "start": lambda r, t, d: services.tournament_start(tournament=t, by=r.user, **common(d)),
        "pair": lambda r, t, d: services.tournament_pair_next(tournament=t, by=r.user, **common(d)),
        "drop": lambda r, t, d: services.tournament_drop(tournament=t, user=_target(r, d), by=r.user, **common(d)),
        "join-late": lambda r, t, d: services.tournament_join_late(
            tournament=t, user=_target(r, d), by=r.user, club=d.get("club"), **common(d)
        ),
        "configure": lambda r, t, d: services.tournament_configure(
            tournament=t, by=r.user, **{k: (d[k] or None) for k in CONFIGURABLE if k in d}, **common(d)
        ),
        "draft": lambda r, t, d: services.tournament_draft_open(
            tournament=t,
            by=r.user,
            order=d.get("pick_order", "snake"),
            clock_seconds=d.get("clock_seconds", 60),
            **common(d),
        ),
        # The organiser's round timer (league/tournaments/timer.py).
        "timer-start": lambda r, t, d: timer_services.tournament_timer_start(
            tournament=t, by=r.user, minutes=d.get("minutes"), **common(d)
        ),
        "timer-pause": lambda r, t, d: timer_services.tournament_timer_pause(tournament=t, by=r.user, **common(d)),
        "timer-resume": lambda r, t, d: timer_services.tournament_timer_resume(tournament=t, by=r.user, **common(d)),
        "timer-extend": lambda r, t, d: timer_services.tournament_timer_extend(
            tournament=t, by=r.user, minutes=d["minutes"], **common(d)
        ),
        # The organiser's day (services/edits.py).
        "swap": lambda r, t, d: services.tournament_pairing_swap(
            tournament=t, by=r.user, round=d["round"], players=d["players"], reason=d["reason"], **common(d)
        ),
        "set-bye": lambda r, t, d: services.tournament_bye_set(
            tournament=t, by=r.user, round=d["round"], player=d["player"], reason=d["reason"], **common(d)
        ),
        "repair": lambda r, t, d: services.tournament_round_repair(
            tournament=t, by=r.user, round=d["round"], reason=d["reason"], **common(d)
        ),
        "readmit": lambda r, t, d: services.tournament_readmit(
            tournament=t, user=_target(r, d), by=r.user, **common(d)
        ),
        "request-bye": lambda r, t, d: services.tournament_bye_request(
            tournament=t, user=_target(r, d), by=r.user, round=d["round"], **common(d)
        ),
    }


CONFIGURABLE = (
    "tiebreaks",
    "forbidden_pairs",
    "check_in_opens",
    "check_in_closes",
    "best_of",
    "match_points",
    "points_from",
    "requested_bye_points",
)


def _pairing_verbs():
    return {
        "report": lambda r, t, p, d: services.tournament_report(
            tournament=t, pairing=p, user=r.user, result=d["result"], **common(d)
        ),
        "confirm": lambda r, t, p, d: services.tournament_confirm(tournament=t, pairing=p, user=r.user, **common(d)),
        "dispute": lambda r, t, p, d: services.tournament_dispute(
            tournament=t, pairing=p, user=r.user, reason=d.get("reason", ""), **common(d)
        ),
        "rule": lambda r, t, p, d: services.tournament_rule(
            tournament=t, pairing=p, by=r.user, result=d["result"], reason=d.get("reason", ""), **common(d)
        ),
        "correct": lambda r, t, p, d: services.tournament_correct(
            tournament=t, pairing=p, by=r.user, result=d["result"], reason=d.get("reason", ""), **common(d)
        ),
        "no-show": lambda r, t, p, d: services.tournament_no_show(
            tournament=t, pairing=p, by=r.user, absent=d["absent"], **common(d)
        ),
        "match": lambda r, t, p, d: services.tournament_match_create(
            tournament=t, pairing=p, by=r.user, mode=d.get("mode", "server"), **common(d)
        ),
    }


TOURNAMENT_VERBS = _tournament_verbs()
PAIRING_VERBS = _pairing_verbs()

#: What each command takes (api/serializers.py).
TOURNAMENT_INPUT = {
    "register": commands.TournamentRegisterSerializer,
    "withdraw": commands.TournamentForUserSerializer,
    "check-in": commands.TournamentForUserSerializer,
    "confirm-entry": commands.TournamentForUserSerializer,
    "check-in-undo": commands.TournamentCheckInUndoSerializer,
    "seed": commands.TournamentSeedSerializer,
    "start": commands.TournamentCommandSerializer,
    "pair": commands.TournamentCommandSerializer,
    "drop": commands.TournamentForUserSerializer,
    "join-late": commands.TournamentJoinLateSerializer,
    "configure": commands.TournamentConfigureSerializer,
    "draft": commands.TournamentDraftSerializer,
    "timer-start": commands.TournamentTimerStartSerializer,
    "timer-pause": commands.TournamentCommandSerializer,
    "timer-resume": commands.TournamentCommandSerializer,
    "timer-extend": commands.TournamentTimerExtendSerializer,
    "swap": commands.TournamentSwapSerializer,
    "set-bye": commands.TournamentSetByeSerializer,
    "repair": commands.TournamentRepairSerializer,
    "readmit": commands.TournamentReadmitSerializer,
    "request-bye": commands.TournamentRequestByeSerializer,
}
PAIRING_INPUT = {
    "report": commands.TournamentReportSerializer,
    "confirm": commands.TournamentCommandSerializer,
    "dispute": commands.TournamentDisputeSerializer,
    "rule": commands.TournamentRulingSerializer,
    "correct": commands.TournamentRulingSerializer,
    "no-show": commands.TournamentNoShowSerializer,
    "match": commands.TournamentMatchSerializer,
}
assert set(TOURNAMENT_INPUT) == set(TOURNAMENT_VERBS) and set(PAIRING_INPUT) == set(PAIRING_VERBS)


#: A body for each verb, shown as the request's examples (the verb is in the path, so the schema's
#: "one of" cannot be tied to it by a discriminator; the description names each verb's body).
_GUARDS = {"expected_seq": 4, "event_id": "3f2b8c1e-5d7a-4c8e-9b1f-2a6d0e4c7b95"}
TOURNAMENT_EXAMPLES = {
    "register": {"club": "Hogsmeade", "rating": 1500},
    "withdraw": {},
    "check-in": {"user": "alice"},
    "confirm-entry": {},
    "check-in-undo": {"user": "alice", "reason": "Checked in the wrong player."},
    "seed": {"method": "manual", "order": ["alice", "bob", "carol"]},
    "start": {},
    "pair": {},
    "drop": {},
    "join-late": {"club": "Hogsmeade"},
    "configure": {"best_of": 3, "tiebreaks": ["buchholz", "sonneborn_berger"]},
    "draft": {"pick_order": "snake", "clock_seconds": 60},
    "timer-start": {"minutes": 50},
    "timer-pause": {},
    "timer-resume": {},
    "timer-extend": {"minutes": 5},
    "swap": {"round": 2, "players": ["alice", "bob"], "reason": "They are siblings."},
    "set-bye": {"round": 2, "player": "carol", "reason": "Arrived late."},
    "repair": {"round": 2, "reason": "A result was entered on the wrong board."},
    "readmit": {"user": "dave"},
    "request-bye": {"round": 3},
}
PAIRING_EXAMPLES = {
    "report": {"result": {"winner": "alice"}},
    "confirm": {},
    "dispute": {"reason": "The score sheet says otherwise."},
    "rule": {"result": {"draw": True}, "reason": "Both agreed a draw at the table."},
    "correct": {"result": {"winner": "bob"}, "reason": "The sheet was misread."},
    "no-show": {"absent": ["bob"]},
    "match": {"mode": "server"},
}
assert set(TOURNAMENT_EXAMPLES) == set(TOURNAMENT_INPUT) and set(PAIRING_EXAMPLES) == set(PAIRING_INPUT)


def _examples(bodies: dict) -> list[OpenApiExample]:
    return [
        OpenApiExample(verb, value={**_GUARDS, **body}, request_only=True, summary=f"{verb}: its body")
        for verb, body in bodies.items()
    ]


def _bodies_by_verb(table: dict) -> str:
    lines = [f"- `{verb}`: {serializer.__name__.removesuffix('Serializer')}" for verb, serializer in table.items()]
    return "The verb in the path picks the body (one of the schemas below; an example for each verb):\n\n" + (
        "\n".join(lines)
    )


def _one_of(name: str, table: dict) -> PolymorphicProxySerializer:
    """The schema's request body: one of the commands' own serializers (the verb in the path
    says which)."""
    unique = list(dict.fromkeys(table.values()))
    return PolymorphicProxySerializer(component_name=name, serializers=unique, resource_type_field_name=None)


class TournamentCommand(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=_one_of("TournamentCommandBody", TOURNAMENT_INPUT),
        parameters=[OpenApiParameter("verb", str, OpenApiParameter.PATH, enum=list(TOURNAMENT_VERBS))],
        examples=_examples(TOURNAMENT_EXAMPLES),
        responses={201: responses.TournamentOutcomeSerializer, 200: responses.TournamentOutcomeSerializer},
        operation_id="tournaments_command",
        description=_bodies_by_verb(TOURNAMENT_INPUT),
        summary="register | withdraw | check-in | seed {method, order} | start | pair | drop | join-late "
        "(organisers may name a {user}: check-in at the desk) | confirm-entry (the player: an entry the "
        "organiser made is theirs, and its emails are sent) | check-in-undo {user, reason} "
        "(organiser) | configure {tiebreaks, forbidden_pairs, check_in_opens, "
        "check_in_closes, best_of, match_points, points_from, requested_bye_points (before the start)} | draft {pick_order, clock_seconds} | timer-start {minutes} | timer-pause | "
        "timer-resume | timer-extend {minutes} (organiser: the round timer) | swap {round, players, reason} | "
        "set-bye {round, player, reason} | repair {round, reason} | readmit {user} (organiser: the current "
        "round's pairings, a dropped player) | request-bye {round, user}",
    )
    def post(self, request, tournament_id, verb):
        if verb not in TOURNAMENT_VERBS:
            raise NotFound(f"Unknown tournament command '{verb}'.")
        t = _tournament_or_404(tournament_id)
        s = TOURNAMENT_INPUT[verb](data=request.data)
        s.is_valid(raise_exception=True)
        return _outcome(request, TOURNAMENT_VERBS[verb](request, t, s.validated_data))


class PairingCommand(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=_one_of("PairingCommandBody", PAIRING_INPUT),
        parameters=[OpenApiParameter("verb", str, OpenApiParameter.PATH, enum=list(PAIRING_VERBS))],
        examples=_examples(PAIRING_EXAMPLES),
        responses={201: responses.TournamentOutcomeSerializer, 200: responses.TournamentOutcomeSerializer},
        operation_id="tournaments_pairings_command",
        description=_bodies_by_verb(PAIRING_INPUT),
        summary="report {result} | confirm | dispute {reason} | rule {result} | correct {result} | "
        "no-show {absent} | match {mode}",
    )
    def post(self, request, tournament_id, pairing_id, verb):
        if verb not in PAIRING_VERBS:
            raise NotFound(f"Unknown pairing command '{verb}'.")
        t = _tournament_or_404(tournament_id)
        s = PAIRING_INPUT[verb](data=request.data)
        s.is_valid(raise_exception=True)
        return _outcome(request, PAIRING_VERBS[verb](request, t, pairing_id, s.validated_data))


class TournamentStandings(APIView):
    @extend_schema(responses=responses.TournamentStandingsSerializer, summary="Standings with every tie-break column")
    def get(self, request, tournament_id):
        t = _tournament_or_404(tournament_id)
        summary = selectors.tournament_summary(tournament=t, user=request.user)
        return Response({"head_seq": summary["head_seq"], **summary["standings"]})


class TournamentStandingsCsv(APIView):
    @extend_schema(responses={(200, "text/csv"): OpenApiTypes.STR}, summary="Standings as CSV")
    def get(self, request, tournament_id):
        t = _tournament_or_404(tournament_id)
        response = HttpResponse(selectors.standings_csv(tournament=t), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="standings-{t.id}.csv"'
        return response


class TournamentTrf(APIView):
    @extend_schema(responses={(200, "text/plain"): OpenApiTypes.STR}, summary="Swiss report, FIDE TRF style")
    def get(self, request, tournament_id):
        t = _tournament_or_404(tournament_id)
        return HttpResponse(selectors.trf_report(tournament=t), content_type="text/plain; charset=utf-8")


class TournamentEvents(APIView):
    @extend_schema(
        responses=responses.TournamentEventListSerializer, summary="The tournament's events (the audit trail)"
    )
    def get(self, request, tournament_id):
        from league.streams import stream_events

        t = _tournament_or_404(tournament_id)
        after = int_param(request, "after", 0)
        return Response(
            {
                "events": [
                    {
                        "seq": e.seq,
                        "type": e.type,
                        "data": e.data,
                        "actor": e.actor,
                        "event_id": str(e.event_id),
                        "recorded_at": e.recorded_at.isoformat(),
                        "hash": e.hash,
                        "prev_hash": e.prev_hash,
                    }
                    for e in stream_events(stream_id=t.stream_id, after=after)
                ]
            }
        )
