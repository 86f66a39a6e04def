"""Hostile match configurations through every engine's check, as the platform asks it.

A match's options come from a web API (a new match, a tournament's match_config) and are checked by
``match_config_check`` (matches/services.py): the engine's ``validate_config`` and ``setup``, whose
refusal becomes a MatchError with the engine's code. Anything else an engine raised there would be a
500. A config the engine takes is stored as JSON and set up again by the verifier in another
process: it must come back from JSON as the same config and the same first state.

Generated configs, derandomized and bounded: each default option, or any value nested in it,
replaced by what a client could send instead (JSON numbers are finite here: the API's edge refuses
NaN and infinities before any view runs, config/middleware.py).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import registry
from engines.base import InvalidConfig, canonical_json
from matches.services import MatchError, match_config_check

from .test_hostile_actions import _paths, _replaced

ENGINES = registry.all_engines()
EXAMPLES = 80

_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**64), max_value=2**64),
        st.floats(allow_nan=False, allow_infinity=False),
        st.sampled_from([0, 1, 2, 3, 4, 5, 6, 10, 100, 1000, 10**6, -1, 2.0, "auto", "basic", "", "x"]),
        st.text(max_size=6),
    ),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)),
    max_leaves=8,
)


def _config(engine, data) -> tuple[Any, Any]:
    """(seats, config): the default config of a seat count the engine plays, one thing changed."""
    seats = data.draw(st.integers(min_value=max(0, engine.min_seats - 1), max_value=engine.max_seats + 1))
    base = engine.default_config(min(max(seats, engine.min_seats), engine.max_seats))
    how = data.draw(st.sampled_from(["replace", "replace", "replace", "unknown", "whole"]))
    if how == "replace" and _paths(base):
        return seats, _replaced(base, data.draw(st.sampled_from(_paths(base))), data.draw(_VALUES))
    if how == "unknown":
        return seats, {**base, data.draw(st.text(max_size=6)): data.draw(_VALUES)}
    return seats, data.draw(_VALUES)


@pytest.mark.parametrize("engine", ENGINES, ids=[f"{e.name}@{e.version}" for e in ENGINES])
def test_a_hostile_config_is_refused_with_a_code_or_set_up_again_the_same_from_its_json(engine):
    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def check(data):
        seats, config = _config(engine, data)
        sent = json.dumps(config)
        try:
            normalised = engine.validate_config(config, seats)
            state = engine.setup(normalised, seats)
        except InvalidConfig as exc:
            assert isinstance(exc.code, str) and exc.code
            normalised = None
        assert json.dumps(config) == sent, "the check changed the config it was given"
        if isinstance(config, dict):
            # The platform's own check: a refusal with the engine's code, never another error.
            try:
                match_config_check(engine=engine, config=config, seats=seats)
            except MatchError as exc:
                assert isinstance(exc.code, str) and exc.code
        if normalised is None:
            return
        stored = json.loads(json.dumps(normalised, allow_nan=False))
        assert engine.validate_config(stored, seats) == stored
        assert canonical_json(engine.setup(stored, seats)) == canonical_json(state)

    check()
