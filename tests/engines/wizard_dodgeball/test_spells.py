"""The League-Sanctioned Spell List: every one of the ten spells' effects.

The first team fields five MAGIC-3 wizards so that it can carry all ten cards (15 points).
"""

import pytest

from engines.base import CHANCE, IllegalAction
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball import data
from engines.wizard_dodgeball.scenario import Table

CONFIG = {
    "teams": [
        {"wizards": [21, 58, 41, 39, 3], "spells": list(data.SPELL_ORDER)},
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
        },
    ]
}
GREY, BLUE, RED, WHITE = [1, 6], [2, 7], [3, 8], [0, 5]


def table(**kw):
    wizards = {21: [5, 7], 45: [5, 11]}
    wizards.update(kw.pop("wizards", {}))
    return Table.start(E, config=CONFIG, wizards=wizards, **kw)


def effect(face, jersey, side=1, caster=30, card=None):
    return {
        "face": face,
        "card": card or data.spell_faces()[face]["card"],
        "side": side,
        "caster": caster,
        "wizard": jersey,
    }


def has(t, face, jersey):
    return any(e["face"] == face and e["wizard"] == jersey for e in t.state["effects"])


# -- Teleport -------------------------------------------------------------------------------


def test_teleport_moves_a_teammate_to_an_empty_square_of_its_side_without_a_roll():
    """Teleport: the target reappears in any empty in-bounds space within magical range."""
    t = table(wizards={58: [5, 5]})
    t.act("cast", spell="teleport", targets=[{"wizard": 58}])
    assert E.to_move(t.state) == [0]
    options = {tuple(a["to"]) for a in t.legal()}
    assert (8, 8) in options and (4, 9) in options
    assert not any(r > 9 for _, r in options)  # never beyond the Neutral Area
    t.act("teleport_to", to=[8, 8])
    assert t.wizard(58)["sq"] == [8, 8] and t.state["cast"] is None


def test_teleporting_an_opponent_is_a_magical_attack_and_the_caster_places_it():
    """Teleport: attempting to teleport an opponent is a magical attack."""
    t = table()
    t.act("cast", spell="teleport", targets=[{"wizard": 45}])
    assert E.to_move(t.state) == [CHANCE]
    t.roll(6, 7)
    t.roll(1, 2)
    assert E.to_move(t.state) == [0]
    assert all(a["to"][1] >= 9 for a in t.legal())
    t.act("teleport_to", to=[9, 17])
    assert t.wizard(45)["sq"] == [9, 17]


def test_doubles_always_resist_teleport_and_it_never_rebounds():
    """Resisting: Teleport and Dispel do not rebound; doubles automatically resist them."""
    t = table()
    t.act("cast", spell="teleport", targets=[{"wizard": 45}])
    t.roll(7, 7)
    t.roll(1, 1)
    assert t.state["queue"] == [] and t.wizard(45)["sq"] == [5, 11] and t.wizard(21)["sq"] == [5, 7]


def test_teleporting_a_ball_held_by_an_opponent_is_resisted_by_the_holder():
    """Teleport: teleporting a ball held by an opponent is a magical attack."""
    t = table(balls={2: {"held_by": 45}})
    t.act("cast", spell="teleport", targets=[{"ball": 2}])
    t.roll(5, 5)
    assert t.spec()["dice"] == [GREY, GREY]  # Dasherdodge resists for his ball
    t.roll(2, 3)
    t.act("teleport_to", to=[5, 4])
    assert t.wizard(45)["ball"] is None and t.ball(2)["sq"] == [5, 4] and t.ball(2)["active"]


def test_a_ball_teleported_behind_the_far_attack_line_becomes_active():
    """Attack Lines: a ball behind either attack line is active."""
    t = table(balls={3: [5, 8]})
    t.act("cast", spell="teleport", targets=[{"ball": 3}])
    t.act("teleport_to", to=[2, 15])
    assert t.ball(3)["active"]


def test_a_wizard_teleported_with_a_ball_keeps_it():
    t = table(wizards={58: [5, 5]}, balls={2: {"held_by": 58}})
    t.act("cast", spell="teleport", targets=[{"wizard": 58}])
    t.act("teleport_to", to=[8, 8])
    assert t.wizard(58)["ball"] == 2


