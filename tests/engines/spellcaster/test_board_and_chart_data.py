"""The board and the Life Force chart are data files beside the engine (issue 10, deliverable 2)."""

import json

import pytest

from engines.spellcaster import board as B


def test_the_centre_has_all_four_elements_active():
    """Rulebook L80-82: the center point has all four elemental colours."""
    assert B.active("C") == ["fire", "earth", "water", "air"]


def test_one_step_from_the_centre_toward_the_fire_corner_reproduces_the_rulebook_example():
    """Rulebook L82-86 (EX-SC-2): one path toward the Fire corner reaches a point with Fire, Earth and Air
    active, Water not, joined to the centre by a Fire, an Earth and an Air path."""
    toward_fire = [p for p in B.adjacent("C") if "F" in B.adjacent(p)]
    assert toward_fire == ["iF"]
    assert B.active("iF") == ["fire", "earth", "air"]
    assert "water" not in B.active("iF")
    assert B.path_colours("C", "iF") == ["fire", "earth", "air"]


def test_every_path_joins_adjacent_points_once_per_element_active_at_both_ends():
    """Rulebook L71-76: paths are lines in the colours of the elements; the spec's B1.3 rule generates them."""
    data = json.loads((B.DATA_DIR / "board.json").read_text())
    assert data["paths"] == B.generated_paths(data["points"], data["adjacent"])
    assert len(data["points"]) == 13 and len(data["adjacent"]) == 24 and len(data["paths"]) == 40


def test_each_corner_holds_only_its_own_element_and_opposite_corners_are_fire_water_and_earth_air():
    """Rulebook L65-67: casters start in corners, two players in opposite ones."""
    data = B.board()
    for element, corner in data["corners"].items():
        assert B.active(corner) == [element]
    assert B.starts(2) == ["F", "W"]
    assert B.starts(4) == ["F", "E", "W", "A"]


def test_a_board_whose_stored_paths_disagree_with_the_rule_is_refused():
    data = B.board()
    data["paths"] = data["paths"][1:]
    with pytest.raises(B.DataError):
        B.validate_board(data)


def test_the_life_chart_is_the_rulings_serpentine_track_5_4_3_2_1():
    """Rulebook L51-59 (garbled) read as SC-R1: rows of six squares, 5s; 4s then 3s; 2s then 1s."""
    chart = B.life_chart()
    assert B.owned_squares(chart, 1) == [2, 2, 2, 1, 1, 1]
    assert B.owned_squares(chart, 2) == [4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1]
    assert B.owned_squares(chart, 3)[:6] == [5] * 6 and len(B.owned_squares(chart, 3)) == 18


def test_a_chart_with_a_row_of_zero_action_points_is_refused():
    chart = B.life_chart()
    chart["rows"][0]["squares"][0] = 0
    with pytest.raises(B.DataError):
        B.validate_life_chart(chart)
