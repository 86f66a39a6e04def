"""Line of sight: centre to centre, blocked by squares holding other wizards, never by balls."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import IllegalAction
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.geometry import line_blocked_by, line_of_sight
from engines.wizard_dodgeball.scenario import Table


def test_a_wizard_directly_between_blocks_a_straight_line():
    """Line of sight: the target is visible if the line does not go through an occupied square."""
    assert line_blocked_by((5, 1), (5, 5), (5, 3))
    assert not line_blocked_by((5, 1), (5, 5), (4, 3))


def test_a_diagonal_line_through_a_corner_is_not_blocked_by_the_squares_it_grazes():
    """RULES.md (Line of sight): touching only a corner or an edge is not going through a square."""
    assert line_blocked_by((1, 1), (3, 3), (2, 2))
    assert not line_blocked_by((1, 1), (3, 3), (2, 1))
    assert not line_blocked_by((1, 1), (3, 3), (1, 2))


def test_a_line_crossing_an_edge_midway_goes_through_both_squares_beside_it():
    # (1,1) -> (3,2) passes (2, 1.5): it enters the interiors of both (2,1) and (2,2)
    assert line_blocked_by((1, 1), (3, 2), (2, 1))
    assert line_blocked_by((1, 1), (3, 2), (2, 2))


def test_a_long_diagonal_slips_between_wizards_standing_corner_to_corner():
    """RULES.md (Line of sight): a 45-degree line passes through corners only, so two wizards
    touching the line at their corners do not block it."""
    assert line_of_sight((2, 2), (6, 6), [(3, 2), (2, 3), (5, 4), (4, 5), (6, 5), (5, 6)])
    assert not line_of_sight((2, 2), (6, 6), [(4, 4)])


def test_squares_outside_the_segment_never_block():
    assert not line_blocked_by((3, 3), (5, 5), (2, 2))
    assert not line_blocked_by((3, 3), (5, 5), (6, 6))


def test_burblepot_sees_some_targets_and_not_others_as_in_the_rulebook_diagram():
    """Line of sight diagram: #21 sees A, C, D but not B or E (B and E hidden behind wizards)."""
    burblepot = (5, 8)
    blockers = [(3, 10), (7, 11)]
    a, b, c, d, e = (5, 11), (1, 12), (5, 15), (2, 14), (9, 14)
    visible = {
        name
        for name, sq in zip("ABCDE", (a, b, c, d, e))
        if line_of_sight(burblepot, sq, [x for x in blockers if x != sq])
    }
    assert visible == {"A", "C", "D"}


def test_balls_do_not_block_line_of_sight():
    """Line of sight: balls do not break the line of sight."""
    t = Table.start(E, wizards={21: [5, 7], 45: [5, 11]}, balls={1: {"held_by": 21}, 3: [5, 9]}, active={1: True})
    assert {"type": "throw", "target": 45} in t.legal()


def test_a_teammate_in_the_way_blocks_a_throw():
    t = Table.start(E, wizards={21: [5, 6], 58: [5, 8], 45: [5, 11]}, balls={1: {"held_by": 21}}, active={1: True})
    assert {"type": "throw", "target": 45} not in t.legal()
    with pytest.raises(IllegalAction) as err:
        t.act("throw", target=45)
    assert err.value.code == "no_line_of_sight"


def test_an_opponent_in_the_way_blocks_a_throw_at_the_one_behind():
    t = Table.start(E, wizards={21: [5, 7], 45: [5, 11], 30: [5, 13]}, balls={1: {"held_by": 21}}, active={1: True})
    assert {"type": "throw", "target": 45} in t.legal()
    assert {"type": "throw", "target": 30} not in t.legal()


squares = st.tuples(st.integers(1, 9), st.integers(1, 17))


@settings(max_examples=200, deadline=None)
@given(squares, squares, st.lists(squares, max_size=8))
def test_line_of_sight_is_symmetric(a, b, blockers):
    blockers = [s for s in blockers if s not in (a, b)]
    assert line_of_sight(a, b, blockers) == line_of_sight(b, a, blockers)


@settings(max_examples=200, deadline=None)
@given(squares, squares)
def test_adjacent_squares_always_see_each_other(a, b):
    if max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1:
        others = [(c, r) for c in range(1, 10) for r in range(1, 18) if (c, r) not in (a, b)]
        assert line_of_sight(a, b, others)


def test_the_whole_line_check_agrees_with_asking_each_blocker_on_every_small_court_line():
    """line_of_sight works out the line once for all blockers (issue 17, P1): on every line
    between two squares of a 6 x 6 patch, each square alone (the ends included) blocks it
    exactly when line_blocked_by says so, and a list of squares when one of them does."""
    squares = [(x, y) for x in range(1, 7) for y in range(1, 7)]
    blocked_lines = 0
    for a in squares:
        for b in squares:
            for c in squares:
                want = line_blocked_by(a, b, c)
                assert line_of_sight(a, b, [c]) is not want, (a, b, c)
                blocked_lines += want
            assert line_of_sight(a, b, squares) is not any(line_blocked_by(a, b, c) for c in squares)
    assert blocked_lines > 3000  # 3,176 of the 46,656: the blocking case is well exercised
