"""Dueling Wizards replays every recorded event as it did before the replay speed-up (issue 17, P1).

data/replay_golden.json holds one short hash per event of fixed random playouts of every
version, written with the engine before the speed-up (tests/engines/replay_golden.py): the
whole state, whose turn it is, the chance spec, every legal action and the result.
"""

import pytest

from tests.engines.replay_golden import compute, first_difference, load

CASES = [
    {"version": v, "seats": n, "config": {"jokers": j}, "key": f"v{v}-{n}p-jokers-{j}-{k}", "bound": 5000}
    for v in ("1", "2")
    for n in (2, 3)
    for j in (True, False)
    for k in range(8)
]


def golden() -> dict:
    return {c["key"]: c for c in load("dueling-wizards")["cases"]}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["key"])
def test_a_recorded_playout_replays_to_the_same_states_actions_and_result(case):
    expected = golden()[case["key"]]
    (got,) = compute("dueling-wizards", [case])
    assert first_difference(expected, got) is None, first_difference(expected, got)


def test_the_golden_covers_every_version_and_finished_games():
    from engines import registry

    recorded = golden()
    versions = {e.version for e in registry.all_engines() if e.name == "dueling-wizards"}
    assert {c["version"] for c in recorded.values()} == versions
    assert all(any(c["ended"] for c in recorded.values() if c["version"] == v) for v in versions)
