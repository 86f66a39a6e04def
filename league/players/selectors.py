"""Reads for a player's page: ratings per game with their history, results, recent matches
with replays, tournaments and clubs. Reads only."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth import get_user_model

from engines import registry
from league.ratings.models import Rating, RatingPoint
from league.seasons.models import Club
from league.tournaments.models import Tournament
from matches.models import Match, Seat

from .charts import rating_chart

#: Recent matches listed under each game.
RECENT_PER_GAME = 8


def _title(game: str) -> str:
    try:
        return registry.get(game).title
    except registry.UnknownEngine:
        return game


def outcome(placements: list[int], seat: int) -> str:
    """ "won", "drew" or "lost" for one seat of a finished match's placements (1 = first,
    ties share a place); "unfinished" when the game ended without a result."""
    if not placements or seat >= len(placements):
        return "unfinished"
    best, mine = min(placements), placements[seat]
    if mine != best:
        return "lost"
    return "drew" if placements.count(best) > 1 else "won"


def player_profile(*, username: str) -> dict | None:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        return None
    competitor = f"user:{user.pk}"
    current = {r.game: r for r in Rating.objects.filter(competitor=competitor)}
    history: dict[str, list[RatingPoint]] = defaultdict(list)
    for p in RatingPoint.objects.filter(competitor=competitor).order_by("game", "sequence"):
        history[p.game].append(p)

    seats = (
        Seat.objects.filter(user=user, match__status=Match.Status.FINISHED)
        .select_related("match")
        .order_by("-match__finished_at", "-match__created_at")
    )
    record: dict[str, dict[str, int]] = defaultdict(lambda: {"won": 0, "drew": 0, "lost": 0, "unfinished": 0})
    recent: dict[str, list[tuple[Seat, str]]] = defaultdict(list)
    for seat in seats:
        m = seat.match
        result = m.result or {}
        said = "unfinished" if result.get("unfinished") else outcome(result.get("placements") or [], seat.index)
        record[m.game][said] += 1
        if len(recent[m.game]) < RECENT_PER_GAME:
            recent[m.game].append((seat, said))
    # Who each recent match was against, in one query.
    shown = [s.match_id for rows in recent.values() for s, _ in rows]
    others: dict = defaultdict(list)
    for s in Seat.objects.filter(match_id__in=shown).exclude(user=user).select_related("user").order_by("index"):
        others[s.match_id].append({"label": s.label, "username": s.user.username if s.user_id else None})

    games = []
    for game in sorted(set(current) | set(history) | set(record), key=lambda g: _title(g).lower()):
        points = history.get(game, [])
        rating = current.get(game)
        games.append(
            {
                "game": game,
                "title": _title(game),
                "rating": rating,
                "history": [
                    {
                        "number": i + 1,
                        "rating": round(p.rating, 1),
                        "deviation": round(p.deviation, 1),
                        "match": p.match_id,
                    }
                    for i, p in enumerate(points)
                ],
                "chart": rating_chart([p.rating for p in points]),
                "record": dict(record.get(game, {"won": 0, "drew": 0, "lost": 0, "unfinished": 0})),
                "recent": [
                    {
                        "match": s.match,
                        "outcome": said,
                        "against": others.get(s.match_id, []),
                    }
                    for s, said in recent.get(game, [])
                ],
            }
        )

    tournaments = [
        {"id": t.id, "name": t.name, "game": _title(t.game), "status": t.status}
        for t in Tournament.objects.filter(state__players__has_key=str(user.pk)).order_by("-created_at")[:20]
    ]
    clubs = list(Club.objects.filter(coaches=user).select_related("league").order_by("name"))
    return {"player": user, "games": games, "tournaments": tournaments, "clubs": clubs}
