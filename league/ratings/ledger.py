"""Rebuild a game's ratings by replaying verified results in commit order. Pure Python.

Input: ``RatedResult`` records in the order the event store committed them (``sequence``
strictly increasing; a caller holding them in any other order sorts by ``sequence``
first). Results of other games are skipped, so the whole verified stream can be passed.

System, per game: Glicko-2 (``glicko2``, one rating period per result, see
``glicko2.py``) for two-sided games, OpenSkill Plackett-Luce (``openskill``) for three to
five players and for teams. The platform passes the system the game's engine declares;
``system=None`` (for callers without an engine) picks Glicko-2 when every result of the
game is one player against one player and OpenSkill otherwise.

Output: the final ratings by player, and each player's history, one ``HistoryPoint``
after every match they played (rating, deviation, match id, sequence) for rating charts.
Dicts are filled in order of first appearance. Nothing depends on the clock, hashing or
set order, so every rebuild gives bit-identical numbers.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from . import glicko2
from .multi import rate_match, sides_of

PlayerId = Hashable
SYSTEMS = ("glicko2", "openskill")


@dataclass(frozen=True)
class RatedResult:
    match_id: Any
    game: str
    #: Places best first, each a list of the sides tied there (see ``multi.py``).
    placements: Sequence[Sequence[Any]]
    #: Position in the event store's commit order.
    sequence: int


@dataclass(frozen=True)
class HistoryPoint:
    match_id: Any
    sequence: int
    rating: float
    deviation: float
    #: Glicko-2's volatility after the match (None under OpenSkill): what a rewind restores.
    volatility: float | None = None


def is_duel(result: RatedResult) -> bool:
    sides = sides_of(result.placements)
    return len(sides) == 2 and all(len(team) == 1 for team, _rank in sides)


def rebuild(
    results_in_commit_order: Iterable[RatedResult],
    game: str,
    *,
    system: str | None = None,
    tau: float = glicko2.DEFAULT_TAU,
) -> tuple[dict[PlayerId, Any], dict[PlayerId, list[HistoryPoint]]]:
    """Replay ``game``'s results; returns (ratings, history) as described above."""
    results = [r for r in results_in_commit_order if r.game == game]
    for before, after in zip(results, results[1:]):
        if not after.sequence > before.sequence:
            raise ValueError(
                f"Results must come in commit order: {after.match_id!r} (sequence {after.sequence})"
                f" after {before.match_id!r} (sequence {before.sequence})"
            )
    system = system_for(results, system)
    ratings: dict[PlayerId, Any] = {}
    history: dict[PlayerId, list[HistoryPoint]] = {}
    for result in results:
        for player, new in rate_one(ratings, result, system, tau=tau).items():
            ratings[player] = new
            history.setdefault(player, []).append(
                HistoryPoint(
                    result.match_id, result.sequence, new.rating, new.deviation, getattr(new, "volatility", None)
                )
            )
    return ratings, history


def system_for(results: Sequence[RatedResult], system: str | None) -> str:
    """``system``, checked; None picks Glicko-2 when every result is a duel, else OpenSkill."""
    if system is None:
        system = "glicko2" if all(is_duel(r) for r in results) else "openskill"
    if system not in SYSTEMS:
        raise ValueError(f"Unknown rating system {system!r}; choose from {SYSTEMS}")
    return system


def rate_one(
    ratings: dict[PlayerId, Any], result: RatedResult, system: str, *, tau: float = glicko2.DEFAULT_TAU
) -> dict[PlayerId, Any]:
    """One result's new ratings for its players, from ``ratings`` (players missing start at the
    default). The one step both ``rebuild`` and the incremental update (``projection.py``) take,
    so folding results one at a time from stored ratings gives the rebuild's numbers exactly."""
    if system == "glicko2":
        if not is_duel(result):
            raise ValueError(f"Glicko-2 rates one player against one: {result.match_id!r}")
        sides = sides_of(result.placements)
        (a,), rank_a = sides[0]
        (b,), rank_b = sides[1]
        score_a = 0.5 if rank_a == rank_b else (1.0 if rank_a < rank_b else 0.0)
        new_a, new_b = glicko2.rate_game(
            ratings.get(a, glicko2.Glicko2Rating()), ratings.get(b, glicko2.Glicko2Rating()), score_a, tau=tau
        )
        return {a: new_a, b: new_b}
    if system == "openskill":
        return rate_match(ratings, result.placements)
    raise ValueError(f"Unknown rating system {system!r}; choose from {SYSTEMS}")
