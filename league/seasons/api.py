"""API for leagues, seasons, fixtures, standings (JSON and CSV), clubs and ratings."""

from __future__ import annotations

import csv
import io

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.response import Response
from rest_framework.views import APIView

from league.seasons import responses, selectors, services
from league.seasons.models import Club, Fixture, League, Season
from league.spreadsheets import text_cell
from matches.api.views import int_param, int_parameter


def _season_or_404(slug: str, number: int) -> Season:
    season = selectors.season_get(league_slug=slug, number=number)
    if season is None:
        raise NotFound("No such season.")
    return season


def _league_or_404(slug: str) -> League:
    league = selectors.league_get(slug=slug)
    if league is None:
        raise NotFound("No such league.")
    return league


def _season_dict(season: Season) -> dict:
    return {
        "league": season.league.slug,
        "number": season.number,
        "stream": season.stream_id,
        "head_seq": season.projected_seq,
        "double": season.config["double"],
        "clubs": season.config["clubs"],
        "divisions": season.config.get("divisions"),
        "division_order": list(selectors.season_divisions(season=season)),
        "points": season.config["points"],
        "tiebreaks": season.config["tiebreaks"],
        "start_date": season.config["start_date"],
    }


class LeagueCreateSerializer(serializers.Serializer):
    slug = serializers.SlugField(max_length=50)
    name = serializers.CharField(max_length=120)
    game = serializers.CharField(max_length=64)
    points = serializers.ListField(
        child=serializers.IntegerField(min_value=-100, max_value=100), default=[3, 1, 0], max_length=3
    )
    tiebreaks = serializers.ListField(child=serializers.CharField(max_length=40), required=False, max_length=16)


