"""``owned_setup`` (issue 17, P1): Wizarding Duels' replay takes ``setup``'s state as its own
without copying it, because setup builds every container of it once the config is copied. So the
state it returns shares no container with the config it was given, and with the pack only the
effects of the models' attacks, which no apply writes into (a clash keeps a pack's attack profile
as it is, as every fold did before); it equals the setup; and a replay from it equals the copying
``apply`` along playouts of both versions, with Groups built in play and given in the config,
leaving the config as it was (``test_replay_in_place.py`` holds the pack to it)."""

from __future__ import annotations

import json

import pytest

from engines.base import InvalidConfig, replay
from engines.treecopy import copy_tree
from engines.wizarding_duels import content

from .playouts import ENGINES, played_events, varied_configs


def _containers(value, into: dict) -> dict:
    """Every dict and list in ``value``, by id (kept alive in ``into``'s values)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            into[id(v)] = v
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            if isinstance(v, list):
                into[id(v)] = v
            stack.extend(v)
    return into


def _pack_containers(pack_id: str) -> dict:
    pk = content.load(pack_id)
    found = _containers(pk.data, {})
    for table in (pk.characters, pk.spells, pk.artifacts, pk.potions, pk.clash_cards, pk.quests, pk.maps):
        _containers(table, found)
    return _containers(pk.traits_of, found)


def _shared(state, config) -> list:
    """The containers of ``state`` that are the config's or the pack's, but an attack's effects."""
    mine = _containers(state, {})
    for m in state["models"].values():
        for a in m["attacks"]:
            for i in _containers(a["effects"], {}):
                mine.pop(i, None)
    theirs = _containers(config, _pack_containers(state["pack"]))
    return [mine[i] for i in mine.keys() & theirs.keys()]


@pytest.mark.parametrize("version", ["1", "2"])
@pytest.mark.parametrize("config", varied_configs()[3:5], ids=["groups-built", "groups-given"])
def test_the_owned_setup_shares_nothing_and_equals_setup(version, config):
    engine = ENGINES[version]
    given = copy_tree(config)
    owned = engine.owned_setup(config, 2)
    assert owned == engine.setup(config, 2)
    assert _shared(owned, config) == []
    assert config == given  # read, not written


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_replay_from_the_owned_setup_shares_nothing_and_equals_the_copying_apply(version):
    for seed, config in enumerate(varied_configs()[3:]):
        events, last = [], None
        for engine, state, event in played_events(version, seed, config):
            events.append(event)
            last = engine.apply(state, event)
        given = copy_tree(config)
        folded = replay(ENGINES[version], config, 2, json.loads(json.dumps(events)))
        assert folded == last
        assert config == given


@pytest.mark.parametrize("config", [None, {}])
def test_the_owned_setup_of_no_config_is_the_default_setup(config):
    engine = ENGINES["2"]
    assert engine.owned_setup(config, 2) == engine.setup({}, 2)


@pytest.mark.parametrize("config", [[], "pack", object()])
def test_the_owned_setup_refuses_what_setup_refuses(config):
    engine = ENGINES["2"]
    with pytest.raises(InvalidConfig) as refused:
        engine.setup(config, 2)
    with pytest.raises(InvalidConfig) as owned:
        engine.owned_setup(config, 2)
    assert owned.value.code == refused.value.code
