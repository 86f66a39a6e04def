"""Annihilageddon replays every recorded event as it did before the replay speed-up (issue 17, P1).

data/replay_golden.json holds one short hash per event of fixed random playouts of every
version, written with the engine before the speed-up (tests/engines/replay_golden.py): the
whole state, whose turn it is, the chance spec, every legal action and the result.
"""

import pytest

from tests.engines.replay_golden import compute, first_difference, load

CASES = [
    {"version": v, "seats": n, "config": {"max_rounds": r}, "key": f"v{v}-{n}p-rounds-{r}", "bound": 3000}
    for v in ("1", "2")
    for (n, r) in ((2, 6), (3, 3), (5, 2), (4, None))
]


def golden() -> dict:
    return {c["key"]: c for c in load("annihilageddon")["cases"]}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["key"])
def test_a_recorded_playout_replays_to_the_same_states_actions_and_result(case):
    expected = golden()[case["key"]]
    (got,) = compute("annihilageddon", [case])
    assert first_difference(expected, got) is None, first_difference(expected, got)


def test_the_golden_covers_every_version_and_finished_games():
    from engines import registry

    recorded = golden()
    versions = {e.version for e in registry.all_engines() if e.name == "annihilageddon"}
    assert {c["version"] for c in recorded.values()} == versions
    assert all(any(c["ended"] for c in recorded.values() if c["version"] == v) for v in versions)
