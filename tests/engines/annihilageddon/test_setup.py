"""Setup per player count (AN L82-147; spec AN-1..AN-11, EX-AN-3..5, EX-AN-7)."""

import pytest

from engines.base import CHANCE, IllegalAction, InvalidConfig

from .helpers import E, choose, started, step_chance


@pytest.mark.parametrize("seats, down", [(2, 8), (3, 7), (4, 6), (5, 5)])
def test_legend_stack_is_the_first_legend_face_up_on_8_7_6_5_others(seats, down):
    """EX-AN-3, AN L112-121: "2-player 8 + Willy ... 5-player 5 + Willy"; the first is face up."""
    st = E.setup({}, seats)
    assert st["legend"]["up"] == "grandpa-gutsmash"
    assert st["legend"]["down"] == down
    assert "grandpa-gutsmash" not in st["legend"]["unseen"]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_dead_wizard_token_stack_holds_4_per_player(seats):
    """EX-AN-4, AN L131: "Randomly select 4 per player"."""
    assert E.setup({}, seats)["dwt"]["count"] == 4 * seats


def test_every_wizard_starts_at_20_hp_with_6_glyph_1_wand_3_fizzle_and_draws_5():
    """EX-AN-5, AN L92, L94, L147."""
    st = started(4)
    for p in st["players"]:
        assert p["hp"] == 20
        deck = sorted(p["hand"] + p["pool"] + p["top"] + p["discard"])
        assert deck == sorted(["glyph"] * 6 + ["wand"] + ["fizzle"] * 3)
        assert len(p["hand"]) == 5


def test_two_tiles_and_two_familiars_are_dealt_privately_and_one_of_each_kept():
    """AN L86-90: 2 random tiles, choose 1; 2 random Familiars, choose 1; the others go back."""
    st = E.setup({}, 3)
    spec = E.chance(st)
    assert spec["kind"] == "draw" and spec["count"] == 2 and spec["visible_to"] == [0] and spec["pool"] == 8
    for _ in range(3):
        st = step_chance(st)
    assert E.to_move(st) == [0] and st["prompt"]["kind"] == "setup"
    dealt = list(st["players"][0]["tile_dealt"])
    assert len(dealt) == 2
    # the other seats' deals are hidden from seat 0 and from spectators
    assert E.view(st, 0)["players"][1].get("tile_dealt") is None
    st = choose(st, 0, dealt[1])
    assert st["players"][0]["tile"] == dealt[1]
    # a choice stays hidden until everyone has chosen
    assert E.view(st, 1)["players"][0]["tile"] is None
    st = choose(st, 1, E.prompt_options(st)[0])
    st = choose(st, 2, E.prompt_options(st)[0])
    assert E.view(st, 1)["players"][0]["tile"] == dealt[1]
    assert st["players"][0]["tile_dealt"] == [dealt[0]]  # returned to the box, unseen by others


def test_five_players_are_dealt_one_tile_each_and_keep_it():
    """AN L86: "(1 each in a 5-player game)"."""
    st = E.setup({}, 5)
    assert E.chance(st)["count"] == 1
    for _ in range(5):
        st = step_chance(st)
    assert all(p["tile"] for p in st["players"])
    assert st["revealed"]["tile"]
    assert E.chance(st)["count"] == 2  # Familiars: still two each (12 in the set, AN L68)


def test_opening_line_up_sets_mayhems_aside_unresolved_until_five_non_mayhems_lie_there():
    """EX-AN-7, AN L125-127."""
    st = E.setup({}, 2)
    while (E.chance(st) or {}).get("label") != "Line-Up refill":
        st = step_chance(st) if E.to_move(st) == [CHANCE] else choose(st, E.to_move(st)[0], E.prompt_options(st)[0])
    flips = [
        "snot-rocket",
        "mayhem-tax-day",
        "pit-weasel",
        "heal-o-matic",
        "mayhem-limp-parade",
        "fumbledore",
        "questionable-coin",
    ]
    for name in flips:
        st = step_chance(st, [name])
    assert st["lineup"] == ["snot-rocket", "pit-weasel", "heal-o-matic", "fumbledore", "questionable-coin"]
    assert st["mayhem_pile"] == ["mayhem-tax-day", "mayhem-limp-parade"]
    assert all(p["hp"] == 20 and not p["discard"] for p in st["players"])  # nothing resolved
    assert st["main"].count("mayhem-tax-day") == 1


def test_a_random_player_goes_first():
    """AN L147: "Randomly determine a player to go first"."""
    st = E.setup({}, 3)
    while E.chance(st) is None or E.chance(st)["kind"] != "dice":
        st = step_chance(st) if E.to_move(st) == [CHANCE] else choose(st, E.to_move(st)[0], E.prompt_options(st)[0])
    assert E.chance(st)["dice"] == [[0, 2]]
    st = E.apply(st, {"kind": "chance", "outcome": [2]})
    while E.to_move(st) == [CHANCE]:
        st = step_chance(st)
    assert st["active"] == 2 and E.to_move(st) == [2]


@pytest.mark.parametrize("seats", [1, 6])
def test_two_to_five_players_only(seats):
    with pytest.raises(InvalidConfig) as err:
        E.setup({}, seats)
    assert err.value.code == "bad_seat_count"


@pytest.mark.parametrize("config", [{"max_rounds": 0}, {"max_rounds": "ten"}, {"colour": "red"}])
def test_bad_options_are_refused(config):
    with pytest.raises(InvalidConfig):
        E.setup(config, 3)


def test_setup_refuses_actions_while_a_draw_is_due_and_leaves_state_untouched():
    st = E.setup({}, 2)
    before = repr(st)
    with pytest.raises(IllegalAction) as err:
        E.apply(st, {"kind": "action", "seat": 0, "action": {"type": "end_turn"}})
    assert err.value.code == "chance_pending"
    assert repr(st) == before
