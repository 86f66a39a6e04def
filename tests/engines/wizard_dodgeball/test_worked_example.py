"""The rulebook's Example Gameplay (turns A-H) recorded as a tabletop match.

Every die the example states is entered exactly (Freeze 7 against a resist of 4, Shrew 8
against Burblepot's 9, Stumbleton 8 against the frozen Dasherdodge's fixed 5, Dirtybottoms 8
against Presage's 11 with the white die for her ball). Dice the example does not state are
chosen consistent with it (the roll-off; which faces make up each total).
"""

import json

import pytest

from engines.base import replay
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.scenario import Table

CONFIG = {
    "teams": [
        {
            "wizards": [21, 58, 41, 25, 36],
            "spells": [
                "teleport",
                "fireball",
                "freeze",
                "shield",
                "dispel",
                "slow_speed",
                "strong_weak",
                "shrink_enlarge",
                "drain_boost",
            ],
            "start": [[5, 2], [3, 2], [7, 2], [6, 1], [4, 1]],
        },
        {
            "wizards": [45, 30, 47, 10, 12],
            "spells": [
                "teleport",
                "fireball",
                "freeze",
                "shield",
                "dispel",
                "slow_speed",
                "strong_weak",
                "butter_sticky",
            ],
            "start": [[4, 16], [6, 16], [2, 16], [8, 16], [5, 17]],
        },
    ],
}


@pytest.fixture(scope="module")
def table():
    t = Table(E, E.setup(CONFIG, 2))
    order = []
    # Setup step 2: the roll-off makes the first team player 1.
    t.roll(5, 2)
    # Turn 1 (A): Burblepot teleports himself up to the neutral line, picks up and puts down a
    # ball, picks up another, and passes it back to #41.
    order.append(t.turn_wizard())
    t.act("cast", spell="teleport", targets=[{"wizard": 21}])
    t.act("teleport_to", to=[4, 8])
    t.act("pick_up", ball=2)
    t.act("drop", to=[3, 8])
    t.act("pick_up", ball=3)
    t.act("pass", to=41)
    t.state_after_turn_1 = t.state
    t.act("end_turn")
    # Turn 2 (B): Dasherdodge moves twice, relocates one ball off the Neutral Area, picks up another.
    order.append(t.turn_wizard())
    t.act("move", to=[8, 11])
    t.act("move", to=[8, 10])
    t.act("pick_up", ball=4)
    t.act("drop", to=[7, 10])
    t.act("pick_up", ball=5)
    t.act("end_turn")
    # Turn 3 (C): Presage moves up to the Neutral Area with both actions and takes the last ball.
    order.append(t.turn_wizard())
    t.act("move", to=[3, 6])
    t.act("move", to=[2, 9])
    t.act("pick_up", ball=1)
    t.act("end_turn")
    # Turn 4 (D): Curtrod moves her full 5, then (MAGIC 2) teleports both balls by Dasherdodge
    # behind her attack line, near her teammates. Same team: no roll.
    order.append(t.turn_wizard())
    t.act("move", to=[6, 11])
    t.state_before_teleport = t.state
    t.act("cast", spell="teleport", targets=[{"ball": 4}, {"ball": 5}])
    t.act("teleport_to", to=[2, 15])
    t.act("teleport_to", to=[8, 15])
    t.state_after_turn_4 = t.state
    # Turn 5 (E): Saunterberg leaves her ball by Stumbleton, moves up 3 and casts Freeze on
    # Dasherdodge: blue+blue 7 against grey+grey 4.
    order.append(t.turn_wizard())
    t.act("drop", to=[6, 2])
    t.act("move", to=[7, 5])
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    t.freeze_cast_spec = t.spec()
    t.roll(2, 5)
    t.freeze_resist_spec = t.spec()
    t.roll(1, 3)
    t.state_after_freeze = t.state
    # Turn 6 (F): Shrew picks up the active ball next to her, moves, throws at Burblepot (2 zones):
    # blue+blue 8; Burblepot dodges with 9 and steps aside; the ball lands where he stood.
    order.append(t.turn_wizard())
    t.act("pick_up", ball=4)
    t.act("move", to=[3, 13])
    t.act("throw", target=21)
    t.shrew_attack_spec = t.spec()
    t.roll(3, 5)
    t.burblepot_dodge_spec = t.spec()
    t.roll(4, 5)
    t.state_before_burblepot_steps = t.state
    t.act("dodge_to", to=[5, 7])
    t.state_after_shrew = t.state
    # Turn 7 (G): Stumbleton picks up the active ball, moves up and throws at the frozen
    # Dasherdodge (2 zones): blue+grey 8 beats the fixed dodge of 5.
    order.append(t.turn_wizard())
    t.act("pick_up", ball=3)
    t.act("move", to=[6, 5])
    t.act("throw", target=45)
    t.stumbleton_attack_spec = t.spec()
    t.roll(3, 5)
    t.state_after_stumbleton = t.state
    # Turn 8 (H): Dirtybottoms picks up the nearest ball and throws at Presage: 8 on two blues
    # against blue, grey and white (for her ball) 11. Presage relocates; the ball stops where she was.
    order.append(t.turn_wizard())
    t.act("pick_up", ball=5)
    t.act("throw", target=58)
    t.dirty_attack_spec = t.spec()
    t.roll(3, 5)
    t.presage_dodge_spec = t.spec()
    t.roll(4, 5, 2)
    t.act("dodge_to", to=[1, 8])
    t.order = order
    return t


