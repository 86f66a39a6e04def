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
