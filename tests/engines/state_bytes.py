"""A state's canonical JSON for the tests that compare a fast path's states with the general
path's at every event they try: ``canonical_json``'s bytes, made by orjson.

Those tests spent half their time encoding states (a Wizarding Duels state is about 11 kB of JSON),
and orjson with sorted keys writes them about eight times as fast. For what a state holds (dicts
with string keys, lists, strings, booleans, None, integers) it writes the very bytes
``canonical_json`` writes (tests/engines/test_state_bytes.py holds it to that on every engine's
states). It writes floats below 1e-4 without an exponent, still one text per value, and NaN and the
infinities as null: no engine's state holds a float. A value orjson refuses (a key that is not a
string, an integer past 64 bits) goes to ``canonical_json`` itself."""

from __future__ import annotations

from typing import Any

import orjson

from engines.base import canonical_json


def state_bytes(value: Any) -> bytes:
    """``canonical_json(value)`` for a state, made faster."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:  # orjson.JSONEncodeError is one
        return canonical_json(value)
