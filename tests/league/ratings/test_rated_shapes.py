"""The rebuild's read turns each distinct placements text into seats by place once (issue 17,
P4b), not once per result: what it makes must be what the rule makes result by result.

The reference below is the rule as it was written before the shortcut (placements parsed for
each result, the competitors grouped by place in seat order, each once per place), kept here
so that a fault shared by the shortcut and ``_rated_result`` (both go through ``_rated``)
cannot hide."""

from __future__ import annotations

import json
import random

import pytest

from league.ratings.ledger import RatedResult
from league.ratings.projection import _made_results, _rated_result


def reference(match_id, game, system, placements, clubs, seats, bot, sequence):
    if sequence is None or placements is None:
        return None
    if clubs:
        who = {0: f"club:{clubs[0]}", 1: f"club:{clubs[1]}"}
    elif bot:
        return None
    else:
        who = {seat: f"user:{user}" for seat, user in seats.items()}
    try:
        keys = [who[seat] for seat in range(len(placements))]
    except KeyError:
        return None
    if system == "glicko2" and len(set(keys)) != 2:
        return None
    by_place: dict = {}
    for key, place in zip(keys, placements):
        tied = by_place.setdefault(place, [])
        if key not in tied:
            tied.append(key)
    return RatedResult(match_id, game, [by_place[p] for p in sorted(by_place)], sequence)


def random_rows(rng: random.Random, count: int) -> list[tuple]:
    """Rows as the read gives them: (match id, closing event id, placements, unfinished, clubs,
    seat indexes, user ids, any bot), with few distinct placements (so most hit the cache),
    ties, a person in two seats, seats missing, bots, fixtures and unfinished games."""
    shapes = [[0, 1], [1, 0], [0, 0], [0, 1, 2, 3], [3, 2, 1, 0], [0, 0, 1, 2], [1, 0, 1, 0], [2, 0, 2], [0]]
    rows = []
    for n in range(count):
        places = rng.choice(shapes)
        seats = list(range(len(places)))
        if rng.random() < 0.1:
            seats.pop(rng.randrange(len(seats)))  # a placement with nobody behind it
        users = [rng.randrange(6) for _ in seats]  # six people: some seated twice
        rows.append(
            (
                f"m{n}",
                None if rng.random() < 0.05 else 100 + n,
                None if rng.random() < 0.05 else json.dumps(places),
                json.dumps(True) if rng.random() < 0.05 else None,
                json.dumps(["red", "blue"]) if rng.random() < 0.1 else None,
                seats or None,
                users or None,
                rng.random() < 0.1,
            )
        )
    return rows


def expected(rows, game, system) -> list:
    out = []
    for match_id, sequence, placements, unfinished, clubs, indexes, users, bot in rows:
        if unfinished is not None and json.loads(unfinished):
            continue
        rated = reference(
            match_id,
            game,
            system,
            None if placements is None else json.loads(placements),
            None if clubs is None else json.loads(clubs),
            dict(zip(indexes or (), users or ())),
            bot,
            sequence,
        )
        if rated is not None:
            out.append(rated)
    return out


@pytest.mark.parametrize("system", ["glicko2", "openskill"])
@pytest.mark.parametrize("seed", range(5))
def test_the_reads_results_from_shared_placements_are_the_rules_result_by_result(system, seed):
    rows = random_rows(random.Random(seed), 400)
    want = expected(rows, "g", system)
    assert want  # the rows rate something
    assert list(_made_results(rows, "g", system)) == want
    # The portable read (other databases) gives placements already parsed, not as text.
    parsed = [(m, s, None if p is None else json.loads(p), u, c, i, us, b) for m, s, p, u, c, i, us, b in rows]
    assert list(_made_results(parsed, "g", system)) == want


@pytest.mark.parametrize("system", ["glicko2", "openskill"])
def test_one_result_is_rated_by_the_rule(system):
    for match_id, sequence, placements, _unfinished, clubs, indexes, users, bot in random_rows(random.Random(9), 300):
        args = (
            match_id,
            "g",
            system,
            None if placements is None else json.loads(placements),
            None if clubs is None else json.loads(clubs),
            dict(zip(indexes or (), users or ())),
            bot,
            sequence,
        )
        assert _rated_result(*args) == reference(*args)
