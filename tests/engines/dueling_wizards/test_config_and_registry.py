"""Registration and match options (rulebook: "The Deck", "The Deal"; title: 2 or 3 players)."""

import json

import pytest

import engines.dueling_wizards
from engines import registry
from engines.base import InvalidConfig


def test_importing_the_package_registers_dueling_wizards_version_three_as_the_current_engine():
    engine = registry.get("dueling-wizards")
    assert engine is engines.dueling_wizards.ENGINE
    assert (engine.title, engine.version, engine.min_seats, engine.max_seats) == ("Dueling Wizards", "3", 2, 3)
    assert engine.current is True
    assert registry.get("dueling-wizards", "3") is engine
    assert engine in registry.latest() and engine in registry.playable()


def test_version_one_stays_registered_for_replay_but_is_not_current():
    # Old matches replay and verify under the version they were recorded with.
    old = registry.get("dueling-wizards", "1")
    assert old is engines.dueling_wizards.ENGINE_V1
    assert (old.version, old.current) == ("1", False)
    assert old in registry.all_engines()
    assert old not in registry.latest()


def test_both_versions_are_one_class_with_behaviour_chosen_by_version():
    assert type(registry.get("dueling-wizards", "1")) is type(registry.get("dueling-wizards"))
    with pytest.raises(ValueError):
        engines.dueling_wizards.DuelingWizards(version="4")


def test_both_versions_declare_the_same_platform_facts():
    old, new = registry.get("dueling-wizards", "1"), registry.get("dueling-wizards")
    for attribute in ("name", "title", "min_seats", "max_seats", "bots", "rating", "playable", "draft"):
        assert getattr(old, attribute) == getattr(new, attribute)
    assert old.script() == new.script() == "js/games/dueling-wizards.js"


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
