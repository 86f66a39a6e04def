"""copy_state copies the decks, the Line-Up and the players' zones by slicing and the rest with a
marshal round trip (issue 17, P1). Along random playouts of both versions it must give what the
marshal round trip of the whole state gave: equal key for key, in the same order, sharing no
container with the state. Slicing keeps no sharing, so it is sound only while no hand-copied list
is also held somewhere else in the state: that is checked too."""

import json

import pytest

from engines import registry
from engines.annihilageddon.engine import _DEEP_V2, _FLAT_DICTS, _FLAT_LISTS, copy_state
from engines.treecopy import copy_tree

from ..test_conformance import playout


def _containers(value, out: dict[int, int]) -> dict[int, int]:
    """How many times each list or dict is reached from ``value`` (by id)."""
    if isinstance(value, (dict, list)):
        out[id(value)] = out.get(id(value), 0) + 1
        if out[id(value)] == 1:
            for v in value.values() if isinstance(value, dict) else value:
                _containers(v, out)
    return out


def _hand_copied(st: dict) -> list:
    """Every list copy_state copies by slicing, and the dicts that hold them."""
    out = []
    for k in _FLAT_LISTS:
        out.append(st[k])
    for d in [st[k] for k in _FLAT_DICTS] + st["players"]:
        out.append(d)
        out += [v for v in d.values() if isinstance(v, (list, dict))]
    return out


@pytest.mark.parametrize("seats", [2, 3, 5])
@pytest.mark.parametrize("version", ["1", "2"])
def test_copy_state_gives_the_whole_marshal_copy_and_shares_nothing(version, seats):
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-copy-state:{version}:{seats}", bound=1200, prefix=True)
    assert len(events) > 300
    for st in states:
        new = copy_state(st)
        assert json.dumps(new) == json.dumps(copy_tree(st)) == json.dumps(st)
        theirs = _containers(st, {})
        mine = _containers(new, {})
        assert not set(theirs) & set(mine)
        # What the shallow copy shares is immutable: any key that may hold a container is copied.
        for k, v in st.items():
            if k not in _DEEP_V2 and k not in _FLAT_LISTS and k not in _FLAT_DICTS and k != "players":
                assert v is None or type(v) in (int, str, bool), k
        for lst in _hand_copied(st):
            # Reached once: the flat lists hold no container and nothing else holds them.
            assert theirs[id(lst)] == 1
            if isinstance(lst, list):
                assert not any(isinstance(v, (list, dict)) for v in lst)
            else:
                assert all(not isinstance(v, (list, dict)) or isinstance(v, list) for v in lst.values())
                for v in lst.values():
                    if isinstance(v, list):
                        assert not any(isinstance(x, (list, dict)) for x in v)


def test_copy_state_leaves_the_state_alone_and_the_copy_is_its_own():
    engine = registry.get("annihilageddon")
    states, _ = playout(engine, 3, "an-copy-state-own", bound=200, prefix=True)
    st = states[-1]
    before = json.dumps(st)
    new = copy_state(st)
    new["main"].append("x")
    new["players"][0]["hand"].append("x")
    new["box"]["tile"].append("x")
    new["stack"].append({"prog": [], "pc": 0, "env": {}, "work": {}})
    assert json.dumps(st) == before
