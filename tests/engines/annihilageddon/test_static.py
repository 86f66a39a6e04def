"""``interp.static`` answers one standing modifier without building ``statics``' whole dict
(issue 17, P1): at states of random playouts of both versions, and at the same states with each
card that has a static text controlled by each seat and each grant given, it must answer what
``statics(st, seat).get(key, default)`` answers for every key."""

import pytest

from engines import registry
from engines.annihilageddon.cards import CARDS, STATICS
from engines.annihilageddon.engine import copy_state
from engines.annihilageddon.interp import HAVING, static, statics

from ..test_conformance import playout

KEYS = (*STATICS, "self_target")
DEFAULTS = (None, 0, 1, 3)


def _variants(st: dict, seats: int):
    yield st
    for cid in sorted(HAVING["static"]):
        for seat in range(seats):
            v = copy_state(st)
            p = v["players"][seat]
            if CARDS[cid]["kind"] == "tile":
                p["tile"] = cid
                v["revealed"] = {**v["revealed"], "tile": True}
            elif CARDS[cid]["kind"] == "dwt":
                p["dwts"] = p["dwts"] + [cid]
            else:
                p["ongoing"] = p["ongoing"] + [cid]
            yield v
    for key in KEYS:
        for value in (True, 2):
            v = copy_state(st)
            v["temp"] = {**v["temp"], "0": {key: value}}
            yield v


@pytest.mark.parametrize("version", ["1", "2"])
def test_static_answers_what_statics_answers(version):
    engine = registry.get("annihilageddon", version)
    seats = 3
    states, _ = playout(engine, seats, f"an-static:{version}", bound=600, prefix=True)
    met = 0
    for st in states[::15]:
        for v in _variants(st, seats):
            for seat in range(seats):
                full = statics(v, seat)
                met += bool(full)
                for key in KEYS:
                    for d in DEFAULTS:
                        assert static(v, seat, key, d) == full.get(key, d), (seat, key, d)
    assert met > 100
