"""League standings from verified results. Pure Python, exact integer arithmetic.

Results
-------
A ``Result`` is one fixture as the event store verified it: ``home``, ``away`` and the
wizards each side still had on court at the end (``home_wizards_left``,
``away_wizards_left``). The side with more wizards left won; equal counts are a draw. A
game played out leaves the loser with none. Other counts come from the organiser's
corrections and from games of the Wizard Dodgeball engine's version 1, whose stalling
ruling gave the game to the side with more wizards on court, a draw when level.

``postponed=True`` results are ignored entirely (not played, no points, no form).
``unfinished=True`` results are ignored the same way: a game ended by a bound on turns has
no winner and counts nowhere (engines/wizard_dodgeball/RULES.md "Unfinished games"); the
fixture stays open for the organiser.
``walkover_winner=<club>`` is the organiser's ruling on a forfeit: that club wins, and both
sides are credited with the league's ``walkover_score`` (winner's wizards left, loser's),
whatever numbers the result carries. The default, 3-0, follows football's awarded 3-0: a
clear margin that is not the maximal 5-0, so a walkover never counts for more on wizard
difference than the best real win.

Columns
-------
``wizards_remaining``   sum of the club's own survivors over its matches.
``wizards_conceded``    sum of its opponents' survivors over its matches.
``wizard_difference``   the IWDL's goal difference, "survivors minus losses over the
                        season". Read like goals: a club "scores" by eliminating opposing
                        wizards and "concedes" by losing its own. With squads of N,
                        (opponents eliminated) - (own eliminated) = (N - opp) - (N - own)
                        = own survivors - opponent survivors, so the difference is
                        ``wizards_remaining - wizards_conceded``, independent of N and
                        zero-sum over the league, as goal difference is. In a played-out
                        match the loser has 0 left, so the winner gains its survivor
                        count and the loser loses the same; a stalled 3-1 is +2 and -2.
                        (The other literal reading, own survivors minus own eliminated
                        = 2 x remaining - N x played, is not zero-sum and is fixed by
                        wizards remaining and games played, which would make that
                        criterion redundant.)
``form``                the last five outcomes, "W", "D" or "L", most recent last, in
                        round order (results are stably sorted by ``round``; results in
                        the same round keep the order given). Walkovers count.

Ordering
--------
Clubs are ordered by points, then by the configured tie-breaks in order. ``lot`` is always
the final criterion (appended if missing), because promotion and relegation need a total
order. Each criterion splits a tied group into subgroups by value (higher is better),
and a subgroup still tied goes on to the *next* criterion, except for head-to-head:

``head_to_head``       Among a group of clubs level so far, a mini-table of only the
                       matches between clubs of that group: points (same points scheme),
                       then wizard difference in those matches. If this splits the group,
                       each subgroup that is still tied (of two or more clubs) gets
                       head-to-head again, computed afresh from the matches among that
                       subgroup alone (UEFA's re-application), and so on while it keeps
                       splitting. A group head-to-head cannot split goes on to the next
                       criterion.
``wizard_difference``  over the whole season.
``wizards_remaining``  over the whole season.
``wins``               matches won (walkovers included).
``lot``                a seeded draw: clubs ordered by sha256 of ``f"{lot_seed}:{club}"``
                       (hex digest, ascending). The same seed gives the same draw in
                       every process; a new season takes a new seed.

``Row.tiebreak`` names the criterion that separated the club from the club in the next
row: None when their points differ (and for the last row), "lot" when only the lot did.
"""

from __future__ import annotations

import hashlib
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

ClubId = Hashable

CRITERIA = ("head_to_head", "wizard_difference", "wizards_remaining", "wins", "lot")
DEFAULT_TIEBREAKS = CRITERIA
FORM_LENGTH = 5