def test_turn_order_alternates_21_45_58_30_41_47_25_10(table):
    """Turn Order: '(P1)#21, (P2)#45, (P1)#58, (P2)#30, and so on', left to right per team."""
    assert table.order == [21, 45, 58, 30, 41, 47, 25, 10]


def test_spell_budgets_are_13_and_11(table):
    """Spell Lists: 'Player 1 can have 13 spells and Player 2 can have 11 spells'."""
    assert table.state["budgets"] == [13, 11]


def test_turn_1_burblepot_ends_by_the_neutral_line_and_41_holds_an_active_ball(table):
    """Turn 1 (A) and Attack Lines: the ball passed back behind the attack line becomes active."""
    s = table.state_after_turn_1
    burblepot = next(w for w in s["wizards"] if w["j"] == 21)
    saunterberg = next(w for w in s["wizards"] if w["j"] == 41)
    assert burblepot["sq"] == [4, 8] and burblepot["ball"] is None
    assert saunterberg["ball"] == 3
    assert next(b for b in s["balls"] if b["id"] == 3)["active"]
    assert s["turn"]["actions"] == 0


def test_turn_4_teleport_on_teammates_balls_needs_no_roll_and_activates_them(table):
    """Turn 4 (D): both balls move automatically (same team) and become active behind the line."""
    assert E.legal_actions(table.state_before_teleport, 1)  # Curtrod may act
    s = table.state_after_turn_4
    b4 = next(b for b in s["balls"] if b["id"] == 4)
    b5 = next(b for b in s["balls"] if b["id"] == 5)
    assert b4["sq"] == [2, 15] and b5["sq"] == [8, 15]
    assert b4["active"] and b5["active"]
    assert next(w for w in s["wizards"] if w["j"] == 45)["ball"] is None
    assert not s["cards"][1]["teleport"]["charged"]
    # Curtrod used both actions and has nothing free to do: the turn passed to Saunterberg.
    assert s["turn"]["wizard"] == 41


def test_turn_5_saunterberg_freezes_dasherdodge_7_against_4(table):
    """Turn 5 (E): CAST blue+blue 7 against RESIST grey+grey 4: frozen."""
    assert table.freeze_cast_spec["dice"] == [[2, 7], [2, 7]]
    assert table.freeze_resist_spec["dice"] == [[1, 6], [1, 6]]
    s = table.state_after_freeze
    assert any(e["face"] == "freeze" and e["wizard"] == 45 for e in s["effects"])
    cast, resist = s["rolls"]
    assert (cast["total"], resist["total"], resist["result"]) == (7, 4, "affected")


def test_turn_6_shrew_8_against_burblepots_9_he_steps_aside_and_the_ball_lands_where_he_stood(table):
    """Turn 6 (F): 2 zones away, both blue ATTACK dice: 8; DODGE 9 succeeds; Burblepot moves
    one space and the ball lands where he was."""
    assert table.shrew_attack_spec["dice"] == [[2, 7], [2, 7]]
    assert len(table.burblepot_dodge_spec["dice"]) == 2  # no ball in hand: no white die
    assert E.to_move(table.state_before_burblepot_steps) == [0]  # Burblepot's player chooses where
    s = table.state_after_shrew
    assert next(w for w in s["wizards"] if w["j"] == 21)["sq"] == [5, 7]
    assert next(b for b in s["balls"] if b["id"] == 4)["sq"] == [4, 8]
    assert not next(w for w in s["wizards"] if w["j"] == 21)["out"]


def test_turn_7_stumbleton_8_beats_the_frozen_fixed_dodge_of_5(table):
    """Turn 7 (G): a blue and a grey (2 zones) for 8 > 5: Dasherdodge is out, no dodge roll."""
    assert table.stumbleton_attack_spec["dice"] == [[1, 6], [2, 7]]
    s = table.state_after_stumbleton
    dasherdodge = next(w for w in s["wizards"] if w["j"] == 45)
    assert dasherdodge["out"]
    assert next(b for b in s["balls"] if b["id"] == 3)["sq"] == [8, 10]
    assert s["rolls"][-1]["total"] == 5 and s["rolls"][-1]["fixed"]
    assert not any(e["wizard"] == 45 for e in s["effects"])


def test_turn_8_dirtybottoms_8_against_presages_11_with_the_white_die_for_her_ball(table):
    """Turn 8 (H): two blues for 8; Presage rolls blue, grey and white (ball in hand) for 11,
    relocates, and the ball stops where she was."""
    assert table.dirty_attack_spec["dice"] == [[2, 7], [2, 7]]
    assert table.presage_dodge_spec["dice"] == [[1, 6], [2, 7], [0, 5]]
    s = table.state
    presage = next(w for w in s["wizards"] if w["j"] == 58)
    assert presage["sq"] == [1, 8] and presage["ball"] == 1 and not presage["out"]
    assert next(b for b in s["balls"] if b["id"] == 5)["sq"] == [2, 9]
    assert s["rolls"][-1]["total"] == 11


def test_the_recorded_match_replays_to_the_same_state_and_reads_as_a_log(table):
    assert replay(E, CONFIG, 2, table.events) == table.state
    assert json.loads(json.dumps(table.state)) == table.state
    assert any("8 against a dodge of 9" in line for line in table.log)
    assert any("Saunterberg resists" not in line and "resists with 4" in line for line in table.log)
    assert E.to_move(table.state) == [1]  # Dirtybottoms still has an action left
