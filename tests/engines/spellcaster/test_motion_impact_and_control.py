"""Moving a familiar, Spell Impact, and the Control-or-abandon duty."""

import pytest

from engines.base import IllegalAction

from .helpers import E, act, at, fresh_turn, launched, started


def steering(motion, mass=(), start="C", seat=0, others=None):
    """``seat`` controls a launched spell standing at ``start``; seat 1 stands out of the way in A."""
    st = started(2)
    at(st, 0, "F")
    at(st, 1, "A")
    for s, p in (others or {}).items():
        at(st, s, p)
    launched(st, seat, 0, start, motion, mass)
    fresh_turn(st, seat)
    st["turn"]["first_done"] = True
    return act(st, seat, type="control", spell=f"{seat}:0")


def steps(st):
    return sorted(a["to"] for a in E.legal_actions(st, E.to_move(st)[0]))


def test_water_3_then_fire_1_crosses_three_water_paths_then_stops_with_no_fire_path():
    """Rulebook L184-191 (EX-SC-3): from C, routed C -> iE -> EW -> W; W has no Fire path, so the move ends."""
    st = steering(["0-water-3-a", "0-fire-1-a"])
    assert steps(st) == ["iA", "iE", "iW"]  # the Water paths out of C
    for to in ("iE", "EW", "W"):
        st = act(st, 0, type="step", to=to)
    sp = st["casters"][0]["display"][0]
    assert sp["point"] == "W" and st["stack"] == []


def test_each_point_of_a_motion_card_is_one_path_of_its_colour():
    """Rulebook L184-186: the familiar moves one path of the card's colour per point."""
    st = steering(["0-earth-1-a", "0-air-1-a"])
    assert steps(st) == ["iE", "iF", "iW"]
    st = act(st, 0, type="step", to="iF")
    assert steps(st) == ["AF", "C"]  # Air paths out of iF


def test_fire_3_water_1_air_1_striking_a_fire_earth_water_point_deals_four():
    """Rulebook L197-202 (EX-SC-1): at iE (Fire, Earth, Water) Fire 3 + Water 1 hurt, Air 1 does not."""
    st = steering(["0-earth-1-a"], ["0-fire-3-a", "0-water-1-a", "0-air-1-a"], others={1: "iE"})
    st = act(st, 0, type="step", to="iE")
    assert st["last"]["damage"] == 4 and st["last"]["struck"] == [1]
    assert st["casters"][1]["life"] == 18 - 4


def test_after_impact_the_familiar_and_cards_leave_and_the_caster_chooses_faces():
    """Rulebook L203-206: familiar removed, cards off the display, back face up or down at his choice."""
    st = steering(["0-earth-1-a"], ["0-fire-3-a"], others={1: "iE"})
    st = act(st, 0, type="step", to="iE")
    assert st["casters"][0]["display"][0] is None
    assert st["casters"][0]["tokens"] == 6  # SC-R19: the controller's token returns to the pile
    assert st["stack"][-1]["p"] == "return"
    assert sorted(map(str, [a["up"] for a in E.legal_actions(st, 0)])) == ["[0, 1]", "[0]", "[1]", "[]"]
    st = act(st, 0, type="return", up=[1])
    c = st["casters"][0]
    assert c["up"]["fire"] == ["0-fire-3-a"] and "0-earth-1-a" in c["pool"]["earth"]


def test_an_impact_ends_the_move_and_the_remaining_motion_is_lost():
    """SC-R19."""
    st = steering(["0-earth-3-a"], ["0-earth-1-a"], others={1: "iE"})
    st = act(st, 0, type="step", to="iE")
    assert all(p["p"] != "steps" for p in st["stack"])


def test_every_caster_on_the_struck_point_is_hit_including_the_controller():
    """SC-R19: all casters on the point are struck; own spells can strike their caster."""
    st = steering(["0-earth-1-a"], ["0-earth-3-a"], others={0: "iE", 1: "iE"})
    st = act(st, 0, type="step", to="iE")
    assert st["last"]["struck"] == [0, 1]
    assert [c["life"] for c in st["casters"]] == [15, 15]


def test_moving_onto_a_point_with_a_familiar_is_struck_by_it():
    """Rulebook L251-252 (EX-SC-15): a caster who moves into a point with a spell is impacted."""
    st = started(2)
    at(st, 0, "iF")
    launched(st, 1, 0, "C", ["1-air-1-a"], ["1-water-3-a", "1-fire-1-a"])
    fresh_turn(st, 0)
    st["turn"]["first_done"] = True
    st = act(st, 0, type="move", to="C")
    assert st["last"]["damage"] == 4 and st["casters"][0]["life"] == 14
    assert st["casters"][1]["display"][0] is None and E.to_move(st) == [1]  # seat 1 chooses the faces


def test_moving_onto_two_familiars_is_struck_by_each():
    """SC-R20."""
    st = started(2)
    at(st, 0, "iF")
    launched(st, 1, 0, "C", ["1-air-1-a"], ["1-water-1-a"])
    launched(st, 1, 1, "C", ["1-air-1-b"], ["1-fire-1-a"])
    fresh_turn(st, 0)
    st["turn"]["first_done"] = True
    st = act(st, 0, type="move", to="C")
    assert st["casters"][0]["life"] == 16
    assert st["casters"][1]["display"][:2] == [None, None]


def test_a_launched_spell_must_be_controlled_or_abandoned_each_turn():
    """Rulebook L221-224 (EX-SC-17): end_turn is refused until it is moved or abandoned."""
    st = started(2)
    at(st, 1, "A")
    launched(st, 0, 0, "C", ["0-earth-1-a"], ["0-earth-3-a"])
    fresh_turn(st, 0)
    with pytest.raises(IllegalAction) as exc:
        act(st, 0, type="end_turn")
    assert exc.value.code == "obligations_pending"
    st = act(st, 0, type="abandon", spell="0:0")
    sp = st["casters"][0]["display"][0]
    assert sp["state"] == "wild" and sp["point"] == "C" and st["casters"][0]["tokens"] == 6
    st = act(st, 0, type="end_turn")  # abandoned for free, so the turn may end
    # it does not move until the wild spells move at the next round start
    assert st["casters"][0]["display"][0]["point"] == "C" and E.to_move(st) == [1]


def test_control_costs_one_action_and_moves_the_spell_by_all_its_motion_cards():
    """SC-R17: one Control action plays the whole Motion sequence."""
    st = steering(["0-earth-1-a", "0-air-1-a"])
    assert st["turn"]["left"] == 4
    st = act(st, 0, type="step", to="iF")
    st = act(st, 0, type="step", to="AF")
    assert st["casters"][0]["display"][0]["point"] == "AF" and st["stack"] == []
    assert {"type": "control", "spell": "0:0"} not in E.legal_actions(st, 0)
    assert {"type": "end_turn"} in E.legal_actions(st, 0)


def test_a_step_along_a_path_of_another_colour_is_refused():
    st = steering(["0-water-1-a"])
    with pytest.raises(IllegalAction) as exc:
        act(st, 0, type="step", to="iF")
    assert exc.value.code == "no_such_path"
