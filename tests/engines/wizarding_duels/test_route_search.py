"""A move is checked and made with a route search toward its one destination (issue 17, P1):
``rules._safest_to`` and ``rules._routes_to`` search only the pairs (space, points used) from which
the destination is still within reach, and ``_safest_to`` first looks for a route that enters no
Dangerous space and comes nearer with every step (``_clear_route``). On random boards of every terrain, for Fly and Scout
movers and 0 to 6 points, they answer what the whole searches (``_safest``, ``_routes``) answer for
that space; ``safest_to`` and ``riskier_routes_to`` do so with or without a whole search kept."""

import random
from collections import Counter

import pytest

from engines.wizarding_duels import geometry, rules
from engines.wizarding_duels.state import board

TERRAINS = ["open"] * 4 + ["difficult", "impassable", "dangerous", "dangerous", "obscuring"]


def random_board(rng):
    radius = rng.randint(2, 4)
    spaces = [(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1) if abs(q + r) <= radius]
    return {h: rng.choice(TERRAINS) for h in spaces}


def steps_on(terrain, fly, scout):
    """The steps ``rules._step_rules`` allows, written out from its docstring's rule."""

    def steps(h):
        out = []
        for n in geometry.neighbours(h):
            t = terrain.get(n)
            if t is None or (t == "impassable" and not fly):
                continue
            out.append(
                (n, 2 if t == "difficult" and not fly and not scout else 1, 1 if t == "dangerous" and not fly else 0)
            )
        return out

    return steps


def entry_on(terrain, fly, scout):
    """``entry(n)`` (``rules._Entries``) by ``steps_on``'s rule: the step into ``n``, or None."""

    def entry(n):
        t = terrain.get(n)
        if t is None or (t == "impassable" and not fly):
            return None
        return 2 if t == "difficult" and not fly and not scout else 1, 1 if t == "dangerous" and not fly else 0

    return entry


@pytest.mark.parametrize("seed", range(4))
def test_a_search_toward_one_space_finds_what_the_whole_search_finds_there(seed):
    rng = random.Random(seed)
    answers = set()
    for _ in range(60):
        terrain = random_board(rng)
        fly, scout = rng.random() < 0.2, rng.random() < 0.2
        steps, entry = steps_on(terrain, fly, scout), entry_on(terrain, fly, scout)
        start, points = rng.choice(sorted(terrain)), rng.randint(0, 6)
        best = rules._safest(steps, start, points)
        reach = rules._routes(steps, start, points)
        for goal in sorted(terrain):
            safest = min((best[(goal, u)] for u in range(points + 1) if (goal, u) in best), default=-1)
            assert rules._safest_to(entry, start, goal, points) == safest, (start, goal, points)
            every = set()
            for u in range(points + 1):
                every.update(reach.get((goal, u), ()))
            assert rules._routes_to(steps, entry, start, goal, points) == every, (start, goal, points)
            answers.add((safest, len(every) > 1))
    # Out of reach, reached without danger and with it, and spaces with several danger counts.
    assert {-1, 0, 1} <= {safest for safest, _ in answers}
    assert any(several for _, several in answers)


def acting_models(seed):
    """Yield ``(state, model, move points)`` at every act step of a random game whose acting
    model stands on the board."""
    from .playouts import random_playout

    for _engine, s, _seat, _rng in random_playout("2", seed, {}):
        st = s["queue"][0] if s["queue"] else None
        if not st or st["step"] != "act" or s["act"] is None:
            continue
        m = s["models"][s["act"]["model"]]
        if m["removed"] or m["hex"] is None:
            continue
        yield s, m, rules.move_points(s, m)


def test_safest_to_and_riskier_routes_read_a_kept_whole_search_as_they_search_toward_one_space():
    """Through the state: a fresh board memo (``_step_memo`` cleared) searches toward the space; once
    ``destinations`` and ``route_dangers`` kept the whole searches, the same answers come from them."""
    compared = riskier = 0
    for s, m, points in acting_models(3):
        for h in sorted(board(s).terrain):
            rules._step_memo.cache_clear()
            toward = rules.safest_to(s, m, points, h)
            risky = rules.riskier_routes_to(s, m, points, h, toward) if toward is not None else None
            rules._step_memo.cache_clear()
            whole = rules.destinations(s, m, points).get(h)
            dangers = rules.route_dangers(s, m, points).get(h, [])
            assert rules.safest_to(s, m, points, h) == toward == whole
            if toward is not None:
                assert rules.riskier_routes_to(s, m, points, h, toward) == risky == [k for k in dangers if k > toward]
                riskier += bool(risky)
            compared += 1
        if compared > 400 and riskier > 0:
            break
    assert compared > 400 and riskier > 0


