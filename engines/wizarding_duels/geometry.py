"""Hex geometry: distance, neighbours, joined boards, movement costs and exact line of sight.

Spaces are pointy-top hexes in axial coordinates ``(q, r)``; in state and in data they are
written as ``"q,r"`` strings. Everything is integer or exact rational arithmetic, so a result
never depends on floating point or on the process.

Line of sight (rulebook L347-357, ruling A-36): a model sees a target when, from one corner
of its own space, two straight lines reach two *different* corners of the target's space
without passing through the interior of an Impassable space. Touching an edge or a vertex
does not block. An affine map sends the hex centre of ``(q, r)`` to ``(2q + r, 3r)`` and its
six corners to integer points around it, and straightness and "passes through the interior"
survive any affine map, so the test needs no square roots.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter

Hex = tuple[int, int]

#: Axial steps to the six neighbours, in counter-clockwise order starting east.
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

#: Corner offsets from a centre, in the integer frame, counter-clockwise.
CORNERS: tuple[tuple[int, int], ...] = ((1, 1), (0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1))

TERRAINS = ("open", "difficult", "impassable", "obscuring", "dangerous")


class _Names(dict):
    """Each space's name ``"q,r"`` as the state writes it, by its coordinates, kept on first ask:
    an engine step names spaces several times an event, and writing two ints as text costs several
    times a dict lookup (issue 17, P1). Bounded, as ``parse``'s memo is: past the bound a name is
    written each time. Names are strings, so no caller can change a kept one."""

    def __missing__(self, h: Hex) -> str:
        k = f"{h[0]},{h[1]}"
        if len(self) < 8192:
            self[h] = k
        return k


#: The names kept: ``key``'s memo.
_NAMES = _Names()
#: ``key(h)`` is the name of space ``h``, ``"q,r"`` (``parse``'s inverse); read in C, no frame.
key = _NAMES.__getitem__


class _Coords(dict):
    """Each space's coordinates by its name ``"q,r"``, kept on first ask: the state names a
    board's few hundred spaces by these strings, parsed several times an event (issue 17, P1). A
    plain dict, so a kept one is read in C with no frame (an ``lru_cache`` called the parse as a
    new frame on every miss and kept its order on every hit), and a board's build fills it as
    ``__missing__`` does without a call each. Bounded as ``_Names`` is. A space is a tuple, so no
    caller can change a kept answer."""

    def __missing__(self, k: str) -> Hex:
        q, r = k.split(",")
        h = int(q), int(r)
        if len(self) < 8192:
            self[k] = h
        return h


#: The coordinates kept: ``parse``'s memo.
_COORDS = _Coords()
#: ``parse(k)`` is the space named ``k`` (``key``'s inverse).
parse = _COORDS.__getitem__


def distance(a: Hex, b: Hex) -> int:
    """Hex distance: the Range between two spaces (L311-319; terrain and models never change it)."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: Hex) -> list[Hex]:
    q, r = h
    # ``DIRECTIONS`` in order, written out: no comprehension's frame (issue 17, P1).
    return [(q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1)]


def adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def centre(h: Hex) -> tuple[int, int]:
    return 2 * h[0] + h[1], 3 * h[1]


def corners(h: Hex) -> list[tuple[int, int]]:
    cx, cy = 2 * h[0] + h[1], 3 * h[1]  # ``centre(h)``
    # ``CORNERS`` in order, written out: no comprehension's frame (issue 17, P1).
    return [(cx + 1, cy + 1), (cx, cy + 2), (cx - 1, cy + 1), (cx - 1, cy - 1), (cx, cy - 2), (cx + 1, cy - 1)]