# -- Fireball ------------------------------------------------------------------------------


def test_fireball_is_cast_on_a_ball_held_by_the_casters_side():
    """Fireball: cast on a held ball."""
    t = table(balls={3: [5, 8], 1: {"held_by": 21}})
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="fireball", targets=[{"ball": 3}])
    assert err.value.code == "not_held_by_team"
    t.act("cast", spell="fireball", targets=[{"ball": 1}])
    assert t.state["queue"] == []
    assert any(e["face"] == "fireball" and e["ball"] == 1 for e in t.state["effects"])


def test_a_fireball_scores_a_fixed_10_and_cannot_be_caught():
    """Fireball: the ball has a physical attack score of 10 and cannot be caught; it lasts
    until the attack is resolved."""
    t = table(balls={1: {"held_by": 21}}, active={1: True})
    t.act("cast", spell="fireball", targets=[{"ball": 1}])
    t.act("throw", target=45)
    assert t.spec()["dice"] == [BLUE, RED]  # no attack roll: straight to the dodge
    t.roll(4, 4)  # doubles, 8 < 10: no catch, hit
    assert t.wizard(45)["out"] and not t.wizard(21)["out"]
    assert not any(e["face"] == "fireball" for e in t.state["effects"])


def test_a_fireball_not_thrown_burns_out_after_one_round():
    """Fireball: "Fireball lasts until attack is resolved or 1 round." A ball kept in hand is
    still on fire when its caster's next turn begins, and is an ordinary ball once that turn
    ends (the card recharges: Casting a Spell, "one full round")."""
    t = table(balls={1: {"held_by": 21}}, active={1: True})
    t.act("cast", spell="fireball", targets=[{"ball": 1}])
    t.act("end_turn")
    while t.turn_wizard() != 21:
        t.act("end_turn")
    assert any(e["face"] == "fireball" and e["ball"] == 1 for e in t.state["effects"])
    t.act("end_turn")
    assert not any(e["face"] == "fireball" for e in t.state["effects"])
    assert t.state["cards"][0]["fireball"]["charged"]
    while t.turn_wizard() != 21:
        t.act("end_turn")
    t.act("throw", target=45)
    assert t.spec()["dice"] == [GREY, [2, 7], WHITE]  # an ordinary throw again: Burblepot's ATTACK, one zone


# -- Freeze --------------------------------------------------------------------------------


def test_a_frozen_wizard_cannot_throw_or_cast_and_has_only_free_actions():
    """Freeze: cannot move, throw, dodge, or cast while frozen."""
    t = table(wizards={21: [4, 8]}, balls={1: {"held_by": 21}}, active={1: True}, effects=[effect("freeze", 21)])
    for action in (
        {"type": "throw", "target": 45},
        {"type": "cast", "spell": "freeze", "targets": [{"wizard": 45}]},
        {"type": "pass", "to": 58},
    ):
        with pytest.raises(IllegalAction) as err:
            E.apply(t.state, {"kind": "action", "seat": 0, "action": action})
        assert err.value.code == "frozen"
    assert {a["type"] for a in t.legal()} == {"drop", "end_turn"}


def test_a_frozen_target_has_a_fixed_dodge_of_5_and_does_not_move_when_missed():
    """Freeze: a frozen wizard has a fixed dodge score of 5 (attack must be higher to hit)."""
    t = table(
        wizards={21: [5, 5]},
        balls={1: {"held_by": 21}},
        active={1: True},
        effects=[effect("freeze", 45, side=0, caster=58)],
    )
    t.act("throw", target=45)
    t.roll(2, 3)  # 5: not more than 5
    assert t.state["queue"] == []  # no dodge roll
    assert not t.wizard(45)["out"] and t.wizard(45)["sq"] == [5, 11]
    assert t.ball(1)["sq"] == [5, 10]  # it falls beside him, towards the thrower