@dataclass(frozen=True)
class Result:
    home: ClubId
    away: ClubId
    home_wizards_left: int = 0
    away_wizards_left: int = 0
    #: Round (or matchday) number, used to order the form guide.
    round: int = 0
    match_id: Any = None
    #: The organiser's walkover ruling: the club awarded the match.
    walkover_winner: ClubId | None = None
    postponed: bool = False
    #: A game that ended without a winner by the bound on turns: counted nowhere.
    unfinished: bool = False


@dataclass(frozen=True)
class Row:
    position: int
    club: ClubId
    played: int
    won: int
    drawn: int
    lost: int
    points: Any
    wizard_difference: int
    wizards_remaining: int
    wizards_conceded: int
    form: str
    #: The criterion that separated this club from the next row's club (see module doc).
    tiebreak: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "club": self.club,
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "points": self.points,
            "wizard_difference": self.wizard_difference,
            "wizards_remaining": self.wizards_remaining,
            "wizards_conceded": self.wizards_conceded,
            "form": self.form,
            "tiebreak": self.tiebreak,
        }


@dataclass
class _Tally:
    won: int = 0
    drawn: int = 0
    lost: int = 0
    remaining: int = 0
    conceded: int = 0
    outcomes: list[str] = field(default_factory=list)

    @property
    def played(self) -> int:
        return self.won + self.drawn + self.lost

    def points(self, scheme: Sequence[Any]) -> Any:
        # Counts times points, never a running sum: the same for any result order.
        return self.won * scheme[0] + self.drawn * scheme[1] + self.lost * scheme[2]

    def add(self, own: int, other: int) -> None:
        self.remaining += own
        self.conceded += other
        if own > other:
            self.won += 1
            self.outcomes.append("W")
        elif own < other:
            self.lost += 1
            self.outcomes.append("L")
        else:
            self.drawn += 1
            self.outcomes.append("D")


@dataclass(frozen=True)
class _Counted:
    """A result as it counts: survivors after any walkover ruling."""

    home: ClubId
    away: ClubId
    home_left: int
    away_left: int


def counted_results(results: Iterable[Result], walkover_score: tuple[int, int] = (3, 0)) -> list[_Counted]:
    """The results that count, in round order, with walkover rulings applied."""
    counted = []
    for r in sorted(results, key=lambda r: r.round):  # stable: same round keeps given order
        if r.home == r.away:
            raise ValueError(f"A club cannot play itself: {r.home!r}")
        if r.postponed or r.unfinished:
            continue
        if r.walkover_winner is not None:
            if r.walkover_winner == r.home:
                counted.append(_Counted(r.home, r.away, walkover_score[0], walkover_score[1]))
            elif r.walkover_winner == r.away:
                counted.append(_Counted(r.home, r.away, walkover_score[1], walkover_score[0]))
            else:
                raise ValueError(f"Walkover winner {r.walkover_winner!r} did not play in {r!r}")
            continue
        for left in (r.home_wizards_left, r.away_wizards_left):
            if not isinstance(left, int) or isinstance(left, bool) or left < 0:
                raise ValueError(f"Wizards left must be a non-negative integer: {r!r}")
        counted.append(_Counted(r.home, r.away, r.home_wizards_left, r.away_wizards_left))
    return counted


def _lot_key(seed: str, club: ClubId) -> tuple[str, str]:
    return hashlib.sha256(f"{seed}:{club}".encode()).hexdigest(), str(club)


