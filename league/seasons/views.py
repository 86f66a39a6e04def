"""Season pages: a league's home, a season (standings, rounds, starting a fixture), a club, a game's leaderboard."""

import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from engines import registry
from matches.errors import Refusal
from matches.eventstore import EventStoreError
from matches.forms import TIME_CONTROLS

from . import selectors as season_selectors
from . import services as season_services
from .forms import OUT, RULINGS, START_UNGUARDED, CloseForm, CoachForm, SeasonForm, StartForm, WalkoverForm
from .models import Club, Fixture


def _rating_chart_svg(points: list[dict], width: int = 640, height: int = 180) -> dict | None:
    """Coordinates for a rating line chart (drawn as SVG in the template)."""
    if not points:
        return None
    ratings = [p["rating"] for p in points]
    lo, hi = min(ratings), max(ratings)
    if hi - lo < 1:
        lo, hi = lo - 10, hi + 10
    pad = 24
    n = max(1, len(points) - 1)
    coords = [
        (pad + i * (width - 2 * pad) / n, height - pad - (p["rating"] - lo) * (height - 2 * pad) / (hi - lo))
        for i, p in enumerate(points)
    ]
    return {
        "width": width,
        "height": height,
        "polyline": " ".join(f"{x:.1f},{y:.1f}" for x, y in coords),
        "dots": [{"x": round(x, 1), "y": round(y, 1), "rating": p["rating"]} for (x, y), p in zip(coords, points)],
        "lo": round(lo),
        "hi": round(hi),
        "last": points[-1]["rating"],
    }


def league_home(request, slug):
    league = season_selectors.league_get(slug=slug)
    if league is None:
        raise Http404("No such league.")
    season = league.seasons.order_by("-number").first()
    table = season_selectors.season_standings(season=season) if season else []
    return render(
        request,
        "seasons/league_home.html",
        {
            "league": league,
            "season": season,
            "table": table,
            "clubs": league.clubs.all(),
            "organiser": _is_organiser(league, request.user),
        },
    )


def season_page(request, slug, number):
    season = season_selectors.season_get(league_slug=slug, number=number)
    if season is None:
        raise Http404("No such season.")
    divisions = list(season_selectors.season_divisions(season=season))
    context = {
        "league": season.league,
        "season": season,
        "tables": [(name, season_selectors.season_standings(season=season, division=name)) for name in divisions]
        or [("", season_selectors.season_standings(season=season))],
    }
    if request.GET.get("partial") == "standings":
        return render(request, "seasons/_tables.html", context)
    context["rounds"] = season_selectors.season_rounds(season=season)
    context["closing"] = _closing_in_names(season)
    context["organiser"] = _is_organiser(season.league, request.user)
    context["my_clubs"] = (
        set(request.user.clubs.values_list("pk", flat=True)) if request.user.is_authenticated else set()
    )
    return render(request, "seasons/season.html", context)


def _closing_in_names(season) -> dict | None:
    # The closed fact lists club slugs: the page names the clubs.
    closing = season_selectors.season_closing(season=season)
    if closing is None:
        return None
    names = dict(season.league.clubs.values_list("slug", "name"))
    moves = [
        {**m, **{k: [names.get(s, s) for s in m[k]] for k in ("promoted", "relegated", "playoff")}}
        for m in closing["movements"]
    ]
    return {**closing, "movements": moves}


def club_page(request, slug):
    club = Club.objects.select_related("league").filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    history = season_selectors.club_history(club=club)
    chart = _rating_chart_svg(season_selectors.rating_chart(game=club.league.game, competitor=f"club:{club.slug}"))
    return render(request, "seasons/club.html", {"club": club, "history": history, "chart": chart})


def leaderboard_page(request, game):
    ratings = season_selectors.leaderboard(game=game)
    # Clubs are rated as "club:<slug>": the table shows their names.
    slugs = [r.competitor[5:] for r in ratings if r.competitor.startswith("club:")]
    names = dict(Club.objects.filter(slug__in=slugs).values_list("slug", "name"))
    for r in ratings:
        r.name = names.get(r.competitor[5:], r.label) if r.competitor.startswith("club:") else r.label
    try:
        title = registry.get(game).title
    except registry.UnknownEngine:
        title = game
    return render(request, "seasons/leaderboard.html", {"game": game, "title": title, "ratings": ratings})