def test_a_frozen_wizard_can_still_resist_spells():
    """Freeze: the frozen wizard can still attempt spell resists."""
    t = table(effects=[effect("freeze", 45, side=0, caster=58)])
    t.act("cast", spell="slow", targets=[{"wizard": 45}])
    t.roll(3, 3)
    assert t.spec()["dice"] == [GREY, GREY]
    t.roll(5, 6)
    assert not has(t, "slow", 45)


# -- Shield --------------------------------------------------------------------------------


def test_a_shield_ignores_the_first_failed_dodge_and_the_ball_drops_between_target_and_thrower():
    """Shielded / Shield: the target is not eliminated, the ball is placed adjacent to the target
    between it and the attacker, and the shield is gone after the first hit."""
    t = table(wizards={21: [5, 5]}, balls={1: {"held_by": 21}}, active={1: True}, effects=[effect("shield", 45)])
    t.act("throw", target=45)
    t.roll(6, 7)
    t.roll(2, 4)
    assert not t.wizard(45)["out"] and t.wizard(45)["sq"] == [5, 11]
    assert t.ball(1)["sq"] == [5, 10]
    assert not has(t, "shield", 45)


def test_a_shield_ignores_the_first_failed_resist():
    """Shield: the target can ignore the first failed RESIST."""
    t = table(effects=[effect("shield", 45)])
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    t.roll(7, 7)
    t.roll(2, 3)
    assert not has(t, "freeze", 45) and not has(t, "shield", 45)


def test_a_shielded_wizard_cannot_catch():
    """Shield: unable to catch."""
    t = table(wizards={21: [5, 5]}, balls={1: {"held_by": 21}}, active={1: True}, effects=[effect("shield", 45)])
    t.act("throw", target=45)
    t.roll(6, 7)
    t.roll(3, 3)
    assert not t.wizard(21)["out"] and t.state["rolls"][-1]["result"] == "shielded"


def test_a_shielded_wizard_cannot_rebound_a_spell():
    """Shield: unable to rebound."""
    t = table(effects=[effect("shield", 45)])
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    t.roll(7, 7)
    t.roll(1, 1)  # doubles, but shielded: an ordinary failed resist, absorbed by the shield
    assert t.state["queue"] == [] and not has(t, "freeze", 21) and not has(t, "freeze", 45)


def test_a_shielded_wizard_cannot_be_buffed_by_teammates():
    """Shield: cannot be buffed by teammates while shielded."""
    t = table(wizards={58: [5, 5]}, effects=[effect("shield", 58, side=0, caster=41)])
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="speed", targets=[{"wizard": 58}])
    assert err.value.code == "shielded_teammate"


# -- Dispel --------------------------------------------------------------------------------


def test_dispelling_the_other_sides_spell_is_an_attack_on_its_caster():
    """Casting / Dispel: if cast on an opponent's spell, Dispel is a magical attack on the wizard
    whose spell you are trying to cancel."""
    t = table(wizards={58: [5, 5]}, effects=[effect("freeze", 58, side=1, caster=47)])
    t.act("cast", spell="dispel", targets=[{"effect": 1}])
    t.roll(5, 6)
    assert t.spec()["dice"] == [BLUE, BLUE]  # Shrew's RESIST
    t.roll(2, 3)
    assert not has(t, "freeze", 58)


def test_dispelling_a_teammates_effect_needs_no_roll():
    """Dispel: cancel one spell effect; no roll on one's own side's spell."""
    t = table(wizards={58: [5, 5]}, effects=[effect("shield", 58, side=0, caster=41)])
    t.act("cast", spell="dispel", targets=[{"effect": 1}])
    assert t.state["queue"] == [] and not has(t, "shield", 58)


def test_doubles_resist_dispel_without_a_rebound():
    t = table(wizards={58: [5, 5]}, effects=[effect("freeze", 58, side=1, caster=47)])
    t.act("cast", spell="dispel", targets=[{"effect": 1}])
    t.roll(7, 7)
    t.roll(3, 3)
    assert has(t, "freeze", 58) and t.state["queue"] == []


# -- Slow / Speed --------------------------------------------------------------------------


