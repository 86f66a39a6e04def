"""Version 2: a caster who resigns or runs out of time while two others still play leaves the game,
and the others play on (RULES.md, "Leaving the game"; the platform's ruling "Leaving").

Rulebook L228-229: "When a SpellCaster retires from the game, his or her Spells go wild." L279-281:
an exhausted caster "withdraws to his/her library and loses". A caster who leaves retires as an
exhausted one does; the rulebook is silent on leaving, so what he owed (a secret allocation, a
Contest of Wills) is settled by the engine's ruling."""

from __future__ import annotations

import pytest

from engines import registry
from engines.base import CHANCE, IllegalAction
from engines.spellcaster import ENGINE, ENGINE_V1

from .helpers import SHEET, act, launched, roll, started
from .test_contests_of_wills import contested, launching


def test_version_two_is_current_and_version_one_does_not_play_on():
    assert registry.get("spellcaster") is ENGINE and ENGINE.version == "2" and ENGINE.current
    assert registry.get("spellcaster", "1") is ENGINE_V1 and not ENGINE_V1.current
    assert ENGINE_V1.leave(started(3), 1) is None


def test_a_caster_who_leaves_on_his_turn_retires_and_the_next_caster_plays():
    """L228-229: his launched spells go wild; the turn passes on clockwise."""
    st = started(3, first=0)
    st = launched(st, 0, 0, "C", motion=["0-fire-1-a"], mass=["0-earth-3-a"])
    before = repr(st)
    after = ENGINE.leave(st, 0)
    assert repr(st) == before  # never changes its input
    assert not ENGINE.in_game(after, 0) and after["alive"] == [False, True, True]
    assert after["casters"][0]["display"][0]["state"] == "wild"
    assert ENGINE.to_move(after) == [1]


def test_a_caster_who_leaves_during_the_allocation_takes_his_secret_sheet_with_him():
    st = ENGINE.setup({}, 4)
    for s in (0, 1, 3):
        st = act(st, s, type="allocate", **SHEET)
    assert ENGINE.to_move(st) == [2]
    after = ENGINE.leave(st, 2)
    # The others had all allocated: the sheets are revealed and the first player is rolled.
    assert after["phase"] == "first" and ENGINE.to_move(after) == [CHANCE]
    assert after["casters"][2]["alloc"] is None and after["casters"][2]["attrs"] is None
    assert all(after["casters"][s]["attrs"] is not None for s in (0, 1, 3))
    after = roll(after, 2)  # the die names the caster who left: the next one clockwise starts
    assert ENGINE.to_move(after) == [3]
    ENGINE.view(after, None)
    ENGINE.view(after, 2)


def test_an_allocation_already_made_leaves_unrevealed_and_the_others_still_allocate():
    st = act(ENGINE.setup({}, 3), 0, type="allocate", **SHEET)
    after = ENGINE.leave(st, 0)
    assert after["casters"][0]["alloc"] is None and ENGINE.to_move(after) == [1, 2]


def test_the_caster_of_a_contest_leaving_ends_it_and_every_token_goes_home():
    """L137-148: the launch is contested; its caster leaves, so his spell leaves the game."""
    st = contested(4, placing=(1, 2))
    tokens = [c["tokens"] for c in st["casters"]]
    after = ENGINE.leave(st, 0)
    assert after["contest"] is None and after["casters"][0]["display"][0] is None
    assert [c["tokens"] for c in after["casters"]][1:3] == [tokens[1] + 1, tokens[2] + 1]
    assert ENGINE.to_move(after) == [1]


def test_a_contester_leaving_is_passed_over_and_the_contest_goes_on():
    st = contested(4, placing=(1, 2))
    assert ENGINE.to_move(st) == [0]  # the caster orders the two contests
    after = ENGINE.leave(st, 1)
    # One contester is left: his contest is next, with nothing to order.
    assert after["contest"]["current"] == 2 and ENGINE.to_move(after) == [CHANCE]


def test_a_caster_yet_to_answer_the_offer_leaving_is_not_asked():
    st = launching(4)
    assert ENGINE.to_move(st) == [1]
    after = ENGINE.leave(st, 1)
    assert ENGINE.to_move(after) == [2]


def test_the_opponent_of_a_lock_leaving_counts_as_his_withdrawal():
    """RULES.md (SC-R23): a lock where the retiring caster is the opponent is released."""
    st = roll(contested(3, placing=(1,)), 2, 2)
    assert st["casters"][0]["display"][0]["state"] == "locked"
    after = ENGINE.leave(st, 1)
    assert after["casters"][0]["display"][0]["state"] == "released"


def test_two_casters_leaving_one_after_the_other_the_later_one_places_higher():
    st = started(4, first=0)
    st = ENGINE.leave(st, 3)
    st = ENGINE.leave(st, 1)
    with pytest.raises(IllegalAction):
        ENGINE.leave(st, 0)  # only one other left: the match ends on time instead
    result = ENGINE.result_on_resign(st, 0, 4)
    assert result["placements"] == [2, 3, 1, 4] and result["winners"] == [2] and result["resigned"] == 0


def test_at_the_end_the_leavers_place_below_the_casters_who_played_on():
    st = started(4, first=0)
    st = ENGINE.leave(st, 0)
    st = ENGINE.leave(st, 2)
    # Seat 1 is exhausted later in the game: it places above both who left.
    c = st["casters"][1]
    c["life"] = 0
    from engines.spellcaster.engine import _retire, _settle

    st["clock"] += 1
    _retire(st, 1)
    _settle(st)
    assert st["phase"] == "over"
    assert ENGINE.result(st)["placements"] == [4, 2, 3, 1]


def test_a_retired_caster_or_one_with_only_one_other_left_cannot_leave():
    st = ENGINE.leave(started(3), 2)
    with pytest.raises(IllegalAction):
        ENGINE.leave(st, 2)
    with pytest.raises(IllegalAction):
        ENGINE.leave(st, 0)
