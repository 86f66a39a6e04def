"""The turn: action points, the first-action rule, once-a-turn actions, Move and Rest."""

import pytest

from engines.base import IllegalAction
from engines.spellcaster.engine import ap_now

from .helpers import E, act, at, fresh_turn, started


def with_ap(ap, point="C"):
    st = started(2)
    c = st["casters"][0]
    # squares left so that the top remaining square shows ``ap`` (chart ruling SC-R1, Life Force 3)
    c["life"] = {5: 18, 4: 12, 3: 9, 2: 6, 1: 3}[ap]
    at(st, 0, point)
    return fresh_turn(st, 0)


def refused(st, seat, code, **action):
    with pytest.raises(IllegalAction) as exc:
        act(st, seat, **action)
    assert exc.value.code == code


def test_with_several_action_points_the_first_action_must_be_conjure_or_rest():
    """Rulebook L99-101 (EX-SC-12): with AP 3 a first Move is refused."""
    st = with_ap(3)
    refused(st, 0, "first_action_conjure_or_rest", type="move", to="iF")
    assert {"type": "move", "to": "iF"} not in E.legal_actions(st, 0)


def test_after_a_conjure_the_caster_may_move_twice_but_not_conjure_again():
    """Rulebook L101-103 (EX-SC-12): Conjure once a turn; the other actions repeat."""
    st = with_ap(3)
    st = act(st, 0, type="conjure", cards=1)
    st = act(st, 0, type="draw", **{"from": "fire"})
    st = E.apply(st, {"kind": "chance", "outcome": [0]})
    st = act(st, 0, type="return_up")
    st = act(st, 0, type="move", to="iF")
    st = act(st, 0, type="move", to="C")
    assert st["turn"]["left"] == 0
    refused(st, 0, "conjure_once_per_turn", type="conjure", cards=1)


def test_with_one_action_point_any_single_action_may_come_first():
    """Rulebook L99-100 (EX-SC-12): AP 1: a Move alone is allowed."""
    st = with_ap(1)
    st = act(st, 0, type="move", to="iF")
    assert st["casters"][0]["point"] == "iF" and st["turn"]["left"] == 0
    refused(st, 0, "no_action_points", type="move", to="C")


def test_a_caster_who_rests_may_not_move_or_conjure_that_turn():
    """Rulebook L103-104 (EX-SC-12): Rest then Move is refused."""
    st = with_ap(3)
    st = act(st, 0, type="rest")
    refused(st, 0, "rested", type="move", to="iF")
    refused(st, 0, "rested", type="conjure", cards=3)
    refused(st, 0, "rest_once_per_turn", type="rest")


def test_rest_after_conjure_or_move_is_refused():
    """Rulebook L254-255: Rest only in a turn without Conjure or Move."""
    st = with_ap(1)
    st = act(st, 0, type="move", to="iF")
    st["turn"]["left"] = 1
    refused(st, 0, "cannot_rest", type="rest")


@pytest.mark.parametrize("point, healed", [("C", 4), ("iF", 3), ("FE", 2), ("F", 1)])
def test_rest_recovers_one_square_per_element_present(point, healed):
    """Rulebook L254-257 (EX-SC-13): +4 at C, +3 at an inner point, +2 at an edge middle, +1 in a corner."""
    st = with_ap(2, point)
    before = st["casters"][0]["life"]
    st = act(st, 0, type="rest")
    assert st["casters"][0]["life"] == before + healed


def test_rest_never_restores_above_the_owned_rows():
    """SC-R1 / EX-SC-13: at full Life Force, Rest recovers nothing."""
    st = with_ap(5)
    st = act(st, 0, type="rest")
    assert st["casters"][0]["life"] == 18


def test_move_goes_along_one_path_to_an_adjacent_point_only():
    """Rulebook L247-248: one path to an adjacent point."""
    st = with_ap(1, point="F")
    refused(st, 0, "not_adjacent", type="move", to="C")
    assert sorted(a["to"] for a in E.legal_actions(st, 0) if a["type"] == "move") == ["AF", "FE", "iF"]


def test_the_caster_on_the_centre_moving_toward_fire_arrives_where_fire_earth_and_air_are_active():
    """Rulebook L80-86 (EX-SC-2), played as a Move action."""
    from engines.spellcaster import board as B

    st = with_ap(1)
    st = act(st, 0, type="move", to="iF")
    assert B.active(st["casters"][0]["point"]) == ["fire", "earth", "air"]


def test_action_points_are_the_number_on_the_top_remaining_square():
    """Rulebook L92-94 with the chart ruling SC-R1 (EX-SC-20): Life Force 3 takes 6, 6 and 6 damage:
    AP 5 -> 4 -> 2 -> exhausted."""
    st = started(2)
    c = st["casters"][0]
    seen = [ap_now(c)]
    for _ in range(3):
        c["life"] -= 6
        seen.append(ap_now(c))
    assert seen == [5, 4, 2, 0]


def test_life_force_one_and_two_start_with_two_and_four_action_points():
    """SC-R1: Life Force 1 owns 6 squares (2 AP), Life Force 2 owns 12 (4 AP)."""
    st = started(
        2,
        sheets={
            0: {"life_force": 0, "will": 2, "focus": 2, "skill": 2},
            1: {"life_force": 1, "will": 1, "focus": 2, "skill": 2},
        },
    )
    assert [len(c["squares"]) for c in st["casters"]] == [6, 12]
    assert [ap_now(c) for c in st["casters"]] == [2, 4]


def test_damage_during_a_turn_does_not_change_that_turns_action_points():
    """SC-R4: the AP are read at the start of the turn."""
    st = with_ap(5)
    st["casters"][0]["life"] = 3
    assert st["turn"]["ap"] == 5 and st["turn"]["left"] == 5


def test_a_turn_ends_only_by_end_turn_and_passes_clockwise():
    """Rulebook L90-92: turns go clockwise after the first player."""
    st = started(3, first=1)
    assert E.to_move(st) == [1]
    st = act(st, 1, type="end_turn")
    st = act(st, 2, type="end_turn")
    assert E.to_move(st) == [0] and st["round"] == 1
    st = act(st, 0, type="end_turn")
    assert E.to_move(st) == [1] and st["round"] == 2


def test_a_caster_who_rests_may_still_control_a_spell():
    """Rulebook L101-104 (EX-SC-12): Rest then Control is allowed (only Move and Conjure are barred)."""
    from .helpers import launched

    st = started(2)
    at(st, 1, "A")
    launched(st, 0, 0, "C", ["0-earth-1-a"], ["0-earth-3-a"])
    fresh_turn(st, 0)
    st = act(st, 0, type="rest")
    st = act(st, 0, type="control", spell="0:0")
    assert st["stack"][-1]["p"] == "steps"
