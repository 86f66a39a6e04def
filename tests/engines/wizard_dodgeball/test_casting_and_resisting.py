"""Casting a spell and resisting it (the general rules; each spell's effect is in test_spells)."""

import pytest

from engines.base import CHANCE, IllegalAction
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.scenario import Table

GREY, BLUE = [1, 6], [2, 7]


def caster(**kw):
    """#21 Burblepot (MAGIC 3, CAST blue+blue) facing #45 Dasherdodge (RESIST grey+grey)."""
    wizards = {21: [5, 7], 45: [5, 11]}
    wizards.update(kw.pop("wizards", {}))
    return Table.start(E, wizards=wizards, **kw)


def frozen(t, jersey):
    return any(e["face"] == "freeze" and e["wizard"] == jersey for e in t.state["effects"])


def test_a_cast_on_an_opponent_rolls_cast_against_resist_and_a_lower_resist_takes_effect():
    """Casting a Spell: roll the 2 CAST dice; Resisting: roll the 2 RESIST dice, lower fails."""
    t = caster()
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    assert t.spec()["dice"] == [BLUE, BLUE]
    t.roll(4, 5)
    assert t.spec()["dice"] == [GREY, GREY]
    t.roll(2, 6)
    assert frozen(t, 45)
    assert t.state["turn"]["actions"] == 1


def test_a_resist_equal_to_the_cast_score_succeeds():
    """Resisting: equal to or greater than the magical attack score, the resist is successful."""
    t = caster()
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    t.roll(4, 4)
    t.roll(3, 5)
    assert not frozen(t, 45)
    assert t.state["rolls"][-1]["result"] == "resisted"


def test_resist_doubles_rebound_the_spell_and_the_caster_resists_the_original_score():
    """Resisting: doubles rebound the spell back at the caster, who resists the original CAST score."""
    t = caster()
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    t.roll(6, 7)  # 13
    t.roll(2, 2)  # doubles: rebound
    assert E.to_move(t.state) == [CHANCE]
    assert t.spec()["dice"] == [GREY, BLUE]  # Burblepot's own RESIST
    t.roll(3, 5)  # 8 < 13
    assert frozen(t, 21) and not frozen(t, 45)


def test_a_caster_rolling_doubles_against_its_rebound_resists_it():
    """Resisting: if the casting wizard rolls doubles to resist the rebound, it is resisted."""
    t = caster()
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    t.roll(6, 7)
    t.roll(2, 2)
    t.roll(3, 3)  # 6 < 13, but doubles
    assert not frozen(t, 21) and not frozen(t, 45)


def test_casting_on_a_teammate_needs_no_roll():
    """Casting: there is no roll when wizards cast spells on their teammates."""
    t = caster(wizards={58: [5, 5]})
    t.act("cast", spell="shield", targets=[{"wizard": 58}])
    assert t.state["queue"] == []
    assert any(e["face"] == "shield" and e["wizard"] == 58 for e in t.state["effects"])


def test_magic_is_the_size_of_the_target_area_and_each_target_resists_separately():
    """Magic Stat: the size of the target area (MAGIC 3: three adjacent spaces); a resist is
    rolled for each target against the one CAST roll."""
    t = caster(wizards={30: [6, 11], 47: [7, 11]})
    t.act("cast", spell="freeze", targets=[{"wizard": 45}, {"wizard": 30}, {"wizard": 47}])
    t.roll(5, 6)  # 11, one CAST roll for all
    specs = []
    for values in ([1, 2], [6, 6], [2, 3]):  # 45 fails; 30 resists (blue 6+6=12 doubles -> rebound); 47 fails
        specs.append(t.spec()["dice"])
        t.roll(*values)
        if values == [6, 6]:
            t.roll(6, 7)  # Burblepot resists the rebound: 13 >= 11
    assert specs == [[GREY, GREY], [BLUE, BLUE], [BLUE, BLUE]]
    assert frozen(t, 45) and not frozen(t, 30) and frozen(t, 47) and not frozen(t, 21)


def test_the_target_area_is_limited_by_magic_and_must_be_connected():
    t = caster(wizards={30: [6, 11], 47: [7, 11], 10: [8, 11]})
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="freeze", targets=[{"wizard": w} for w in (45, 30, 47, 10)])
    assert err.value.code == "too_many_targets"
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="freeze", targets=[{"wizard": 45}, {"wizard": 47}])
    assert err.value.code == "bad_target_area"