@pytest.mark.parametrize("seed", range(4))
def test_a_search_for_any_space_to_end_on_answers_what_the_whole_search_lists(seed):
    """``rules._reaches_any`` (``somewhere_to_move``'s search, which stops at the first space a
    model may end on) against the whole search's spaces, with random spaces held by models."""
    rng = random.Random(100 + seed)
    answers = set()
    for _ in range(300):
        terrain = random_board(rng)
        steps = steps_on(terrain, rng.random() < 0.2, rng.random() < 0.2)
        start, points = rng.choice(sorted(terrain)), rng.randint(0, 4)
        held = {h for h in terrain if rng.random() < rng.choice([0.1, 0.5, 0.9])}

        def may_end(h, terrain=terrain, held=held):
            return terrain[h] != "impassable" and h not in held

        whole = any(h != start and may_end(h) for h, _used in rules._safest(steps, start, points))
        assert rules._reaches_any(steps, start, points, may_end) is whole, (start, points)
        answers.add(whole)
    assert answers == {True, False}


def test_somewhere_to_move_says_what_destinations_says_along_playouts():
    from .playouts import random_playout

    seen = set()
    for version, seed in (("1", 5), ("2", 6), ("2", 7)):
        for _engine, s, _seat, _rng in random_playout(version, seed, {}):
            st = s["queue"][0] if s["queue"] else None
            if not st or st["step"] != "act" or s["act"] is None:
                continue
            m = s["models"][s["act"]["model"]]
            if m["removed"] or m["hex"] is None:
                continue
            for points in range(4):
                whole = bool(rules.destinations(s, m, points))
                assert rules.somewhere_to_move(s, m, points) is whole
                seen.add(whole)
    assert seen == {True, False}


def clear_route_by_distance(steps, start, goal, far, points):
    """``rules._clear_route`` as it was: the distance to the goal of every neighbour."""
    layer = {start: 0}
    for left in range(far - 1, -1, -1):
        nearer = {}
        for h, used in layer.items():
            for n, step, add in steps(h):
                c = used + step
                if not add and c + left <= points and geometry.distance(n, goal) == left and c < nearer.get(n, 99):
                    nearer[n] = c
        if not nearer:
            return False
        layer = nearer
    return goal in layer


@pytest.mark.parametrize("seed", range(3))
def test_the_clear_route_steps_only_toward_the_goal_and_finds_what_every_neighbours_distance_finds(seed):
    """A miss of ``_clear_route`` would not change a move (the full search follows), only its
    cost; so it is held to the distance test of every neighbour itself, for every pair of spaces."""
    rng = random.Random(200 + seed)
    found = set()
    for _ in range(20):
        terrain = random_board(rng)
        fly, scout = rng.random() < 0.2, rng.random() < 0.2
        steps, entry = steps_on(terrain, fly, scout), entry_on(terrain, fly, scout)
        points = rng.randint(1, 8)
        for start in sorted(terrain):
            for goal in sorted(terrain):
                far = geometry.distance(start, goal)
                if far > points:
                    continue
                clear = rules._clear_route(entry, start, goal, far, points)
                assert clear is clear_route_by_distance(steps, start, goal, far, points), (start, goal, points)
                found.add((clear, far > 1))
    assert found == {(True, True), (False, True), (True, False), (False, False)}


def test_the_entry_of_a_space_is_what_every_step_list_says_of_a_step_into_it_along_playouts():
    """``_clear_route`` reads ``entry(n)`` (``rules._Entries``) where the full search reads the step
    lists (``rules._Steps``): for every space of the board and of its rim, with the overlays of
    every state where a model acts and for its Fly and Scout, a step list holds ``(n, *entry(n))``
    for each neighbour ``n`` whose entry is not None, in neighbour order, and nothing else."""
    from .playouts import random_playout

    kinds = set()
    for version, seed in (("1", 11), ("2", 12)):
        for _engine, s, _seat, _rng in random_playout(version, seed, {}):
            st = s["queue"][0] if s["queue"] else None
            if not st or st["step"] != "act" or s["act"] is None:
                continue
            m = s["models"][s["act"]["model"]]
            _terrain_of, steps, _searches, entry = rules._step_rules(s, m)
            spaces = set(board(s).terrain)
            for h in sorted(spaces | {n for x in spaces for n in geometry.neighbours(x)}):
                want = [(n, *entry(n)) for n in geometry.neighbours(h) if entry(n) is not None]
                assert steps(h) == want, h
                kinds.update(entry(n) for n in geometry.neighbours(h))
    # Off the board, an open step, a difficult one and a dangerous one were all compared.
    assert {None, (1, 0), (2, 0), (1, 1)} <= kinds


