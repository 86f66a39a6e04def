"""Automatic steps taken without a turn of ``rules.run`` (issue 17, P1), held to the step machine.

A fold's draw of one revealed card takes the pick window of that one card and ``after_pick`` itself
(``fast._draw_one``); an action with no step before its "action_end" puts the act step back with no
``run`` (``fast._after_action``); the end of an activation that hands over to the next window asks
no ``run`` (``fast.act_end``). Each must leave the state the copying ``apply`` leaves, which takes
the steps one by one. Along random playouts of both versions, every such event is applied both
ways and the states compared, and each shortcut is met with each of its outcomes."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.base import canonical_json
from engines.wizarding_duels import fast, rules

from .playouts import played_events, varied_configs


def _kind(s, ev):
    """Which shortcut the event meets, or None."""
    st = s["queue"][0]
    if ev["kind"] == "chance":
        if st["step"] == "draw" and st["pile"] == "clash" and st["dest"] == "reveal" and st["n"] == 1:
            return "reveal of one card"
        return None
    action = ev["action"]
    if st["step"] == "act" and isinstance(action, dict):
        if action.get("type") in ("move", "flip"):
            return "action with nothing before its end"
        if action.get("type") == "end":
            return "end of an activation"
    return None


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_step_taken_without_a_turn_of_run_leaves_the_state_the_step_machine_leaves(version, monkeypatch):
    seen: Counter = Counter()
    shortcut = fast._after_action

    def counted(s, seat, steps, quiet, *moved):
        # Whether the act step goes back at once: no step before the end, no Power Pool to refill.
        players = s["players"]
        seen["act step back at once", not steps and not players[0]["refill_due"] and not players[1]["refill_due"]] += 1
        return shortcut(s, seat, steps, quiet, *moved)

    monkeypatch.setattr(fast, "_after_action", counted)
    for seed, config in enumerate(varied_configs()[:4]):
        for engine, s, ev in played_events(version, f"wzd-steps:{version}:{seed}", config):
            kind = _kind(s, ev)
            if kind is None:
                continue
            want = engine.apply(s, ev)
            got = engine.apply_in_place(engine.owned_copy(s), ev)
            assert canonical_json(got) == canonical_json(want), (kind, ev)
            front = got["queue"][0]["step"] if got["queue"] else None
            if kind == "reveal of one card":
                side = got["clash"][s["queue"][0]["side"]] if got["clash"] else None
                # Kept at once, with a 2+'s extra card drawn next, or left to a window of its own.
                seen[kind, "kept" if side and side["kept"] else "not kept", front == "draw"] += 1
            else:
                seen[kind, front] += 1
            # A state a fold leaves never waits at an automatic step: ``run`` took them all.
            assert front is None or rules._STEPS[front] is None, (kind, front)
    assert seen["reveal of one card", "kept", False] > 0, seen
    assert seen["reveal of one card", "kept", True] > 0, seen  # a 2+ kept draws its extra card
    assert seen["end of an activation", "activate"] > 0, seen
    assert seen["end of an activation", "coin"] + seen["end of an activation", "draw"] > 0, seen  # a round's end
    assert seen["act step back at once", True] > 0 and seen["act step back at once", False] > 0, seen