def _cross(o, a, b) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def segment_enters_hex(p0, p1, h: Hex) -> bool:
    """Does the closed segment p0-p1 meet the OPEN interior of hex ``h``?

    In the integer frame, with ``(u, v)`` a point's offset from the hex's centre, the interior is
    ``|u| < 1 and |u + v| < 2 and |v - u| < 2``: three slabs, one per pair of opposite edges.
    Along the segment ``u``, ``u + v`` and ``v - u`` are linear in t, so the points inside form an
    open interval of t; the segment enters the hex when that interval meets [0, 1]. The interval's
    ends are fractions ``n / d`` with ``d > 0``, compared by cross-multiplying (exact integers).
    A slab at a time, with the edges' directions known, is fewer integer steps than clipping by six
    edges worked out from the corners (issue 17, P1: sight is most of a cast's check);
    ``test_hex_geometry.py`` holds it to that first way, with ``Fraction`` ends."""
    x0, y0 = p0
    x1, y1 = p1
    # The open interior lies strictly inside the corners' box: a segment outside it (most
    # blockers near a sight line) cannot enter it.
    cx, cy = 2 * h[0] + h[1], 3 * h[1]
    if (x0 <= cx - 1 and x1 <= cx - 1) or (x0 >= cx + 1 and x1 >= cx + 1):
        return False
    if (y0 <= cy - 2 and y1 <= cy - 2) or (y0 >= cy + 2 and y1 >= cy + 2):
        return False
    return _enters(x0, y0, x1 - x0, y1 - y0, cx, cy)


def _enters(x0: int, y0: int, ex: int, ey: int, cx: int, cy: int) -> bool:
    """``segment_enters_hex`` past its box test, for the segment from ``(x0, y0)`` along ``(ex, ey)``
    and the hex centred on ``(cx, cy)`` in the integer frame: ``sees`` tests the box itself."""
    # The segment's line misses the open interior when every corner lies on one side of it or on
    # it (the hex is convex): corner ``(cx + dx, cy + dy)`` sits ``f + ex * dy - ey * dx`` off the
    # line, and the corner offsets come in opposite pairs, so they lie within ``f - m .. f + m``
    # (issue 17, P1: most segments a blocker's box lets through pass it by).
    m = max(abs(ex - ey), abs(ex + ey), 2 * abs(ex))
    if m:
        f = ex * (cy - y0) - ey * (cx - x0)
        if f >= m or f <= -m:
            return False
    u0, v0 = x0 - cx, y0 - cy
    # The interval of t, clipped to [0, 1] from the start: max(lo, 0) < min(hi, 1) exactly when
    # lo < hi, lo < 1 and hi > 0. Each slab ``-c < w(t) < c``, ``w(t) = w0 + t * k``:
    # ``fa = c - w0 > t * k`` and ``fb = c + w0 > -t * k``; for ``k > 0`` that is ``t < fa / k``
    # and ``t > -fb / k``, for ``k < 0`` ``t > -fa / -k`` and ``t < fb / -k``, and for ``k == 0``
    # the segment is parallel to the slab, outside it (or on its edge) unless both are positive.
    # The three slabs are written out, not looped over a tuple of them built per segment: a
    # blocked sight line asks this of every segment it tests (issue 17, P1).
    lo_n, lo_d, hi_n, hi_d = 0, 1, 1, 1
    # |u| < 1
    k = ex
    fa, fb = 1 - u0, 1 + u0
    if k > 0:
        if fa < hi_n * k:
            hi_n, hi_d = fa, k
        if -fb > lo_n * k:
            lo_n, lo_d = -fb, k
    elif k < 0:
        if -fa > lo_n * -k:
            lo_n, lo_d = -fa, -k
        if fb < hi_n * -k:
            hi_n, hi_d = fb, -k
    elif fa <= 0 or fb <= 0:
        return False
    # |u + v| < 2
    k = ex + ey
    w = u0 + v0
    fa, fb = 2 - w, 2 + w
    if k > 0:
        if fa * hi_d < hi_n * k:
            hi_n, hi_d = fa, k
        if -fb * lo_d > lo_n * k:
            lo_n, lo_d = -fb, k
    elif k < 0:
        if -fa * lo_d > lo_n * -k:
            lo_n, lo_d = -fa, -k
        if fb * hi_d < hi_n * -k:
            hi_n, hi_d = fb, -k
    elif fa <= 0 or fb <= 0:
        return False
    # |v - u| < 2
    k = ey - ex
    w = v0 - u0
    fa, fb = 2 - w, 2 + w
    if k > 0:
        if fa * hi_d < hi_n * k:
            hi_n, hi_d = fa, k
        if -fb * lo_d > lo_n * k:
            lo_n, lo_d = -fb, k
    elif k < 0:
        if -fa * lo_d > lo_n * -k:
            lo_n, lo_d = -fa, -k
        if fb * hi_d < hi_n * -k:
            hi_n, hi_d = fb, -k
    elif fa <= 0 or fb <= 0:
        return False
    return lo_n * hi_d < hi_n * lo_d


