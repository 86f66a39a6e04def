"""Setup: data files, team configuration, spell budgets, balls on the stars, the roll-off."""

import copy
import json

import pytest

from engines import registry
from engines.base import CHANCE, IllegalAction, InvalidConfig
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball import data
from engines.wizard_dodgeball.data import DataError

P1 = [21, 58, 41, 25, 36]
P2 = [45, 30, 47, 10, 12]


def config(**overrides):
    cfg = {
        "teams": [
            {"wizards": list(P1), "spells": ["teleport", "freeze"]},
            {"wizards": list(P2), "spells": ["teleport", "freeze"]},
        ]
    }
    cfg.update(overrides)
    return cfg


def test_version_2_is_what_new_matches_play_and_version_1_stays_registered_for_replay():
    from engines.wizard_dodgeball import ENGINE_V1

    assert registry.get("wizard-dodgeball") is E and E.version == "2" and E.current
    assert registry.get("wizard-dodgeball", "1") is ENGINE_V1 and not ENGINE_V1.current
    assert E.title == ENGINE_V1.title == "Wizard Dodgeball"


def test_the_roster_has_24_wizards_with_moves_3_to_5_and_ordered_dice():
    """Components: 24 wizard stat cards; GAME-FACTS: MOVE 3-5, right die never below the left."""
    roster = data.roster()
    assert len(roster) == 24
    order = ["white", "grey", "blue", "red"]
    for w in roster.values():
        assert 3 <= w["move"] <= 5
        for stat in ("attack", "dodge", "cast", "resist"):
            assert order.index(w[stat][1]) >= order.index(w[stat][0])


def test_the_roster_matches_every_number_of_the_worked_example():
    """Example Gameplay: Curtrod MAGIC 2, Saunterberg casts blue+blue, Shrew and Dirtybottoms attack
    blue+blue, Stumbleton attacks grey+blue, Dasherdodge resists grey+grey, Presage dodges grey+blue."""
    r = data.roster()
    names = {
        10: "Jazzle Dirtybottoms",
        21: "Hoary Burblepot",
        25: "Flick Stumbleton",
        30: "Airial Curtrod",
        41: "Sibly Saunterberg",
        45: "Miguel Dasherdodge",
        47: "Mad Mammy Shrew",
        58: "Thauma Presage",
    }
    for j, n in names.items():
        assert r[j]["name"] == n
    assert r[30]["magic"] == 2
    assert r[41]["cast"] == ["blue", "blue"]
    assert r[47]["attack"] == r[10]["attack"] == ["blue", "blue"]
    assert r[25]["attack"] == ["grey", "blue"]
    assert r[45]["resist"] == ["grey", "grey"]
    assert r[58]["dodge"] == ["grey", "blue"]
    assert 12 in r and 36 in r


def test_the_worked_example_teams_have_spell_budgets_of_13_and_11():
    """Spell Lists: 'Player 1 can have 13 spells and Player 2 can have 11'."""
    state = E.setup({}, 2)
    assert state["budgets"] == [13, 11]


def test_the_ten_spells_cost_one_point_single_and_two_points_paired():
    """Choosing Team Spell Lists: single spells cost 1, paired spells 2."""
    cards = data.spell_cards()
    assert len(cards) == 10
    assert {c: cards[c]["cost"] for c in cards} == {
        "teleport": 1,
        "fireball": 1,
        "freeze": 1,
        "shield": 1,
        "dispel": 1,
        "slow_speed": 2,
        "strong_weak": 2,
        "shrink_enlarge": 2,
        "butter_sticky": 2,
        "drain_boost": 2,
    }


def test_the_standard_court_is_9_by_17_with_stars_on_the_neutral_row():
    court = data.courts()["iwdl-standard"]
    assert (court["width"], court["length"]) == (9, 17)
    assert court["neutral_rows"] == [9]
    assert court["stars"] == [[1, 9], [3, 9], [5, 9], [7, 9], [9, 9]]


def test_a_malformed_court_is_refused_with_a_clear_error():
    court = copy.deepcopy(data.courts()["iwdl-standard"])
    court["stars"] = court["stars"][:4]
    with pytest.raises(DataError, match="5 starred spaces"):
        data.validate_court(court)
    court = copy.deepcopy(data.courts()["iwdl-standard"])
    court["zones"][1]["rows"] = [6, 8]
    with pytest.raises(DataError, match="row 9"):
        data.validate_court(court)


def test_a_roster_card_with_its_right_die_lower_than_its_left_is_refused():
    roster = copy.deepcopy(list(data.roster().values()))
    roster[0]["attack"] = ["red", "grey"]
    with pytest.raises(DataError, match="right die"):
        data.validate_roster(roster)
    roster = copy.deepcopy(list(data.roster().values()))
    roster[0]["move"] = 6
    with pytest.raises(DataError, match="MOVE"):
        data.validate_roster(roster)


def test_a_paired_spell_card_must_cost_two():
    cards = copy.deepcopy(list(data.spell_cards().values()))
    cards[5]["cost"] = 1
    with pytest.raises(DataError, match="costs 2"):
        data.validate_spells(cards)


