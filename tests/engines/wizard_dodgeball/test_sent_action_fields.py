"""An action as a client sends it holds only the fields its type has (RULES.md "Fields of an
action"): the rules read those and ignore any other, which would otherwise be stored in the
match's public, hash-chained record for good. The check is made where actions arrive, never in a
replay: a stream recorded before it, with such a field, still folds to the same state."""

from __future__ import annotations

import pytest

from engines import registry
from engines.base import IllegalAction, replay
from engines.wizard_dodgeball.engine import ACTION_FIELDS

from ..test_conformance import playout

ENGINE = registry.get("wizard-dodgeball")


def refused(action) -> str:
    with pytest.raises(IllegalAction) as caught:
        ENGINE.check_sent_action(action)
    return caught.value.code


def test_every_legal_action_of_a_playout_passes_the_check():
    states, _ = playout(ENGINE, 2, "wd-sent-fields", bound=400, prefix=True)
    seen = set()
    for state in states[::3]:
        for seat in ENGINE.to_move(state):
            if seat < 0:
                continue
            for action in ENGINE.legal_actions(state, seat):
                ENGINE.check_sent_action(action)  # raises if the table lacks a field the rules list
                seen.add(action["type"])
    assert {"move", "end_turn", "throw"} <= seen


@pytest.mark.parametrize(
    "action",
    [
        {"type": "end_turn", "note": "x" * 1000},
        {"type": "end_turn", "to": [1, 2]},
        {"type": "move", "to": [3, 4], "via": [[3, 3]]},
        {"type": "throw", "target": 7, "power": 9},
        {"type": "cast", "spell": "freeze", "targets": [{"wizard": 3}], "comment": "gg"},
    ],
)
def test_a_field_the_type_does_not_have_is_refused(action):
    assert refused(action) == "unknown_field"


def test_a_move_naming_no_ball_to_pick_up_leaves_the_field_out():
    assert refused({"type": "move", "to": [3, 4], "pick_up": None}) == "bad_action"


def test_the_shape_alone_is_checked_the_rest_is_the_rules_business():
    # Unknown types and non-objects are left to apply, which refuses them with its own codes.
    for action in ({"type": "fly"}, {"type": 3}, [1], None):
        ENGINE.check_sent_action(action)
    assert set(ACTION_FIELDS) >= {"end_turn", "move", "pick_up", "drop", "throw", "pass", "cast"}


def test_a_recorded_action_with_an_extra_field_still_replays_to_the_same_state():
    states, events = playout(ENGINE, 2, "wd-sent-fields-replay", bound=60, prefix=True)
    index = next(i for i, e in enumerate(events) if e["kind"] == "action" and e["action"]["type"] == "end_turn")
    marked = [dict(e) for e in events]
    marked[index] = {**marked[index], "action": {**marked[index]["action"], "note": "recorded before the check"}}
    config = ENGINE.validate_config({}, 2)
    assert replay(ENGINE, config, 2, marked) == replay(ENGINE, config, 2, events)