class LeagueList(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(
        request=LeagueCreateSerializer,
        responses={201: responses.LeagueCreatedSerializer},
        summary="Start a league for any game (you become its organiser)",
    )
    def post(self, request):
        s = LeagueCreateSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        d = s.validated_data
        league = services.league_create(
            slug=d["slug"],
            name=d["name"],
            game=d["game"],
            created_by=request.user,
            points=d["points"],
            **({"tiebreaks": d["tiebreaks"]} if "tiebreaks" in d else {}),
        )
        return Response(
            {
                "slug": league.slug,
                "name": league.name,
                "game": league.game,
                "points": league.points,
                "tiebreaks": league.tiebreaks,
            },
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(responses=responses.LeagueListSerializer, summary="Leagues", operation_id="leagues_list")
    def get(self, request):
        return Response(
            {
                "results": [
                    {
                        "slug": lg.slug,
                        "name": lg.name,
                        "game": lg.game,
                        "clubs": lg.clubs.count(),
                        "seasons": list(lg.seasons.values_list("number", flat=True)),
                    }
                    for lg in League.objects.order_by("name")
                ]
            }
        )


class LeagueDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=responses.LeagueDetailSerializer, summary="A league, its clubs and seasons")
    def get(self, request, slug):
        league = _league_or_404(slug)
        return Response(
            {
                "slug": league.slug,
                "name": league.name,
                "game": league.game,
                "points": league.points,
                "tiebreaks": league.tiebreaks,
                "clubs": [
                    {"slug": c.slug, "name": c.name, "plane": c.plane, "colours": c.colours} for c in league.clubs.all()
                ],
                "seasons": [_season_dict(s) for s in league.seasons.all()],
            }
        )


class SeasonCreateSerializer(serializers.Serializer):
    start_date = serializers.DateField()
    double = serializers.BooleanField(default=True)
    clubs = serializers.ListField(
        child=serializers.SlugField(max_length=50), required=False, max_length=services.MAX_SEASON_CLUBS
    )
    divisions = serializers.DictField(
        child=serializers.ListField(child=serializers.SlugField(max_length=50), max_length=services.MAX_SEASON_CLUBS),
        required=False,
    )
    days_between_rounds = serializers.IntegerField(min_value=1, max_value=60, default=7)
    promote = serializers.IntegerField(min_value=0, max_value=6, default=2)
    relegate = serializers.IntegerField(min_value=0, max_value=6, default=2)
    playoff_spots = serializers.IntegerField(min_value=0, max_value=6, default=0)
    time_control = serializers.JSONField(
        required=False, default=dict, help_text="The clock of every fixture's match (see POST /api/matches/)."
    )
    event_id = serializers.UUIDField(
        required=False, help_text="A new UUID per season; resending the same create returns it (200)."
    )


class SeasonList(APIView):
    @extend_schema(
        request=SeasonCreateSerializer,
        responses={201: responses.SeasonSerializer, 200: responses.SeasonSerializer},
        summary="Schedule a new season (organisers)",
    )
    def post(self, request, slug):
        league = _league_or_404(slug)
        s = SeasonCreateSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        clubs = None
        if "clubs" in s.validated_data:
            found = {c.slug: c for c in league.clubs.filter(slug__in=s.validated_data["clubs"])}
            missing = [c for c in s.validated_data["clubs"] if c not in found]
            if missing:
                raise serializers.ValidationError({"clubs": [f"Not in this league: {', '.join(missing)}."]})
            clubs = [found[c] for c in s.validated_data["clubs"]]
        season, created = services.season_create_or_get(
            league=league,
            created_by=request.user,
            start_date=s.validated_data["start_date"],
            double=s.validated_data["double"],
            clubs=clubs,
            divisions=s.validated_data.get("divisions"),
            days_between_rounds=s.validated_data["days_between_rounds"],
            movements={k: s.validated_data[k] for k in ("promote", "relegate", "playoff_spots")},
            time_control=s.validated_data["time_control"],
            event_id=s.validated_data.get("event_id"),
        )
        return Response(_season_dict(season), status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class SeasonDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=responses.SeasonSerializer, summary="A season's settings and stream head")
    def get(self, request, slug, number):
        return Response(_season_dict(_season_or_404(slug, number)))


class SeasonFixtures(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses=responses.FixtureListSerializer,
        summary="Fixtures and results by round",
        parameters=[int_parameter("round", "Only this round")],
    )
    def get(self, request, slug, number):
        season = _season_or_404(slug, number)
        fixtures = season.fixtures.select_related("home", "away", "walkover_winner")
        round_number = int_param(request, "round", None)
        if round_number is not None:
            fixtures = fixtures.filter(round=round_number)
        return Response({"fixtures": [selectors.fixture_dict(f) for f in fixtures]})


STANDINGS_COLUMNS = [
    "position",
    "club",
    "name",
    "played",
    "won",
    "drawn",
    "lost",
    "points",
    "wizard_difference",
    "wizards_remaining",
    "form",
    "tiebreak",
]

#: The columns whose text someone chose (the club's slug and name): cells a spreadsheet must not run.
STANDINGS_TEXT_COLUMNS = ("club", "name")


class SeasonStandings(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses={
            (200, "application/json"): responses.SeasonStandingsSerializer,
            (200, "text/csv"): OpenApiTypes.STR,
        },
        summary="Standings; each row names the tie-break that put it above the next (?export=csv)",
    )
    def get(self, request, slug, number):
        season = _season_or_404(slug, number)
        division = request.query_params.get("division")
        rows = selectors.season_standings(season=season, division=division)
        if request.query_params.get("export") == "csv":
            out = io.StringIO()
            writer = csv.DictWriter(out, fieldnames=STANDINGS_COLUMNS, extrasaction="ignore")
            writer.writeheader()
            writer.writerows({**row, **{k: text_cell(row[k]) for k in STANDINGS_TEXT_COLUMNS}} for row in rows)
            response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
            response["Content-Disposition"] = f'attachment; filename="{slug}-season-{number}-standings.csv"'
            return response
        return Response({"season": _season_dict(season), "standings": rows})


class FixtureCommandSerializer(serializers.Serializer):
    """A fixture command's guards: every one appends to the season's stream, based on the head the
    organiser (or coach) saw, and retried safely (a second walkover sent at the same head is a 409,
    a retry of the same one a no-op). Each command's subclass names its ``action``."""

    expected_seq = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        help_text="The season stream's head seq the command is based on.",
    )
    event_id = serializers.UUIDField(help_text="A new UUID per command; resend it to retry.")


def _action(name: str):
    # The body names its command (the wire format predates one serializer per command).
    return serializers.ChoiceField(choices=[name], help_text=f"Always '{name}' for this command.")


