"""Ratings as a projection of verified results (Django side of league/ratings).

The order is the event store's: each match's closing event id, so a rebuild from scratch
replays results exactly as they were committed and gives identical numbers every time.

Two ways in, giving the same numbers (``tests/league/ratings/test_incremental.py``):

- ``ratings_apply(match_id=...)``, after each verdict: the one result folded into the stored
  current ratings of its players, one rating step and one write, whatever the history's length.
  A result older than the newest one already in (verdicts can arrive out of commit order) or a
  result withdrawn (a match found disputed on re-verification) rewinds the ratings to just
  before it, from the stored points, and replays only the results after it.
- ``ratings_rebuild(game=...)``, on demand (``manage.py ratings rebuild``) and in bulk: every
  verified result read in two queries, folded in memory, written with bulk inserts.

A game's ``RatingCheckpoint`` row is locked for the length of either, so two workers update
one game's ratings one after the other.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import transaction

from engines import registry
from matches.models import Event, Match

from .glicko2 import Glicko2Rating
from .ledger import HistoryPoint, RatedResult, is_duel, rate_one, rebuild
from .models import Rating, RatingCheckpoint, RatingPoint
from .multi import MultiRating


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
    fixture = match.origin.get("fixture_clubs")
    if fixture:
        return {0: (f"club:{fixture[0]}", fixture[0]), 1: (f"club:{fixture[1]}", fixture[1])}
    seats = list(match.seats.all())
    if any(s.bot for s in seats):
        return None
    return {s.index: (f"user:{s.user_id}", s.user.username) for s in seats}


def _rated_result(match: Match, sequence: int | None, labels: dict[str, str]) -> RatedResult | None:
    """The match as a rated result (its labels added to ``labels``), or None when it counts in no
    rating: not verified, unfinished, against a bot, or a team result of a Glicko-2 game."""
    if match.status != Match.Status.FINISHED or match.verdict != Match.Verdict.VERIFIED or sequence is None:
        return None
    if not match.result or match.result.get("unfinished"):
        # A game ended by a bound on turns has no winner and no loser: counted nowhere
        # (engines/wizard_dodgeball/RULES.md "Unfinished games").
        return None
    who = _competitors(match)
    if who is None:
        return None
    # Places best first; each place lists the sides (competitors) tied there.
    by_place: dict[int, list[str]] = {}
    found: dict[str, str] = {}
    for seat, place in enumerate(match.result["placements"]):
        key, found[key] = who[seat]
        if key not in by_place.get(place, []):
            by_place.setdefault(place, []).append(key)
    result = RatedResult(match.id, match.game, [by_place[p] for p in sorted(by_place)], sequence)
    if rating_system(match.game) == "glicko2" and not is_duel(result):
        # Glicko-2 rates one side of one against another; a team-variant result of a
        # Glicko-2 game is left out rather than moving the whole game to another scale.
        return None
    labels.update(found)
    return result


def _closing(matches) -> dict[str, int]:
    """Stream id -> the id of its ``match.finished`` event (the position in commit order)."""
    return dict(Event.objects.filter(type="match.finished", stream__match__in=matches).values_list("stream_id", "id"))


def rated_results(game: str, *, match_ids: Iterable[Any] | None = None) -> tuple[list[RatedResult], dict[str, str]]:
    """The game's verified results in commit order (or only those of ``match_ids``), and labels."""
    matches = Match.objects.filter(game=game, status=Match.Status.FINISHED, verdict=Match.Verdict.VERIFIED)
    if match_ids is not None:
        matches = matches.filter(pk__in=list(match_ids))
    matches = list(matches.prefetch_related("seats__user"))
    closing = _closing(matches)
    results, labels = [], {}
    for match in matches:
        result = _rated_result(match, closing.get(match.stream_id), labels)
        if result is not None:
            results.append(result)
    results.sort(key=lambda r: r.sequence)
    return results, labels


def _lock(game: str) -> RatingCheckpoint:
    """The game's checkpoint row, locked until the transaction ends (created at sequence 0)."""
    RatingCheckpoint.objects.get_or_create(game=game)
    return RatingCheckpoint.objects.select_for_update().get(game=game)


def ratings_rebuild(*, game: str) -> int:
    """Recompute a game's ratings from every verified result; returns how many were used."""
    with transaction.atomic():
        checkpoint = _lock(game)
        results, labels = rated_results(game)
        return _rebuild_from(game, results, labels, checkpoint)


def _sort_key(r) -> float:
    return r.conservative if hasattr(r, "conservative") else r.ordinal


def _rebuild_from(game: str, results: list[RatedResult], labels: dict[str, str], checkpoint) -> int:
    system = rating_system(game)
    ratings, history = rebuild(results, game, system=system)
    Rating.objects.filter(game=game).delete()
    RatingPoint.objects.filter(game=game).delete()
    Rating.objects.bulk_create([
        Rating(
            game=game, competitor=key, label=labels.get(key, key), system=system,
            rating=r.rating, deviation=r.deviation, volatility=getattr(r, "volatility", None),
            sort_key=_sort_key(r), matches=len(history[key]),
        )
        for key, r in sorted(ratings.items())
    ], batch_size=2000)
    RatingPoint.objects.bulk_create([
        RatingPoint(game=game, competitor=key, match_id=p.match_id, sequence=p.sequence,
                    rating=p.rating, deviation=p.deviation, volatility=p.volatility)
        for key, points in sorted(history.items()) for p in points
    ], batch_size=2000)
    checkpoint.sequence = results[-1].sequence if results else 0
    checkpoint.save(update_fields=["sequence"])
    return len(results)