def standings(
    clubs: Sequence[ClubId],
    results: Iterable[Result],
    *,
    points: Sequence[Any] = (3, 1, 0),
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    lot_seed: str = "iwdl",
    walkover_score: tuple[int, int] = (3, 0),
) -> list[Row]:
    """The league table: one ``Row`` per club, position 1 first (see the module doc)."""
    clubs = list(clubs)
    if len(set(clubs)) != len(clubs):
        raise ValueError("Club ids must be unique")
    if len(points) != 3:
        raise ValueError("points is (win, draw, loss)")
    unknown = [c for c in tiebreaks if c not in CRITERIA]
    if unknown:
        raise ValueError(f"Unknown tie-break(s) {unknown}; choose from {CRITERIA}")
    if len(set(tiebreaks)) != len(tiebreaks):
        raise ValueError("A tie-break is listed twice")
    criteria = tuple(tiebreaks) if "lot" in tiebreaks else (*tiebreaks, "lot")
    if criteria[-1] != "lot":
        raise ValueError("The lot can only be the last tie-break")

    matches = counted_results(results, walkover_score)
    tally = {c: _Tally() for c in clubs}
    for m in matches:
        for club in (m.home, m.away):
            if club not in tally:
                raise ValueError(f"Result for a club not in the league: {club!r}")
        tally[m.home].add(m.home_left, m.away_left)
        tally[m.away].add(m.away_left, m.home_left)

    ctx = _Context(tally, matches, tuple(points), lot_seed)
    by_points: dict[Any, list[ClubId]] = {}
    for c in clubs:
        by_points.setdefault(tally[c].points(points), []).append(c)

    order: list[ClubId] = []
    labels: list[str | None] = []
    for value in sorted(by_points, reverse=True):
        if order:
            labels.append(None)  # separated from the previous group by points
        group_order, group_labels = ctx.order(by_points[value], criteria)
        order += group_order
        labels += group_labels
    labels.append(None)

    rows = []
    for i, (club, label) in enumerate(zip(order, labels), start=1):
        t = tally[club]
        rows.append(
            Row(
                position=i,
                club=club,
                played=t.played,
                won=t.won,
                drawn=t.drawn,
                lost=t.lost,
                points=t.points(points),
                wizard_difference=t.remaining - t.conceded,
                wizards_remaining=t.remaining,
                wizards_conceded=t.conceded,
                form="".join(t.outcomes[-FORM_LENGTH:]),
                tiebreak=label,
            )
        )
    return rows


class _Context:
    def __init__(self, tally, matches, points, lot_seed):
        self.tally = tally
        self.matches = matches
        self.points = points
        self.lot_seed = lot_seed

    def key(self, criterion: str, group: list[ClubId]) -> dict[ClubId, Any]:
        """Each club's value for a criterion within ``group``; higher ranks first."""
        if criterion == "head_to_head":
            members = set(group)
            mini = {c: _Tally() for c in group}
            for m in self.matches:
                if m.home in members and m.away in members:
                    mini[m.home].add(m.home_left, m.away_left)
                    mini[m.away].add(m.away_left, m.home_left)
            return {c: (mini[c].points(self.points), mini[c].remaining - mini[c].conceded) for c in group}
        if criterion == "wizard_difference":
            return {c: self.tally[c].remaining - self.tally[c].conceded for c in group}
        if criterion == "wizards_remaining":
            return {c: self.tally[c].remaining for c in group}
        if criterion == "wins":
            return {c: self.tally[c].won for c in group}
        if criterion == "lot":
            # Lower digest draws the higher place; negate the order by sorting ascending below.
            return {c: _lot_key(self.lot_seed, c) for c in group}
        raise ValueError(criterion)

    def order(self, group: list[ClubId], criteria: tuple[str, ...]) -> tuple[list[ClubId], list[str]]:
        """Order a tied group; returns the clubs and the label between each adjacent pair."""
        if len(group) == 1:
            return list(group), []
        if not criteria:
            # Only clubs whose ids print alike (1 and "1") can get here: order by repr.
            return sorted(group, key=repr), ["lot"] * (len(group) - 1)
        criterion, rest = criteria[0], criteria[1:]
        key = self.key(criterion, group)
        buckets: dict[Any, list[ClubId]] = {}
        for c in group:
            buckets.setdefault(key[c], []).append(c)
        if len(buckets) == 1:
            return self.order(group, rest)
        values = sorted(buckets) if criterion == "lot" else sorted(buckets, reverse=True)
        order: list[ClubId] = []
        labels: list[str] = []
        for value in values:
            if order:
                labels.append(criterion)
            sub = buckets[value]
            # Head-to-head is recomputed among the still-tied subset alone; any other
            # criterion has said all it can, so the subset moves on to the next one.
            sub_order, sub_labels = self.order(sub, criteria if criterion == "head_to_head" else rest)
            order += sub_order
            labels += sub_labels
        return order, labels


