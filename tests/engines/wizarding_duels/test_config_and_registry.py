"""Registration and configuration: declared like every engine, refusals with stable codes."""

import pytest

from engines import registry
from engines.base import InvalidConfig
from engines.wizarding_duels import ENGINE


def test_the_engine_is_registered_for_two_players_with_glicko2_and_its_bots():
    assert registry.get("wizarding-duels") is ENGINE
    assert ENGINE.rating == "glicko2" and (ENGINE.min_seats, ENGINE.max_seats) == (2, 2)
    assert ENGINE.bots[0] == "heuristic" and "random" in ENGINE.bots
    assert ENGINE.script() == "js/games/wizarding-duels.js"


@pytest.mark.parametrize(
    "config, code",
    [
        ({"pack": "no-such-pack"}, "unknown_pack"),
        ({"pack": "rulebook-examples"}, "pack_not_playable"),
        ({"galleons": 0}, "bad_galleons"),
        ({"galleons": "50"}, "bad_galleons"),
        ({"galleons": 3}, "budget_too_small"),
        ({"potion_duplicates": "yes"}, "bad_option"),
        ({"groups": [{}]}, "bad_groups"),
        ({"colour": "red"}, "unknown_option"),
    ],
)
def test_bad_configs_are_refused_with_a_stable_code(config, code):
    with pytest.raises(InvalidConfig) as err:
        ENGINE.validate_config(config, 2)
    assert err.value.code == code and err.value.message


def test_three_players_are_refused():
    with pytest.raises(InvalidConfig) as err:
        ENGINE.validate_config({}, 3)
    assert err.value.code == "bad_seat_count"


def test_a_preset_group_must_be_legal():
    bad = {
        "type": "group",
        "models": ["aldous-wren", "cassius-vane"],
        "leader": 0,
        "artifacts": [[], []],
        "spellbook": [],
        "quests": [],
    }
    with pytest.raises(InvalidConfig) as err:
        ENGINE.validate_config({"groups": [bad, bad]}, 2)
    assert err.value.code == "mixed_affiliation"


def test_the_default_config_plays_original_v1_within_fifty_galleons():
    cfg = ENGINE.validate_config({}, 2)
    assert cfg["pack"] == "original-v1" and cfg["galleons"] == 50 and cfg["groups"] is None


def test_without_duplicates_a_stock_of_six_different_level_zero_potions_is_always_offered():
    """Ruling A-57 as a switch: the pack must make a duplicate-free Stock possible."""
    s = ENGINE.setup({"potion_duplicates": False}, 2)
    for seat in (0, 1):
        s = ENGINE.apply(s, {"kind": "action", "seat": seat, "action": ENGINE.legal_actions(s, seat)[0]})
    for seat in (0, 1):
        stocks = ENGINE.legal_actions(s, seat)
        assert stocks and all(len(set(x["potions"])) == 6 for x in stocks)
    with pytest.raises(InvalidConfig) as err:
        ENGINE.validate_config({"potion_duplicates": False, "pack": "rulebook-examples"}, 2)
    assert err.value.code == "stock_impossible"
