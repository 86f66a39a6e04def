"""Replay folds a stream in place (``apply_in_place`` on one owned state, issue 17, P1): it must
give what copying ``apply`` gives, touch nothing the caller keeps, and refuse as the copying path
refuses, with no half-changed state coming out."""

import importlib
import io
import json
import pickle
import pkgutil
import types

import pytest

import engines
from engines import registry
from engines.base import CHANCE, Engine, IllegalAction, replay
from engines.spellcaster import board
from engines.wizard_dodgeball import data
from engines.wizarding_duels import content

from .replay_golden import _dump
from .test_conformance import CASES, case_id, engine_id, playout, sample

#: Events per playout: every engine's conformance playouts, cut where long ones go on for thousands.
BOUND = 1500


@pytest.fixture(scope="module", params=CASES, ids=[case_id(c) for c in CASES])
def played(request):
    engine, seats = request.param
    states, events = playout(engine, seats, f"in-place:{engine_id(engine)}:{seats}", bound=BOUND, prefix=True)
    # As the event store gives them back: plain JSON, nothing shared with the playout's states.
    return engine, seats, states, json.loads(json.dumps(events))


def _config(engine, seats):
    return engine.validate_config({}, seats)


def test_replay_in_place_gives_the_copying_states_turns_and_results(played):
    engine, seats, states, events = played
    for k in sample(states, 6):
        got = replay(engine, _config(engine, seats), seats, events[:k])
        want = states[k]
        # The same dicts, key order included, not just equal ones.
        assert _dump(got) == _dump(want), f"after {k} events"
        assert engine.to_move(got) == engine.to_move(want)
        assert engine.result(got) == engine.result(want)
        if engine.to_move(got) == [CHANCE]:
            assert engine.chance(got) == engine.chance(want)


def test_replay_in_place_leaves_the_events_and_the_setup_as_they_were(played):
    engine, seats, states, events = played
    before = json.dumps(events)
    first = replay(engine, _config(engine, seats), seats, events)
    assert json.dumps(events) == before
    # A second fold from a fresh setup: nothing the first one wrote reached a shared container.
    assert _dump(replay(engine, _config(engine, seats), seats, events)) == _dump(first)
    assert _dump(engine.setup(_config(engine, seats), seats)) == _dump(states[0])


def test_an_engines_fold_leaves_what_its_apply_in_place_leaves_event_by_event(played):
    """``replay`` hands the whole stream to ``Engine.fold`` (Wizarding Duels folds it in a loop of
    its own, issue 17, P1): the state must be the one ``apply_in_place`` leaves, event by event."""
    engine, seats, states, events = played
    folded = engine.fold(engine.owned_setup(_config(engine, seats), seats), json.loads(json.dumps(events)))
    state = engine.owned_setup(_config(engine, seats), seats)
    for event in json.loads(json.dumps(events)):
        state = engine.apply_in_place(state, event)
    assert _dump(folded) == _dump(state)


def test_replay_hands_the_stream_to_an_engines_own_fold(played, monkeypatch):
    # An engine that folds a stream its own way (and only that) must have its fold used by replay.
    engine, seats, states, events = played
    its_fold = type(engine).fold
    calls = []

    def own_fold(self, state, stream):
        calls.append(self)
        return its_fold(self, state, stream)

    monkeypatch.setattr(type(engine), "fold", own_fold)
    got = replay(engine, _config(engine, seats), seats, events)
    assert calls == [engine]
    assert _dump(got) == _dump(states[len(events)])


def _refused(engine, seats, state) -> list[dict]:
    to_move = engine.to_move(state)
    refused = [
        {"kind": "action", "seat": seats, "action": {"type": "no-such-action"}},
        {"kind": "action", "seat": 0, "action": {"type": "no-such-action"}},
    ]
    if to_move != [CHANCE]:
        refused.append({"kind": "chance", "outcome": [0]})
    idle = [s for s in range(seats) if s not in to_move]
    if to_move and to_move != [CHANCE] and idle:
        actions = engine.legal_actions(state, to_move[0])
        if actions:
            refused.append({"kind": "action", "seat": idle[0], "action": actions[0]})
    return refused


def test_an_event_refused_mid_fold_makes_the_whole_replay_refuse_and_changes_nothing_kept(played):
    engine, seats, states, events = played
    whole = _dump(replay(engine, _config(engine, seats), seats, events))
    for k in sample(states, 4):
        for bad in _refused(engine, seats, states[k]):
            stream = [*events[:k], bad, *events[k:]]
            kept = json.dumps(stream)
            with pytest.raises(IllegalAction):
                replay(engine, _config(engine, seats), seats, stream)
            assert json.dumps(stream) == kept, f"a refused fold changed its events: {bad!r} after {k}"
    # Whatever the refused folds left half changed went with them: the stream still replays as before.
    assert _dump(replay(engine, _config(engine, seats), seats, events)) == whole


def _static_data() -> bytes:
    """Everything the engines read as fixed data: their modules' tables and their loaded packs,
    courts, rosters, cards and boards. A state built from it and then written in place could
    change it for every later match."""
    tables = {}
    for info in pkgutil.walk_packages(engines.__path__, "engines."):
        module = importlib.import_module(info.name)
        for key, value in vars(module).items():
            if type(value) in (dict, list, tuple) and not key.startswith("__"):
                tables[f"{info.name}.{key}"] = value
    tables["spellcaster"] = [board._standard(), board._life_chart()]
    tables["wizard-dodgeball"] = [data.courts(), data.roster(), data.spell_cards(), data.spell_faces()]
    tables["wizarding-duels"] = [vars(content.load(p)) for p in content.pack_ids()]
    out = io.BytesIO()
    _Snapshot(out).dump(tables)
    return out.getvalue()


class _Snapshot(pickle.Pickler):
    # A memo of compiled tests (Wizarding Duels' quest conditions, rules._LIGHTNING_TESTS) holds
    # closures, which pickle cannot write: for a function, the same object before and after the
    # replays is what counts, so it is written as its identity.
    def reducer_override(self, obj):
        if isinstance(obj, types.FunctionType):
            return int, (id(obj),)
        return NotImplemented


def test_in_place_replays_leave_every_engines_static_data_as_it_was():
    # The playouts come first: the tables some engines fill on first use (Wizard Dodgeball's
    # roster and courts by id, say) are then full before the snapshot, whichever tests ran before.
    streams = []
    for engine, seats in CASES:
        _states, events = playout(engine, seats, f"static:{engine_id(engine)}:{seats}", bound=BOUND, prefix=True)
        streams.append((engine, seats, json.dumps(events)))
    before = _static_data()
    for engine, seats, events in streams:
        replay(engine, _config(engine, seats), seats, json.loads(events))
    assert _static_data() == before


def test_replay_copies_the_setup_only_for_an_engine_that_applies_events_in_place(monkeypatch):
    """Dueling Wizards keeps the copying ``apply``, which never changes the state it is given, so
    its fold needs no copy of the setup (one per game was about 2.5% of its replay); Spellcaster
    writes into its state and gets its own copy first."""
    copies = []
    real = Engine.owned_copy

    def counted(state):
        copies.append(state)
        return real(state)

    monkeypatch.setattr(Engine, "owned_copy", staticmethod(counted))
    for name, wanted in (("dueling-wizards", 0), ("spellcaster", 1)):
        engine = registry.get(name)
        states, events = playout(engine, 2, f"setup-copy:{name}", bound=200, prefix=True)
        copies.clear()
        got = replay(engine, _config(engine, 2), 2, json.loads(json.dumps(events)))
        assert _dump(got) == _dump(states[-1])
        assert len(copies) == wanted, name