def test_speed_gives_a_teammate_three_actions_on_its_next_turn():
    """Slow / Speed: Speed +1 action point."""
    t = table(wizards={58: [5, 5]})
    t.act("cast", spell="speed", targets=[{"wizard": 58}])
    t.act("end_turn")
    t.act("end_turn")  # 45
    assert t.turn_wizard() == 58 and t.state["turn"]["actions"] == 3


def test_slow_leaves_an_opponent_one_action():
    """Slow / Speed: Slow -1 action point."""
    t = table()
    t.act("cast", spell="slow", targets=[{"wizard": 45}])
    t.roll(6, 6)
    t.roll(1, 2)
    t.act("end_turn")
    assert t.turn_wizard() == 45 and t.state["turn"]["actions"] == 1


def test_speed_on_the_active_wizard_adds_an_action_at_once():
    """RULES.md (Slow / Speed): on the wizard whose turn it is, the change applies immediately."""
    t = table()
    t.act("cast", spell="speed", targets=[{"wizard": 21}])
    assert t.state["turn"]["actions"] == 2


# -- Strong / Weak -------------------------------------------------------------------------


def test_strong_adds_a_white_die_to_attack():
    """Strong / Weak: Strong +1 white die to ATTACK."""
    t = table(
        wizards={21: [5, 5]},
        balls={1: {"held_by": 21}},
        active={1: True},
        effects=[effect("strong", 21, side=0, caster=58)],
    )
    t.act("throw", target=45)
    assert t.spec()["dice"] == [GREY, BLUE, WHITE]


def test_weak_removes_the_lower_attack_die():
    """Strong / Weak: Weak -1 lower die to ATTACK."""
    t = table(wizards={21: [5, 7]}, balls={1: {"held_by": 21}}, active={1: True}, effects=[effect("weak", 21)])
    t.act("throw", target=45)  # one zone: blue + white only
    assert t.spec()["dice"] == [BLUE, WHITE]


# -- Shrink / Enlarge ----------------------------------------------------------------------


def test_shrink_adds_a_white_die_to_dodge_and_takes_two_from_move():
    """Shrink / Enlarge: Shrink +1 white die to DODGE, -2 MOVE."""
    t = table(
        wizards={21: [5, 5]},
        balls={1: {"held_by": 21}},
        active={1: True},
        effects=[effect("shrink", 45, side=0, caster=58)],
    )
    t.act("throw", target=45)
    t.roll(3, 3)
    assert t.spec()["dice"] == [BLUE, RED, WHITE]
    t2 = table(effects=[effect("shrink", 21)])
    assert max(abs(a["to"][1] - 7) for a in t2.legal() if a["type"] == "move") == 2


def test_enlarge_removes_the_lower_dodge_die_and_adds_two_to_move():
    """Shrink / Enlarge: Enlarge -1 lower die to DODGE, +2 MOVE."""
    t = table(
        wizards={21: [5, 5]},
        balls={1: {"held_by": 21}},
        active={1: True},
        effects=[effect("enlarge", 45, side=0, caster=58)],
    )
    t.act("throw", target=45)
    t.roll(3, 3)
    assert t.spec()["dice"] == [RED]
    t2 = table(wizards={21: [4, 1]}, effects=[effect("enlarge", 21, side=0, caster=58)])
    assert max(abs(a["to"][1] - 1) for a in t2.legal() if a["type"] == "move") == 6


# -- Butter / Sticky Fingers ---------------------------------------------------------------


def test_butter_fingers_drops_the_held_ball_where_its_player_chooses():
    """Butter / Sticky Fingers: Butter Fingers, drop a ball if holding one."""
    t = table(balls={2: {"held_by": 45}})
    t.act("cast", spell="butter_fingers", targets=[{"wizard": 45}])
    t.roll(6, 6)
    t.roll(1, 2)
    assert E.to_move(t.state) == [1]
    assert {tuple(a["to"]) for a in t.legal()} >= {(4, 10), (6, 12)}
    t.act("place_ball", to=[6, 12])
    assert t.ball(2)["sq"] == [6, 12] and t.wizard(45)["ball"] is None


