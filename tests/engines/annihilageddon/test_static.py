"""``interp.static`` answers one standing modifier without building ``statics``' whole dict, and
``interp.controls_any`` whether a seat controls any of some cards without listing them
(issue 17, P1): at states of random playouts of every version, and at the same states with each
card that has a text of its own controlled by each seat and each grant given, they must answer
what ``statics(st, seat).get(key, default)`` and ``bool(controlled_having(st, seat, having))``
answer, for every key and every set of cards the engine asks about."""

import pytest

from engines import registry
from engines.annihilageddon.cards import CARDS, STATICS
from engines.annihilageddon.engine import PLAY_TRIGGERS, copy_state
from engines.annihilageddon.interp import HAVING, STATIC_SETTERS, controlled_having, controls_any, static, statics

from ..test_conformance import playout

KEYS = (*STATICS, "self_target")
DEFAULTS = (None, 0, 1, 3)
#: Every set of cards the engine asks controls_any about.
HAVINGS = sorted(
    {frozenset(h) for h in (*HAVING.values(), *STATIC_SETTERS.values(), *PLAY_TRIGGERS.values())}, key=sorted
)


def _variants(st: dict, seats: int):
    yield st
    for cid in sorted(set().union(*HAVING.values())):
        for seat in range(seats):
            v = copy_state(st)
            p = v["players"][seat]
            kind = CARDS[cid]["kind"]
            if kind == "tile":
                p["tile"] = cid
                hidden = copy_state(v)
                hidden["revealed"] = {**v["revealed"], "tile": False}  # chosen, not shown yet: not in play
                yield hidden
                v["revealed"] = {**v["revealed"], "tile": True}
            elif kind == "dwt":
                p["dwts"] = p["dwts"] + [cid]
            elif cid == "trophy":
                p["trophy"] = True
            elif kind == "standee":
                p["standee"] = cid
            else:
                p["ongoing"] = p["ongoing"] + [cid]
            yield v
    for key in KEYS:
        for value in (True, 2):
            v = copy_state(st)
            v["temp"] = {**v["temp"], "0": {key: value}}
            yield v


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_static_answers_what_statics_answers(version):
    engine = registry.get("annihilageddon", version)
    seats = 3
    states, _ = playout(engine, seats, f"an-static:{version}", bound=600, prefix=True)
    met = 0
    for st in states[::15]:
        for v in _variants(st, seats):
            for seat in range(seats):
                for having in HAVINGS:
                    assert controls_any(v, seat, having) == bool(controlled_having(v, seat, having)), (seat, having)
                full = statics(v, seat)
                met += bool(full)
                for key in KEYS:
                    for d in DEFAULTS:
                        assert static(v, seat, key, d) == full.get(key, d), (seat, key, d)
    assert met > 100
