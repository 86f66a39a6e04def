import uuid

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from engines import registry
from matches import selectors as match_selectors
from matches.eventstore import EventStoreError
from matches.invitations.models import Invitation
from matches.services import MatchError, SeatSpec

from .drafts import selectors
from .drafts.invitations import draft_open
from .drafts.models import Draft
from .forms import NewDraftForm
from .seasons import selectors as season_selectors
from .seasons import services as season_services
from .seasons.models import Club


def draft_list(request):
    form = None
    if request.user.is_authenticated:
        form = NewDraftForm(request.POST or None, user=request.user)
        if request.method == "POST" and form.is_valid():
            me, them = request.user, form.cleaned_data["opponent"]
            coaches = [me, them] if form.cleaned_data["first"] == "me" else [them, me]
            try:
                opened, _ = draft_open(
                    seats=[SeatSpec(user=c) for c in coaches],
                    created_by=request.user,
                    config={"format": form.cleaned_data["format"]},
                    clock_seconds=form.cleaned_data["clock_seconds"],
                )
            except MatchError as exc:
                form.add_error(None, exc.message)
            else:
                if isinstance(opened, Invitation):
                    # The other coach is seated only once they accept: wait on the invitation's page.
                    return redirect("invitation", invitation_id=opened.id)
                return redirect("draft-room", draft_id=opened.draft_match_id)
    drafts = list(
        Draft.objects.select_related("draft_match", "match").prefetch_related("draft_match__seats__user")[:50]
    )
    # A league fixture's draft is named by its clubs (bots or coaches); any other by its coaches.
    slugs = {s for d in drafts for s in (d.draft_match.origin or {}).get("fixture_clubs", [])}
    clubs = dict(Club.objects.filter(slug__in=slugs).values_list("slug", "name"))
    for d in drafts:
        seats = list(d.draft_match.seats.all())
        fixture_clubs = (d.draft_match.origin or {}).get("fixture_clubs") or []
        if len(fixture_clubs) == 2:
            d.title = " v ".join(clubs.get(s, s) for s in fixture_clubs)
            if all(not s.user_id for s in seats):
                d.title += " (bots)"
        elif all(not s.user_id for s in seats):
            d.title = " v ".join(["Bot"] + ["bot"] * (len(seats) - 1))
        else:
            d.title = " v ".join(s.label if s.user_id else "bot" for s in seats)
    return render(request, "league/draft_list.html", {"drafts": drafts, "form": form})


def draft_room(request, draft_id):
    draft = selectors.draft_get(draft_match_id=draft_id)
    if draft is None:
        raise Http404("No such draft.")
    match = draft.draft_match
    seat = match_selectors.viewer_seat(match=match, user=request.user)
    return render(
        request,
        "league/draft_room.html",
        {
            "draft": draft,
            "match": match,
            "seat": seat,
            "summary": match_selectors.match_summary(match=match, seat=seat),
        },
    )


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
    except (MatchError, EventStoreError) as exc:
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
