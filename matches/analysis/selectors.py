"""Reads of the analysis app: a match's analysis as served, a player's luck, the fairness report,
a sandbox as its owner sees it. Never imports services."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db.models import Q

from engines import registry
from engines.base import CHANCE

from ..models import Event, Match, Seat
from . import fairness
from .models import MatchAnalysis, Sandbox

#: What the numbers mean, in plain words (shown on the pages and served by the API).
LUCK_EXPLAINED = (
    "Luck counts what the dice and cards did for a side against what it could expect. Before every roll "
    "or draw the engine works out, exactly, how likely each result that mattered was (a hit, a dodge, "
    "the card that was needed). A result that helped a side and had a chance p adds 1 − p to its luck "
    "when it happens (a long shot that comes off adds nearly 1) and takes p away when it does not (a sure "
    "thing that fails costs nearly 1). Over a match the sum is what went that side's way minus what it "
    "could expect: around zero on average, above zero for the lucky, below for the unlucky. It says "
    "nothing about skill: a side that plays well makes its own chances better, and a side that risks "
    "more sees bigger swings either way."
)

FAIRNESS_EXPLAINED = (
    "Every die face and every card position should come up as often as the exact uniform odds say. "
    "For each kind of die (by its range of faces) and for the position of drawn cards in their pool, "
    "the table sets the count seen against the count expected, and Pearson's chi-square test gives a "
    "p-value: the chance that fair dice would look at least this far off. A small p-value is a reason "
    "to look closer, not proof: with many groups, one in a thousand honest groups falls below 0.001 by "
    "chance alone. Groups with too few rolls to judge (an expected count under five) are marked so."
)


def analysis_get(*, match: Match) -> MatchAnalysis | None:
    return MatchAnalysis.objects.filter(match=match).first()


def _seat_labels(match: Match) -> list[dict[str, Any]]:
    return [{"seat": s.index, "label": s.label} for s in match.seats.all()]


def analysis_public(*, match: Match, analysis: MatchAnalysis) -> dict[str, Any]:
    return {
        "match": str(match.id),
        "game": match.game,
        "engine_version": match.engine_version,
        "verdict": match.verdict,
        "seats": _seat_labels(match),
        "computed_at": analysis.computed_at.isoformat(),
        "explained": LUCK_EXPLAINED,
        **{
            k: v
            for k, v in analysis.data.items()
            if k in ("analysis_version", "odds_fingerprint", "chance_events", "luck")
        },
    }


def player_matches(*, user, verified_only: bool = True):
    """The finished matches where ``user`` held a seat (on their own or as a partner)."""
    qs = (
        Match.objects.filter(status=Match.Status.FINISHED)
        .filter(Q(seats__user=user) | Q(seats__partners=user))
        .distinct()
    )
    if verified_only:
        qs = qs.filter(verdict=Match.Verdict.VERIFIED)
    return qs


def player_luck(*, user, recent: int = 20) -> dict[str, Any]:
    """A player's luck summed over their verified matches that have an analysis."""
    matches = player_matches(user=user)
    seats = {
        s.match_id: s.index for s in Seat.objects.filter(match__in=matches).filter(Q(user=user) | Q(partners=user))
    }
    analyses = (
        MatchAnalysis.objects.filter(match_id__in=list(seats))
        .select_related("match")
        # Not every event's odds (data) nor the match's state: only the per-seat totals are summed here.
        .only("match_id", "luck", "match__game", "match__finished_at")
        .order_by("match__finished_at")
    )
    total, rows, by_game = 0.0, [], {}
    for a in analyses:
        seat = seats[a.match_id]
        value = a.luck[seat] if seat < len(a.luck) else 0.0
        total += value
        game = by_game.setdefault(a.match.game, {"game": a.match.game, "matches": 0, "luck": 0.0})
        game["matches"] += 1
        game["luck"] = round(game["luck"] + value, 6)
        rows.append(
            {
                "match": str(a.match_id),
                "game": a.match.game,
                "seat": seat,
                "luck": round(value, 6),
                "finished_at": a.match.finished_at.isoformat() if a.match.finished_at else None,
            }
        )
    return {
        "username": user.username,
        "verified_matches": len(seats),
        "analysed": len(rows),
        "luck": round(total, 6),
        "luck_per_match": round(total / len(rows), 6) if rows else None,
        "by_game": sorted(by_game.values(), key=lambda g: g["game"]),
        "recent": rows[-recent:][::-1],
        "explained": LUCK_EXPLAINED,
    }