def _candidates(a: Hex, b: Hex, blockers: Iterable[Hex]) -> list[Hex]:
    # A blocker can only cut a sight line if it lies within the lines' bounding distance.
    span = distance(a, b)
    return [c for c in blockers if c != a and c != b and distance(a, c) <= span and distance(b, c) <= span]


def sees(a: Hex, b: Hex, blockers: Iterable[Hex]) -> bool:
    """The rulebook's test, from ``a`` to ``b`` (ruling A-36); range 0 always sees itself."""
    if a == b:
        return True
    # Every corner-to-corner segment lies in the hull of the two spaces, the centre-to-centre
    # segment ``e`` swept by one hex; a blocker whose open interior misses that hull blocks none of
    # them. Two separating axes decide most blockers with a few integer steps: across ``e`` the
    # hull's points lie within ``m`` of its line and a hex's within ``m`` of its centre, so a blocker
    # ``f`` off the line by ``2m`` or more misses; along ``e`` likewise with ``mm`` and the span
    # ``0 .. e.e``. A blocker neither axis separates is kept, as ``_candidates`` kept it (issue 17,
    # P1: most sight lines then have no blocker left; ``test_sight_hull_filter.py`` holds ``sees``
    # to the test over ``_candidates``).
    ax, ay = 2 * a[0] + a[1], 3 * a[1]
    ex, ey = 2 * b[0] + b[1] - ax, 3 * b[1] - ay
    m2 = 2 * max(abs(ex - ey), abs(ex + ey), 2 * abs(ex))
    mm2 = 2 * max(abs(ex + ey), abs(ey - ex), 2 * abs(ey))
    far = ex * ex + ey * ey + mm2
    # Each kept blocker's centre, for ``segment_enters_hex``'s own first test (the open interior
    # lies strictly inside the corners' box), made here without a call: most blockers near a sight
    # line miss most of its 36 corner-to-corner segments (issue 17, P1).
    boxes = []
    for x in blockers:
        cx, cy = 2 * x[0] + x[1], 3 * x[1]
        ux, uy = cx - ax, cy - ay
        f = ex * uy - ey * ux
        if f >= m2 or f <= -m2:
            continue
        g = ex * ux + ey * uy
        if g <= -mm2 or g >= far or x == a or x == b:
            continue
        boxes.append((cx, cy, x))
        side = f
    if not boxes:
        return True
    # The corners on the far side of the centres' line from a blocker (the last kept) first, in
    # both spaces: their segments pass it by most often, so two clear ones are found after fewer
    # segment tests. Which corners are tried first changes no answer, only the work (issue 17, P1).
    if side > 0:
        away = [ex - ey, 2 * ex, ex + ey, ey - ex, -2 * ex, -ex - ey]
    else:
        away = [ey - ex, -2 * ex, -ex - ey, ex - ey, 2 * ex, ex + ey]
    order = sorted(range(6), key=away.__getitem__)
    acs = corners(a)
    tcs = corners(b)
    tcs = [tcs[i] for i in order]
    for i in order:
        c = acs[i]
        x0, y0 = c
        clear = 0
        for t in tcs:
            x1, y1 = t
            lo_x, hi_x = (x0, x1) if x0 <= x1 else (x1, x0)
            lo_y, hi_y = (y0, y1) if y0 <= y1 else (y1, y0)
            for cx, cy, _x in boxes:
                if hi_x <= cx - 1 or lo_x >= cx + 1 or hi_y <= cy - 2 or lo_y >= cy + 2:
                    continue
                if _enters(x0, y0, x1 - x0, y1 - y0, cx, cy):  # ``segment_enters_hex(c, t, _x)``
                    break
            else:
                clear += 1
                if clear >= 2:
                    return True
    return False


