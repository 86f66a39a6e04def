"""The elemental board and the Life Force chart, loaded from the data files beside this module.

The board file lists points (with their active elements), adjacent pairs and the coloured
paths. The rule that makes the paths (SC L71-76, L80-86; the spec's B1.3): two adjacent
points are joined by one path for each element active at both ends. The file stores the
generated list too, for the pages; loading checks the two agree.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..treecopy import copy_tree

DATA_DIR = Path(__file__).parent / "data"
ELEMENTS = ("fire", "earth", "water", "air")


class DataError(ValueError):
    """A data file that does not describe a playable board or chart."""


def _load(name: str) -> Any:
    with (DATA_DIR / name).open(encoding="utf-8") as fh:
        return json.load(fh)


def generated_paths(points: dict[str, Any], adjacent: list[list[str]]) -> list[dict[str, Any]]:
    return [
        {"between": [a, b], "element": e}
        for a, b in adjacent
        for e in ELEMENTS
        if e in points[a]["active"] and e in points[b]["active"]
    ]


def validate_board(board: dict[str, Any]) -> dict[str, Any]:
    points = board.get("points")
    if not isinstance(points, dict) or not points:
        raise DataError("board: 'points' must map point names to {xy, active}.")
    for name, p in points.items():
        active = p.get("active")
        if not (isinstance(active, list) and active and all(e in ELEMENTS for e in active)):
            raise DataError(f"board: point {name} needs a non-empty list of active elements.")
    for a, b in board["adjacent"]:
        if a not in points or b not in points or a == b:
            raise DataError(f"board: adjacency {a}-{b} names an unknown point.")
        if not set(points[a]["active"]) & set(points[b]["active"]):
            raise DataError(f"board: {a} and {b} share no element, so no path can join them.")
    if board["paths"] != generated_paths(points, board["adjacent"]):
        raise DataError("board: the stored paths differ from one path per element active at both ends.")
    for n, starts in board["starts"].items():
        if len(starts) != int(n) or any(s not in points for s in starts):
            raise DataError(f"board: starts for {n} players must name {n} points.")
    return board


@cache
def _standard() -> dict[str, Any]:
    return validate_board(_load("board.json"))


def board() -> dict[str, Any]:
    """The standard board (a fresh copy, so callers cannot change the cached one)."""
    return json.loads(json.dumps(_standard()))


@cache
def _neighbours() -> dict[str, dict[str, tuple[str, ...]]]:
    b = _standard()
    out: dict[str, dict[str, list[str]]] = {p: {e: [] for e in ELEMENTS} for p in b["points"]}
    for path in b["paths"]:
        a, c = path["between"]
        out[a][path["element"]].append(c)
        out[c][path["element"]].append(a)
    return {p: {e: tuple(sorted(v)) for e, v in d.items()} for p, d in out.items()}


@cache
def _adjacent() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {p: [] for p in _standard()["points"]}
    for a, b in _standard()["adjacent"]:
        out[a].append(b)
        out[b].append(a)
    return {p: tuple(sorted(v)) for p, v in out.items()}


def active(point: str) -> list[str]:
    """The elements active at a point, in the fixed order fire, earth, water, air."""
    act = _standard()["points"][point]["active"]
    return [e for e in ELEMENTS if e in act]


def along(point: str, element: str) -> tuple[str, ...]:
    """Points one path of ``element``'s colour away from ``point``."""
    return _neighbours()[point][element]


def adjacent(point: str) -> tuple[str, ...]:
    return _adjacent()[point]


def path_colours(a: str, b: str) -> list[str]:
    return [e for e in ELEMENTS if b in _neighbours()[a][e]]


def points() -> list[str]:
    return sorted(_standard()["points"])


def starts(seats: int) -> list[str]:
    return list(_standard()["starts"][str(seats)])


@cache
def _life_chart() -> dict[str, Any]:
    return validate_life_chart(_load("life_chart.json"))


def life_chart() -> dict[str, Any]:
    # A fresh copy each time (a config may be changed by its caller); marshal's round trip is the
    # JSON one for a tree of dicts, lists and ints, at a fraction of the cost (every setup asks).
    return copy_tree(_life_chart())


def validate_life_chart(chart: Any) -> dict[str, Any]:
    """A chart is rows of squares (action points per square), each owned from a Life Force on.

    Rows are listed top to bottom; a caster owns the rows whose ``needs_life_force`` is at most
    his Life Force (SC L45-46: the unpurchased rows are crossed out)."""
    if not isinstance(chart, dict) or not isinstance(chart.get("rows"), list) or not chart["rows"]:
        raise DataError("The Life Force chart needs a non-empty list of 'rows'.")
    needs = []
    for row in chart["rows"]:
        if not isinstance(row, dict) or set(row) != {"needs_life_force", "squares"}:
            raise DataError("Each chart row is {'needs_life_force': n, 'squares': [action points, ...]}.")
        n, squares = row["needs_life_force"], row["squares"]
        if type(n) is not int or not 1 <= n <= 3:
            raise DataError("A chart row's 'needs_life_force' is 1, 2 or 3.")
        if not (isinstance(squares, list) and squares and all(type(s) is int and 1 <= s <= 20 for s in squares)):
            raise DataError("A chart row's squares are whole numbers of action points from 1 to 20.")
        needs.append(n)
    if sorted(needs, reverse=True) != needs or len(set(needs)) != len(needs) or 1 not in needs:
        raise DataError("Chart rows go from the highest Life Force needed down to 1, once each.")
    return chart


#: The most squares a chart row may hold (the book's rows hold six), and the longest end mark.
MAX_ROW_SQUARES = 60
MAX_END_MARK = 20


def check_chart_size(chart: dict[str, Any]) -> None:
    """A chart that ``validate_life_chart`` took holds its rows and its end mark and nothing more, and
    is small: every view carries the chart, so every live frame to every viewer would carry whatever
    else it held."""
    if set(chart) - {"rows", "after_last"}:
        raise DataError("A Life Force chart holds 'rows' and optionally its end mark 'after_last', nothing else.")
    mark = chart.get("after_last", "")
    if not isinstance(mark, str) or len(mark) > MAX_END_MARK:
        raise DataError(
            f"A chart's end mark 'after_last' is a text of at most {MAX_END_MARK} characters, like \"End\"."
        )
    if any(len(row["squares"]) > MAX_ROW_SQUARES for row in chart["rows"]):
        raise DataError(f"A chart row holds at most {MAX_ROW_SQUARES} squares.")


def owned_squares(chart: dict[str, Any], life_force: int) -> list[int]:
    """The squares a caster with this Life Force owns, top (first lost) to bottom."""
    return [sq for row in chart["rows"] if row["needs_life_force"] <= life_force for sq in row["squares"]]


@cache
def _active_at() -> dict[str, tuple[str, ...]]:
    return {p: tuple(active(p)) for p in _standard()["points"]}


def active_at(point: str) -> tuple[str, ...]:
    """``active(point)`` as a tuple kept once per point, for the engine's checks of every event."""
    return _active_at()[point]


#: The table ``active_at`` reads, for the engine's hottest checks (no Python call per look).
active_table = _active_at
