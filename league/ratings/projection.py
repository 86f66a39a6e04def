"""Ratings as a projection of verified results (Django side of league/ratings).

The order is the event store's: each match's closing event id, so a rebuild from scratch
replays results exactly as they were committed and gives identical numbers every time.
"""

from __future__ import annotations

from django.db import transaction

from engines import registry
from matches.models import Event, Match

from .ledger import RatedResult, is_duel, rebuild
from .models import Rating, RatingCheckpoint, RatingPoint


def rated_games() -> list[str]:
    """Games whose engines declare a rating system (drafts have no winner to rate)."""
    return [engine.name for engine in registry.rated()]


def rating_system(game: str) -> str | None:
    """The system the game's engine declares: the results never switch it (issue 20)."""
    try:
        return registry.get(game).rating
    except registry.UnknownEngine:
        return None


def _competitors(match: Match) -> dict[int, tuple[str, str]] | None:
    """Seat -> (competitor key, label). League fixtures rate the clubs; other matches rate
    the people. A person's match against a bot is not rated."""
    seats = list(match.seats.all())
    fixture = match.origin.get("fixture_clubs")
    if fixture:
        return {0: (f"club:{fixture[0]}", fixture[0]), 1: (f"club:{fixture[1]}", fixture[1])}
    if any(s.bot for s in seats):
        return None
    return {s.index: (f"user:{s.user_id}", s.user.username) for s in seats}


def rated_results(game: str) -> tuple[list[RatedResult], dict[str, str]]:
    matches = (
        Match.objects.filter(game=game, status=Match.Status.FINISHED, verdict=Match.Verdict.VERIFIED)
        .prefetch_related("seats__user")
    )
    closing = dict(
        Event.objects.filter(type="match.finished", stream__match__in=matches).values_list("stream_id", "id")
    )
    results, labels = [], {}
    for match in matches:
        who = _competitors(match)
        if who is None or not match.result:
            continue
        if match.result.get("unfinished"):
            # A game ended by a bound on turns has no winner and no loser: counted nowhere
            # (engines/wizard_dodgeball/RULES.md "Unfinished games").
            continue
        # Places best first; each place lists the sides (competitors) tied there.
        by_place: dict[int, list[str]] = {}
        for seat, place in enumerate(match.result["placements"]):
            key, labels[key] = who[seat]
            if key not in by_place.get(place, []):
                by_place.setdefault(place, []).append(key)
        placements = [by_place[p] for p in sorted(by_place)]
        result = RatedResult(match.id, game, placements, closing[match.stream_id])
        if rating_system(game) == "glicko2" and not is_duel(result):
            # Glicko-2 rates one side of one against another; a team-variant result of a
            # Glicko-2 game is left out rather than moving the whole game to another scale.
            continue
        results.append(result)
    results.sort(key=lambda r: r.sequence)
    return results, labels


def ratings_rebuild(*, game: str) -> int:
    """Recompute a game's ratings from every verified result; returns how many were used."""
    return _rebuild_from(game, *rated_results(game))


def _rebuild_from(game: str, results: list[RatedResult], labels: dict[str, str]) -> int:
    system = rating_system(game)
    ratings, history = rebuild(results, game, system=system)
    with transaction.atomic():
        Rating.objects.filter(game=game).delete()
        RatingPoint.objects.filter(game=game).delete()
        Rating.objects.bulk_create([
            Rating(
                game=game, competitor=key, label=labels.get(key, key), system=system,
                rating=r.rating, deviation=r.deviation, volatility=getattr(r, "volatility", None),
                sort_key=r.conservative if hasattr(r, "conservative") else r.ordinal,
                matches=len(history[key]),
            )
            for key, r in sorted(ratings.items())
        ])
        RatingPoint.objects.bulk_create([
            RatingPoint(game=game, competitor=key, match_id=p.match_id, sequence=p.sequence,
                        rating=p.rating, deviation=p.deviation)
            for key, points in sorted(history.items()) for p in points
        ])
        RatingCheckpoint.objects.update_or_create(
            game=game, defaults={"sequence": results[-1].sequence if results else 0}
        )
    return len(results)


def ratings_refresh(*, game: str) -> bool:
    """Rebuild if a verified result is missing from the ratings (idempotent)."""
    if not rating_system(game):
        return False
    results, labels = rated_results(game)
    latest = results[-1].sequence if results else 0
    checkpoint = RatingCheckpoint.objects.filter(game=game).values_list("sequence", flat=True).first() or 0
    included = RatingPoint.objects.filter(game=game).values("match_id").distinct().count()
    if checkpoint == latest and included == len({r.match_id for r in results}):
        return False
    _rebuild_from(game, results, labels)  # the results just read: no second scan
    return True