def test_each_team_has_three_markers_of_each_spell():
    """Components: "48 Spell Markers, 2 sets of 24, 3 of each spell". A MAGIC 3 area takes all
    three markers of a spell; the largest MAGIC on the roster is 3, so a cast never needs a
    fourth, and with markers of a spell already on the court the area shrinks to those left."""
    from engines.wizard_dodgeball import data
    from engines.wizard_dodgeball.spells import MARKERS_PER_SPELL

    assert MARKERS_PER_SPELL == 3 and max(w["magic"] for w in data.roster().values()) == 3
    t = caster(wizards={30: [6, 11], 47: [7, 11]})
    t.act("cast", spell="freeze", targets=[{"wizard": 45}, {"wizard": 30}, {"wizard": 47}])
    t.roll(5, 6)
    for values in ([1, 2], [2, 3], [2, 4]):  # CAST 11: all three fail to resist
        t.roll(*values)
    assert sum(1 for e in t.state["effects"] if e["face"] == "freeze" and e["side"] == 0) == 3
    two_out = caster(
        wizards={30: [6, 11], 47: [7, 11], 10: [8, 13], 12: [2, 13]},
        effects=[{"face": "freeze", "side": 0, "caster": 58, "wizard": w} for w in (10, 12)],
    )
    with pytest.raises(IllegalAction) as err:
        two_out.act("cast", spell="freeze", targets=[{"wizard": 45}, {"wizard": 30}])
    assert err.value.code == "too_many_targets"
    two_out.act("cast", spell="freeze", targets=[{"wizard": 45}])


def test_a_spell_needs_line_of_sight_to_its_target():
    """Casting: the casting wizard needs line of sight to the target(s)."""
    t = caster(wizards={58: [5, 8]})
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    assert err.value.code == "no_line_of_sight"


def test_no_spell_is_cast_from_the_neutral_area():
    """Neutral Area: magic free; wizards in the Neutral Area cannot cast."""
    t = caster(wizards={21: [4, 9]})
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    assert err.value.code == "cast_from_neutral_area"
    assert not any(a["type"] == "cast" for a in t.legal())


def test_no_spell_is_cast_on_a_wizard_or_ball_in_the_neutral_area():
    """Neutral Area: spells cannot be cast on wizards or balls in the Neutral Area."""
    t = caster(wizards={45: [4, 9]})
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    assert err.value.code == "target_in_neutral_area"
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="teleport", targets=[{"ball": 3}])
    assert err.value.code == "target_in_neutral_area"


def test_a_spell_card_is_spent_once_cast_whatever_the_result():
    """Casting: place the spell card next to the caster regardless of the result."""
    t = caster()
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    t.roll(2, 2)
    t.roll(6, 5)  # resisted
    assert not t.state["cards"][0]["freeze"]["charged"]
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    assert err.value.code == "spell_not_charged"


def test_a_spell_not_on_the_teams_list_cannot_be_cast():
    t = caster()
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="butter_fingers", targets=[{"wizard": 45}])
    assert err.value.code == "spell_not_in_list"
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="haste", targets=[{"wizard": 45}])
    assert err.value.code == "unknown_spell"


def test_a_card_recharges_and_its_effect_ends_at_the_end_of_the_casters_next_turn():
    """Casting: spells recharge at the end of the casting wizard's next turn (one full round);
    spells are in effect until dispelled or the card is recharged."""
    t = caster()
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    t.roll(6, 7)
    t.roll(1, 2)
    t.act("end_turn")  # end of the casting turn: still spent, still frozen
    assert frozen(t, 45) and not t.state["cards"][0]["freeze"]["charged"]
    while t.turn_wizard() != 21:
        t.act("end_turn")
    assert frozen(t, 45)  # Burblepot's next turn has begun; the card is still out
    t.act("end_turn")
    assert not frozen(t, 45) and t.state["cards"][0]["freeze"]["charged"]


def test_a_casters_cards_recharge_when_it_is_eliminated():
    """RULES.md (Casting): an eliminated caster will have no next turn, so its cards recharge at once."""
    t = caster(wizards={47: [6, 13]}, balls={1: {"held_by": 47}}, active={1: True})
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    t.roll(6, 7)
    t.roll(1, 2)
    t.act("end_turn")  # Dasherdodge is frozen: his turn ends by itself
    assert t.turn_wizard() == 58
    t.act("end_turn")
    t.act("end_turn")  # #30
    t.act("end_turn")  # #41
    t.act("throw", target=21)  # Shrew, back zone to front zone: 2 zones
    t.roll(7, 7)
    t.roll(1, 2)
    assert t.wizard(21)["out"]
    assert t.state["cards"][0]["freeze"]["charged"] and not frozen(t, 45)


@pytest.mark.parametrize(
    "targets", [[{"wizard": [45]}], [{"wizard": "45"}], [{"hat": 1}], [45], [], [{"wizard": 45, "ball": 1}], "45"]
)
def test_malformed_targets_are_refused_with_a_reason(targets):
    t = caster()
    with pytest.raises(IllegalAction) as err:
        t.act("cast", spell="freeze", targets=targets)
    assert err.value.code in {"bad_target", "no_targets"}
