"""``geometry.sees`` keeps only the blockers whose open interior can meet the hull of the two
spaces (two separating axes, exact integers) instead of every blocker within range of both
(``_candidates``), and says there is sight at once when none is left (issue 17, P1). Dropping a
blocker that cannot cut any corner-to-corner segment changes no answer, nor does trying first the
corners on the far side of a blocker (issue 17, P1): on crowded patches, random blocker sets and the
packs' boards, it answers what the corner test over ``_candidates``, in corner order, answers."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.wizarding_duels import content
from engines.wizarding_duels import geometry as g

from .test_hex_geometry import sees_segment_by_segment  # the corner test over every blocker in range

coord = st.integers(min_value=-6, max_value=6)
hexes = st.tuples(coord, coord)


@settings(max_examples=500, deadline=None)
@given(hexes, hexes, st.lists(hexes, max_size=16))
def test_sight_with_the_hull_filter_is_the_corner_test_over_every_blocker_in_range(a, b, blockers):
    assert g.sees(a, b, blockers) == sees_segment_by_segment(a, b, blockers)


def test_sight_between_spaces_of_random_crowded_patches_is_the_corner_test_over_every_blocker_in_range():
    rng = random.Random(17)
    patch = [(q, r) for q in range(-5, 6) for r in range(-5, 6) if abs(q + r) <= 5]
    seen = set()
    for _ in range(10):
        blockers = rng.sample(patch, rng.randint(1, 30))
        for a in patch:
            for b in rng.sample(patch, 12):
                want = sees_segment_by_segment(a, b, blockers)
                seen.add(want)
                assert g.sees(a, b, blockers) == want, (a, b, blockers)
    assert seen == {True, False}


def test_sight_between_every_two_spaces_of_every_board_is_the_corner_test_over_every_blocker_in_range():
    pk = content.load("original-v1")
    for map_id, spec in pk.maps.items():
        for nexus in sorted(spec["halves"][0]["nexus"])[:1]:  # the impassable spaces are the map's
            b = g.Board(spec, nexus)
            for x in b.hexes:
                for y in b.hexes:
                    assert g.line_of_sight(x, y, b.impassable) == (
                        sees_segment_by_segment(x, y, b.impassable) or sees_segment_by_segment(y, x, b.impassable)
                    ), (map_id, nexus, x, y)
