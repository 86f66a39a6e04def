"""copy_state copies every container an apply writes into and shares the rest (issue 17, P1; the
audit is its docstring). Along random playouts of every version at 2, 3 and 5 seats: the copy is
equal to the state, key order included; what it shares with the state is reached only through the
parts the audit says are never written into; and applying to copies, in place, every legal action
of the seats to move and the rest of the playout leaves the state copied from as it was."""

import json

import pytest

from engines import registry
from engines.annihilageddon.engine import copy_state

from ..test_conformance import Rng, playout

#: How many of the playout's next events are applied in place to a copy of each state.
FOLLOWING = 12


def _containers(value, out: set[int]) -> set[int]:
    """The ids of every list and dict reached from ``value``."""
    if isinstance(value, (dict, list)) and id(value) not in out:
        out.add(id(value))
        for v in value.values() if isinstance(value, dict) else value:
            _containers(v, out)
    return out


def _never_written(st: dict) -> set[int]:
    """The containers of ``st`` that the audit says no apply writes into."""
    roots = [st["config"], st["need"], st["notes"], st.get("held_notes"), st.get("last_defense")]
    roots += [st["destroyed"], st["mayhem_pile"], st["end_flags"], st["revealed"]]
    roots += [pair for pair in st["deaths"] + st["defending"]]
    roots += [p[k] for p in st["players"] for k in ("ongoing", "dwts", "tile_dealt", "familiar_dealt")]
    for f in st["stack"]:
        roots.append(f["prog"])
        roots += [v for v in f["env"].values()]
    pr = st["prompt"]
    if pr is not None:
        roots += [v for k, v in pr.items() if k != "answers"] if "answers" in pr else [pr]
    out: set[int] = set()
    for root in roots:
        _containers(root, out)
    return out


def _moves(engine, st: dict, following: list) -> list[list]:
    """Event sequences to apply to a copy of ``st``: each legal action of each seat to move, and
    the playout's next events."""
    runs = [following]
    for seat in engine.to_move(st):
        if seat >= 0:
            runs += [[{"kind": "action", "seat": seat, "action": a}] for a in engine.legal_actions(st, seat)]
    return runs


@pytest.mark.parametrize("seats", [2, 3, 5])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_copy_shares_only_what_no_apply_writes_into(version, seats):
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-copy-state:{version}:{seats}", bound=700, prefix=True)
    assert len(events) > 300
    answers_seen = 0
    for i, st in enumerate(states):
        before = json.dumps(st)
        new = copy_state(st)
        assert json.dumps(new) == before
        shared = _containers(st, set()) & _containers(new, set())
        assert shared <= _never_written(st)
        answers_seen += bool(st["prompt"] and st["prompt"].get("answers"))
        for run in _moves(engine, st, events[i : i + FOLLOWING]):
            copy = copy_state(st)
            for event in run:
                copy = engine.apply_in_place(copy, event)
            assert json.dumps(st) == before, (i, run)
    if version != "1" and seats > 2:
        assert answers_seen  # a simultaneous choice with an answer in (two seats: one is asked)


def test_the_copy_is_its_own_where_it_is_written():
    engine = registry.get("annihilageddon")
    states, _ = playout(engine, 3, "an-copy-state-own", bound=200, prefix=True)
    st = states[-1]
    # A Mirror-Mayhem grant is rare in random playouts: one is written in.
    st["temp"] = {"0": {"self_target": True}}
    before = json.dumps(st)
    new = copy_state(st)
    new["main"].append("x")
    new["players"][0]["hand"].append("x")
    new["box"]["tile"].append("x")
    new["turn"]["played"].append("x")
    new["stack"].append({"prog": [], "pc": 0, "env": {}, "work": {}})
    new["deaths"].append([1, 0])
    new["temp"]["0"]["x"] = True
    assert json.dumps(st) == before


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_resampling_writes_only_into_its_own_copy(version):
    # resample_hidden shuffles the dealt tiles and Familiars, which copy_state shares.
    engine = registry.get("annihilageddon", version)
    states, _ = playout(engine, 3, f"an-copy-state-resample:{version}", bound=150, prefix=True)
    rng = Rng(f"an-copy-state-resample:{version}")
    dealt = 0
    for st in states:
        before = json.dumps(st)
        for viewer in (None, 0, 1, 2):
            engine.resample_hidden(st, viewer, rng)
        assert json.dumps(st) == before
        dealt += any(p["tile_dealt"] or p["familiar_dealt"] for p in st["players"])
    assert dealt
