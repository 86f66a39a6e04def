"""``after_play_triggers`` asks first whether the player controls any text a play of the card
sets off (``PLAY_TRIGGERS``; issue 17, P1) and walks only those: along a random playout, with
each card that has an "on play" text controlled beside each card played, it must give the
frames (and take the scopes) the loop over every controlled "on play" text gave."""

import json

import pytest

from engines import registry
from engines.annihilageddon import engine as engine_module
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


@pytest.mark.parametrize("version", ["1", "2", "3"])
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


def _after_play_by_frames(st, f, op):
    """op_after_play before it asked PLAY_TRIGGERS itself: every play handed to after_play_triggers
    and push_then_done."""
    cid = op["card"]
    owner = op.get("owner")
    you = f["env"]["you"]
    p = st["players"][you]
    if owner is None:
        if cid in interp.ONGOING:
            st["turn"]["played"].remove(cid)
            p["ongoing"] = p["ongoing"] + [cid]
    else:
        st["turn"]["borrowed"].remove(cid)
        if cid in interp.ONGOING:
            p["ongoing"] = p["ongoing"] + [cid]
        else:
            st["players"][owner]["discard"].append(cid)
    return interp.push_then_done(st, f, interp.after_play_triggers(st, you, cid))


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_play_of_a_program_beside_each_on_play_text_leaves_the_state_it_left_before(version, monkeypatch):
    """Every card that has a program to run (not Power only) played beside each card with an
    "on play" text: op_after_play's own test of PLAY_TRIGGERS against handing every play to
    after_play_triggers, the state after the play compared."""
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, 3, f"an-after-play-op:{version}", bound=400, prefix=True)
    at = [
        (st, ev["seat"])
        for st, ev in zip(states, events)
        if ev["kind"] == "action" and ev["action"].get("type") == "play"
    ]
    cards = sorted(c for c in CARDS if CARDS[c].get("play") and c not in engine_module.POWER_ONLY)
    cases = [
        (_controlling(st, seat, trig, cid), {"kind": "action", "seat": seat, "action": {"type": "play", "card": cid}})
        for st, seat in at[::10]
        for trig in sorted(HAVING["on_play"])
        for cid in cards[::3]
    ]
    set_off = sum(
        1 for st, ev in cases if interp.controls_any(st, ev["seat"], interp.PLAY_TRIGGERS[ev["action"]["card"]])
    )
    assert len(cases) > 200 and 10 < set_off < len(cases)  # plays that set a text off and plays that do not
    fast = [json.dumps(engine.apply(st, ev)) for st, ev in cases]
    monkeypatch.setitem(interp.HANDLERS, "_after_play", _after_play_by_frames)
    slow = [json.dumps(engine.apply(st, ev)) for st, ev in cases]
    assert fast == slow