@pytest.mark.parametrize("seed", range(3))
def test_a_search_for_one_danger_count_answers_what_the_list_of_every_count_answers(seed):
    """``rules._route_bits`` with ``want`` stops at the first route with a wanted count; whether it
    found that count is what ``_routes_to`` says, for every count from -1 to beyond the points."""
    rng = random.Random(200 + seed)
    found = Counter()
    for _ in range(40):
        terrain = random_board(rng)
        fly, scout = rng.random() < 0.2, rng.random() < 0.2
        steps, entry = steps_on(terrain, fly, scout), entry_on(terrain, fly, scout)
        start, points = rng.choice(sorted(terrain)), rng.randint(0, 6)
        for goal in sorted(terrain):
            every = rules._routes_to(steps, entry, start, goal, points)
            for k in range(points + 2):
                bits = rules._route_bits(steps, entry, start, goal, points, 1 << k)
                assert (bits >> k & 1 == 1) == (k in every), (start, goal, points, k)
                assert {j for j in range(bits.bit_length()) if bits >> j & 1} <= every
                found[k in every, k > 0] += 1
    assert found[True, True] > 0 and found[False, True] > 0, found


def test_a_move_naming_its_danger_count_is_checked_as_the_list_of_riskier_counts_checks_it():
    """Through the state, with a fresh memo and with the whole searches kept: ``riskier_route_with``
    is ``danger in riskier_routes_to`` for every count from -1 to beyond the points."""
    compared = riskier = 0
    for s, m, points in acting_models(5):
        for h in sorted(board(s).terrain):
            rules._step_memo.cache_clear()
            safest = rules.safest_to(s, m, points, h)
            if safest is None:
                continue
            want = rules.riskier_routes_to(s, m, points, h, safest)
            for kept in (False, True):
                rules._step_memo.cache_clear()
                if kept:
                    rules.route_dangers(s, m, points)
                for danger in range(-1, points + 2):
                    assert rules.riskier_route_with(s, m, points, h, safest, danger) == (danger in want), (h, danger)
            riskier += bool(want)
            compared += 1
        if compared > 200 and riskier > 5:
            break
    rules._step_memo.cache_clear()
    assert compared > 200 and riskier > 5


def nearer_counts(entry, start, goal, points):
    """Every count of Dangerous entries of a route within ``points`` that comes one space nearer
    ``goal`` with every step, by trying every such route."""
    counts = set()

    def walk(h, used, k):
        if h == goal:
            counts.add(k)
            return
        for n in geometry.neighbours(h):
            e = entry(n)
            if e is not None and geometry.distance(n, goal) < geometry.distance(h, goal) and used + e[0] <= points:
                walk(n, used + e[0], k + e[1])

    walk(start, 0, 0)
    return counts


@pytest.mark.parametrize("seed", range(3))
def test_the_counts_of_the_routes_that_come_nearer_are_every_such_routes_count(seed):
    """``_safest_to`` answers from ``rules._nearer_bits`` with no search when its lowest count is the
    goal's own entry or when the points are the distance, and ``_route_bits`` answers a wanted count
    it holds (issue 17, P1); so its counts are held to every such route's, tried one by one."""
    rng = random.Random(300 + seed)
    found = Counter()
    for _ in range(20):
        terrain = random_board(rng)
        fly, scout = rng.random() < 0.2, rng.random() < 0.2
        entry = entry_on(terrain, fly, scout)
        points = rng.randint(1, 6)
        for start in sorted(terrain):
            for goal in sorted(terrain):
                far = geometry.distance(start, goal)
                bits = rules._nearer_bits(entry, start, goal, far, points)
                if not 1 <= far <= 3:
                    assert bits is None
                    continue
                counts = nearer_counts(entry, start, goal, points)
                assert {k for k in range(bits.bit_length()) if bits >> k & 1} == counts, (start, goal, points)
                found[len(counts)] += 1
    # No such route, one count, and several counts.
    assert found[0] and found[1] and sum(n for size, n in found.items() if size > 1), found
