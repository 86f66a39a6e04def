"""Hex geometry: ranges, adjacency, movement costs and exact line of sight (ruling A-36)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.wizarding_duels import geometry as g

coord = st.integers(min_value=-5, max_value=5)
hexes = st.tuples(coord, coord)
blocker_lists = st.lists(hexes, max_size=8)


@given(hexes, hexes)
def test_range_is_symmetric_and_zero_only_on_the_same_space(a, b):
    """WD-29/WD-30, rulebook L297 and L311-319: range counts spaces from the first adjacent one to the
    target's; range 0 is the own space."""
    assert g.distance(a, b) == g.distance(b, a)
    assert (g.distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_range_obeys_the_triangle_inequality(a, b, c):
    assert g.distance(a, c) <= g.distance(a, b) + g.distance(b, c)


@given(hexes)
def test_the_six_neighbours_are_exactly_the_spaces_at_range_one(h):
    """WD-31, rulebook L321-325: adjacent spaces touch, i.e. range 1."""
    ring = [
        (h[0] + dq, h[1] + dr)
        for dq in range(-2, 3)
        for dr in range(-2, 3)
        if g.distance(h, (h[0] + dq, h[1] + dr)) == 1
    ]
    assert sorted(ring) == sorted(g.neighbours(h))
    assert all(g.adjacent(h, n) for n in g.neighbours(h))


def test_neighbouring_hexes_share_an_edge_of_two_corners_in_the_integer_frame():
    for n in g.neighbours((0, 0)):
        assert len(set(g.corners((0, 0))) & set(g.corners(n))) == 2


def test_range_counts_spaces_whatever_lies_between():
    """EX-21 (L315-319): range equals hex distance; terrain, markers and models are ignored."""
    assert g.distance((0, 0), (3, 0)) == 3
    assert g.distance((0, 0), (2, -1)) == 2
    assert g.distance((0, 0), (-2, 4)) == 4


@settings(max_examples=300, deadline=None)
@given(hexes, hexes, blocker_lists)
def test_line_of_sight_is_mutual(a, b, blockers):
    """L347-357 with the mutual-sight ruling in RULES.md: if A sees B then B sees A."""
    blockers = [x for x in blockers if x not in (a, b)]
    assert g.line_of_sight(a, b, blockers) == g.line_of_sight(b, a, blockers)


@settings(max_examples=200, deadline=None)
@given(hexes, hexes)
def test_nothing_but_impassable_blocks_sight(a, b):
    """L355-357: models, other terrain, markers and overlays never cut a sight line, so with no
    Impassable space on the board every space sees every other."""
    assert g.line_of_sight(a, b, [])


@settings(max_examples=300, deadline=None)
@given(hexes, hexes, blocker_lists, hexes)
def test_adding_an_impassable_space_never_creates_sight(a, b, blockers, extra):
    blockers = [x for x in blockers if x not in (a, b)]
    if extra in (a, b):
        return
    if not g.line_of_sight(a, b, blockers):
        assert not g.line_of_sight(a, b, blockers + [extra])


def test_a_pillar_between_two_spaces_in_a_straight_row_blocks_sight():
    assert not g.line_of_sight((0, 0), (2, 0), [(1, 0)])
    assert not g.line_of_sight((0, 0), (3, 0), [(1, 0)])
    assert g.line_of_sight((0, 0), (2, 0), [])


def test_a_line_sliding_along_an_edge_or_through_a_vertex_is_not_blocked():
    """Ruling A-36: only the interior of an Impassable space blocks."""
    # the segment along the shared edge of (0,0) and (1,0) only touches both hexes
    edge = g.corners((0, 0))[0], g.corners((0, 0))[5]
    assert not g.segment_enters_hex(edge[0], edge[1], (0, 0))
    assert not g.segment_enters_hex(edge[0], edge[1], (1, 0))
    # a line through a hex's centre enters it
    assert g.segment_enters_hex(g.centre((-1, 0)), g.centre((1, 0)), (0, 0))


def test_a_pillar_off_to_the_side_leaves_two_corners_in_view():
    # (0,0) to (2,0) passes by (1,-1): that pillar touches the row only at corners
    assert g.line_of_sight((0, 0), (2, 0), [(1, -1)])
    assert g.line_of_sight((0, 0), (2, 0), [(1, -1), (0, 1)])


def test_the_literal_corner_test_is_not_always_symmetric_which_is_why_sight_is_mutual():
    """The example that made the mutual-sight ruling necessary (RULES.md)."""
    blockers = [(-1, 3), (-4, -3), (1, -1), (0, 1), (0, 2), (0, 3)]
    assert g.sees((-4, -4), (-3, 4), blockers) != g.sees((-3, 4), (-4, -4), blockers)
    assert g.line_of_sight((-4, -4), (-3, 4), blockers) == g.line_of_sight((-3, 4), (-4, -4), blockers)


def test_movement_pays_two_for_difficult_and_never_enters_impassable():
    """L1186-1198: Difficult costs 2 movement to enter; Impassable cannot be entered or crossed."""
    terrain = {(q, 0): "open" for q in range(0, 6)}
    terrain[(1, 0)] = "difficult"
    terrain[(3, 0)] = "impassable"
    reach = g.reachable(
        (0, 0),
        3,
        terrain_of=lambda h: terrain.get(h),
        passable=lambda h: terrain[h] != "impassable",
        enterable=lambda h: True,
        cost_of=lambda h: 2 if terrain[h] == "difficult" else 1,
    )
    assert reach == {(1, 0): 2, (2, 0): 3}


def test_three_movement_on_open_ground_reaches_exactly_three_spaces_out():
    """EX-3 (L657-661): a Movement action covers up to 3 spaces; a 4th is out of reach."""
    terrain = {(q, r): "open" for q in range(-6, 7) for r in range(-6, 7)}
    reach = g.reachable((0, 0), 3, terrain.get, lambda h: True, lambda h: True, lambda h: 1)
    assert (2, 0) in reach and (3, 0) in reach and (4, 0) not in reach
    assert max(g.distance((0, 0), h) for h in reach) == 3


def _enters_by_fractions(p0, p1, h):
    """``segment_enters_hex`` as it was written first, with ``Fraction`` ends of the interval (the
    engine now compares the ends by cross-multiplying and first rejects a segment outside the
    hex's box, issue 17 P1)."""
    from fractions import Fraction

    cs = g.corners(h)
    lo = hi = None
    for i in range(6):
        a, b = cs[i], cs[(i + 1) % 6]
        f0 = (b[0] - a[0]) * (p0[1] - a[1]) - (b[1] - a[1]) * (p0[0] - a[0])
        f1 = (b[0] - a[0]) * (p1[1] - a[1]) - (b[1] - a[1]) * (p1[0] - a[0])
        d = f1 - f0
        if d == 0:
            if f0 <= 0:
                return False
            continue
        t = Fraction(-f0, d)
        if d > 0:
            lo = t if lo is None or t > lo else lo
        else:
            hi = t if hi is None or t < hi else hi
    if lo is not None and hi is not None and lo >= hi:
        return False
    if lo is not None and lo >= 1:
        return False
    return not (hi is not None and hi <= 0)


def test_a_segment_between_corners_enters_a_hex_exactly_when_the_fractions_say_so():
    """Every segment from a corner of a space to a corner of one within range 4 against every space
    near it, both ways round: the sight lines ``sees`` draws. Both answers occur."""
    spaces = [(q, r) for q in range(-2, 3) for r in range(-2, 3)]
    seen = set()
    for a in spaces:
        for b in spaces:
            if g.distance(a, b) > 4:
                continue
            for c in g.corners(a):
                for t in g.corners(b):
                    for x in spaces:
                        if g.distance(a, x) <= 2:
                            want = _enters_by_fractions(c, t, x)
                            assert g.segment_enters_hex(c, t, x) == want, (c, t, x)
                            seen.add(want)
    assert seen == {True, False}


@given(
    st.tuples(st.integers(-30, 30), st.integers(-30, 30)), st.tuples(st.integers(-30, 30), st.integers(-30, 30)), hexes
)
def test_any_segment_enters_a_hex_exactly_when_the_fractions_say_so(p0, p1, h):
    assert g.segment_enters_hex(p0, p1, h) == _enters_by_fractions(p0, p1, h)


def sees_segment_by_segment(a, b, blockers):
    """``geometry.sees`` as it was before it tested the blockers' boxes itself (issue 17, P1): every
    corner-to-corner segment asked of ``segment_enters_hex`` for every nearby blocker."""
    if a == b:
        return True
    near = g._candidates(a, b, blockers)
    for c in g.corners(a):
        if sum(1 for t in g.corners(b) if not any(g.segment_enters_hex(c, t, x) for x in near)) >= 2:
            return True
    return False


@settings(max_examples=3000, deadline=None)
@given(hexes, hexes, st.lists(hexes, max_size=12))
def test_sight_tests_each_segment_as_the_segment_test_does(a, b, blockers):
    assert g.sees(a, b, blockers) == sees_segment_by_segment(a, b, blockers)


def test_sight_between_every_pair_of_a_crowded_patch_is_the_segment_tests():
    patch = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]
    blockers = [h for i, h in enumerate(patch) if i % 3 == 1]
    seen = set()
    for a in patch:
        for b in patch:
            seen.add(g.sees(a, b, blockers))
            assert g.sees(a, b, blockers) == sees_segment_by_segment(a, b, blockers), (a, b)
    assert seen == {True, False}