def test_butter_fingers_cannot_pick_up_catch_or_receive_a_pass():
    """Butter Fingers: unable to pick up or catch."""
    t = table(
        wizards={21: [5, 5], 30: [6, 12]},
        balls={1: {"held_by": 21}, 2: [4, 11], 4: {"held_by": 30}},
        active={1: True},
        effects=[effect("butter_fingers", 45, side=0, caster=58)],
    )
    t.act("throw", target=45)
    t.roll(6, 7)
    t.roll(4, 4)  # doubles: no catch with butter fingers
    assert t.wizard(45)["out"] and not t.wizard(21)["out"]
    t2 = table(balls={2: [4, 11]}, effects=[effect("butter_fingers", 45, side=0, caster=58)], turn=45)
    with pytest.raises(IllegalAction) as err:
        t2.act("pick_up", ball=2)
    assert err.value.code == "butter_fingers"
    t3 = table(
        wizards={30: [6, 12]},
        balls={4: {"held_by": 30}},
        effects=[effect("butter_fingers", 45, side=0, caster=58)],
        turn=30,
    )
    with pytest.raises(IllegalAction) as err:
        t3.act("pass", to=45)
    assert err.value.code == "butter_fingers"


def test_sticky_fingers_cannot_throw_pass_or_drop():
    """Sticky Fingers: unable to throw, pass, or drop."""
    t = table(
        wizards={58: [6, 7]}, balls={1: {"held_by": 21}}, active={1: True}, effects=[effect("sticky_fingers", 21)]
    )
    for action, code in (
        ({"type": "throw", "target": 45}, "sticky_fingers"),
        ({"type": "pass", "to": 58}, "sticky_fingers"),
        ({"type": "drop", "to": [4, 7]}, "sticky_fingers"),
    ):
        with pytest.raises(IllegalAction) as err:
            E.apply(t.state, {"kind": "action", "seat": 0, "action": action})
        assert err.value.code == code


@pytest.mark.parametrize("dodge", [(2, 4), (3, 6), (4, 5), (4, 4)])
def test_sticky_fingers_catch_on_doubles_and_on_totals_of_3_6_9_or_12(dodge):
    """Sticky Fingers: catch on doubles and any 3, 6, 9 or 12."""
    t = table(
        wizards={21: [5, 5]},
        balls={1: {"held_by": 21}},
        active={1: True},
        effects=[effect("sticky_fingers", 45, side=0, caster=58)],
    )
    t.act("throw", target=45)
    t.roll(6, 7)
    t.roll(*dodge)
    assert t.wizard(21)["out"] and t.wizard(45)["ball"] == 1


def test_sticky_fingers_do_not_catch_on_other_totals():
    t = table(
        wizards={21: [5, 5]},
        balls={1: {"held_by": 21}},
        active={1: True},
        effects=[effect("sticky_fingers", 45, side=0, caster=58)],
    )
    t.act("throw", target=45)
    t.roll(6, 7)
    t.roll(2, 5)  # 7
    assert t.wizard(45)["out"]


# -- Magic Drain / Boost -------------------------------------------------------------------


def test_magic_boost_adds_3_to_the_cast_score():
    """Magic Drain / Boost: Magic Boost +3 magic attack bonus."""
    t = table(effects=[effect("magic_boost", 21, side=0, caster=58)])
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    t.roll(2, 2)
    assert t.state["rolls"][-1]["total"] == 7


def test_magic_drain_takes_3_from_the_cast_score_and_4_from_the_range():
    """Magic Drain / Boost: Magic Drain -4 spell range, -3 magic attack bonus."""
    t = table(wizards={21: [4, 3], 45: [4, 17]})
    assert any(a["type"] == "cast" and a["spell"] == "freeze" for a in t.legal())  # 14 squares: in range
    t = table(wizards={21: [4, 3], 45: [4, 17]}, effects=[effect("magic_drain", 21)])
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    assert err.value.code == "out_of_range"
    t = table(wizards={45: [5, 11]}, effects=[effect("magic_drain", 21)])
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    t.roll(5, 5)
    assert t.state["rolls"][-1]["total"] == 7
