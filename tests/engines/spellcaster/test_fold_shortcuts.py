"""apply_in_place takes the commonest events by shortcuts (issue 17, P1): the deal and the face-up
draw that end a draw (_card_drawn), the end of a turn with every spell still building (_quiet), a
familiar's step, the envelope read without a test of each key. Each must leave the very state the general path
leaves (validate, the event's handler, then _settle), refuse what it refuses, and write nothing then."""

import copy
import json

import pytest

from engines.base import IllegalAction
from engines.chance import check_outcome
from engines.spellcaster import board as B
from engines.spellcaster import engine as sc
from engines.spellcaster.board import ELEMENTS

from .helpers import E, act, at, fresh_turn, started
from .playouts import playout


def general(state, event):
    """The event by the general path alone: no shortcut of apply_in_place."""
    st = copy.deepcopy(state)
    if event["kind"] == "chance":
        outcome = event["outcome"]
        if not sc._outcome_fits(st, outcome):
            check_outcome(E.chance(st), outcome)
        sc._apply_chance(st, outcome)
    else:
        E.validate(st, event["seat"], event["action"])
        sc._apply_action(st, event["seat"], event["action"])
    sc._settle(st)
    return st


def dump(state) -> str:
    return json.dumps(state)  # key order kept: the very same dicts, not just equal ones


def test_every_event_of_a_playout_folds_to_the_state_the_general_path_leaves():
    met = {
        "quiet end": 0,
        "busy end": 0,
        "draw ended by a deal": 0,
        "draw ended face up": 0,
        "step, steps left": 0,
        "step, the card's last or a strike": 0,
    }

    def every(before, event, after):
        want = general(before, event)
        assert dump(E.apply_in_place(copy.deepcopy(before), event)) == dump(want) == dump(after), event
        action = event.get("action") or {}
        if action.get("type") == "end_turn":
            met["quiet end" if sc._quiet(before) else "busy end"] += 1
        elif action.get("type") == "step":
            goes_on = want["stack"] and want["stack"][-1]["p"] == "steps" and want["stack"][-1]["left"] > 0
            met["step, steps left" if goes_on else "step, the card's last or a strike"] += 1
        elif before["stack"] and want["stack"] and want["stack"][-1]["p"] in ("keep", "place"):
            met["draw ended by a deal" if event["kind"] == "chance" else "draw ended face up"] += 1

    for seed, seats, bot in ((1, 2, "random"), (2, 3, "random"), (3, 4, "random"), (4, 3, "heuristic")):
        playout(seed, n=seats, bots={s: bot for s in range(seats)}, max_events=1200, every=every)
    # Each shortcut met, and the general way beside it (an end of turn with a spell launched or wild).
    assert min(met.values()) >= 20, met


@pytest.mark.parametrize("face_up", [False, True], ids=["dealt", "face up"])
def test_a_draw_cut_short_by_its_decks_ends_in_the_question_the_general_path_asks(face_up):
    """SC-R6: in a corner with one Fire card left, a three-card draw ends after that card, two
    draws still owed (the shortcut asks for the draw sources, not only for what is owed)."""
    st = fresh_turn(at(started(2), 0, "F"), 0)
    c = st["casters"][0]
    card = c["pool"]["fire"][0]
    c["removed"] = c["pool"]["fire"][1:]
    c["pool"]["fire"], c["up"]["fire"] = ([], [card]) if face_up else ([card], [])
    st = act(st, 0, type="conjure", cards=3)
    event = {"kind": "action", "seat": 0, "action": {"type": "draw", "from": card if face_up else "fire"}}
    if not face_up:
        st = E.apply(st, event)
        event = {"kind": "chance", "outcome": [0]}
    folded = E.apply_in_place(copy.deepcopy(st), event)
    assert dump(folded) == dump(general(st, event))
    (draw,) = [prompt for prompt in st["stack"] if prompt["p"] == "draw"]
    assert draw["left"] - face_up == 2 and folded["stack"] == [{"p": "keep", "seat": 0}]


def test_every_path_is_walked_both_ways_so_a_step_always_has_one_onward_of_its_colour():
    # The step shortcut leaves the steps prompt waiting without asking _auto's question (is there
    # a path of the card's colour onward?): the path just taken leads back.
    for point in B.points():
        for element in ELEMENTS:
            for onto in B.along(point, element):
                assert point in B.along(onto, element), (point, element, onto)


ENVELOPES = [
    None,
    "end_turn",
    [],
    ["kind", "action"],
    {},
    {"kind": "action"},
    {"kind": "action", "seat": 0},
    {"kind": "action", "seat": 0, "move": {"type": "end_turn"}},
    {"kind": "action", "action": {"type": "end_turn"}, "sat": 0},
    {"kind": "action", "seat": 0, "action": {"type": "end_turn"}, "extra": 1},
    {"kind": "chance"},
    {"kind": "chance", "result": [0]},
    {"kind": "chance", "outcome": [0], "seat": 0},
    {"kind": "move", "seat": 0, "action": {"type": "end_turn"}},
    {"kind": ["action"], "seat": 0, "action": {"type": "end_turn"}},
    {"seat": 0, "action": {"type": "end_turn"}, "outcome": [0]},
]


@pytest.mark.parametrize("event", ENVELOPES, ids=[json.dumps(e) for e in ENVELOPES])
def test_a_malformed_envelope_is_refused_as_bad_event_and_writes_nothing(event):
    st, _ = playout(7, n=2, max_events=40)  # a turn under way, the turn's seat free to end it
    seat = st["turn"]["seat"]
    assert E.legal_actions(st, seat)
    before = dump(st)
    with pytest.raises(IllegalAction) as refused:
        E.apply_in_place(st, event)
    assert refused.value.code == "bad_event"
    assert dump(st) == before
