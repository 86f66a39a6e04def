"""Court geometry: squares, zones, halves, adjacency and line of sight.

Squares are ``(column, row)``, both 1-based; column 1..width, row 1..length. Two squares
are adjacent when they touch at an edge or a corner (king move). All arithmetic is on
integers so that results never depend on floating point.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from . import data

Square = tuple[int, int]

NEIGHBOUR_STEPS = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))


def adjacent(a: Square, b: Square) -> bool:
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def line_blocked_by(a: Square, b: Square, c: Square) -> bool:
    """Does the straight line from the centre of ``a`` to the centre of ``b`` pass through
    the *interior* of square ``c`` (``c`` being neither end)?

    Ruling (RULES.md, "Line of sight"): a line that only touches an edge or a corner of a
    square does not go through it. With centres at integer points and squares of side 1,
    the line through ``a`` with direction ``d`` meets the open square around ``c`` exactly
    when ``|cross(c - a, d)| < (|dx| + |dy|) / 2``; doubled to stay in integers.
    """
    if c == a or c == b:
        return False
    ax, ay = a
    bx, by = b
    cx, cy = c
    if not (min(ax, bx) <= cx <= max(ax, bx) and min(ay, by) <= cy <= max(ay, by)):
        return False
    dx, dy = bx - ax, by - ay
    cross = (cx - ax) * dy - (cy - ay) * dx
    return 2 * abs(cross) < abs(dx) + abs(dy)


def line_of_sight(a: Square, b: Square, blockers: Iterable[Square]) -> bool:
    """True when no square in ``blockers`` (squares holding wizards) lies on the line; the two
    ends may be among them and never block, as in ``line_blocked_by``.

    ``line_blocked_by`` for each blocker, with what depends only on the line worked out once:
    every cast checks its targets' lines, so this runs on each replay (issue 17, P1)."""
    ax, ay = a
    bx, by = b
    x0, x1 = (ax, bx) if ax <= bx else (bx, ax)
    y0, y1 = (ay, by) if ay <= by else (by, ay)
    dx, dy = bx - ax, by - ay
    span = abs(dx) + abs(dy)
    # Squares compared by their coordinates: a blocker may be a state's [x, y] list.
    for cx, cy in blockers:
        if (
            x0 <= cx <= x1
            and y0 <= cy <= y1
            and -span < 2 * ((cx - ax) * dy - (cy - ay) * dx) < span  # 2 * |cross| < span, without abs
            and (cx != ax or cy != ay)
            and (cx != bx or cy != by)
        ):
            return False
    return True


@cache
def straight_walk(dx: int, dy: int, line_first: bool) -> tuple[tuple[int, int], ...]:
    """The offsets, from its start, of the squares after it of the path that steps straight by
    (dx, dy): diagonally, then along the remaining line; with ``line_first``, along the line,
    then diagonally. The one walk of the rules' straight paths (a move's, a pick-up's legs) and
    of the court's table of them; a court has few displacements, so each is walked once."""
    x = y = 0
    path = []
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    longer = dx * sx - dy * sy
    while x != dx or y != dy:
        if line_first and longer > 0:
            x += sx
            longer -= 1
        elif line_first and longer < 0:
            y += sy
            longer += 1
        else:
            x += (dx > x) - (dx < x)
            y += (dy > y) - (dy < y)
        path.append((x, y))
    return tuple(path)