@require_POST
@login_required
def fixture_start_page(request, slug, number, key):
    """A coach (or organiser) starts a fixture from the season page: into the draft room."""
    season = season_selectors.season_get(league_slug=slug, number=number)
    fixture = (
        season.fixtures.select_related("home", "away", "season__league").filter(key=key).first() if season else None
    )
    if fixture is None:
        raise Http404("No such fixture.")
    form = StartForm(request.POST)
    if not form.is_valid():
        # Like every ruling's form: without the head the page showed, a press could start the
        # fixture at whatever the season has become since. Nothing is written.
        messages.error(request, START_UNGUARDED)
        return redirect("season", slug=slug, number=number)
    try:
        # Based on the season's head as the page showed it: two coaches pressing Start at once
        # open one draft, the other is told the fixture started.
        started = season_services.fixture_start(
            fixture=fixture,
            user=request.user,
            expected_seq=form.cleaned_data["expected_seq"],
            event_id=form.cleaned_data["event_id"],
        )
    except (Refusal, EventStoreError) as exc:  # the season's, its draft's or its match's refusal
        messages.error(request, exc.message)
        return redirect("season", slug=slug, number=number)
    if hasattr(started, "draft_match_id"):
        return redirect("draft-room", draft_id=started.draft_match_id)
    return redirect("match-live", match_id=started.id)


# The organiser's pages. Each write is a service call (the same ones the API makes) after the
# organiser check; a refusal is shown on the page as the service's sentence and writes nothing.


def _league_or_404(slug):
    league = season_selectors.league_get(slug=slug)
    if league is None:
        raise Http404("No such league.")
    return league


def _season_or_404(slug, number):
    season = season_selectors.season_get(league_slug=slug, number=number)
    if season is None:
        raise Http404("No such season.")
    return season


def _is_organiser(league, user) -> bool:
    try:
        season_services.check_organiser(league=league, user=user)
    except Refusal:
        return False
    return True


def _organiser_only(league, user) -> None:
    try:
        season_services.check_organiser(league=league, user=user)
    except Refusal as exc:
        raise PermissionDenied(exc.message) from None


def _fresh_guard(season) -> dict:
    # A refused or invalid form wrote nothing: the page shows the season as it is now, so the
    # next press is based on that head, with a new command id.
    season.refresh_from_db(fields=["projected_seq"])
    return {"expected_seq": season.projected_seq, "event_id": uuid.uuid4()}


def league_organise(request, slug):
    """The organiser's desk: the league's seasons and clubs, and each club's coaches."""
    league = _league_or_404(slug)
    _organiser_only(league, request.user)
    form, for_club = CoachForm(), None
    if request.method == "POST":
        for_club = league.clubs.filter(slug=request.POST.get("club", "")).first()
        form = CoachForm(request.POST)
        if for_club is None:
            form.add_error(None, "Choose one of the league's clubs.")
        elif form.is_valid():
            try:
                season_services.club_coach_add(club=for_club, user=request.user, coach=form.cleaned_data["username"])
            except Refusal as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, f"{form.cleaned_data['username'].username} now coaches {for_club.name}.")
                return redirect("league-organise", slug=slug)
    clubs = list(league.clubs.prefetch_related("coaches"))
    return render(
        request,
        "seasons/organise.html",
        {
            "league": league,
            "seasons": list(league.seasons.order_by("-number")),
            "clubs": clubs,
            "form": form,
            "for_club": for_club,
        },
    )


