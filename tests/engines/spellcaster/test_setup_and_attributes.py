"""Setup: attribute allocation, derived numbers, decks, start corners, the first player, config."""

import pytest

from engines.base import CHANCE, IllegalAction, InvalidConfig
from engines.spellcaster.engine import SUIT, value_of

from .helpers import SHEET, E, act, started


def allocate(st, seat, **points):
    return act(st, seat, type="allocate", **points)


def test_an_allocation_of_two_one_one_two_gives_the_specs_example_sheet():
    """Rulebook L39-49 (EX-SC-8): bases 1/1/2/5 plus the points; 3 Will tokens per Will point; one familiar
    pair and one display space per Focus point."""
    st = started(2, sheets={0: {"life_force": 2, "will": 1, "focus": 1, "skill": 2}})
    c = st["casters"][0]
    assert c["attrs"] == {"life_force": 3, "will": 2, "focus": 3, "skill": 7}
    assert c["tokens"] == 6
    assert len(c["display"]) == 3
    assert E.view(st, 0)["casters"][0]["free_pairs"] == 3


def test_three_points_on_life_force_are_refused():
    """Rulebook L42-43 (EX-SC-8): no more than 2 Attribute Points on Life Force."""
    st = E.setup({}, 2)
    with pytest.raises(IllegalAction) as exc:
        allocate(st, 0, life_force=3, will=1, focus=1, skill=1)
    assert exc.value.code == "bad_allocation"


def test_an_allocation_that_does_not_spend_exactly_six_points_is_refused():
    """Rulebook L40-41 (EX-SC-8, SC-R3): six Attribute Points to allocate; a sum of 5 is refused."""
    st = E.setup({}, 2)
    with pytest.raises(IllegalAction):
        allocate(st, 0, life_force=2, will=1, focus=1, skill=1)
    with pytest.raises(IllegalAction):
        allocate(st, 0, life_force=2, will=-1, focus=3, skill=2)


def test_allocation_is_simultaneous_and_secret_until_every_caster_has_allocated():
    """SC-R3: each seat allocates in secret; the sheets are revealed together."""
    st = E.setup({}, 3)
    assert E.to_move(st) == [0, 1, 2]
    st = allocate(st, 1, **SHEET)
    assert E.to_move(st) == [0, 2]
    other = E.view(st, 0)["casters"][1]
    assert other["allocated"] is True and other["allocation"] is None
    assert E.view(st, 1)["casters"][1]["allocation"] == SHEET
    action = dict(SHEET, type="allocate")
    assert E.redact_action(1, action, 0) == {"type": "allocate"}
    assert E.redact_action(1, action, None) == {"type": "allocate"}
    assert E.redact_action(1, action, 1) == action
    st = allocate(st, 0, **SHEET)
    st = allocate(st, 2, life_force=0, will=0, focus=0, skill=6)
    assert E.to_move(st) == [CHANCE]
    assert E.view(st, 0)["casters"][2]["attributes"]["skill"] == 11


def test_a_fresh_deck_has_four_suits_of_six_ones_three_threes_and_a_five():
    """Rulebook L61-63, L118-119 (EX-SC-10): 40 cards, each suit 6x1 + 3x3 + 1x5 (sum 20)."""
    st = E.setup({}, 2)
    pool = st["casters"][0]["pool"]
    assert sorted(pool) == ["air", "earth", "fire", "water"]
    assert sum(len(v) for v in pool.values()) == 40
    for cards in pool.values():
        assert sorted(value_of(c) for c in cards) == sorted(SUIT)
        assert sum(value_of(c) for c in cards) == 20


def test_two_casters_start_in_opposite_corners_and_four_in_all_four():
    """Rulebook L65-67, SC-R2."""
    assert [c["point"] for c in E.setup({}, 2)["casters"]] == ["F", "W"]
    assert [c["point"] for c in E.setup({}, 3)["casters"]] == ["F", "E", "W"]
    assert [c["point"] for c in E.setup({}, 4)["casters"]] == ["F", "E", "W", "A"]


def test_the_first_player_is_a_public_die_roll_and_turns_then_go_clockwise():
    """Rulebook L90-92: players determine who goes first, then take turns clockwise."""
    st = E.setup({}, 3)
    for s in range(3):
        st = allocate(st, s, **SHEET)
    spec = E.chance(st)
    assert spec["kind"] == "dice" and spec["dice"] == [[0, 2]] and spec.get("visible_to", "all") == "all"
    st = E.apply(st, {"kind": "chance", "outcome": [2]})
    assert E.to_move(st) == [2]
    st = act(st, 2, type="end_turn")
    assert E.to_move(st) == [0]


def test_fewer_than_two_or_more_than_four_players_are_refused():
    for n in (1, 5):
        with pytest.raises(InvalidConfig):
            E.validate_config({}, n)


def test_config_refuses_an_unknown_option_a_bad_round_limit_and_a_bad_chart():
    with pytest.raises(InvalidConfig):
        E.validate_config({"colour": "red"}, 2)
    with pytest.raises(InvalidConfig) as exc:
        E.validate_config({"max_rounds": 2}, 2)
    assert exc.value.code == "bad_max_rounds"
    with pytest.raises(InvalidConfig) as exc:
        E.validate_config({"life_chart": {"rows": []}}, 2)
    assert exc.value.code == "bad_life_chart"
    assert E.validate_config({"max_rounds": 0}, 2)["max_rounds"] == 0


def test_a_life_chart_in_the_config_changes_the_action_points():
    chart = {"rows": [{"needs_life_force": 1, "squares": [3, 3, 1]}], "after_last": "End"}
    st = started(2, config={"life_chart": chart})
    assert st["casters"][0]["squares"] == [3, 3, 1]
    assert st["turn"]["ap"] == 3


def test_the_engine_is_registered_for_two_to_four_players_rated_with_openskill():
    from engines import registry

    engine = registry.get("spellcaster")
    assert isinstance(engine, type(E)) and engine in registry.playable()
    assert (engine.min_seats, engine.max_seats, engine.rating, engine.best_bot) == (2, 4, "openskill", "heuristic")
    assert engine.script() == "js/games/spellcaster.js"
