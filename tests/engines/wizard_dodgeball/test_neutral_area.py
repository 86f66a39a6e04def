"""The Neutral Area: spell effects that enter and leave it, and range to and from it.

Rulebook, Neutral Area: "The Neutral Area is magic free ... Wizards and balls with spell effects
on them can enter and leave the Neutral Area with no effect to the spell."
Rulebook, Range: the four zones run "from the end of the court to the attack lines, and from the
attack lines to, and including, the Neutral Area", and "Wizards from opposing teams in the
Neutral Area are considered 1 zone apart". Example Gameplay, Turn 8 (H): Dirtybottoms, who has not
left his back zone, throws at Presage in the Neutral Area with "an attack of 8 on two blues":
two zones (RULES.md "Zones" gives the ruling and why).
"""

import pytest

from engines.wizard_dodgeball import ENGINE as E2
from engines.wizard_dodgeball import ENGINE_V1 as E1
from engines.wizard_dodgeball import data
from engines.wizard_dodgeball.scenario import Table

GREY, BLUE, WHITE = [1, 6], [2, 7], [0, 5]
CONFIG = {
    "teams": [
        {"wizards": [21, 58, 41, 39, 3], "spells": list(data.SPELL_ORDER)},
        {"wizards": [45, 30, 47, 10, 12], "spells": ["teleport", "freeze"]},
    ]
}


def on(t, face, jersey=None, ball=None):
    return any(
        e["face"] == face and (e["wizard"] == jersey if ball is None else e["ball"] == ball) for e in t.state["effects"]
    )


def test_a_wizards_spell_effect_survives_entering_and_leaving_the_neutral_area():
    """Neutral Area: effects enter and leave with the wizard, unchanged."""
    t = Table.start(E2, config=CONFIG, wizards={21: [5, 7], 45: [5, 13]})
    t.act("cast", spell="speed", targets=[{"wizard": 21}])  # on itself: no roll, +1 action at once
    assert on(t, "speed", 21) and t.state["turn"]["actions"] == 2
    t.act("move", to=[4, 9])
    assert on(t, "speed", 21) and E2.view(t.state, None)["wizards"][0]["effects"] == ["speed"]
    t.act("move", to=[5, 8])
    assert on(t, "speed", 21)
    # The effect keeps working: on its next turn the wizard has three action points.
    t.act("end_turn")
    while t.turn_wizard() != 21:
        t.act("end_turn")
    assert t.state["turn"]["actions"] == 3


def test_a_fireball_carried_into_the_neutral_area_still_burns_when_thrown_from_there():
    """Neutral Area: a ball's effect enters with it; Fireball: attack score 10, no roll."""
    t = Table.start(
        E2,
        config=CONFIG,
        wizards={21: [5, 7], 45: [5, 11]},
        balls={1: {"held_by": 21}},
        active={1: True},
        turn=21,
        actions=3,
    )
    t.act("cast", spell="fireball", targets=[{"ball": 1}])
    t.act("move", to=[4, 9])
    assert on(t, "fireball", ball=1)
    assert next(b for b in E2.view(t.state, None)["balls"] if b["id"] == 1)["on_fire"]
    t.act("throw", target=45)
    attack = t.state["rolls"][0]
    assert attack["total"] == 10 and attack["fixed"]
    assert t.spec()["dice"] == [BLUE, [3, 8]]  # straight to Dasherdodge's dodge


@pytest.mark.parametrize("engine", [E1, E2], ids=["v1", "v2"])
def test_from_a_back_zone_to_an_opponent_in_the_neutral_area_is_two_zones(engine):
    """Example Gameplay, Turn 8 (H): from the back zone at the Neutral Area, two ATTACK dice."""
    t = Table.start(engine, wizards={47: [3, 13], 21: [4, 9]}, balls={1: {"held_by": 47}}, active={1: True}, turn=47)
    t.act("throw", target=21)
    assert t.spec()["dice"] == [BLUE, BLUE]  # Shrew's ATTACK blue+blue, no white die


@pytest.mark.parametrize("engine", [E1, E2], ids=["v1", "v2"])
def test_from_the_neutral_area_to_an_opponents_back_zone_is_two_zones(engine):
    """Range: the same distance the other way (range counts zones between the two wizards)."""
    t = Table.start(engine, wizards={21: [4, 9], 45: [4, 13]}, balls={1: {"held_by": 21}}, active={1: True})
    t.act("throw", target=45)
    assert t.spec()["dice"] == [GREY, BLUE]


@pytest.mark.parametrize("engine", [E1, E2], ids=["v1", "v2"])
def test_from_the_neutral_area_to_an_opponents_front_zone_is_one_zone(engine):
    """Range: the Neutral Area is part of both front zones, so the far front zone is next to it."""
    t = Table.start(engine, wizards={21: [4, 9], 45: [4, 11]}, balls={1: {"held_by": 21}}, active={1: True})
    t.act("throw", target=45)
    assert t.spec()["dice"] == [GREY, BLUE, WHITE]
