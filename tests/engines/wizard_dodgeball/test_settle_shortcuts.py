"""settle skips what the event just applied already tells it (issue 17, P1). Along random
playouts of both versions, with 2 and 4 seats, every shortcut must give the full computation's
answer: each event applied with them gives the state it gives without them, bit for bit, and each
shortcut's answer is compared with the computation it stands for wherever it is asked."""

import copy
import json

import pytest

from engines import registry
from engines.base import IllegalAction
from engines.wizard_dodgeball import rules
from engines.wizard_dodgeball.scenario import arrange
from engines.wizard_dodgeball.state import has_effect, wizard

from ..test_conformance import playout

CASES = [("1", 2), ("2", 2), ("2", 4)]


@pytest.fixture(scope="module", params=CASES, ids=[f"v{v}-{s}seats" for v, s in CASES])
def played(request):
    version, seats = request.param
    engine = registry.get("wizard-dodgeball", version)
    states, events = playout(engine, seats, f"wd-settle:{version}:{seats}", bound=4000, prefix=True)
    return engine, states, events


def test_every_event_settles_as_without_the_shortcuts(played, monkeypatch):
    engine, states, events = played
    full_settle = rules.settle
    for state, event in zip(states, events):
        with monkeypatch.context() as m:
            m.setattr(rules, "settle", lambda s, *hints: full_settle(s))
            want = engine.apply(state, event)
        got = engine.apply(state, event)
        assert json.dumps(got) == json.dumps(want), event


def test_a_free_action_tells_whether_another_is_left(played):
    """After a pick-up the square the ball left is free to drop it on; after a drop the ball lies
    next to the wizard: only Sticky Fingers, or Butter Fingers, takes the other free action away."""
    _, states, events = played
    asked = {"pick_up": 0, "drop": 0}
    refused = 0
    for state, event in zip(states, events):
        action = event.get("action") or {}
        kind = action.get("type")
        if kind not in asked or state["queue"]:
            continue
        after = copy.deepcopy(state)
        goes_on = (rules.do_pick_up if kind == "pick_up" else rules.do_drop)(after, action)
        w = wizard(after, after["turn"]["wizard"])
        shortcut = not has_effect(after, w["j"], "sticky_fingers" if kind == "pick_up" else "butter_fingers")
        assert shortcut == rules.free_action_available(after, w), (event, after["effects"])
        # what the handler tells settle: the turn goes on, as settle's full look would find
        stuck = after["turn"]["actions"] <= 0 or has_effect(after, w["j"], "freeze")
        assert goes_on == (not stuck or rules.free_action_available(after, w)), (event, after["effects"])
        asked[kind] += 1
        refused += not shortcut
    assert min(asked.values()) > 100, asked
    assert refused > 0  # the effect that forbids the free action was met, not only its absence


@pytest.mark.parametrize("kind", ["pick_up", "drop"])
def test_a_free_action_by_a_wizard_under_any_effects_settles_as_the_full_look(kind, monkeypatch):
    """What do_pick_up and do_drop tell settle, in the situations playouts seldom reach (a frozen
    wizard with Sticky Fingers picking up, or with actions left): every mix of Freeze, Sticky
    Fingers, Butter Fingers and 0 to 2 actions, built by hand, settles as the full look does."""
    engine = registry.get("wizard-dodgeball")
    config = engine.validate_config({"first_player": 0}, 2)
    start = engine.setup(config, 2)
    jersey = start["turn"]["wizard"]
    here = wizard(start, jersey)["sq"]
    beside = [here[0] + 1, here[1] + 1]
    full_settle = rules.settle
    ended = went_on = 0
    for frozen in (False, True):
        for sticky in (False, True):
            for butter in (False, True):
                for actions in (0, 1, 2):
                    faces = [
                        f
                        for f, on in (("freeze", frozen), ("sticky_fingers", sticky), ("butter_fingers", butter))
                        if on
                    ]
                    cards = {"freeze": "freeze", "sticky_fingers": "butter_sticky", "butter_fingers": "butter_sticky"}
                    effects = [{"face": f, "card": cards[f], "side": 1, "caster": 45, "wizard": jersey} for f in faces]
                    if kind == "pick_up":
                        balls, action = {1: beside}, {"type": "pick_up", "ball": 1}
                    else:
                        balls, action = {1: {"held_by": jersey}}, {"type": "drop", "to": beside}
                    state = arrange(start, balls=balls, effects=effects, turn=jersey, actions=actions)
                    event = {"kind": "action", "seat": state["turn"]["seat"], "action": action}
                    try:
                        got = engine.apply(state, event)
                    except IllegalAction:
                        continue  # Butter Fingers refuses the pick-up, Sticky Fingers the drop
                    with monkeypatch.context() as m:
                        m.setattr(rules, "settle", lambda s, *hints: full_settle(s))
                        want = engine.apply(state, event)
                    assert json.dumps(got) == json.dumps(want), (faces, actions)
                    if got["turn"]["wizard"] == jersey:
                        went_on += 1
                    else:
                        ended += 1
    assert ended and went_on, (ended, went_on)
