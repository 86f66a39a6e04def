"""A Clash or Quest draw's outcome is checked without building its chance spec (issue 17, P1):
``rules.possible_draw`` says True only when ``check_outcome(chance_spec(s), outcome)`` accepts the
outcome, and the engine then skips the spec. On random playouts of both rules versions, before
every draw, the outcome drawn and near misses of it (another length, a repeated index, an index
at or past the pool, below zero, a float, a bool, a string, a tuple) are judged by both."""

from collections import Counter

import pytest

from engines.base import IllegalAction
from engines.chance import check_outcome
from engines.chance import draw as chance_draw
from engines.wizarding_duels import rules

from .playouts import group_with, random_playout


def spec_accepts(s, outcome) -> bool:
    try:
        spec = rules.chance_spec(s)
        if spec is None:
            return False
        check_outcome(spec, outcome)
    except (IllegalAction, ValueError):
        return False
    return True


def near_misses(outcome: list, pool: int) -> list:
    out = [outcome[:-1], outcome + [0], outcome + [outcome[0]], [], [pool], [-1], outcome[::-1], tuple(outcome)]
    for i in range(len(outcome)):
        for v in (pool, pool - 1, pool + 1, -1, 0, 1, float(outcome[i]), True, str(outcome[i]), None):
            out.append(outcome[:i] + [v] + outcome[i + 1 :])
    return out


def judge(s, st, outcome, seen):
    fast = rules.possible_draw(s, outcome)
    full = spec_accepts(s, outcome)
    assert not fast or full, (st, outcome)
    if st["step"] == "draw":
        # every possible draw takes the short way
        assert fast == full, (st, outcome)
    seen[st["step"], st.get("pile"), fast] += 1


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_draw_is_taken_as_possible_only_when_its_spec_accepts_it(version):
    seen = Counter()
    configs = [{}] * 5 + [{"groups": [group_with("ashen-regent"), group_with("tobias-fenwick")]}]
    for seed, config in enumerate(configs):
        for _engine, s, seat, rng in random_playout(version, seed, config):
            if seat is not None:
                continue
            st = s["queue"][0]
            spec = rules.chance_spec(s)
            played = chance_draw(spec, rng.randrange)  # drawn like the playout's own
            pool = spec.get("pool", 2)
            for outcome in [played] + near_misses(played, pool):
                judge(s, st, outcome, seen)
            if st["step"] == "draw":
                # The same draw of other sizes, up to past what the deck holds less the cards set
                # aside for Empowerment (``_reserved``), which the playouts seldom reach.
                for n in {1, 2, 3, pool - 1, pool, pool + 1}:
                    window = dict(s, queue=[dict(st, n=n)] + s["queue"][1:])
                    for count in {n, n - 1, pool - rules._reserved(s, st["seat"]), pool}:
                        outcome = list(range(max(count, 0)))
                        judge(window, window["queue"][0], outcome, seen)
                        seen["reserved", rules._reserved(s, st["seat"]) > 0] += 1
    # Both piles were drawn from, and both answers were given for each.
    assert all(seen["draw", pile, answer] > 0 for pile in ("clash", "quest") for answer in (True, False)), seen
    assert seen["coin", None, False] > 0, seen
    assert seen["reserved", True] > 0, seen
