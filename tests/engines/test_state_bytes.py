"""The comparison tests' state encoder (tests/engines/state_bytes.py) writes ``canonical_json``'s
bytes: on states along every engine's playouts, on their views, and on the values where orjson and
``json`` could part ways."""

from __future__ import annotations

import pytest

from engines.base import canonical_json

from .state_bytes import state_bytes
from .test_conformance import CASES, case_id, playout, sample


@pytest.mark.parametrize("case", CASES, ids=[case_id(c) for c in CASES])
def test_every_engines_states_and_views_encode_to_the_canonical_bytes(case):
    engine, seats = case
    states, _events = playout(engine, seats, f"state-bytes:{case_id(case)}", bound=400, prefix=True)
    for k in sample(states, 25):
        s = states[k]
        assert state_bytes(s) == canonical_json(s), f"state {k}"
        for viewer in [None, *range(seats)]:
            v = engine.view(s, viewer)
            assert state_bytes(v) == canonical_json(v), f"view of state {k} for {viewer}"


@pytest.mark.parametrize(
    "value",
    [
        {"b": 1, "a": [True, False, None], "": {}, "é": "ü"},
        'quotes " back\\slash, control \x00\x1f\x7f, line \u2028 and an emoji \U0001f9d9',
        [0, -1, 2**63 - 1, -(2**63), 2**64 - 1],
        [1.0, 0.5, -0.0, 1e15, 1e16, 123456789.125, 0.0001],
        ("a tuple", 1),
        {"k": ["x"] * 3},
    ],
)
def test_values_orjson_writes_are_written_as_canonical_json_writes_them(value):
    assert state_bytes(value) == canonical_json(value)


@pytest.mark.parametrize("value", [{1: "an integer key"}, {"a": 2**64}, {True: None}, [{"x": -(2**63) - 1}]])
def test_values_orjson_refuses_go_to_canonical_json(value):
    assert state_bytes(value) == canonical_json(value)


def test_equal_values_of_another_type_still_differ():
    # The comparison tests rely on it: a fast path that wrote True or 1.0 where the general path
    # wrote 1 has not given the same state.
    assert len({state_bytes(x) for x in ([1], [True], [1.0], ["1"])}) == 4
