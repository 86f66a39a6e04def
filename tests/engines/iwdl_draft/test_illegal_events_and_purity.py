"""Malformed events, the end of the draft, and the engine's purity (plain JSON, no mutation)."""

import copy
import json

import pytest

from engines.base import IllegalAction, replay
from engines.iwdl_draft import ENGINE as E

from .helpers import P1, P2, act, basic_with, refused, run_auto, stacked, start


@pytest.mark.parametrize(
    "action",
    [
        "pick",
        {"type": "steal"},
        {"wizard": 21},
        {"type": "pick"},
        {"type": "pick", "wizard": "21"},
        {"type": "pick", "wizard": True},
        {"type": "pick", "wizard": 21, "extra": 1},
        {"type": "pick", "wizard": 21, "auto": "yes"},
        {"type": "take_first_pick", "wizard": 21},
    ],
)
def test_malformed_actions_are_refused_as_bad_action(action):
    state = act(start(top=[21]), 1, {"type": "take_first_pick"})
    refused(state, 1, action, "bad_action")


def test_malformed_team_building_submissions_are_refused_as_bad_action():
    state = basic_with(P1, P2)
    refused(state, 0, {"type": "lineup", "wizards": "21 58 41 25 36"}, "bad_action")
    refused(state, 0, {"type": "spells", "spells": "freeze"}, "bad_action")


@pytest.mark.parametrize(
    "event",
    [
        None,
        {"kind": "action", "seat": 1},
        {"kind": "action", "seat": 1, "action": {"type": "take_first_pick"}, "extra": 1},
        {"kind": "roll", "outcome": [1]},
    ],
)
def test_malformed_events_are_refused(event):
    state = start()
    with pytest.raises(IllegalAction) as info:
        E.apply(state, event)
    assert info.value.code == "bad_event"


@pytest.mark.parametrize("seat", [-1, 2, "1", None])
def test_a_seat_outside_the_draft_is_refused(seat):
    refused(start(), seat, {"type": "take_first_pick"}, "bad_seat")


def test_nothing_happens_after_the_draft_is_over():
    state = run_auto(start())
    refused(state, 0, {"type": "pick", "wizard": state["pool"][0]}, "game_over")
    with pytest.raises(IllegalAction) as info:
        E.apply(state, {"kind": "chance", "outcome": stacked([])})
    assert info.value.code == "game_over"
    assert E.to_move(state) == [] and E.is_terminal(state)


def plain_json(value):
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain_json(v) for v in value)
    return value is None or type(value) in (bool, int, str)


def test_apply_never_mutates_its_input_and_states_are_plain_json():
    for fmt in ("basic", "schoolyard", "tournament"):
        state = E.setup({"format": fmt}, 4 if fmt == "tournament" else 2)
        events = [{"kind": "chance", "outcome": stacked([21, 3])}]
        state = E.apply(state, events[0])
        while E.to_move(state):
            seat = E.to_move(state)[0]
            event = {"kind": "action", "seat": seat, "action": E.auto_action(state, seat)}
            frozen = copy.deepcopy(state)
            after = E.apply(state, event)
            assert state == frozen
            assert plain_json(after) and json.loads(json.dumps(after)) == after
            assert plain_json(E.view(after, None)) and plain_json(E.view(after, seat))
            events.append(event)
            state = after
        replayed = replay(E, {"format": fmt}, 4 if fmt == "tournament" else 2, events)
        assert replayed == state