def line_of_sight(a: Hex, b: Hex, blockers: Iterable[Hex]) -> bool:
    """Line of sight as the engine uses it: the rulebook's corner test in either direction.

    Ruling (RULES.md, "Line of sight is mutual"): the corner test read literally is not
    always symmetric, and a game where A sees B but B cannot see A surprises players; the
    engine grants sight when the test holds from either end."""
    blockers = list(blockers)
    return sees(a, b, blockers) or sees(b, a, blockers)


_ROW_THEN_COLUMN = itemgetter(1, 0)


class Board:
    """A joined board: the two halves of a map placed so the chosen Nexus spaces coincide.

    ``halves[i]`` is the half whose back row is nearest seat-side i after the joining.
    The second half is turned half a circle about its Nexus space and laid on the first
    half's Nexus space of the same colour (L299-303); spaces both halves print (the shared
    front row) belong to both Zones."""

    def __init__(self, spec: dict, nexus: str):
        h0, h1 = spec["halves"]
        if nexus not in h0["nexus"] or nexus not in h1["nexus"]:
            raise KeyError(nexus)
        n0q, n0r = parse(h0["nexus"][nexus])
        n1q, n1r = parse(h1["nexus"][nexus])
        # The second half turned about its Nexus space onto the first's: ``(q, r)`` goes to
        # ``n0 - (h - n1)``, written out below without a call per space (issue 17, P1).
        tq, tr = n0q + n1q, n0r + n1r

        self.map_id = spec["id"]
        self.nexus = nexus
        # Built once per board and process (``content.board``) and only read by play; the dicts
        # are filled in the spec's order, which no caller depends on (each is only looked up,
        # and ``hexes`` is sorted), so no sort of the spec is needed (issue 17, P1). A board is
        # built inside the first replay of a stream on its map, so every table of a space is
        # filled in the one pass over its half that finds it (a space of both halves, the shared
        # front row, is found first in the first half; the second only adds its Zone).
        #: The state's name ("q,r") of each space, and the printed terrain and Zones by that name:
        #: the state names spaces by these strings, and writing one costs more than a lookup.
        names = _NAMES
        terrain: dict[Hex, str] = {}
        zones: dict[Hex, list[int]] = {}
        keys: dict[Hex, str] = {}
        terrain_by_key: dict[str, str] = {}
        zones_by_key: dict[str, list[int]] = {}
        rough = []
        impassable = []

        def place(h: Hex, t: str, zone: int) -> None:
            k = keys[h] = names[h]  # ``key(h)``
            terrain[h] = terrain_by_key[k] = t
            zones[h] = zones_by_key[k] = [zone]
            if t != "open":
                rough.append(k)
                if t == "impassable":
                    impassable.append(h)

        for k, t in h0["hexes"].items():
            place(_COORDS[k], t, 0)  # ``parse(k)``
        if len(terrain) != len(h0["hexes"]):
            # Two names of the first half for one space ("3,1", "03,1"): its terrain is the last
            # one's, so the lists are made again from the terrain as it ends.
            rough = [keys[h] for h, t in terrain.items() if t != "open"]
            impassable = [h for h, t in terrain.items() if t == "impassable"]
        self.clash: list[Hex] = []
        for k, t in h1["hexes"].items():
            q, r = parse(k)
            h = (tq - q, tr - r)
            was = terrain.get(h)
            if was is None:
                place(h, t, 1)
            else:
                if was != t:
                    self.clash.append(h)
                zones[h] = zones_by_key[keys[h]] = [0, 1]
        self.terrain = terrain
        self.zones = zones
        self.keys = keys
        self.terrain_by_key = terrain_by_key
        self.zones_by_key = zones_by_key
        arrival1 = []
        for k in h1["arrival"]:
            q, r = parse(k)
            arrival1.append((tq - q, tr - r))
        self.arrival: list[list[Hex]] = [list(map(parse, h0["arrival"])), arrival1]
        self.hexes: list[Hex] = sorted(terrain, key=_ROW_THEN_COLUMN)
        #: The spaces whose printed terrain is not Open, by name.
        self.rough_keys: frozenset[str] = frozenset(rough)
        #: Each half's Arrival Spaces by name.
        self.arrival_keys: list[frozenset[str]] = [frozenset(map(keys.__getitem__, a)) for a in self.arrival]
        impassable.sort(key=_ROW_THEN_COLUMN)
        self.impassable: list[Hex] = impassable
        self._edge: dict[Hex, bool] = {}
        self._inner_open: list[Hex] | None = None
        # Line of sight between two spaces, by the pair: on one board it depends on nothing else
        # (the printed Impassable spaces never change), and the board lives as long as the process.
        self._los: dict[tuple[Hex, Hex], bool] = {}

    def on_board(self, h: Hex) -> bool:
        return h in self.terrain

    def board_neighbours(self, h: Hex) -> list[Hex]:
        return [n for n in neighbours(h) if n in self.terrain]

    def at_edge(self, h: Hex) -> bool:
        """Next to the outer edge (ruling A-29): fewer than six neighbours on the board. A board
        never changes once built, so each space's answer is kept (issue 17, P1)."""
        edge = self._edge.get(h)
        if edge is None:
            # ``len(self.board_neighbours(h)) < 6``, stopping at the first neighbour off the board,
            # without the lists: asked of nearly every space once per game (issue 17, P1).
            t = self.terrain
            q, r = h
            edge = self._edge[h] = not (
                (q + 1, r) in t
                and (q + 1, r - 1) in t
                and (q, r - 1) in t
                and (q - 1, r) in t
                and (q - 1, r + 1) in t
                and (q, r + 1) in t
            )
        return edge

    def inner_open(self) -> list[Hex]:
        """The spaces printed Open, of no half's Arrival Spaces and not at the edge, in ``hexes``'
        order: where a challenge may go on an empty board (WD-21, rulings A-28/A-29). Each of a
        game's six placements asked it of every space again (issue 17, P1)."""
        out = self._inner_open
        if out is None:
            arrivals = set(self.arrival[0]) | set(self.arrival[1])
            t = self.terrain
            out = self._inner_open = []
            at_edge = self.at_edge
            for h in self.hexes:
                if t[h] == "open" and h not in arrivals and not at_edge(h):
                    out.append(h)
        return out

    def in_zone(self, h: Hex, side: int) -> bool:
        return side in self.zones.get(h, [])

    def los(self, a: Hex, b: Hex) -> bool:
        seen = self._los.get((a, b))
        if seen is None:
            seen = self._los[(a, b)] = line_of_sight(a, b, self.impassable)
        return seen