def test_an_empty_config_gives_the_worked_example_line_ups():
    cfg = E.validate_config({}, 2)
    assert cfg["teams"][0]["wizards"] == P1
    assert cfg["teams"][1]["wizards"] == P2


@pytest.mark.parametrize(
    "mutate, code",
    [
        (lambda c: c["teams"][0].update(spells=data.SPELL_ORDER), "spell_budget_exceeded"),
        (lambda c: c["teams"][1].update(wizards=[45, 30, 47, 10, 21]), "duplicate_wizard"),
        (lambda c: c["teams"][1].update(wizards=[45, 30, 47, 10, 99]), "unknown_wizard"),
        (lambda c: c["teams"][1].update(wizards=[45, 30, 47, 10]), "wrong_team_size"),
        (lambda c: c["teams"][1].update(spells=["haste"]), "unknown_spell"),
        (lambda c: c["teams"][1].update(spells=["freeze", "freeze"]), "duplicate_spell"),
        (lambda c: c["teams"][0].update(start=[[1, 1]] * 5), "bad_start"),
        (lambda c: c["teams"][0].update(start=[[1, 5], [2, 1], [3, 1], [4, 1], [5, 1]]), "bad_start"),
        (lambda c: c.update(first_player=2), "bad_first_player"),
        (lambda c: c.update(court="moon"), "unknown_court"),
        (lambda c: c.update(colour="red"), "unknown_option"),
    ],
)
def test_a_bad_config_is_refused_with_a_stable_code(mutate, code):
    """Choosing Team Spell Lists: the spell list may cost at most the team's MAGIC sum;
    Drafting Teams: five wizards each, every stat card exists once."""
    cfg = config()
    mutate(cfg)
    with pytest.raises(InvalidConfig) as err:
        E.validate_config(cfg, 2)
    assert err.value.code == code
    assert err.value.message


def test_a_spell_list_costing_exactly_the_magic_sum_is_accepted():
    spells = ["teleport", "fireball", "freeze", "shield", "dispel", "slow_speed", "strong_weak", "butter_sticky"]
    cfg = E.validate_config(config(teams=[{"wizards": P1, "spells": []}, {"wizards": P2, "spells": spells}]), 2)
    assert sum(data.spell_cards()[s]["cost"] for s in cfg["teams"][1]["spells"]) == 11


def test_three_seats_are_refused():
    with pytest.raises(InvalidConfig) as err:
        E.validate_config({}, 3)
    assert err.value.code == "bad_seat_count"


def test_balls_start_on_the_five_stars_inactive():
    """Setup step 1: one ball on each starred space of the Neutral Area, star side down."""
    state = E.setup(config(first_player=0), 2)
    assert [b["sq"] for b in state["balls"]] == [[1, 9], [3, 9], [5, 9], [7, 9], [9, 9]]
    assert not any(b["active"] for b in state["balls"])


def test_wizards_start_in_their_starting_areas():
    """Setup step 3: jersey markers go in the team starting areas (rows 1-2 and 16-17)."""
    state = E.setup(config(first_player=0), 2)
    for w in state["wizards"]:
        assert w["sq"][1] in ((1, 2) if w["side"] == 0 else (16, 17))


def test_chosen_starting_squares_are_used():
    start = [[1, 1], [2, 1], [3, 1], [4, 1], [5, 1]]
    cfg = config(first_player=0)
    cfg["teams"][0]["start"] = start
    state = E.setup(cfg, 2)
    assert [w["sq"] for w in state["wizards"][:5]] == start


def test_player_one_is_decided_by_a_d6_roll_off_as_a_chance_step():
    """Setup step 2: player 1 is the high roll of a d6, both players rolling the same colour."""
    state = E.setup(config(), 2)
    assert E.to_move(state) == [CHANCE]
    spec = E.chance(state)
    assert spec["dice"] == [[1, 6], [1, 6]]
    after = E.apply(state, {"kind": "chance", "outcome": [2, 5]})
    assert after["first"] == 1
    assert after["turn"]["wizard"] == 45
    assert E.to_move(after) == [1]


def test_a_tied_roll_off_is_rolled_again():
    state = E.setup(config(), 2)
    again = E.apply(state, {"kind": "chance", "outcome": [4, 4]})
    assert E.to_move(again) == [CHANCE]
    assert again["turn"] is None


def test_an_impossible_roll_off_outcome_is_refused():
    state = E.setup(config(), 2)
    for bad in ([0, 3], [7, 1], [3], [3, "4"], "66"):
        with pytest.raises(IllegalAction) as err:
            E.apply(state, {"kind": "chance", "outcome": bad})
        assert err.value.code == "bad_chance_outcome"


def test_the_config_can_fix_the_first_player():
    state = E.setup(config(first_player=0), 2)
    assert E.to_move(state) == [0]
    assert state["turn"]["wizard"] == 21


def test_the_state_is_plain_json():
    state = E.setup({}, 2)
    assert json.loads(json.dumps(state)) == state
