"""Swiss standings with configurable tie-breaks. Pure Python, exact arithmetic.

Criteria are applied in the order the organiser lists them, after the score:

``buchholz``          sum of the opponents' scores.
``median_buchholz``   Buchholz without the highest and the lowest opponent score (with
                      fewer than three values, what is left after dropping is summed: 0).
``sonneborn_berger``  sum over games of (points scored in it x that opponent's score).
``head_to_head``      points scored against the other players still tied at that point
                      (direct encounter); only meaningful inside the tied group, so the
                      reported value is None for a player who was already separated.
``omw``               opponents' match-win percentage: the mean over real opponents of
                      max(1/3, opponent's score / rounds the opponent took part in); a
                      player without a real opponent gets the floor, 1/3.
``wins``              games won against a real opponent (forfeit wins included, byes not).
``mwp``               match-win percentage: match points earned / (the points of a win x
                      rounds taken part in, byes and forfeits included), at least 1/3.
``gwp``               game-win percentage: (games won + drawn games / 3) / games played,
                      at least 1/3; a bye or a forfeit win counts as the games needed to win
                      the match to none (2-0 in a best of three).
``ogwp``              opponents' game-win percentage: the mean over real opponents of their
                      ``gwp``; a player without a real opponent gets the floor, 1/3.

The percentages follow the Magic: The Gathering Tournament Rules (appendix C): a win is
worth 3 match or game points and a draw 1, so a drawn game counts a third of a won one;
"if this number is lower than 0.33, use 0.33 instead" applies to every percentage, which
keeps a weak opponent from sinking the players who met them. With the default scoring (a
win 1, a draw 1/2) a drawn match counts half a win for ``mwp`` and ``omw``.

Byes and other unplayed rounds. Following the FIDE 2023 tie-break regulations' dummy
opponent, every round a player did not play over the board (a bye, a forfeit win or loss,
and, when ``rounds`` is given, a round with no record at all) counts for Buchholz, median
Buchholz and Sonneborn-Berger as a game against a dummy opponent whose score equals the
player's own final score. This neither rewards a bye (a weak virtual opponent would sink
the Buchholz of a leader who had one) nor punishes it. Opponents' scores are used as they
stand; FIDE's further adjustment of opponents' own unplayed rounds is not applied. OMW
skips unplayed rounds altogether, as match-win percentages usually do.

Everything is a ``fractions.Fraction`` (or int), so ties are exact and never an artefact
of float rounding. Players tied on every criterion share a rank and are listed in the order
``players`` gives them (the caller's entry order); anyone else, by id.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .swiss import as_fraction

PlayerId = Hashable

TIEBREAKS = ("buchholz", "median_buchholz", "sonneborn_berger", "head_to_head", "omw", "wins", "mwp", "gwp", "ogwp")
OMW_FLOOR = Fraction(1, 3)
#: The floor of every percentage (MTG Tournament Rules, appendix C).
PERCENT_FLOOR = OMW_FLOOR
#: Tie-breaks that are fractions of one, shown as percentages.
PERCENTAGES = ("omw", "mwp", "gwp", "ogwp")
#: How a sentence names each tie-break.
LABELS = {
    "score": "score",
    "buchholz": "Buchholz",
    "median_buchholz": "median Buchholz",
    "sonneborn_berger": "Sonneborn-Berger",
    "head_to_head": "head-to-head",
    "omw": "opponents' match-win %",
    "wins": "wins",
    "mwp": "match-win %",
    "gwp": "game-win %",
    "ogwp": "opponents' game-win %",
    # Pods' own (``standings.pod_standings``).
    "firsts": "first places",
    "average_place": "average place",
}


@dataclass(frozen=True)
class Game:
    """One round's result for one board. ``second=None`` is a bye worth ``first_points``.

    ``forfeit`` marks a game decided without being played; both players then count it as
    an unplayed round for the opponent-based tie-breaks.
    """

    round: int
    first: PlayerId
    second: PlayerId | None
    first_points: Any
    second_points: Any = 0
    forfeit: bool = False
    #: Games won in the match by each player, and games drawn (a best-of-three won 2-1:
    #: 2, 1, 0). None: not known, counted as one game (1-0, or one drawn game).
    first_games: int | None = None
    second_games: int | None = None
    drawn_games: int = 0
    #: Match points when the score counts something else (battle points: games won);
    #: None: the points above are the match points.
    first_match_points: Any = None
    second_match_points: Any = None


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: PlayerId
    score: Fraction
    #: Every configured tie-break's value, in the configured order.
    values: dict[str, Any] = field(default_factory=dict)
    #: The criterion ("score" or a tie-break name) that put this row above the next one;
    #: None when the two are tied on everything (same rank) and on the last row.
    separated_from_next: str | None = None


@dataclass
class _Entry:
    opponent: PlayerId | None  # None: unplayed (bye, forfeit, absent)
    points: Fraction
    won: bool
    present: bool = True  # False for a round with no record (dropped, joined late)
    match_points: Fraction = Fraction(0)
    games_won: int = 0
    games_lost: int = 0
    games_drawn: int = 0


def standings(
    games: Iterable[Game],
    tiebreaks: Sequence[str] = ("buchholz", "median_buchholz", "sonneborn_berger"),
    players: Iterable[PlayerId] = (),
    rounds: int | None = None,
    win_points: Any = 1,
) -> list[StandingRow]:
    """Ordered standings with every tie-break value and what separated each neighbour pair.

    ``players`` adds players with no games yet; everyone who appears in a game is in the
    table too (a dropped player stays, their games still count for their opponents). Players
    tied on every criterion are listed in the order ``players`` gives them, then by id.
    ``win_points``: what a match win is worth (the match-win percentages divide by it).
    """
    unknown = [t for t in tiebreaks if t not in TIEBREAKS]
    if unknown:
        raise ValueError(f"Unknown tie-break(s) {unknown}; choose from {list(TIEBREAKS)}")
    if len(set(tiebreaks)) != len(tiebreaks):
        raise ValueError("Each tie-break may be listed once")

    players = list(players)
    entries: dict[PlayerId, dict[int, _Entry]] = defaultdict(dict)
    for pid in players:
        entries[pid]
    for g in games:
        a_pts, b_pts = as_fraction(g.first_points), as_fraction(g.second_points)
        a_mp = a_pts if g.first_match_points is None else as_fraction(g.first_match_points)
        b_mp = b_pts if g.second_match_points is None else as_fraction(g.second_match_points)
        a_games, b_games, drawn = _games(g, a_mp, b_mp)
        if g.second is None:
            _record(entries, g.first, g.round, _Entry(None, a_pts, False, True, a_mp, a_games, 0, 0))
            continue
        played = not g.forfeit
        a_won, b_won = a_mp > b_mp, b_mp > a_mp
        a_entry = _Entry(g.second if played else None, a_pts, a_won, True, a_mp, a_games, b_games, drawn)
        b_entry = _Entry(g.first if played else None, b_pts, b_won, True, b_mp, b_games, a_games, drawn)
        _record(entries, g.first, g.round, a_entry)
        _record(entries, g.second, g.round, b_entry)
    if rounds is not None:
        for pid in entries:
            for r in range(1, rounds + 1):
                entries[pid].setdefault(r, _Entry(None, Fraction(0), False, present=False))

    given = list(dict.fromkeys(players))
    listed = set(given)
    ids = given + sorted(p for p in entries if p not in listed)
    score = {p: sum((e.points for e in entries[p].values()), Fraction(0)) for p in ids}
    context = _Context(entries, score, as_fraction(win_points))
    fixed = {name: {p: context.value(name, p) for p in ids} for name in tiebreaks if name != "head_to_head"}

    h2h: dict[PlayerId, Fraction | None] = {p: None for p in ids}
    criteria = ["score", *tiebreaks]

    def value(name: str, p: PlayerId):
        if name == "score":
            return score[p]
        if name == "head_to_head":
            return h2h[p]
        return fixed[name][p]

    def refine(group: list[PlayerId], level: int) -> tuple[list[PlayerId], list[str | None]]:
        """Order a group tied on criteria[:level]; also return what separates neighbours."""
        if len(group) == 1 or level == len(criteria):
            return group, [None] * (len(group) - 1)
        name = criteria[level]
        if name == "head_to_head":
            members = set(group)
            for p in group:
                h2h[p] = sum((e.points for e in entries[p].values() if e.opponent in members), Fraction(0))
        buckets: dict[Any, list[PlayerId]] = defaultdict(list)
        for p in group:
            buckets[value(name, p)].append(p)
        order: list[PlayerId] = []
        seps: list[str | None] = []
        for key in sorted(buckets, reverse=True):
            sub, sub_seps = refine(buckets[key], level + 1)
            if order:
                seps.append(name)
            order.extend(sub)
            seps.extend(sub_seps)
        return order, seps

    order, seps = refine(ids, 0) if ids else ([], [])
    rows: list[StandingRow] = []
    for i, p in enumerate(order):
        tied_above = i > 0 and seps[i - 1] is None
        rank = rows[-1].rank if tied_above else i + 1
        values = {name: value(name, p) for name in tiebreaks}
        rows.append(
            StandingRow(
                rank=rank,
                player=p,
                score=score[p],
                values=values,
                separated_from_next=seps[i] if i < len(seps) else None,
            )
        )
    return rows


def _games(g: Game, a_mp: Fraction, b_mp: Fraction) -> tuple[int, int, int]:
    """Games won by each side and games drawn; an unknown game score is one game."""
    if g.first_games is not None:
        return g.first_games, g.second_games or 0, g.drawn_games
    if g.second is None:
        return 1, 0, 0
    if a_mp == b_mp:
        # A level result with no game score: one drawn game, or none at all for a double forfeit.
        return 0, 0, (0 if g.forfeit else 1)
    return (1, 0, 0) if a_mp > b_mp else (0, 1, 0)


def _record(entries, player, rnd, entry):
    if rnd in entries[player]:
        raise ValueError(f"Player {player!r} has two results in round {rnd}")
    entries[player][rnd] = entry


class _Context:
    def __init__(self, entries, score, win_points=Fraction(1)):
        self.entries = entries
        self.score = score
        self.win_points = win_points or Fraction(1)

    def opponent_scores(self, p) -> list[Fraction]:
        # Unplayed rounds count as a dummy opponent with the player's own score.
        return [self.score[e.opponent] if e.opponent is not None else self.score[p] for e in self._rounds(p)]

    def _rounds(self, p) -> list[_Entry]:
        return [self.entries[p][r] for r in sorted(self.entries[p])]

    def value(self, name: str, p):
        if name == "buchholz":
            return sum(self.opponent_scores(p), Fraction(0))
        if name == "median_buchholz":
            values = sorted(self.opponent_scores(p))
            return sum(values[1:-1], Fraction(0))
        if name == "sonneborn_berger":
            return sum(
                (
                    e.points * (self.score[e.opponent] if e.opponent is not None else self.score[p])
                    for e in self._rounds(p)
                ),
                Fraction(0),
            )
        if name == "omw":
            opponents = [e.opponent for e in self._rounds(p) if e.opponent is not None]
            if not opponents:
                return OMW_FLOOR
            return sum((self.match_win(o) for o in opponents), Fraction(0)) / len(opponents)
        if name == "mwp":
            return self.match_win(p)
        if name == "gwp":
            return self.game_win(p)
        if name == "ogwp":
            opponents = [e.opponent for e in self._rounds(p) if e.opponent is not None]
            if not opponents:
                return PERCENT_FLOOR
            return sum((self.game_win(o) for o in opponents), Fraction(0)) / len(opponents)
        if name == "wins":
            # ``won`` is never set on a bye, so this counts played and forfeit wins.
            return sum(1 for e in self._rounds(p) if e.won)
        raise ValueError(name)

    def match_win(self, p) -> Fraction:
        taken_part = sum(1 for e in self.entries[p].values() if e.present)
        if not taken_part:
            return OMW_FLOOR
        earned = sum((e.match_points for e in self.entries[p].values() if e.present), Fraction(0))
        return max(OMW_FLOOR, earned / (self.win_points * taken_part))

    def game_win(self, p) -> Fraction:
        """(games won + drawn games / 3) / games played, at least 1/3 (MTR appendix C)."""
        present = [e for e in self.entries[p].values() if e.present]
        played = sum(e.games_won + e.games_lost + e.games_drawn for e in present)
        if not played:
            return PERCENT_FLOOR
        earned = sum((e.games_won + Fraction(e.games_drawn, 3) for e in present), Fraction(0))
        return max(PERCENT_FLOOR, earned / played)


def shown(name: str, value: Any) -> str:
    """A tie-break's value as a sentence gives it: "7.5", "66.7%"."""
    if value is None:
        return "-"
    if name in PERCENTAGES:
        text = f"{float(value) * 100:.1f}".removesuffix(".0")
        return f"{text}%"
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text or "0"