def season_new(request, slug):
    league = _league_or_404(slug)
    _organiser_only(league, request.user)
    clubs = list(league.clubs.order_by("name"))
    # After a closed season with divisions, the next one starts from its promotions and relegations.
    last = league.seasons.order_by("-number").first()
    placed = {}
    following = season_services.next_divisions(season=last) if last is not None else None
    if following:
        placed = {s: n for n, members in enumerate(following.values(), start=1) for s in members}
        placed.update({c.slug: OUT for c in clubs if c.slug not in placed})
    form = SeasonForm(request.POST or None, clubs=clubs, placed=placed)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            season, _ = season_services.season_create_or_get(
                league=league,
                created_by=request.user,
                start_date=d["start_date"],
                double=d["double"],
                clubs=d["clubs"],
                divisions=d["divisions"],
                days_between_rounds=d["days_between_rounds"],
                movements={k: d[k] for k in ("promote", "relegate", "playoff_spots")},
                time_control=TIME_CONTROLS[d["clock"] or ""][1],
                event_id=d["event_id"],
            )
        except (Refusal, EventStoreError) as exc:  # EventIdReused: a sent form changed and sent again
            form.refuse(exc)
        else:
            return redirect("season", slug=slug, number=season.number)
    return render(
        request,
        "seasons/season_new.html",
        {"league": league, "form": form, "event_id": uuid.uuid4(), "following": following, "last": last},
    )


def fixture_rule(request, slug, number, key):
    """Postpone, award a walkover or correct a result: each a form with its own confirmation."""
    season = _season_or_404(slug, number)
    _organiser_only(season.league, request.user)
    fixture = (
        season.fixtures.select_related("home", "away", "walkover_winner", "season__league").filter(key=key).first()
    )
    if fixture is None:
        raise Http404("No such fixture.")
    forms_ = {name: cls(fixture=fixture) if cls is WalkoverForm else cls() for name, cls in RULINGS.items()}
    action = request.POST.get("action") if request.method == "POST" else None
    if action is not None:
        if action not in RULINGS:
            raise Http404("No such ruling.")
        cls = RULINGS[action]
        form = cls(request.POST, fixture=fixture) if cls is WalkoverForm else cls(request.POST)
        forms_[action] = form
        if form.is_valid():
            d = form.cleaned_data
            guard = {"user": request.user, "expected_seq": d["expected_seq"], "event_id": d["event_id"]}
            try:
                if action == "postpone":
                    season_services.fixture_postpone(fixture=fixture, date=d["date"], reason=d["reason"], **guard)
                    done = f"Postponed to {d['date']:%-d %B %Y}."
                elif action == "walkover":
                    winner = fixture.home if d["winner"] == fixture.home.slug else fixture.away
                    season_services.fixture_walkover(fixture=fixture, winner=winner, reason=d["reason"], **guard)
                    done = f"Walkover awarded to {winner.name}."
                else:
                    season_services.result_correct(
                        fixture=fixture, home_left=d["home_left"], away_left=d["away_left"], reason=d["reason"], **guard
                    )
                    done = f"Result corrected to {d['home_left']}–{d['away_left']}."
            except (Refusal, EventStoreError) as exc:
                form.add_error(None, exc.message)
            else:
                messages.success(request, f"{fixture.home.name} v {fixture.away.name}: {done}")
                return redirect("season", slug=slug, number=number)
    return render(
        request,
        "seasons/fixture_rule.html",
        {
            "league": season.league,
            "season": season,
            "fixture": fixture,
            "forms": forms_,
            "guard": _fresh_guard(season),
            # A closed season's fixtures are final (services.SEASON_CLOSED): no ruling is offered.
            "closed": season_services.SEASON_CLOSED if season_selectors.season_closing(season=season) else "",
        },
    )


def season_close_page(request, slug, number):
    """Close a finished season: shows the tables and the movement rules, then asks to confirm."""
    season = _season_or_404(slug, number)
    _organiser_only(season.league, request.user)
    form = CloseForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season_services.season_close(
                season=season,
                user=request.user,
                expected_seq=form.cleaned_data["expected_seq"],
                event_id=form.cleaned_data["event_id"],
            )
        except (Refusal, EventStoreError) as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Season {season.number} is closed.")
            return redirect("season", slug=slug, number=number)
    divisions = list(season_selectors.season_divisions(season=season))
    return render(
        request,
        "seasons/season_close.html",
        {
            "league": season.league,
            "season": season,
            "form": form,
            "closing": season_selectors.season_closing(season=season),
            "open_fixtures": season.fixtures.exclude(
                status__in=[Fixture.Status.PLAYED, Fixture.Status.WALKOVER]
            ).count(),
            "movements": season.config.get("movements", {}),
            "tables": [(n, season_selectors.season_standings(season=season, division=n)) for n in divisions]
            or [("", season_selectors.season_standings(season=season))],
            "guard": _fresh_guard(season),
        },
    )
