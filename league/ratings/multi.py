"""OpenSkill (the ``openskill`` package, Plackett-Luce model) for games of three to five
players and for teams. Pure Python apart from that package.

A finish is given the way ``league.tournaments.brackets.placement_points`` takes one:
places best first, each place a list of the sides tied there. A side is a player id, or a
tuple/list of player ids for a team: ``[["ann"], ["bob", "cy"], ["dee"]]`` is Ann first,
Bob and Cy tied second, Dee last; ``[[("ann", "bob")], [("cy", "dee")]]`` is a team match.
Tied sides get the same rank, which the Plackett-Luce model treats as a draw among them.

Ratings are (mu, sigma) pairs with the package's defaults (25, 25/3); the leaderboard
value is the ordinal mu - 3 sigma. The model's additive dynamics (tau = 25/300) widen
sigma a little before every match, as the package does by default.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

PlayerId = Hashable
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0


@dataclass(frozen=True)
class MultiRating:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def rating(self) -> float:
        return self.mu

    @property
    def deviation(self) -> float:
        return self.sigma

    @property
    def ordinal(self) -> float:
        """mu - 3 sigma: the leaderboard's sort key."""
        return self.mu - 3.0 * self.sigma


def _model() -> PlackettLuce:
    return PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


def sides_of(placements: Sequence[Sequence[Any]]) -> list[tuple[tuple[PlayerId, ...], int]]:
    """Flatten a finish into (team as a tuple of players, rank from 0) in the order given."""
    sides = []
    seen: set = set()
    for rank, place in enumerate(placements):
        if isinstance(place, (str, bytes)) or not isinstance(place, Sequence) or not place:
            raise ValueError("Each place is a non-empty list of the sides tied there")
        for side in place:
            team = tuple(side) if isinstance(side, (list, tuple)) else (side,)
            if not team:
                raise ValueError("A team needs at least one player")
            for player in team:
                if player in seen:
                    raise ValueError(f"{player!r} appears twice in one match")
                seen.add(player)
            sides.append((team, rank))
    if len(sides) < 2:
        raise ValueError("A match needs at least two sides")
    return sides


def rate_match(
    ratings: Mapping[PlayerId, MultiRating],
    placements: Sequence[Sequence[Any]],
    *,
    model: PlackettLuce | None = None,
) -> dict[PlayerId, MultiRating]:
    """New ratings for everyone in the match (players missing from ``ratings`` start at
    the default). Only the match's players are returned; ``ratings`` is not changed."""
    model = model or _model()
    sides = sides_of(placements)
    teams = []
    for team, _rank in sides:
        teams.append(
            [model.rating(mu=r.mu, sigma=r.sigma, name=str(p)) for p in team for r in [ratings.get(p, MultiRating())]]
        )
    ranks = [float(rank) for _team, rank in sides]
    rated = model.rate(teams, ranks=ranks)
    out: dict[PlayerId, MultiRating] = {}
    for (team, _rank), new_team in zip(sides, rated):
        for player, new in zip(team, new_team):
            out[player] = MultiRating(float(new.mu), float(new.sigma))
    return out
