"""view() and describe(): the board, turn, pending choice, last rolls, legal actions, result."""

import json

from engines.base import CHANCE
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.scenario import Table


def shrew_throws_at_burblepot():
    t = Table.start(E, wizards={47: [3, 13], 21: [4, 8]}, balls={4: {"held_by": 47}}, active={4: True}, turn=47)
    t.act("throw", target=21)
    t.roll(3, 5)
    t.roll(4, 5)
    return t


def test_the_view_shows_the_board_wizards_balls_cards_and_turn():
    t = Table.start(E)
    v = E.view(t.state, 0)
    assert v["court"]["width"] == 9 and v["court"]["length"] == 17 and v["court"]["neutral_rows"] == [9]
    assert len(v["court"]["zones"]) == 4 and len(v["court"]["attack_lines"]) == 2
    burblepot = next(w for w in v["wizards"] if w["jersey"] == 21)
    assert burblepot["name"] == "Hoary Burblepot" and burblepot["team"] == 0 and burblepot["square"] == [1, 2]
    assert burblepot["eliminated"] is False and burblepot["ball"] is None and burblepot["effects"] == []
    assert burblepot["stats"]["attack"] == ["grey", "blue"]
    assert [b["square"] for b in v["balls"]] == [[1, 9], [3, 9], [5, 9], [7, 9], [9, 9]]
    assert not any(b["active"] for b in v["balls"])
    assert {c["id"] for c in v["spell_cards"][0]} >= {"teleport", "freeze"}
    assert all(c["charged"] for c in v["spell_cards"][0])
    assert v["spell_budgets"] == [13, 11]
    assert v["turn"] == {"number": 1, "team": 0, "wizard": 21, "actions_left": 2, "seat": 0}
    assert v["result"] is None
    json.dumps(v)


def test_only_the_acting_seat_sees_legal_actions_and_spectators_see_the_same_board():
    t = Table.start(E)
    mine, theirs, spectator = E.view(t.state, 0), E.view(t.state, 1), E.view(t.state, None)
    assert mine["legal_actions"] == E.legal_actions(t.state, 0) and mine["legal_actions"]
    assert theirs["legal_actions"] == [] and spectator["legal_actions"] == []
    for v in (mine, theirs):
        v.pop("legal_actions"), v.pop("seat")
    spectator.pop("legal_actions"), spectator.pop("seat")
    assert mine == theirs == spectator


def test_the_view_shows_a_pending_roll_with_its_dice():
    t = Table.start(E, wizards={47: [3, 13], 21: [4, 8]}, balls={4: {"held_by": 47}}, active={4: True}, turn=47)
    t.act("throw", target=21)
    v = E.view(t.state, None)
    assert v["to_move"] == [CHANCE]
    assert v["pending"]["kind"] == "attack" and v["pending"]["dice"]["dice"] == [[2, 7], [2, 7]]
    assert "Shrew attacks #21 Hoary Burblepot" in v["pending"]["dice"]["label"]
    assert next(b for b in v["balls"] if b["id"] == 4)["in_flight"]


def test_the_view_shows_the_last_rolls_with_colours_and_totals_compared_and_the_pending_choice():
    t = shrew_throws_at_burblepot()
    v = E.view(t.state, 0)
    attack, dodge = v["last_rolls"]
    assert attack["dice"] == [{"colour": "blue", "value": 3}, {"colour": "blue", "value": 5}]
    assert attack["total"] == 8
    assert dodge["total"] == 9 and dodge["against"] == 8 and dodge["result"] == "dodged"
    assert v["pending"] == {"kind": "dodge_move", "seat": 0, "action": "dodge_to"}
    assert all(a["type"] == "dodge_to" for a in v["legal_actions"])


def test_the_view_shows_spell_markers_and_spent_cards():
    t = Table.start(E, wizards={21: [5, 7], 45: [5, 11]})
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    t.roll(6, 7)
    t.roll(1, 2)
    v = E.view(t.state, None)
    assert next(w for w in v["wizards"] if w["jersey"] == 45)["effects"] == ["freeze"]
    assert v["effects"][0]["spell"] == "freeze" and v["effects"][0]["cast_by"] == 21
    freeze = next(c for c in v["spell_cards"][0] if c["id"] == "freeze")
    assert freeze["charged"] is False and freeze["cast_by"] == 21


def test_the_view_shows_the_result_when_the_game_is_over():
    t = Table.start(
        E,
        wizards={21: [5, 5], 45: [5, 11], 30: None, 47: None, 10: None, 12: None},
        balls={1: {"held_by": 21}},
        active={1: True},
    )
    t.act("throw", target=45)
    t.roll(6, 7)
    t.roll(2, 3)
    v = E.view(t.state, 1)
    assert v["result"]["winners"] == [0] and v["to_move"] == [] and v["legal_actions"] == []


def test_each_event_is_described_in_one_readable_sentence():
    t = shrew_throws_at_burblepot()
    t.act("dodge_to", to=[5, 7])
    assert t.log == [
        "#47 Mad Mammy Shrew throws a ball at #21 Hoary Burblepot.",
        "#47 Mad Mammy Shrew attacks #21 Hoary Burblepot: 8 (blue 3 + blue 5).",
        "#47 Mad Mammy Shrew throws at #21 Hoary Burblepot: 8 against a dodge of 9 (grey 4 + blue 5): "
        "#21 Hoary Burblepot steps aside.",
        "#21 Hoary Burblepot steps aside to (5, 7); the ball lands on (4, 8).",
    ]


def test_the_game_end_is_described():
    t = Table.start(
        E,
        wizards={21: [5, 5], 45: [5, 11], 30: None, 47: None, 10: None, 12: None},
        balls={1: {"held_by": 21}},
        active={1: True},
    )
    t.act("throw", target=45)
    t.roll(6, 7)
    t.roll(2, 3)
    assert t.log[-1].endswith(
        "#45 Miguel Dasherdodge is out. The first team wins: Second team has no wizards left on the court."
    )
