"""Hostile actions through every engine, on the paths the platform takes with a person's action.

A match command checks an action with ``check_action_numbers`` and then ``engine.apply`` (a refusal
is a 422 with the engine's code; any other exception would be a 500); the analysis sandbox asks
``engine.validate`` first; the verifier folds the stored event, as JSON gives it back, in another
process. Here a listed action has one of its values, anywhere in it, replaced by what a client could
send instead (another JSON type, a huge or negative number, a look-alike string, a nested list or
object, a key dropped or added), and every engine must either refuse it with a stable code and
change nothing, or take it exactly as the verifier will replay it.

The near-miss and retyped tests (near_misses.py, test_conformance.py) try fixed neighbours of each
listed action; these try generated ones, derandomized and bounded, so a run takes seconds.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import CHANCE, IllegalAction, canonical_json, check_action_numbers

from .test_conformance import CASES, case_id, playout, sample

#: States per case the generated actions are tried in (spread over a playout's first events).
STATES = 10
#: Events of the playout those states are taken from.
PREFIX = 300
EXAMPLES = 60

_ATOMS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**64), max_value=2**64),
    st.sampled_from([0, 1, -1, 2**53, -(2**53), 10**30]),
    st.text(max_size=6),
    # Look-alikes of ids: Cyrillic a/e/o, a zero-width space, a BOM, full-width digits.
    st.sampled_from(["\u0430", "\u0435", "\u043e", "\u200b", "\ufeff", "\uff11", "NaN", "Infinity", "-0", "1"]),
)


def _json_values(words: list[str]):
    atoms = st.one_of(_ATOMS, st.sampled_from(words)) if words else _ATOMS
    keys = st.sampled_from(words) if words else st.text(max_size=4)
    return st.recursive(
        atoms,
        lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(keys, inner, max_size=3)),
        max_leaves=8,
    )


def _words(value: Any, out: set[str]) -> set[str]:
    """Every string and key in ``value``: ids of cards, spells and squares, the likeliest to confuse."""
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, list):
        for item in value:
            _words(item, out)
    elif isinstance(value, dict):
        for key, item in value.items():
            out.add(key)
            _words(item, out)
    return out


def _paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*prefix, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    return out


def _replaced(value: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, list):
        return [_replaced(v, rest, new) if i == head else v for i, v in enumerate(value)]
    return {k: _replaced(v, rest, new) if k == head else v for k, v in value.items()}


def _reversed_keys(value: Any) -> Any:
    # PostgreSQL's jsonb gives an object's keys back in its own order, not the client's.
    if isinstance(value, dict):
        return {k: _reversed_keys(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [_reversed_keys(v) for v in value]
    return value


@pytest.fixture(scope="module", params=CASES, ids=[case_id(c) for c in CASES])
def spots(request):
    """(engine, [(state, seat, listed actions)]) at states spread over a playout's start."""
    engine, seats = request.param
    states, _events = playout(engine, seats, f"hostile:{engine.name}@{engine.version}:{seats}", PREFIX, prefix=True)
    movers = [s for s in states if engine.to_move(s) and engine.to_move(s) != [CHANCE]]
    out = []
    for i in sample(movers, STATES):
        state = movers[i]
        for seat in engine.to_move(state):
            out.append((state, seat, engine.legal_actions(state, seat)))
    words = sorted(set().union(*(_words(a, set()) for _s, _seat, listed in out for a in listed[:20])))
    return engine, out, words


def _outcome(engine, state, seat: int, action: Any) -> tuple[str, Any]:
    """What a match command makes of ``action``: ("refused", code) or ("taken", new state)."""
    try:
        check_action_numbers(action)
        return "taken", engine.apply(state, {"kind": "action", "seat": seat, "action": action})
    except IllegalAction as exc:
        return "refused", exc.code


def test_a_hostile_action_is_refused_with_a_code_and_changes_nothing_or_replays_as_it_was_taken(spots):
    engine, places, words = spots
    values = _json_values(words[:80])

    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def check(data):
        state, seat, listed = data.draw(st.sampled_from(places))
        base = data.draw(st.sampled_from(listed))
        how = data.draw(st.sampled_from(["replace", "replace", "replace", "drop", "add", "whole"]))
        if how == "replace" and _paths(base):
            action = _replaced(base, data.draw(st.sampled_from(_paths(base))), data.draw(values))
        elif how == "drop" and len(base) > 1:
            dropped = data.draw(st.sampled_from(sorted(k for k in base if k != "type")))
            action = {k: v for k, v in base.items() if k != dropped}
        elif how == "add":
            action = {**base, data.draw(st.sampled_from(words[:80] or ["x"])): data.draw(values)}
        else:
            action = data.draw(values)
        before = canonical_json(state)

        kind, got = _outcome(engine, state, seat, action)
        assert canonical_json(state) == before, f"{action!r} changed the state it was applied to"
        # The sandbox asks validate before it applies: the same answer, and nothing changed.
        try:
            check_action_numbers(action)
            engine.validate(state, seat, action)
            validated = "taken"
        except IllegalAction as exc:
            validated = "refused"
            assert kind == "refused", f"validate refused {action!r} ({exc.code}) that apply took"
        assert validated == kind, f"validate took {action!r} that apply refused ({got})"
        assert canonical_json(state) == before
        if kind == "refused":
            assert isinstance(got, str) and got, f"{action!r} was refused without a code"
            return
        # Taken: the verifier folds the stored event (JSON, keys in the database's order) in place.
        stored = json.loads(json.dumps({"kind": "action", "seat": seat, "action": _reversed_keys(action)}))
        replayed = engine.fold(engine.owned_copy(state), [stored])
        assert canonical_json(replayed) == canonical_json(got), f"{action!r} replays to another state"
        line = engine.describe(state, {"kind": "action", "seat": seat, "action": action}, got)
        assert engine.describe(state, stored, replayed) == line

    check()
