"""Conjure a Spell: the two ways to draw, private draws, and the limits of a spell."""

import pytest

from engines.base import CHANCE, IllegalAction
from engines.spellcaster.engine import slot_fits

from .helpers import E, act, at, deal, fresh_turn, give_spell, started


def on(point, seat=0):
    st = started(2)
    at(st, seat, point)
    return fresh_turn(st, seat)


def draw_sources(st, seat=0):
    return [a["from"] for a in E.legal_actions(st, seat) if a["type"] == "draw"]


def test_a_caster_in_the_fire_corner_may_draw_only_fire_cards():
    """Rulebook L132-133 (EX-SC-11): only the elements active at the caster's point."""
    st = act(on("F"), 0, type="conjure", cards=1)
    assert draw_sources(st) == ["fire"]
    with pytest.raises(IllegalAction) as exc:
        act(st, 0, type="draw", **{"from": "earth"})
    assert exc.value.code == "element_not_active"


def test_a_caster_on_the_centre_may_draw_from_earth():
    """Rulebook L132-133 (EX-SC-11): on C all four decks may be drawn."""
    st = act(on("C"), 0, type="conjure", cards=1)
    assert draw_sources(st) == ["fire", "earth", "water", "air"]
    st = act(st, 0, type="draw", **{"from": "earth"})
    assert E.to_move(st) == [CHANCE]


def test_a_deck_draw_is_a_lazy_private_draw_from_the_elements_unknown_pool():
    """B4: each draw is private to the drawer; the spec names only the pool size."""
    st = act(on("C"), 0, type="conjure", cards=1)
    st = act(st, 0, type="draw", **{"from": "water"})
    spec = E.chance(st)
    assert spec["kind"] == "draw" and spec["pool"] == 10 and spec["count"] == 1 and spec["visible_to"] == [0]
    assert E.draw_pool(st) == sorted(st["casters"][0]["pool"]["water"])
    # the index is served to nobody while live (the drawer sees the card through the view)
    assert E.redact_chance(spec, [3], 1) is None and E.redact_chance(spec, [3], 0) is None
    st = deal(st, "0-water-5-a")
    assert st["casters"][0]["hand"] == [{"id": "0-water-5-a", "open": False}]
    assert len(st["casters"][0]["pool"]["water"]) == 9


def test_draw_three_keep_one_face_up_and_return_two_face_down():
    """Rulebook L123-125: draw 3, return two face down, play the third face up on an open space."""
    st = act(on("C"), 0, type="conjure", cards=3)
    for element, card in (("fire", "0-fire-3-a"), ("earth", "0-earth-1-a"), ("water", "0-water-1-b")):
        st = act(st, 0, type="draw", **{"from": element})
        st = deal(st, card)
    assert E.to_move(st) == [0] and st["stack"][-1]["p"] == "keep"
    st = act(st, 0, type="keep", card=0, spell=1, section="motion")
    c = st["casters"][0]
    assert c["display"][1]["motion"] == [{"id": "0-fire-3-a", "open": True}]
    assert "0-earth-1-a" in c["pool"]["earth"] and "0-water-1-b" in c["pool"]["water"]
    assert c["hand"] == []


def test_draw_one_and_place_it_face_down():
    """Rulebook L127-129: draw 1 and place it face down on an open space."""
    st = act(on("C"), 0, type="conjure", cards=1)
    st = act(st, 0, type="draw", **{"from": "air"})
    st = deal(st, "0-air-1-c")
    st = act(st, 0, type="place", spell=0, section="motion")
    assert st["casters"][0]["display"][0]["motion"] == [{"id": "0-air-1-c", "open": False}]
    # the others see a face-down Air card, not its value
    seen = E.view(st, 1)["casters"][0]["display"][0]["motion"][0]
    assert seen == {"id": None, "element": "air", "value": None, "open": False}


def test_draw_one_and_return_it_face_up_to_a_public_row_that_later_draws_may_choose():
    """Rulebook L127-130, SC-R7: returned face up, the card can be chosen by a later draw."""
    st = act(on("C"), 0, type="conjure", cards=1)
    st = act(st, 0, type="draw", **{"from": "fire"})
    st = deal(st, "0-fire-5-a")
    st = act(st, 0, type="return_up")
    assert st["casters"][0]["up"]["fire"] == ["0-fire-5-a"]
    assert E.view(st, 1)["casters"][0]["face_up"]["fire"] == ["0-fire-5-a"]
    st = act(st, 0, type="end_turn")
    st = act(st, 1, type="end_turn")
    st = act(st, 0, type="conjure", cards=1)
    assert "0-fire-5-a" in draw_sources(st)
    st = act(st, 0, type="draw", **{"from": "0-fire-5-a"})
    assert E.to_move(st) == [0]  # no chance: a face-up card is taken, not drawn blind


