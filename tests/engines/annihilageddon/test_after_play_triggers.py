"""``after_play_triggers`` asks first whether the player controls any text a play of the card
sets off (``PLAY_TRIGGERS``; issue 17, P1) and walks only those: along a random playout, with
each card that has an "on play" text controlled beside each card played, it must give the
frames (and take the scopes) the loop over every controlled "on play" text gave."""

import json

import pytest

from engines import registry
from engines.annihilageddon import interp
from engines.annihilageddon.cards import CARDS, matches
from engines.annihilageddon.interp import HAVING, controlled_having, frame, new_scope

from ..test_conformance import playout
from .test_power_only_plays import _controlling


def _every_text(st: dict, seat: int, cid: str) -> list[dict]:
    """after_play_triggers before the shortcut."""
    frames = []
    for trig in controlled_having(st, seat, HAVING["on_play"]):
        if trig == cid:
            continue
        spec = CARDS[trig]["on_play"]
        if not spec or not matches(cid, spec.get("filter")):
            continue
        env = {"you": seat, "source": seat, "card": trig, "scope": new_scope(st), "active": st["active"]}
        if "cond" in spec and not interp.cond(st, env, spec["cond"]):
            continue
        frames.append(frame(spec["do"], env))
    return frames


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_triggers_of_a_play_are_those_the_loop_over_every_text_finds(version):
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, 3, f"an-after-play:{version}", bound=400, prefix=True)
    at = [(st, ev) for st, ev in zip(states, events) if ev["kind"] == "action" and ev["action"].get("type") == "play"]
    cases = [
        (_controlling(st, ev["seat"], trig, ev["action"]["card"]), ev["seat"], cid)
        for st, ev in at[::4]
        for trig in sorted(HAVING["on_play"])
        for cid in sorted({ev["action"]["card"], *sorted(CARDS)[::7]})
    ]
    found = 0
    for st, seat, cid in cases:
        fast_st, slow_st = json.loads(json.dumps(st)), json.loads(json.dumps(st))
        fast = interp.after_play_triggers(fast_st, seat, cid)
        slow = _every_text(slow_st, seat, cid)
        assert json.dumps([fast, fast_st]) == json.dumps([slow, slow_st])
        found += bool(slow)
    assert len(cases) > 200 and 0 < found < len(cases)  # plays that set a text off and plays that do not
