"""Annihilageddon's owned_copy is copy_state's for a state (issue 17, P1): it shares with the state
only what no apply writes into. Along random playouts of every version, two owned copies of the
setup folded apart in place (as audit.matchverify folds them), and an owned copy of every tenth
state folded to the end, must reach the copying replay's states and leave what they were copied
from as it was; anything that is not a state is copied whole."""

import json

import pytest

from engines import registry

from ..test_conformance import playout


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_owned_copies_fold_apart_and_leave_what_they_were_copied_from(version, seats):
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-owned-copy:{version}:{seats}", bound=600, prefix=True)
    setup = engine.setup(engine.validate_config({}, seats), seats)
    assert json.dumps(setup) == json.dumps(states[0])
    first = engine.owned_copy(setup)
    second = engine.owned_copy(first)
    for i, ev in enumerate(events):
        first = engine.apply_in_place(first, ev)
        assert json.dumps(first) == json.dumps(states[i + 1])
        assert json.dumps(second) == json.dumps(states[i])  # not moved by the first's fold
        second = engine.apply_in_place(second, ev)
    assert json.dumps(setup) == json.dumps(states[0])
    for i in range(0, len(events), 10):
        before = json.dumps(states[i])
        st = engine.owned_copy(states[i])
        for ev in events[i : i + 40]:
            st = engine.apply_in_place(st, ev)
        assert json.dumps(states[i]) == before


def test_anything_but_a_state_is_copied_whole():
    engine = registry.get("annihilageddon")
    spec = {"kind": "draw", "label": "Seat 0 draws 2", "pool": [["a", 1], ["b", 2]], "count": 2}
    copied = engine.owned_copy(spec)
    assert copied == spec and copied["pool"] is not spec["pool"] and copied["pool"][0] is not spec["pool"][0]