def test_with_fewer_cards_available_the_caster_draws_what_there_is():
    """SC-R6: in a corner with one Fire card left, a three-card draw takes that one card."""
    st = on("F")
    c = st["casters"][0]
    c["removed"] = c["pool"]["fire"][1:]
    c["pool"]["fire"] = c["pool"]["fire"][:1]
    st = act(st, 0, type="conjure", cards=3)
    st = act(st, 0, type="draw", **{"from": "fire"})
    st = E.apply(st, {"kind": "chance", "outcome": [0]})
    assert st["stack"][-1]["p"] == "keep" and len(st["casters"][0]["hand"]) == 1


def test_when_no_drawn_card_fits_all_three_go_back_face_down():
    """SC-R8: nothing fits -> keep_none; the action is spent."""
    st = on("C")
    give_spell(st, 0, 0, motion=["0-air-5-a"], mass=["0-air-1-a"])
    give_spell(st, 0, 1, motion=["0-earth-5-a"], mass=["0-earth-1-a"])
    give_spell(st, 0, 2, motion=["0-water-5-a"], mass=["0-water-1-a"])
    st = act(st, 0, type="conjure", cards=3)
    for card in ("0-fire-3-a", "0-fire-3-b", "0-fire-5-a"):
        st = act(st, 0, type="draw", **{"from": "fire"})
        st = deal(st, card)
    assert E.legal_actions(st, 0) == [{"type": "keep_none"}]
    st = act(st, 0, type="keep_none")
    assert len(st["casters"][0]["pool"]["fire"]) == 10 and st["turn"]["left"] == 4


def test_a_skill_7_spell_of_fire_1_fire_1_and_water_5_is_legal_and_full():
    """Rulebook L112-116 (EX-SC-9): total 7 fits Skill 7; any further card exceeds Skill."""
    st = on("C")
    give_spell(st, 0, 0, motion=["0-fire-1-a", "0-fire-1-b"], mass=["0-water-5-a"])
    assert not slot_fits(st, 0, 0, "mass", "0-air-1-a")
    assert not slot_fits(st, 0, 0, "motion", "0-air-1-a")


def test_a_fourth_motion_card_and_a_sixth_card_are_refused():
    """Rulebook L112-114 (EX-SC-9): at most three Motion (or Mass) cards, at most five in all."""
    st = started(2, sheets={0: {"life_force": 0, "will": 0, "focus": 0, "skill": 6}})  # Skill 11
    give_spell(st, 0, 0, motion=["0-fire-1-a", "0-fire-1-b", "0-fire-1-c"])
    assert not slot_fits(st, 0, 0, "motion", "0-fire-1-d")
    assert slot_fits(st, 0, 0, "mass", "0-fire-1-d")
    give_spell(st, 0, 1, motion=["0-air-1-a", "0-air-1-b"], mass=["0-air-1-c", "0-air-1-d", "0-air-1-e"])
    assert not slot_fits(st, 0, 1, "motion", "0-air-1-f")


def test_a_spell_without_motion_keeps_room_for_a_one_point_motion_card():
    """SC-R8: Mass may not fill the Skill of a spell that has no Motion yet."""
    st = on("C")  # Skill 7
    give_spell(st, 0, 0, mass=["0-water-5-a", "0-water-1-a"])
    assert not slot_fits(st, 0, 0, "mass", "0-water-1-b")  # 7 of 7 would leave no room for Motion
    assert slot_fits(st, 0, 0, "motion", "0-water-1-b")


def test_placing_a_card_that_exceeds_skill_is_refused_with_a_reason():
    st = on("C")
    give_spell(st, 0, 0, motion=["0-fire-5-a"])
    st = act(st, 0, type="conjure", cards=1)
    st = act(st, 0, type="draw", **{"from": "water"})
    st = deal(st, "0-water-3-a")
    with pytest.raises(IllegalAction) as exc:
        act(st, 0, type="place", spell=0, section="mass")
    assert exc.value.code == "card_does_not_fit"


def test_a_complete_spell_may_be_launched_as_part_of_the_conjure_action():
    """Rulebook L135-136, SC-R9: at least one Motion card makes a spell complete."""
    st = on("C")
    give_spell(st, 0, 0, motion=["0-fire-1-a"], mass=["0-fire-3-a"])
    st = act(st, 0, type="conjure", cards=1)
    st = act(st, 0, type="draw", **{"from": "air"})
    st = deal(st, "0-air-1-a")
    st = act(st, 0, type="return_up")
    assert {"type": "launch", "spell": "0:0"} in E.legal_actions(st, 0)
    assert {"type": "no_launch"} in E.legal_actions(st, 0)
