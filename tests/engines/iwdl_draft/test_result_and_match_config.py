"""The finished draft: its result, and the Wizard Dodgeball match it hands off to."""

import itertools

import pytest

from engines import registry
from engines.base import IllegalAction
from engines.iwdl_draft import ENGINE as E
from engines.iwdl_draft import match_config

from .helpers import P1, P2, act, basic_with, building, run_auto, start

WD = registry.get("wizard-dodgeball")


def finish_example():
    """The rulebook's example teams, line-ups in its turn order, spells within 13 and 11."""
    state = basic_with(P1, P2)
    plan = {
        0: [
            {"type": "lineup", "wizards": [21, 58, 41, 25, 36]},
            {"type": "spells", "spells": ["teleport", "freeze", "shield", "strong_weak", "drain_boost"]},
        ],
        1: [
            {"type": "lineup", "wizards": [45, 30, 47, 10, 12]},
            {"type": "spells", "spells": ["fireball", "dispel", "slow_speed"]},
        ],
    }
    for seat, actions in plan.items():
        for action in actions + [{"type": "ready"}]:
            state = act(state, seat, action)
    return state


def test_there_is_no_result_until_every_coach_is_ready():
    assert E.result(start()) is None
    assert E.result(building(start())) is None


def test_the_result_lists_each_team_with_line_up_spells_and_magic():
    result = E.result(finish_example())
    assert result == {
        "placements": [1, 1],
        "scores": [13, 11],
        "winners": [],
        "teams": [
            {
                "seat": 0,
                "wizards": [21, 58, 41, 25, 36],
                "alternate": None,
                "spells": ["teleport", "freeze", "shield", "strong_weak", "drain_boost"],
                "magic": 13,
            },
            {
                "seat": 1,
                "wizards": [45, 30, 47, 10, 12],
                "alternate": None,
                "spells": ["fireball", "dispel", "slow_speed"],
                "magic": 11,
            },
        ],
        "reason": "draft_complete",
    }


def test_the_match_config_is_accepted_by_the_wizard_dodgeball_engine_and_sets_up_a_match():
    """Example Gameplay, Spell Lists: the example teams (MAGIC 13 and 11) play the match."""
    config = match_config(finish_example())
    assert config == {
        "teams": [
            {"wizards": [21, 58, 41, 25, 36], "spells": ["teleport", "freeze", "shield", "strong_weak", "drain_boost"]},
            {"wizards": [45, 30, 47, 10, 12], "spells": ["fireball", "dispel", "slow_speed"]},
        ],
        "first_player": 0,
    }
    normalised = WD.validate_config(config, 2)
    assert [t["wizards"] for t in normalised["teams"]] == [[21, 58, 41, 25, 36], [45, 30, 47, 10, 12]]
    state = WD.setup(config, 2)
    assert state["budgets"] == [13, 11]


@pytest.mark.parametrize("fmt", ["basic", "schoolyard"])
def test_an_auto_finished_two_coach_draft_hands_off_a_valid_match(fmt):
    state = run_auto(start(fmt, top=[3, 12, 18, 21, 39, 41, 50, 58, 71]))
    config = E.match_config(state)
    WD.setup(WD.validate_config(config, 2), 2)


def test_player_one_activates_first_in_the_match_even_when_seated_second():
    """Setup: player 1 is decided before the draft and starts the match."""
    state = run_auto(start("schoolyard", seat_order=[1, 0]))
    config = match_config(state)
    assert config["teams"][0]["wizards"] == state["lineups"][1]
    assert config["first_player"] == 0
    config = match_config(state, seats=(0, 1))
    assert config["first_player"] == 1
    WD.setup(config, 2)


def test_any_two_tournament_teams_make_a_valid_match_with_a_roll_off():
    """Variants, Tournaments; Setup, step 2: a pairing's player 1 is rolled for (ruling)."""
    state = run_auto(start("tournament"))
    for a, b in itertools.permutations(range(4), 2):
        config = match_config(state, seats=(a, b))
        assert config["teams"][0]["wizards"] == E.result(state)["teams"][a]["wizards"]
        assert config["first_player"] is None
        WD.setup(WD.validate_config(config, 2), 2)


def test_a_match_config_needs_a_finished_draft_and_two_different_seats():
    with pytest.raises(IllegalAction) as info:
        match_config(building(start()))
    assert info.value.code == "draft_not_over"
    state = run_auto(start("tournament"))
    for seats in (None, (1, 1), (0, 4), (0,)):
        with pytest.raises(IllegalAction) as info:
            match_config(state, seats=seats)
        assert info.value.code == "bad_seats"
