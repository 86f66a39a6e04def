"""Configuration, registration and the opening shuffle."""

import pytest

from engines import registry
from engines.base import CHANCE, IllegalAction, InvalidConfig
from engines.iwdl_draft import ENGINE as E

from .helpers import ORDER, stacked


def config_error(config, seats):
    with pytest.raises(InvalidConfig) as info:
        E.validate_config(config, seats)
    return info.value


def test_importing_the_package_registers_iwdl_draft_version_1():
    assert registry._ENGINES[("iwdl-draft", "1")] is E
    assert (E.name, E.title, E.version, E.min_seats, E.max_seats) == ("iwdl-draft", "IWDL Draft", "1", 2, 4)


def test_two_coaches_default_to_a_schoolyard_draft_of_five_from_a_pool_of_ten():
    assert E.validate_config({}, 2) == {
        "format": "schoolyard",
        "order": None,
        "team_size": 5,
        "seat_order": [0, 1],
        "pool_size": 10,
        "auto_pick": "highest_magic",
    }


def test_four_coaches_default_to_a_snake_tournament_draft_of_six():
    """Variants, Tournaments: four players draft teams of 6 wizards (5 plus an alternate)."""
    assert E.validate_config(None, 4) == {
        "format": "tournament",
        "order": "snake",
        "team_size": 6,
        "seat_order": [0, 1, 2, 3],
        "pool_size": 10,
        "auto_pick": "highest_magic",
    }


def test_a_basic_draft_has_no_pool_and_no_order():
    assert E.validate_config({"format": "basic"}, 2) == {
        "format": "basic",
        "order": None,
        "team_size": 5,
        "seat_order": [0, 1],
        "pool_size": None,
        "auto_pick": "highest_magic",
    }


def test_tournament_options_are_kept():
    cfg = E.validate_config({"order": "straight", "seat_order": [2, 0, 3, 1], "team_size": 5}, 4)
    assert (cfg["order"], cfg["seat_order"], cfg["team_size"]) == ("straight", [2, 0, 3, 1], 5)


@pytest.mark.parametrize(
    "config, seats, code",
    [
        ({"format": "draft"}, 2, "bad_format"),
        ({"format": 3}, 2, "bad_format"),
        ({}, 3, "bad_seat_count"),
        ({}, 5, "bad_seat_count"),
        ({"format": "tournament"}, 2, "bad_seat_count"),
        ({"format": "basic"}, 4, "bad_seat_count"),
        ({"format": "schoolyard"}, 4, "bad_seat_count"),
        ({"colour": "red"}, 2, "unknown_option"),
        ({"order": "snake"}, 2, "option_not_for_format"),
        ({"format": "tournament", "order": "spiral"}, 4, "bad_order"),
        ({"format": "tournament", "order": None}, 4, "bad_order"),
        ({"team_size": 6}, 2, "bad_team_size"),
        ({"format": "tournament", "team_size": 7}, 4, "bad_team_size"),
        ({"team_size": True}, 2, "bad_team_size"),
        ({"seat_order": [0, 0]}, 2, "bad_seat_order"),
        ({"seat_order": [0, 1, 2]}, 2, "bad_seat_order"),
        ({"seat_order": "01"}, 2, "bad_seat_order"),
        ({"format": "basic", "pool_size": 10}, 2, "option_not_for_format"),
        ({"pool_size": 0}, 2, "bad_pool_size"),
        ({"pool_size": 25}, 2, "bad_pool_size"),
        ({"pool_size": 10.0}, 2, "bad_pool_size"),
        ({"auto_pick": "random"}, 2, "bad_auto_pick"),
    ],
)
def test_invalid_configs_are_refused_with_a_stable_code_and_a_sentence(config, seats, code):
    error = config_error(config, seats)
    assert error.code == code
    assert error.message.endswith(".")


def test_the_options_must_be_an_object():
    assert config_error(["basic"], 2).code == "bad_config"


def test_the_first_step_is_the_chance_shuffle_of_the_24_wizard_deck():
    state = E.setup({}, 2)
    assert E.to_move(state) == [CHANCE]
    assert E.chance(state) == {"kind": "shuffle", "size": 24, "label": "Shuffle the wizard stat cards"}
    assert E.legal_actions(state, 0) == []


def test_the_shuffle_outcome_indexes_the_roster_in_ascending_jersey_order():
    state = E.apply(E.setup({}, 2), {"kind": "chance", "outcome": list(reversed(range(24)))})
    assert state["pool"] == list(reversed(ORDER))[:10]
    assert state["deck"] == list(reversed(ORDER))[10:]
    assert E.chance(state) is None


@pytest.mark.parametrize("outcome", [list(range(23)), [0] * 24, "shuffle", list(range(1, 25))])
def test_an_impossible_shuffle_is_refused(outcome):
    with pytest.raises(IllegalAction) as info:
        E.apply(E.setup({}, 2), {"kind": "chance", "outcome": outcome})
    assert info.value.code == "bad_chance_outcome"


def test_no_second_shuffle_is_due():
    state = E.apply(E.setup({}, 2), {"kind": "chance", "outcome": stacked([])})
    with pytest.raises(IllegalAction) as info:
        E.apply(state, {"kind": "chance", "outcome": stacked([])})
    assert info.value.code == "no_chance_due"


def test_actions_before_the_shuffle_are_refused():
    with pytest.raises(IllegalAction) as info:
        E.apply(E.setup({}, 2), {"kind": "action", "seat": 1, "action": {"type": "take_first_pick"}})
    assert info.value.code == "chance_pending"