def _value(row: StandingRow, name: str):
    return row.score if name == "score" else row.values.get(name)


def in_words(rows: Sequence[StandingRow], names: dict[PlayerId, str]) -> list[str | None]:
    """For each row tied on score with a neighbour, what put them in this order, as a sentence.

    A row is described against the next row when the two have the same score ("ahead of Bob
    on Buchholz: 7.5 to 6"), otherwise against the row above when that one has the same score
    ("behind Alice on Buchholz: 6 to 7.5"); players equal on every criterion are "tied with"
    each other. A row with a score of its own gets None: the score says it all.
    """
    out: list[str | None] = []
    for i, row in enumerate(rows):
        below = rows[i + 1] if i + 1 < len(rows) else None
        above = rows[i - 1] if i > 0 else None
        if below is not None and below.score == row.score:
            out.append(_sentence("ahead of", row, below, row.separated_from_next, names))
        elif above is not None and above.score == row.score:
            out.append(_sentence("behind", row, above, above.separated_from_next, names))
        else:
            out.append(None)
    return out


def _sentence(relation: str, row: StandingRow, other: StandingRow, name: str | None, names) -> str:
    other_name = names.get(other.player, str(other.player))
    if name is None:
        return f"tied with {other_name}"
    mine, theirs = shown(name, _value(row, name)), shown(name, _value(other, name))
    return f"{relation} {other_name} on {LABELS.get(name, name)}: {mine} to {theirs}"
