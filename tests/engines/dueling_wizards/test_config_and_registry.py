"""Registration and match options (rulebook: "The Deck", "The Deal"; title: 2 or 3 players)."""

import json

import pytest

import engines.dueling_wizards
from engines import registry
from engines.base import InvalidConfig


def test_importing_the_package_registers_dueling_wizards():
    engine = registry.get("dueling-wizards")
    assert engine is engines.dueling_wizards.ENGINE
    assert (engine.title, engine.version, engine.min_seats, engine.max_seats) == ("Dueling Wizards", "1", 2, 3)
    assert registry.get("dueling-wizards", "1") is engine


def test_jokers_are_in_play_by_default():
    assert registry.get("dueling-wizards").validate_config(None, 2) == {"jokers": True}
    assert registry.get("dueling-wizards").validate_config({}, 3) == {"jokers": True}


def test_jokers_can_be_left_out():
    assert registry.get("dueling-wizards").validate_config({"jokers": False}, 2) == {"jokers": False}


@pytest.mark.parametrize("value", ["yes", 1, 0, None, [True]])
def test_the_jokers_option_must_be_true_or_false(value):
    with pytest.raises(InvalidConfig) as refused:
        registry.get("dueling-wizards").validate_config({"jokers": value}, 2)
    assert refused.value.code == "bad_option_value"
    assert "true or false" in refused.value.message


def test_an_unknown_option_is_refused():
    with pytest.raises(InvalidConfig) as refused:
        registry.get("dueling-wizards").validate_config({"decks": 2}, 2)
    assert refused.value.code == "unknown_option"


@pytest.mark.parametrize("seats", [1, 4, "2", 2.0])
def test_the_duel_is_for_two_or_three_wizards(seats):
    # Title: 2 or 3 players.
    with pytest.raises(InvalidConfig) as refused:
        registry.get("dueling-wizards").validate_config({}, seats)
    assert refused.value.code == "bad_seat_count"


def test_every_wizard_starts_on_one_hundred_health():
    # The Deal: each player starts with 100 health points (200 half-points).
    state = registry.get("dueling-wizards").setup({}, 3)
    assert state["health"] == [200, 200, 200]
    assert json.loads(json.dumps(state)) == state