def _fairness_matches(*, user=None, mode: str):
    """The finished matches in ``mode`` (of ``user``'s): a live match's outcomes are never counted."""
    matches = Match.objects.filter(status=Match.Status.FINISHED, mode=mode)
    if user is not None:
        matches = matches.filter(pk__in=player_matches(user=user, verified_only=False).values("pk"))
    return matches


def fairness_chance_events(*, user=None, mode: str = Match.Mode.SERVER):
    """(spec, outcome) of every chance event of the finished matches in ``mode`` (of ``user``'s)."""
    matches = _fairness_matches(user=user, mode=mode)
    rows = Event.objects.filter(type="chance", stream__match__in=matches).values_list("data", flat=True)
    for data in rows.iterator(chunk_size=2000):
        yield data.get("spec") or {}, data.get("outcome")


#: The platform's report reads every chance event: the page and the API reuse it for this long.
PLATFORM_CACHE_SECONDS = 60


def fairness_report(*, user=None, mode: str = Match.Mode.SERVER) -> dict[str, Any]:
    if user is None:
        return cache.get_or_set(
            f"analysis:fairness:platform:{mode}", lambda: _fairness_report(user=None, mode=mode), PLATFORM_CACHE_SECONDS
        )
    return _fairness_report(user=user, mode=mode)


def _fairness_report(*, user, mode: str) -> dict[str, Any]:
    report = fairness.report(fairness.tally_events(fairness_chance_events(user=user, mode=mode)))
    return {
        "scope": user.username if user is not None else "platform",
        "mode": mode,
        "matches": _fairness_matches(user=user, mode=mode).count(),
        "explained": FAIRNESS_EXPLAINED,
        **report,
    }


# -- sandboxes -------------------------------------------------------------------


def sandbox_get(*, sandbox_id, owner) -> Sandbox | None:
    """The sandbox if ``owner`` owns it and it has not expired; None otherwise (alike)."""
    from django.utils import timezone

    if owner is None or not owner.is_authenticated:
        return None
    try:
        return Sandbox.objects.filter(pk=sandbox_id, owner=owner, expires_at__gt=timezone.now()).first()
    except (ValueError, TypeError):
        return None


def sandbox_public(*, sandbox: Sandbox) -> dict[str, Any]:
    engine = registry.get(sandbox.game, sandbox.engine_version)
    state = sandbox.state
    to_move = engine.to_move(state)
    spec = engine.chance(state) if to_move == [CHANCE] else None
    hand = [s for s in to_move if s != CHANCE and s not in sandbox.bot_seats]
    # Branched just before a chance event: what came in the match, to set the re-rolls against.
    original = (sandbox.steps[0] if sandbox.steps else {}).get("original")
    return {
        "id": str(sandbox.id),
        "match": str(sandbox.match_id),
        "game": sandbox.game,
        "branched_at": sandbox.branched_at,
        "expires_at": sandbox.expires_at.isoformat(),
        "bot_seats": sandbox.bot_seats,
        "seats": sandbox.seats,
        "to_move": ["chance" if s == CHANCE else s for s in to_move],
        "chance": spec,
        "original": original,
        # Every seat's view: a sandbox of a finished match hides nothing from its owner.
        "view": {**engine.view(state, None), "seat_views": [engine.view(state, s) for s in range(sandbox.seats)]},
        "legal": {str(s): engine.legal_actions(state, s) for s in hand},
        "result": engine.result(state) if not to_move else None,
        "steps": sandbox.steps,
    }
