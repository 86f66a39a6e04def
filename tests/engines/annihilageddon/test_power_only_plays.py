"""A card whose play is only Power (Glyph, Fizzle: about half of all plays) adds it at once
instead of running its program through the interpreter (``POWER_ONLY`` in engine.py, issue 17
P1). Along random playouts of both versions, every play gives the state the interpreter gives."""

import json

import pytest

from engines import registry
from engines.annihilageddon import engine as module

from ..test_conformance import playout


@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("version", ["1", "2"])
def test_a_power_only_play_leaves_the_state_the_interpreter_leaves(version, seats, monkeypatch):
    engine = registry.get("annihilageddon", version)
    states, events = playout(engine, seats, f"an-power-only:{version}:{seats}", bound=700, prefix=True)
    plays = [
        (st, ev) for st, ev in zip(states, events) if ev["kind"] == "action" and ev["action"].get("type") == "play"
    ]
    shortcut = [(st, ev) for st, ev in plays if ev["action"]["card"] in module.POWER_ONLY]
    assert len(shortcut) > 20 and len(shortcut) < len(plays)  # both kinds of play are met
    fast = [json.dumps(engine.apply(st, ev)) for st, ev in shortcut]
    monkeypatch.setattr(module, "POWER_ONLY", {})
    slow = [json.dumps(engine.apply(st, ev)) for st, ev in shortcut]
    assert fast == slow