# --------------------------------------------------------------------------------------
# Promotion and relegation


@dataclass(frozen=True)
class Boundary:
    """Movements between one division and the one below it."""

    upper: Any
    lower: Any
    #: From the lower division up, in table order.
    promoted: tuple[ClubId, ...]
    #: From the upper division down, in table order.
    relegated: tuple[ClubId, ...]
    #: Play-off entrants: the upper division's clubs (table order) then the lower's.
    playoff: tuple[ClubId, ...]


def movements_problem(
    sizes: Sequence[tuple[Any, int]],
    *,
    promote: int = 2,
    relegate: int = 2,
    playoff_spots: int = 0,
    relegation_playoff_spots: int = 0,
) -> str | None:
    """Why divisions of these sizes ((name, clubs), top first) cannot hold these movements, in
    a sentence for the organiser; None if they can. ``division_movements`` refuses the same."""
    if min(promote, relegate, playoff_spots, relegation_playoff_spots) < 0:
        return "Promotion, relegation and play-off places cannot be negative."
    for i, (name, clubs) in enumerate(sizes):
        up = [(promote, "promoted"), (playoff_spots, "in the promotion play-off")] if i > 0 else []
        down = [(relegate, "relegated"), (relegation_playoff_spots, "in the relegation play-off")]
        down = down if i < len(sizes) - 1 else []
        places = [(n, what) for n, what in up + down if n]
        if sum(n for n, _ in places) > clubs:
            named = [f"{n} {what}" for n, what in places]
            wanted = " and ".join([", ".join(named[:-1]), named[-1]] if len(named) > 1 else named)
            return f"Division '{name}' has {clubs} club(s), too few for {wanted}."
    return None


def division_movements(
    tables_by_division: Mapping[Any, Sequence[Row]] | Sequence[tuple[Any, Sequence[Row]]],
    *,
    promote: int = 2,
    relegate: int = 2,
    playoff_spots: int = 0,
    relegation_playoff_spots: int = 0,
) -> list[Boundary]:
    """Promotion and relegation between divisions listed top first.

    For each pair of adjacent divisions: the top ``promote`` clubs of the lower division
    go up and the bottom ``relegate`` clubs of the upper division go down. The next
    ``playoff_spots`` clubs of the lower division (positions promote+1 ..) enter a
    promotion play-off, joined by the ``relegation_playoff_spots`` clubs of the upper
    division just above its relegation places. Who wins the play-off is decided on the
    pitch, not here. A middle division both sends and receives, so its places for going
    up and going down must not overlap.
    """
    items = list(tables_by_division.items()) if isinstance(tables_by_division, Mapping) else list(tables_by_division)
    tables = [(name, sorted(rows, key=lambda r: r.position)) for name, rows in items]
    problem = movements_problem(
        [(name, len(rows)) for name, rows in tables],
        promote=promote,
        relegate=relegate,
        playoff_spots=playoff_spots,
        relegation_playoff_spots=relegation_playoff_spots,
    )
    if problem:
        raise ValueError(problem)
    boundaries = []
    for (upper, up_rows), (lower, low_rows) in zip(tables, tables[1:]):
        up_clubs = [r.club for r in up_rows]
        low_clubs = [r.club for r in low_rows]
        n = len(up_clubs)
        relegated = tuple(up_clubs[n - relegate :]) if relegate else ()
        upper_playoff = tuple(up_clubs[n - relegate - relegation_playoff_spots : n - relegate])
        boundaries.append(
            Boundary(
                upper=upper,
                lower=lower,
                promoted=tuple(low_clubs[:promote]),
                relegated=relegated,
                playoff=upper_playoff + tuple(low_clubs[promote : promote + playoff_spots]),
            )
        )
    return boundaries
