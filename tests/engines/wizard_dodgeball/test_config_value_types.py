"""A config whose values have the wrong JSON type inside (a list for a name, text or true for a seat)
is refused with a stable code, never a TypeError (the API answered those with 500) and never read
as something else (true passed as the seat 1 and stopped the game at the first wizard it ran)."""

import copy

import pytest

from engines.base import InvalidConfig
from engines.wizard_dodgeball import ENGINE as E


def four_seats(mutate):
    cfg = copy.deepcopy(E.validate_config({}, 4))
    mutate(cfg)
    return cfg


@pytest.mark.parametrize("court", [[], {}, ["iwdl-standard"], {"id": "iwdl-standard"}, 1, True])
def test_a_court_that_is_not_a_name_is_refused_as_unknown(court):
    with pytest.raises(InvalidConfig) as err:
        E.validate_config({"court": court}, 2)
    assert err.value.code == "unknown_court"
    assert "iwdl-standard" in err.value.message  # the sentence names the courts there are


@pytest.mark.parametrize("spell", [["fireball"], {"id": "fireball"}, 1, None])
def test_a_spell_card_that_is_not_a_name_is_refused_as_unknown(spell):
    cfg = four_seats(lambda c: c["teams"][0]["spells"].__setitem__(0, spell))
    with pytest.raises(InvalidConfig) as err:
        E.validate_config(cfg, 4)
    assert err.value.code == "unknown_spell"
    assert err.value.message


@pytest.mark.parametrize(
    "sides",
    [
        [["abc", 2], [1, 3]],
        [[[0], 2], [1, 3]],
        [[{"seat": 0}, 2], [1, 3]],
        [[False, 2], [True, 3]],
        [[0.0, 2], [1, 3]],
    ],
    ids=["text", "list", "object", "true-false", "float"],
)
def test_a_side_naming_anything_but_a_seat_number_is_refused(sides):
    with pytest.raises(InvalidConfig) as err:
        E.validate_config(four_seats(lambda c: c.update(sides=sides)), 4)
    assert err.value.code == "bad_sides"
    assert err.value.message


@pytest.mark.parametrize("seat", [True, 1.0, "1", [1]], ids=["true", "float", "text", "list"])
def test_a_controller_that_is_not_a_seat_number_is_refused(seat):
    cfg = four_seats(lambda c: c["controllers"][1].__setitem__(0, seat))
    with pytest.raises(InvalidConfig) as err:
        E.validate_config(cfg, 4)
    assert err.value.code == "bad_controllers"
    assert err.value.message


@pytest.mark.parametrize("first", [True, False, 1.0, [0]], ids=["true", "false", "float", "list"])
def test_a_first_player_that_is_not_0_1_or_null_is_refused(first):
    with pytest.raises(InvalidConfig) as err:
        E.validate_config({"first_player": first}, 2)
    assert err.value.code == "bad_first_player"


def test_the_same_configs_with_whole_numbers_and_names_are_accepted():
    cfg = E.validate_config(
        {"court": "iwdl-standard", "sides": [[0, 2], [1, 3]], "controllers": [[0, 0, 2, 2, 2], [3, 1, 1, 1, 1]]}, 4
    )
    assert cfg["controllers"] == [[0, 0, 2, 2, 2], [3, 1, 1, 1, 1]]
    assert E.validate_config({"first_player": 1}, 2)["first_player"] == 1