class RulingReasonField(serializers.CharField):
    """A ruling's reason. A blank one is let through to the service, whose refusal (400
    reason_required) is the same for the API and the page; the schema states that rule
    (minLength 1), as for any text refused blank."""

    def run_validation(self, data=serializers.empty):
        if isinstance(data, str) and not data.strip():
            return ""
        return super().run_validation(data)


def _reason():
    # Optional to the serializer so that a missing reason, like a blank one, gets the service's own
    # refusal (400 reason_required).
    return RulingReasonField(
        required=False,
        max_length=500,
        help_text="Why the organiser rules so; shown to everyone. Every ruling needs one (400 reason_required).",
    )


class FixtureStartSerializer(FixtureCommandSerializer):
    """A coach starts the fixture: opens its draft (one, not two: hence the guards). Nothing else."""

    action = _action("start")


class FixturePostponeSerializer(FixtureCommandSerializer):
    """The organiser moves the fixture to another date."""

    action = _action("postpone")
    date = serializers.DateField(help_text="The fixture's new date.")
    reason = _reason()


class FixtureWalkoverSerializer(FixtureCommandSerializer):
    """The organiser awards the fixture to a club without a match."""

    action = _action("walkover")
    winner = serializers.SlugField(help_text="The club awarded the fixture.")
    reason = _reason()


class FixtureCorrectSerializer(FixtureCommandSerializer):
    """The organiser corrects a played fixture's result."""

    action = _action("correct")
    home_left = serializers.IntegerField(min_value=0, max_value=1000, help_text="Home wizards left standing.")
    away_left = serializers.IntegerField(min_value=0, max_value=1000, help_text="Away wizards left standing.")
    reason = _reason()


#: What each fixture command (the body's ``action``) takes.
FIXTURE_INPUT = {
    "postpone": FixturePostponeSerializer,
    "walkover": FixtureWalkoverSerializer,
    "correct": FixtureCorrectSerializer,
    "start": FixtureStartSerializer,
}


class FixtureActionNameSerializer(serializers.Serializer):
    """Reads only which command the body names, to pick that command's own serializer."""

    action = serializers.ChoiceField(choices=list(FIXTURE_INPUT))


def _walkover(fixture, user, d, guard):
    winner = Club.objects.filter(slug=d["winner"]).first()
    if winner is None:
        raise serializers.ValidationError({"winner": ["No such club."]})
    services.fixture_walkover(fixture=fixture, user=user, winner=winner, reason=d.get("reason", ""), **guard)


FIXTURE_COMMANDS = {
    "postpone": lambda fixture, user, d, guard: services.fixture_postpone(
        fixture=fixture, user=user, date=d["date"], reason=d.get("reason", ""), **guard
    ),
    "walkover": _walkover,
    "correct": lambda fixture, user, d, guard: services.result_correct(
        fixture=fixture,
        user=user,
        home_left=d["home_left"],
        away_left=d["away_left"],
        reason=d.get("reason", ""),
        **guard,
    ),
    "start": lambda fixture, user, d, guard: services.fixture_start(fixture=fixture, user=user, **guard),
}
assert set(FIXTURE_COMMANDS) == set(FIXTURE_INPUT)


class FixtureAction(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=PolymorphicProxySerializer(
            component_name="FixtureCommandBody", serializers=FIXTURE_INPUT, resource_type_field_name="action"
        ),
        responses=responses.FixtureSerializer,
        summary="Organiser: postpone {date}, walkover {winner}, correct {home_left, away_left} a result; "
        "coaches: start (opens the draft)",
    )
    def post(self, request, slug, number, key):
        season = _season_or_404(slug, number)
        fixture = season.fixtures.select_related("home", "away", "season__league").filter(key=key).first()
        if fixture is None:
            raise NotFound("No such fixture.")
        named = FixtureActionNameSerializer(data=request.data)
        named.is_valid(raise_exception=True)
        action = named.validated_data["action"]
        s = FIXTURE_INPUT[action](data=request.data)
        s.is_valid(raise_exception=True)
        d = s.validated_data
        guard = {"expected_seq": d["expected_seq"], "event_id": d["event_id"]}
        FIXTURE_COMMANDS[action](fixture, request.user, d, guard)
        fixture = Fixture.objects.select_related("home", "away", "walkover_winner").get(pk=fixture.pk)
        return Response(selectors.fixture_dict(fixture))