def reachable(
    start: Hex,
    points: int,
    terrain_of,
    passable,
    enterable,
    cost_of,
) -> dict[Hex, int]:
    """Every space reachable with ``points`` movement, with its cheapest cost.

    ``terrain_of(h)`` is the effective terrain or None off the board; ``passable(h)`` says
    whether the mover may pass through ``h``; ``enterable(h)`` whether it may end there;
    ``cost_of(h)`` the points to enter ``h``. Dijkstra over small integers, in a fixed order."""
    best: dict[Hex, int] = {start: 0}
    frontier = [start]
    while frontier:
        frontier.sort(key=lambda h: (best[h], h[1], h[0]))
        h = frontier.pop(0)
        for n in neighbours(h):
            if terrain_of(n) is None or not passable(n):
                continue
            c = best[h] + cost_of(n)
            if c <= points and c < best.get(n, points + 1):
                best[n] = c
                frontier.append(n)
    return {h: c for h, c in best.items() if h != start and enterable(h)}


def path_cost_cheapest(
    start: Hex, goal: Hex, points: int, terrain_of, passable, cost_of, danger
) -> tuple[int, int] | None:
    """Cheapest (movement cost, dangerous spaces entered) route from start to goal within
    ``points``; ties on cost prefer fewer Dangerous spaces. None when out of reach."""
    best: dict[Hex, tuple[int, int]] = {start: (0, 0)}
    frontier = [start]
    while frontier:
        frontier.sort(key=lambda h: (best[h], h[1], h[0]))
        h = frontier.pop(0)
        for n in neighbours(h):
            if terrain_of(n) is None or (n != goal and not passable(n)) or (n == goal and not passable(n)):
                continue
            cand = (best[h][0] + cost_of(n), best[h][1] + (1 if danger(n) else 0))
            if cand[0] <= points and (n not in best or cand < best[n]):
                best[n] = cand
                frontier.append(n)
    return best.get(goal)