def _stored_rating(system: str, rating: float, deviation: float, volatility: float | None):
    if system == "glicko2":
        return Glicko2Rating(rating, deviation, volatility)
    return MultiRating(rating, deviation)


def _fold(game: str, system: str, results: list[RatedResult], labels: dict[str, str]) -> None:
    """Fold ``results`` (commit order, all after everything stored) into the stored ratings:
    one read of their players' current ratings, one upsert, one insert of the new points."""
    players = sorted({p for r in results for place in r.placements for side in place
                      for p in (side if isinstance(side, (list, tuple)) else (side,))})
    stored = {row.competitor: row for row in Rating.objects.filter(game=game, competitor__in=players)}
    current = {key: _stored_rating(system, row.rating, row.deviation, row.volatility) for key, row in stored.items()}
    played = {key: row.matches for key, row in stored.items()}
    points = []
    for result in results:
        for player, new in rate_one(current, result, system).items():
            current[player] = new
            played[player] = played.get(player, 0) + 1
            points.append(RatingPoint(game=game, competitor=player, match_id=result.match_id,
                                      sequence=result.sequence, rating=new.rating, deviation=new.deviation,
                                      volatility=getattr(new, "volatility", None)))
    touched = sorted({p.competitor for p in points})
    Rating.objects.bulk_create(
        [Rating(game=game, competitor=key, label=labels.get(key) or getattr(stored.get(key), "label", key),
                system=system, rating=current[key].rating, deviation=current[key].deviation,
                volatility=getattr(current[key], "volatility", None), sort_key=_sort_key(current[key]),
                matches=played[key]) for key in touched],
        update_conflicts=True, unique_fields=["game", "competitor"],
        update_fields=["label", "system", "rating", "deviation", "volatility", "sort_key", "matches"],
    )
    RatingPoint.objects.bulk_create(points)


def _rewind(game: str, system: str, since: int) -> list[Any] | None:
    """Put the ratings back as they were before result ``since``; returns the match ids of the
    results taken out (to replay), or None when the stored points cannot say (then rebuild)."""
    later = list(RatingPoint.objects.filter(game=game, sequence__gte=since)
                 .values_list("competitor", "match_id", "sequence"))
    players = sorted({c for c, _, _ in later})
    before: dict[str, RatingPoint] = {}
    counts: dict[str, int] = {}
    for point in (RatingPoint.objects.filter(game=game, competitor__in=players, sequence__lt=since)
                  .order_by("competitor", "sequence")):
        before[point.competitor] = point
        counts[point.competitor] = counts.get(point.competitor, 0) + 1
    if system == "glicko2" and any(p.volatility is None for p in before.values()):
        return None  # points written before volatility was kept
    RatingPoint.objects.filter(game=game, sequence__gte=since).delete()
    Rating.objects.filter(game=game, competitor__in=[p for p in players if p not in before]).delete()
    for key, point in before.items():
        restored = _stored_rating(system, point.rating, point.deviation, point.volatility)
        Rating.objects.filter(game=game, competitor=key).update(
            rating=point.rating, deviation=point.deviation, volatility=point.volatility,
            sort_key=_sort_key(restored), matches=counts[key])
    return sorted({m for _, m, _ in later}, key=str)


def ratings_apply(*, match_id) -> bool:
    """Bring one match's verdict into its game's ratings (idempotent; after every verdict).
    Returns whether the ratings changed."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None:
        return False
    game, system = match.game, rating_system(match.game)
    if not system:
        return False
    with transaction.atomic():
        checkpoint = _lock(game)
        labels: dict[str, str] = {}
        sequence = Event.objects.filter(stream_id=match.stream_id, type="match.finished").values_list(
            "id", flat=True).first()
        result = _rated_result(match, sequence, labels)
        included = RatingPoint.objects.filter(game=game, match_id=match.id).values_list("sequence", flat=True).first()
        if (result is not None) == (included is not None):
            return False  # already in, or rightly out
        if result is not None and result.sequence > checkpoint.sequence:
            _fold(game, system, [result], labels)  # the usual case: the newest result
            checkpoint.sequence = result.sequence
            checkpoint.save(update_fields=["sequence"])
            return True
        # A result older than one already in, or one withdrawn: rewind and replay what follows.
        since = result.sequence if result is not None else included
        replay_ids = _rewind(game, system, since)
        if replay_ids is None:
            results, labels = rated_results(game)
            _rebuild_from(game, results, labels, checkpoint)
            return True
        replay, more = rated_results(game, match_ids=[*replay_ids, match.id])
        labels.update(more)
        if replay:
            _fold(game, system, replay, labels)
        last = RatingPoint.objects.filter(game=game).order_by("-sequence").values_list("sequence", flat=True).first()
        checkpoint.sequence = last or 0
        checkpoint.save(update_fields=["sequence"])
        return True


def ratings_refresh(*, game: str) -> bool:
    """Rebuild if a verified result is missing from the ratings, or a withdrawn one is still in
    (idempotent; a full scan, for the on-demand check, not for every verdict)."""
    if not rating_system(game):
        return False
    with transaction.atomic():
        checkpoint = _lock(game)
        results, labels = rated_results(game)
        wanted = sorted((str(r.match_id), r.sequence) for r in results)
        have = sorted({(str(m), s) for m, s in RatingPoint.objects.filter(game=game).values_list("match_id", "sequence")})
        if wanted == have and checkpoint.sequence == (results[-1].sequence if results else 0):
            return False
        _rebuild_from(game, results, labels, checkpoint)  # the results just read: no second scan
        return True


__all__ = ["HistoryPoint", "rated_games", "rated_results", "rating_system", "ratings_apply", "ratings_rebuild",
           "ratings_refresh"]
