"""An Attack's hit that only damages its victim without killing them is done at once instead of
by its frame (interp._resolution, PLAIN_HITS; issue 17, P1): along random playouts of both
versions, every event must leave the state it leaves with every hit run by its frame."""

import json

import pytest

from engines import registry
from engines.annihilageddon import fast as fast_paths
from engines.annihilageddon import interp
from engines.annihilageddon.engine import copy_state
from engines.base import IllegalAction

from ..test_conformance import playout


class _Counting(dict):
    """PLAIN_HITS or fast.PLAIN_HIT_OPS, counting the lookups that find an effect."""

    found = 0

    def get(self, key, default=None):
        value = super().get(key, default)
        if value is not None:
            _Counting.found += 1
        return value


def _applied(engine, st, ev) -> str:
    try:
        return json.dumps(engine.apply(st, ev))
    except IllegalAction as e:  # a planted token may make an answer wrong: both ways must say so
        return f"refused: {e.code}"


@pytest.mark.parametrize("planted", [False, True], ids=["as-played", "wand-shy"])
@pytest.mark.parametrize("seats", [2, 3, 5])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_a_hit_done_at_once_leaves_the_state_its_frame_leaves(version, seats, planted, monkeypatch):
    """With ``planted``, every player holds Wand-Shy (the Wand deals 3 more damage, the bonus
    op_damage reads), so more hits kill and the Wand's hit counts its bonus."""
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-hit-at-once:{version}:{seats}", bound=900, prefix=True)
    if planted:
        states = [copy_state(st) for st in states]
        for st in states:
            for p in st["players"]:
                p["dwts"] = p["dwts"] + ["dwt-wand-shy"]
    _Counting.found = 0
    monkeypatch.setattr(interp, "PLAIN_HITS", _Counting(interp.PLAIN_HITS))
    monkeypatch.setattr(fast_paths, "PLAIN_HIT_OPS", _Counting(fast_paths.PLAIN_HIT_OPS))
    fast = [_applied(engine, st, ev) for st, ev in zip(states, events)]
    assert _Counting.found > 5
    monkeypatch.setattr(interp, "PLAIN_HITS", {})
    monkeypatch.setattr(fast_paths, "PLAIN_HIT_OPS", {})  # its "take" at once: PLAIN_HITS' too
    slow = [_applied(engine, st, ev) for st, ev in zip(states, events)]
    assert fast == slow


def test_the_plain_hits_are_the_attacks_that_only_damage_their_victim():
    hits = {tuple(map(json.dumps, do)): n for do, n in interp.PLAIN_HITS.values()}
    assert (json.dumps({"op": "damage", "who": "it", "n": 2}),) in hits
    # The Wand's "if this kills them, draw 2" does nothing when no one died.
    wand = interp.CARDS["wand"]["play"][1]["do"]
    assert interp.PLAIN_HITS[id(wand)] == (wand, (1,))
    for do, _ in interp.PLAIN_HITS.values():
        assert all(op["op"] == "damage" or (op["op"] == "if" and "else" not in op) for op in do)


def test_the_attacks_taken_at_once_are_the_plain_hits_a_victim_may_answer():
    ops = list(interp.attack_ops(list(interp.CARDS.values())))
    taken = [op for op, _ in fast_paths.PLAIN_HIT_OPS.values()]
    assert interp.CARDS["wand"]["play"][1] in taken
    assert fast_paths.PLAIN_HIT_OPS[id(interp.CARDS["wand"]["play"][1])][1] == (1,)
    for op in ops:
        plain = id(op["do"]) in interp.PLAIN_HITS
        flagged = op.get("deny") or op.get("interactive") or op.get("unavoidable")
        assert any(op is t for t in taken) == bool(plain and not flagged)
    assert any(op.get("unavoidable") or op.get("deny") for op in ops if id(op["do"]) in interp.PLAIN_HITS)