def test_every_short_segment_near_a_hex_enters_it_exactly_when_the_fractions_say_so():
    """Every segment between points of a box around one hex, corners or not: ``segment_enters_hex``
    first asks whether the segment's line passes the hex by (issue 17, P1), and a bound one too
    tight there turns some entering segments away; these are among them."""
    h = (1, 0)  # centre (2, 0) in the integer frame
    points = [(x, y) for x in range(-3, 8) for y in range(-5, 6)]
    seen = set()
    for p0 in points:
        for p1 in points:
            want = _enters_by_fractions(p0, p1, h)
            assert g.segment_enters_hex(p0, p1, h) == want, (p0, p1)
            seen.add(want)
    assert seen == {True, False}


@given(st.tuples(st.integers(-1000, 1000), st.integers(-1000, 1000)))
def test_a_spaces_name_is_its_two_coordinates_and_parses_back_whether_kept_or_not(h):
    """``key`` keeps names it has written, up to a bound; a kept name and a newly written one are
    the same text."""
    assert g.key(h) == f"{h[0]},{h[1]}" == g.key(h)
    assert g.parse(g.key(h)) == h


def test_names_past_the_memos_bound_are_still_written():
    names = [g.key((q, 5000)) for q in range(9000)]
    assert names == [f"{q},5000" for q in range(9000)]
