"""engines.treecopy: the whole-state copy replay uses (issue 17, P1)."""

from __future__ import annotations

import copy

import pytest

from engines import registry
from engines.base import CHANCE
from engines.chance import derive
from engines.treecopy import copy_tree

from .test_conformance import Rng


def _containers(value, seen: dict[int, str], path: str = "$") -> str | None:
    """The path of the first container met twice, or None when the value is a tree."""
    if isinstance(value, (dict, list)):
        if id(value) in seen:
            return path
        seen[id(value)] = path
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            found = _containers(v, seen, f"{path}.{k}")
            if found:
                return found
    return None


def test_a_copy_equals_deepcopy_and_shares_nothing_with_its_source():
    state = {"a": [1, 2.5, {"b": None, "c": True}], "d": {"e": ["x", "y"]}, "f": "z"}
    new = copy_tree(state)
    assert new == copy.deepcopy(state)
    assert list(new) == list(state)
    new["a"][2]["b"] = 7
    new["d"]["e"].append("w")
    assert state == {"a": [1, 2.5, {"b": None, "c": True}], "d": {"e": ["x", "y"]}, "f": "z"}


def test_a_container_shared_in_the_source_stays_shared_in_the_copy_as_deepcopy_keeps_it():
    shared = [1, 2]
    new = copy_tree({"x": shared, "y": shared})
    assert new["x"] is new["y"]
    assert new["x"] is not shared


def test_a_class_instance_in_the_state_is_refused_not_copied():
    class Seat:
        pass

    with pytest.raises(ValueError):
        copy_tree({"seat": Seat()})


def test_spellcaster_states_are_trees_so_copying_them_with_marshal_is_a_json_round_trip():
    # Spellcaster copied its state by a JSON round trip, which never keeps a container shared;
    # copy_tree keeps sharing, so the two agree only while no state shares a container.
    engine = registry.get("spellcaster")
    for g in range(3):
        seats = engine.min_seats + g % (engine.max_seats - engine.min_seats + 1)
        state = engine.setup(engine.validate_config({}, seats), seats)
        rng = Rng(f"treecopy:{g}")
        for n in range(400):
            to_move = engine.to_move(state)
            if not to_move:
                break
            if to_move == [CHANCE]:
                event = {"kind": "chance", "outcome": derive(engine.chance(state), b"treecopy", str(g), n)}
            else:
                seat = to_move[int(rng.random() * len(to_move))]
                event = {"kind": "action", "seat": seat, "action": engine.random_action(state, seat, rng)}
            state = engine.apply(state, event)
            assert _containers(state, {}) is None