class ClubDetail(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=responses.ClubDetailSerializer, summary="A club: coaches, results, squads, rating history")
    def get(self, request, slug):
        club = Club.objects.select_related("league").filter(slug=slug).first()
        if club is None:
            raise NotFound("No such club.")
        history = selectors.club_history(club=club)
        return Response(
            {
                "slug": club.slug,
                "name": club.name,
                "plane": club.plane,
                "colours": club.colours,
                "league": club.league.slug,
                "coaches": [u.username for u in club.coaches.all()],
                "results": [
                    {
                        "fixture": r["fixture"].key,
                        "opponent": r["opponent"].slug,
                        "home": r["home"],
                        "wizards_left": r["mine"],
                        "opponent_left": r["theirs"],
                        "outcome": r["outcome"],
                    }
                    for r in history["results"]
                ],
                "squads": [
                    {"fixture": q["fixture"].key, "wizards": q["wizards"], "spells": q["spells"]}
                    for q in history["squads"]
                ],
                "rating_history": selectors.rating_chart(game=club.league.game, competitor=f"club:{club.slug}"),
            }
        )


class Leaderboard(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=responses.LeaderboardSerializer, summary="Ratings leaderboard for a game")
    def get(self, request, game):
        return Response(
            {
                "game": game,
                "ratings": [
                    {
                        "competitor": r.competitor,
                        "label": r.label,
                        "system": r.system,
                        "rating": round(r.rating, 2),
                        "deviation": round(r.deviation, 2),
                        "sort_key": round(r.sort_key, 2),
                        "matches": r.matches,
                    }
                    for r in selectors.leaderboard(game=game)
                ],
            }
        )


class SeasonCloseSerializer(serializers.Serializer):
    expected_seq = serializers.IntegerField(
        min_value=0, max_value=2**31 - 1, help_text="The season stream's head seq the close is based on."
    )
    event_id = serializers.UUIDField(help_text="A new UUID per command; resend it to retry.")


class SeasonClose(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=SeasonCloseSerializer,
        responses=responses.SeasonClosedSerializer,
        summary="Organiser: close a finished season (final tables, promotion and relegation)",
    )
    def post(self, request, slug, number):
        season = _season_or_404(slug, number)
        s = SeasonCloseSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        return Response(services.season_close(season=season, user=request.user, **s.validated_data))


class ClubCreateSerializer(serializers.Serializer):
    slug = serializers.SlugField(max_length=50)
    name = serializers.CharField(max_length=120)
    plane = serializers.CharField(required=False, default="", allow_blank=True, max_length=80)
    colours = serializers.ListField(
        child=serializers.RegexField(r"^#[0-9a-fA-F]{6}$"),
        min_length=2,
        max_length=2,
        required=False,
        default=["#5b3cc4", "#ffffff"],
    )


class LeagueClubs(APIView):
    @extend_schema(
        request=ClubCreateSerializer, responses={201: responses.ClubCreatedSerializer}, summary="Organiser: add a club"
    )
    def post(self, request, slug):
        league = _league_or_404(slug)
        s = ClubCreateSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        club = services.club_create(league=league, user=request.user, **s.validated_data)
        return Response({"slug": club.slug, "name": club.name}, status=status.HTTP_201_CREATED)


class CoachSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class ClubCoaches(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        request=CoachSerializer, responses=responses.ClubCoachesSerializer, summary="Organiser: name a club's coach"
    )
    def post(self, request, slug):
        from django.contrib.auth import get_user_model

        club = Club.objects.select_related("league").filter(slug=slug).first()
        if club is None:
            raise NotFound("No such club.")
        s = CoachSerializer(data=request.data)
        s.is_valid(raise_exception=True)
        coach = get_user_model().objects.filter(username=s.validated_data["username"]).first()
        if coach is None:
            raise serializers.ValidationError({"username": ["No such user."]})
        services.club_coach_add(club=club, user=request.user, coach=coach)
        return Response({"club": club.slug, "coaches": [u.username for u in club.coaches.all()]})