class Court:
    """A validated court (see data/court.json) with fast lookups."""

    def __init__(self, spec: dict):
        self.spec = spec
        self.id: str = spec["id"]
        self.name: str = spec["name"]
        self.width: int = spec["width"]
        self.length: int = spec["length"]
        self.neutral_rows = frozenset(spec["neutral_rows"])
        self.stars: list[Square] = [tuple(s) for s in spec["stars"]]
        zones = spec["zones"]
        # zone index per row, for each side (a Neutral Area row counts as the side's own front zone)
        self._zone: list[dict[int, int]] = [{}, {}]
        for side in (0, 1):
            for idx, zone in enumerate(zones):
                lo, hi = zone["rows"]
                for row in range(lo, hi + 1):
                    if row in self.neutral_rows:
                        if zone["side"] == side:
                            self._zone[side][row] = idx
                    else:
                        self._zone[side][row] = idx
        self.back_rows = frozenset(
            row for idx in (0, 3) for row in range(zones[idx]["rows"][0], zones[idx]["rows"][1] + 1)
        )
        self.half_rows: list[tuple[int, int]] = [tuple(s["rows"]) for s in spec["sides"]]
        self.starting_rows: list[tuple[int, int]] = [tuple(s["starting_rows"]) for s in spec["sides"]]
        self.default_start: list[list[Square]] = [[tuple(q) for q in s["default_start"]] for s in spec["sides"]]
        self.squares: list[Square] = [(c, r) for r in range(1, self.length + 1) for c in range(1, self.width + 1)]
        self._neighbours: dict[Square, tuple[Square, ...]] = {
            sq: tuple(
                (sq[0] + dc, sq[1] + dr)
                for dc, dr in NEIGHBOUR_STEPS
                if 1 <= sq[0] + dc <= self.width and 1 <= sq[1] + dr <= self.length
            )
            for sq in self.squares
        }
        # (dx, dy) -> the offsets from a line's start of the squares whose interior it goes through
        # (its ends left out), for every line on the court: ``line_blocked_by`` depends only on
        # where the squares are from the start, so one line per (dx, dy) serves them all. A fold
        # asks its occupancy index about these few squares instead of testing every wizard
        # against each line (state.clear_line; issue 17, P1). Worked out here, once per process
        # (about 27,000 tests, a few milliseconds), because a game's lines are mostly new ones:
        # a cache of them filled during a replay missed on three checks in four. The test is
        # line_blocked_by's from (0, 0), inline (the ranges are its box).
        self.line_offsets: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {
            (dx, dy): tuple(
                (ox, oy)
                for oy in range(min(0, dy), max(0, dy) + 1)
                for ox in range(min(0, dx), max(0, dx) + 1)
                if 2 * abs(ox * dy - oy * dx) < abs(dx) + abs(dy) and (ox or oy) and (ox != dx or oy != dy)
            )
            for dy in range(1 - self.length, self.length)
            for dx in range(1 - self.width, self.width)
        }
        # (dx, dy) -> the offsets from the start of the squares after it of the straight paths of a
        # move by (dx, dy) (straight_walk): diagonally first, then, when the move is neither
        # straight nor diagonal, along the line first too. A fold walks a move's path against the
        # occupancy index from this table instead of stepping it square by square (issue 17, P1).
        self.straight_offsets: dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], ...]] = {
            (dx, dy): tuple(
                straight_walk(dx, dy, line_first)
                for line_first in ((False,) if dx == 0 or dy == 0 or dx in (dy, -dy) else (False, True))
            )
            for dy in range(1 - self.length, self.length)
            for dx in range(1 - self.width, self.width)
        }

    # -- squares ------------------------------------------------------------
    def in_bounds(self, sq: Square) -> bool:
        return 1 <= sq[0] <= self.width and 1 <= sq[1] <= self.length

    def neighbours(self, sq: Square) -> tuple[Square, ...]:
        return self._neighbours[sq]

    def in_half(self, side: int, sq: Square) -> bool:
        """May a wizard of ``side`` stand here? (its own half, Neutral Area included)"""
        lo, hi = self.half_rows[side]
        return 1 <= sq[0] <= self.width and lo <= sq[1] <= hi

    def in_starting_area(self, side: int, sq: Square) -> bool:
        lo, hi = self.starting_rows[side]
        return 1 <= sq[0] <= self.width and lo <= sq[1] <= hi

    def starting_squares(self, side: int) -> list[Square]:
        lo, hi = self.starting_rows[side]
        return [(c, r) for r in range(lo, hi + 1) for c in range(1, self.width + 1)]

    def is_neutral(self, sq: Square) -> bool:
        return sq[1] in self.neutral_rows

    def is_behind_attack_line(self, sq: Square) -> bool:
        """Squares in either back zone: a ball resting here is (or becomes) active."""
        return sq[1] in self.back_rows

    def between(self, a: Square, b: Square) -> list[Square]:
        """The squares whose interior the line from ``a`` to ``b`` goes through, the ends left
        out: the only squares that can block it (``line_blocked_by``)."""
        ax, ay = a
        return [(ax + ox, ay + oy) for ox, oy in self.line_offsets[(b[0] - ax, b[1] - ay)]]

    # -- zones ----------------------------------------------------------------
    def zone(self, side: int, sq: Square) -> int:
        """Zone index 0..3 (from the first team's end) of a wizard of ``side`` on ``sq``."""
        return self._zone[side][sq[1]]

    def zone_distance(self, side_a: int, a: Square, side_b: int, b: Square) -> int:
        return abs(self.zone(side_a, a) - self.zone(side_b, b))


@cache
def court(court_id: str) -> Court:
    specs = data.courts()
    if court_id not in specs:
        raise KeyError(court_id)
    return Court(specs[court_id])
