import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from engines import registry
from matches.errors import Refusal
from matches.eventstore import EventStoreError

from .seasons import selectors as season_selectors
from .seasons import services as season_services
from .seasons.models import Club


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
        "league/league_home.html",
        {"league": league, "season": season, "table": table, "clubs": league.clubs.all()},
    )


def season_page(request, slug, number):
    season = season_selectors.season_get(league_slug=slug, number=number)
    if season is None:
        raise Http404("No such season.")
    divisions = list((season.config.get("divisions") or {}).keys())
    context = {
        "league": season.league,
        "season": season,
        "tables": [(name, season_selectors.season_standings(season=season, division=name)) for name in divisions]
        or [("", season_selectors.season_standings(season=season))],
    }
    if request.GET.get("partial") == "standings":
        return render(request, "league/_tables.html", context)
    context["rounds"] = season_selectors.season_rounds(season=season)
    context["closing"] = season_selectors.season_closing(season=season)
    context["my_clubs"] = (
        set(request.user.clubs.values_list("pk", flat=True)) if request.user.is_authenticated else set()
    )
    return render(request, "league/season.html", context)


def club_page(request, slug):
    club = Club.objects.select_related("league").filter(slug=slug).first()
    if club is None:
        raise Http404("No such club.")
    history = season_selectors.club_history(club=club)
    chart = _rating_chart_svg(season_selectors.rating_chart(game=club.league.game, competitor=f"club:{club.slug}"))
    return render(request, "league/club.html", {"club": club, "history": history, "chart": chart})


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
    return render(request, "league/leaderboard.html", {"game": game, "title": title, "ratings": ratings})


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
    try:
        # Based on the season's head as the page showed it (the form sends it), else as it is now:
        # two coaches pressing Start at once open one draft, the other is told the fixture started.
        started = season_services.fixture_start(
            fixture=fixture,
            user=request.user,
            expected_seq=_posted_seq(request, season.projected_seq),
            event_id=_posted_uuid(request),
        )
    except (Refusal, EventStoreError) as exc:  # the season's, its draft's or its match's refusal
        messages.error(request, exc.message)
        return redirect("season", slug=slug, number=number)
    if hasattr(started, "draft_match_id"):
        return redirect("draft-room", draft_id=started.draft_match_id)
    return redirect("match-live", match_id=started.id)


def _posted_seq(request, default: int) -> int:
    value = request.POST.get("expected_seq", "")
    return int(value) if value.isdigit() and len(value) < 11 else default


def _posted_uuid(request) -> uuid.UUID | None:
    try:
        return uuid.UUID(request.POST.get("event_id", ""))
    except ValueError:
        return None
