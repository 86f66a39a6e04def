"""Reads for a player's page: ratings per game with their history, results, recent matches
with replays, tournaments and clubs. Reads only."""

from __future__ import annotations

from collections import defaultdict

from django.contrib.auth import get_user_model
from django.db.models import Count

from engines import registry
from league.ratings.models import Rating, RatingPoint
from league.seasons.models import Club
from league.tournaments.models import Tournament
from matches.models import Match, Seat

from .charts import rating_chart

#: Recent matches listed under each game.
RECENT_PER_GAME = 8
#: Rated matches drawn on each game's chart and listed under it: the latest ones. A player of
#: thousands of matches would otherwise get a page of thousands of points and rows.
HISTORY_SHOWN = 200
EMPTY_RECORD = {"won": 0, "drew": 0, "lost": 0, "unfinished": 0, "unverified": 0}
#: A draft's record: nobody wins a draft (its result places every coach first and names no
#: winner), so won, drawn and lost would say what never happened. What a coach wants to know is
#: whether it ran to its end and handed the teams on, or was given up, and by whom: a forfeited
#: draft makes no match (a season fixture's goes to the other club as a walkover, counted there).
EMPTY_DRAFT_RECORD = {"completed": 0, "forfeited": 0, "forfeited_by_another": 0, "unverified": 0}
#: How each way a draft ends reads in the recent list.
DRAFT_SAID = {"completed": "completed", "forfeited": "forfeited", "forfeited_by_another": "forfeited by another coach"}


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


def _said(seat: int, result: dict | None, *, draft: bool = False) -> str:
    result = result or {}
    if draft:
        return _drafted(seat, result)
    return "unfinished" if result.get("unfinished") else outcome(result.get("placements") or [], seat)


def _drafted(seat: int, result: dict) -> str:
    """How a finished draft ended for ``seat``: given up by a coach (resigned, or out of time on
    a match clock) or run to its end."""
    gave_up = result.get("resigned", result.get("timed_out"))
    if gave_up is None:
        return "completed"
    return "forfeited" if gave_up == seat else "forfeited_by_another"


def _is_draft(game: str) -> bool:
    try:
        return registry.get(game).draft
    except registry.UnknownEngine:
        return False


def player_profile(*, username: str) -> dict | None:
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        return None
    competitor = f"user:{user.pk}"
    current = {r.game: r for r in Rating.objects.filter(competitor=competitor)}
    # Per game the latest HISTORY_SHOWN points (newest first, turned round below) and how many
    # there are in all: two short reads a game through the competitor index, whatever its length.
    counts = dict(
        RatingPoint.objects.filter(competitor=competitor)
        .values_list("game")
        .annotate(n=Count("sequence"))
        .values_list("game", "n")
    )
    history: dict[str, list[tuple]] = {}
    for game in counts:
        latest = RatingPoint.objects.filter(competitor=competitor, game=game).order_by("-sequence")
        history[game] = list(latest.values_list("rating", "deviation", "match_id")[:HISTORY_SHOWN])[::-1]

    # The record counts every finished match, so it reads every seat, but only three columns:
    # never the match's state, which for a long game is far larger than the page.
    # Only verified results count as won, drawn or lost (as for ratings): a result still being
    # checked, or found disputed, is counted apart, not as a win it may not be.
    record: dict[str, dict[str, int]] = {}
    drafts: dict[str, bool] = {}
    finished = Seat.objects.filter(user=user, match__status=Match.Status.FINISHED)
    # A match once found disputed stays out for good, as in the ratings (``Match.disputed_at``).
    rows = finished.values_list("index", "match__game", "match__result", "match__verdict", "match__disputed_at")
    for index, game, result, verdict, disputed_at in rows.iterator():
        if game not in record:
            drafts[game] = _is_draft(game)
            record[game] = dict(EMPTY_DRAFT_RECORD if drafts[game] else EMPTY_RECORD)
        counted = verdict == Match.Verdict.VERIFIED and disputed_at is None
        record[game][_said(index, result, draft=drafts[game]) if counted else "unverified"] += 1
    recent: dict[str, list[tuple[dict, str]]] = {}
    for game in record:
        rows = (
            finished.filter(match__game=game)
            .order_by("-match__finished_at", "-match__created_at")
            .values_list("index", "match_id", "match__finished_at", "match__result", "match__verdict")[:RECENT_PER_GAME]
        )
        recent[game] = [
            ({"id": match_id, "finished_at": finished_at, "verdict": verdict}, _said(index, result, draft=drafts[game]))
            for index, match_id, finished_at, result, verdict in rows
        ]
    # Who each recent match was against, in one query.
    shown = [m["id"] for rows in recent.values() for m, _ in rows]
    others: dict = defaultdict(list)
    opposing = Seat.objects.filter(match_id__in=shown).exclude(user=user).select_related("user")
    for s in opposing.prefetch_related("partners").order_by("index"):
        others[s.match_id].append({"label": s.label, "username": s.user.username if s.user_id else None})

    games = []
    for game in sorted(set(current) | set(history) | set(record), key=lambda g: _title(g).lower()):
        points = history.get(game, [])
        total = counts.get(game, 0)
        first = total - len(points) + 1
        rating = current.get(game)
        games.append(
            {
                "game": game,
                "title": _title(game),
                "rating": rating,
                "rated": total,
                "history": [
                    {
                        "number": first + i,
                        "rating": round(r, 1),
                        "deviation": round(d, 1),
                        "match": match_id,
                    }
                    for i, (r, d, match_id) in enumerate(points)
                ],
                "chart": rating_chart([r for r, _, _ in points], first_number=first),
                "draft": drafts.get(game, False),
                "record": dict(record.get(game, EMPTY_RECORD)),
                "recent": [
                    {
                        "match": m,
                        "outcome": said,
                        "said": DRAFT_SAID[said] if drafts.get(game) else said,
                        "against": others.get(m["id"], []),
                    }
                    for m, said in recent.get(game, [])
                ],
            }
        )

    tournaments = [
        {"id": t.id, "name": t.name, "game": _title(t.game), "status": t.status}
        # Through the Entrant index (the players of each tournament's cached projection), not a
        # read of every tournament's JSON state.
        for t in Tournament.objects.filter(entrants__user=user).order_by("-created_at")[:20]
    ]
    clubs = list(Club.objects.filter(coaches=user).select_related("league").order_by("name"))
    return {"player": user, "games": games, "tournaments": tournaments, "clubs": clubs}
