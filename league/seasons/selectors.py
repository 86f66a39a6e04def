"""Reads for leagues and seasons: fixtures by round, standings with the tie-break that
separated each club from the next, club pages and rating charts."""

from __future__ import annotations

from league.errors import LeagueError
from league.ratings.models import Rating, RatingPoint
from league.seasons.table import Result, standings

from .models import Club, Fixture, League, Season

TIEBREAK_TEXT = {
    "head_to_head": "head-to-head",
    "wizard_difference": "wizard difference",
    "wizards_remaining": "wizards remaining",
    "wins": "wins",
    "lot": "drawing of lots",
}


def season_get(*, league_slug: str, number: int) -> Season | None:
    return Season.objects.select_related("league").filter(league__slug=league_slug, number=number).first()


def season_divisions(*, season: Season) -> dict[str, list[str]]:
    """The season's divisions, top first ({} for one table). PostgreSQL's jsonb does not keep a
    dict's key order, so the order is read from ``division_order`` (kept beside it since it was
    found missing); an older season without it has its divisions in the order jsonb returns them."""
    divisions = season.config.get("divisions") or {}
    order = season.config.get("division_order") or list(divisions)
    return {name: list(divisions[name]) for name in order}


def season_results(*, season: Season) -> list[Result]:
    results = []
    for f in season.fixtures.select_related("home", "away", "walkover_winner"):
        if f.status == Fixture.Status.PLAYED:
            results.append(
                Result(
                    home=f.home.slug,
                    away=f.away.slug,
                    home_wizards_left=f.home_left,
                    away_wizards_left=f.away_left,
                    round=f.round,
                    match_id=f.key,
                )
            )
        elif f.status == Fixture.Status.WALKOVER:
            results.append(
                Result(
                    home=f.home.slug,
                    away=f.away.slug,
                    round=f.round,
                    match_id=f.key,
                    walkover_winner=f.walkover_winner.slug,
                )
            )
    return results


def season_standings(*, season: Season, division: str | None = None) -> list[dict]:
    config = season.config
    clubs = config["clubs"]
    if division is not None and config.get("divisions"):
        if division not in config["divisions"]:
            names = ", ".join(season_divisions(season=season))
            raise LeagueError(
                f"This season has no division called '{division}'; its divisions are {names}.",
                code="unknown_division",
                status=404,
            )
        clubs = config["divisions"][division]
    results = [r for r in season_results(season=season) if r.home in clubs and r.away in clubs]
    rows = standings(
        clubs,
        results,
        points=tuple(config["points"]),
        tiebreaks=tuple(config["tiebreaks"]),
        lot_seed=config["lot_seed"],
    )
    by_slug = {c.slug: c for c in Club.objects.filter(slug__in=clubs)}
    out = []
    for row in rows:
        club = by_slug[row.club]
        out.append(
            {
                "position": row.position,
                "club": row.club,
                "name": club.name,
                "colours": club.colours,
                "played": row.played,
                "won": row.won,
                "drawn": row.drawn,
                "lost": row.lost,
                "points": int(row.points) if float(row.points).is_integer() else float(row.points),
                "wizard_difference": row.wizard_difference,
                "wizards_remaining": row.wizards_remaining,
                "form": row.form,
                "tiebreak": row.tiebreak,
                "tiebreak_text": (
                    f"ahead of the next club on {TIEBREAK_TEXT.get(row.tiebreak, row.tiebreak)}"
                    if row.tiebreak
                    else None
                ),
            }
        )
    return out


def season_rounds(*, season: Season) -> list[dict]:
    rounds: dict[int, list[Fixture]] = {}
    for f in season.fixtures.select_related("home", "away", "walkover_winner"):
        rounds.setdefault(f.round, []).append(f)
    return [{"round": r, "date": fixtures[0].date, "fixtures": fixtures} for r, fixtures in sorted(rounds.items())]


def fixture_dict(f: Fixture) -> dict:
    return {
        "key": f.key,
        "round": f.round,
        "date": f.date.isoformat(),
        "division": f.division,
        "home": f.home.slug,
        "away": f.away.slug,
        "status": f.status,
        "home_left": f.home_left,
        "away_left": f.away_left,
        "walkover_winner": f.walkover_winner.slug if f.walkover_winner_id else None,
        "ruling": f.ruling or None,
        "draft": str(f.draft_id) if f.draft_id else None,
        "match": str(f.match_id) if f.match_id else None,
    }


def club_history(*, club: Club) -> dict:
    fixtures = (
        (Fixture.objects.filter(home=club) | Fixture.objects.filter(away=club))
        .select_related("home", "away", "season", "match")
        .order_by("season__number", "round")
    )
    results, squads = [], []
    for f in fixtures:
        if f.status not in (Fixture.Status.PLAYED, Fixture.Status.WALKOVER):
            continue
        home = f.home_id == club.pk
        mine, theirs = (f.home_left, f.away_left) if home else (f.away_left, f.home_left)
        if f.status == Fixture.Status.WALKOVER:
            outcome = "W" if f.walkover_winner_id == club.pk else "L"
        else:
            outcome = "W" if mine > theirs else "L" if mine < theirs else "D"
        results.append(
            {
                "fixture": f,
                "opponent": f.away if home else f.home,
                "home": home,
                "mine": mine,
                "theirs": theirs,
                "outcome": outcome,
            }
        )
        if f.match is not None:
            team = f.match.config["teams"][0 if home else 1]
            squads.append({"fixture": f, "wizards": team["wizards"], "spells": team["spells"]})
    return {"results": results, "squads": squads}


def rating_chart(*, game: str, competitor: str) -> list[dict]:
    return [
        {
            "sequence": p.sequence,
            "rating": round(p.rating, 2),
            "deviation": round(p.deviation, 2),
            "match": str(p.match_id),
        }
        for p in RatingPoint.objects.filter(game=game, competitor=competitor).order_by("sequence")
    ]


def leaderboard(*, game: str, limit: int = 100) -> list[Rating]:
    return list(Rating.objects.filter(game=game).order_by("-sort_key", "competitor")[:limit])


def league_get(*, slug: str) -> League | None:
    return League.objects.filter(slug=slug).first()


def season_closing(*, season: Season) -> dict | None:
    """The season.closed fact (final tables and movements), if the season is closed."""
    from league import streams

    closed = next((e for e in streams.stream_events(stream_id=season.stream_id) if e.type == "season.closed"), None)
    return closed.data if closed else None
