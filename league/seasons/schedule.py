"""Season fixtures with dates, by the circle method. Pure Python.

The pairings come from ``league.tournaments.brackets.round_robin``: for 24 clubs, 23 rounds
(46 for a double round robin, whose second half mirrors the first with home and away
swapped), every club once per round, home and away counts within one (equal in a double).

Divisions are scheduled independently and in parallel: round r of every division is played
on the same date, so a larger division simply has more rounds and a smaller one finishes
earlier. Clubs in an odd-sized division have a bye in one round each; byes are not fixtures.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from league.tournaments.brackets import round_robin

ClubId = Hashable


@dataclass(frozen=True)
class Fixture:
    round: int
    date: dt.date
    home: ClubId
    away: ClubId
    division: Any = None


def season_schedule(
    clubs: Sequence[ClubId],
    *,
    double: bool = False,
    divisions: Mapping[Any, Sequence[ClubId]] | None = None,
    start_date: dt.date,
    days_between_rounds: int = 7,
) -> list[Fixture]:
    """Fixtures ordered by round, then division (in the order given), then board.

    ``divisions`` maps a division's name to its clubs; together they must be exactly
    ``clubs``. Round r is dated ``start_date + (r - 1) * days_between_rounds``. The order
    clubs are listed in decides the pairings, so a caller wanting a drawn schedule shuffles
    with its own seed first.
    """
    clubs = list(clubs)
    if len(set(clubs)) != len(clubs):
        raise ValueError("Club ids must be unique")
    if days_between_rounds < 0:
        raise ValueError("days_between_rounds cannot be negative")
    if divisions is None:
        groups: list[tuple[Any, list[ClubId]]] = [(None, clubs)]
    else:
        groups = [(name, list(members)) for name, members in divisions.items()]
        placed = [c for _name, members in groups for c in members]
        if len(placed) != len(set(placed)):
            raise ValueError("A club is in more than one division")
        if sorted(map(repr, placed)) != sorted(map(repr, clubs)) or set(placed) != set(clubs):
            raise ValueError("The divisions must hold exactly the league's clubs")

    per_division = [(name, round_robin(members, double=double)) for name, members in groups]
    total_rounds = max(len(rounds) for _name, rounds in per_division)
    fixtures = []
    for r in range(total_rounds):
        date = start_date + dt.timedelta(days=r * days_between_rounds)
        for name, rounds in per_division:
            if r < len(rounds):
                for f in rounds[r].fixtures:
                    fixtures.append(Fixture(r + 1, date, f.home, f.away, name))
    return fixtures
