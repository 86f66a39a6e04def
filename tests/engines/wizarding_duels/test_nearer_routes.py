"""``rules.NEARER_ROUTES`` is written out in the source so that no process works it out (issue 17,
P1): for every offset two or three spaces away it holds exactly the routes that come one space
nearer with every step, each once, as the offsets of the spaces they enter; every sequence of
steps there, tried one by one, finds the same."""

import itertools

from engines.wizarding_duels import geometry, rules

ORIGIN = (0, 0)


def nearer_routes_by_trying_every_step_sequence(far):
    routes = {}
    for steps in itertools.product(geometry.DIRECTIONS, repeat=far):
        spaces, q, r = [], 0, 0
        for dq, dr in steps:
            q, r = q + dq, r + dr
            spaces.append((q, r))
        if all(geometry.distance(h, ORIGIN) == i + 1 for i, h in enumerate(spaces)):
            routes.setdefault(spaces[-1], set()).add(tuple(spaces))
    return routes


def test_the_written_out_routes_are_every_route_that_comes_nearer_with_every_step():
    want = {**nearer_routes_by_trying_every_step_sequence(2), **nearer_routes_by_trying_every_step_sequence(3)}
    assert set(rules.NEARER_ROUTES) == set(want)
    for goal, routes in rules.NEARER_ROUTES.items():
        assert len(routes) == len(set(routes)), goal
        assert set(routes) == want[goal], goal


def test_the_written_out_steps_around_a_space_are_its_six_steps_nearest_to_the_goal_first():
    """``rules._AROUND`` is written out for every offset up to five spaces from the goal (issue 17,
    P1): a search reads a space's steps from it up to the first too far, so each offset holds the
    six steps once, each with the distance from the goal of the space it enters, nearest first. A
    farther offset is worked out on its first ask by the same rule."""
    # Searches of earlier tests may have added farther offsets; every near one is there.
    written = dict(rules._AROUND)
    near = {(q, r) for q in range(-5, 6) for r in range(-5, 6) if geometry.distance((q, r), ORIGIN) <= 5}
    assert near <= set(written)
    for offset in [*written, (6, 0), (-4, -3), (0, 7)]:
        steps = rules._AROUND[offset]
        assert sorted((dq, dr) for dq, dr, _ in steps) == sorted(geometry.DIRECTIONS), offset
        for dq, dr, far in steps:
            assert far == geometry.distance((offset[0] + dq, offset[1] + dr), ORIGIN), offset
        assert [far for _, _, far in steps] == sorted(far for _, _, far in steps), offset
