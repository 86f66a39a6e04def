"""Launching a spell and the Contests of Wills: offers, order, the four outcome bands, locks."""

import pytest

from engines.base import CHANCE, IllegalAction
from engines.spellcaster.engine import contest_band

from .helpers import E, act, at, deal, fresh_turn, give_spell, roll, started


def launching(n=2, sheets=None):
    """Seat 0 on C launches a complete spell (Motion Fire 1, Mass Earth 3) during its Conjure."""
    st = started(n, sheets=sheets)
    at(st, 0, "C")
    fresh_turn(st, 0)
    give_spell(st, 0, 0, motion=["0-fire-1-a"], mass=["0-earth-3-a"])
    st = act(st, 0, type="conjure", cards=1)
    st = act(st, 0, type="draw", **{"from": "air"})
    st = deal(st, "0-air-1-a")
    st = act(st, 0, type="return_up")
    return act(st, 0, type="launch", spell="0:0")


def contested(n=2, placing=(1,), sheets=None):
    st = launching(n, sheets)
    for s in range(1, n):
        st = act(st, s, type="will", place=s in placing)
    return st


def test_launching_turns_the_motion_face_up_puts_a_token_down_and_offers_each_other_player_clockwise():
    """Rulebook L137-142: Motion face up, a Will token on the display, each other player in turn."""
    st = launching(4)
    sp = st["casters"][0]["display"][0]
    assert all(card["open"] for card in sp["motion"]) and not sp["mass"][0]["open"]
    assert sp["tokens"] == [0] and st["casters"][0]["tokens"] == 5
    assert E.to_move(st) == [1]
    st = act(st, 1, type="will", place=False)
    assert E.to_move(st) == [2]
    st = act(st, 2, type="will", place=True)
    assert E.to_move(st) == [3]


def test_an_uncontested_spell_is_launched_with_a_familiar_at_the_casters_point():
    """Rulebook L174-178 (SC-16): no contests -> launched; the familiar goes on the caster's point and moves."""
    st = contested(2, placing=())
    sp = st["casters"][0]["display"][0]
    assert sp["state"] == "launched" and sp["familiar"] == [0, 1] and sp["point"] == "C"
    assert st["stack"][-1]["p"] == "steps" and E.to_move(st) == [0]


@pytest.mark.parametrize(
    "rolls, band",
    [
        ((5, 1), "win_discard"),
        ((4, 1), "win_return"),
        ((3, 1), "win_return"),
        ((2, 1), "locked"),
        ((1, 1), "locked"),
        ((1, 5), "locked"),
        ((1, 6), "broken"),
    ],
)
def test_each_margin_falls_in_its_band(rolls, band):
    """Rulebook L150-166 (EX-SC-4): d = +4 / +3 / +2 / +1 / 0 / -4 / -5 with equal unplayed tokens."""
    st = contested()
    assert E.chance(st) == {
        "kind": "dice",
        "dice": [[1, 10], [1, 10]],
        "label": "Contest of Wills: seat 0 (first die) against seat 1",
    }
    st = roll(st, *rolls)
    assert st["last"]["band"] == band and st["last"]["margin"] == rolls[0] - rolls[1]
    c0, c1 = st["casters"]
    sp = c0["display"][0]
    if band == "win_discard":
        assert c1["discarded"] == 1 and c1["tokens"] == 5 and sp["state"] == "launched" and sp["tokens"] == [0]
    elif band == "win_return":
        assert c1["discarded"] == 0 and c1["tokens"] == 6 and sp["state"] == "launched"
    elif band == "locked":
        assert sp["state"] == "locked" and sp["lock"] == 1 and sp["tokens"] == [0, 1]
    else:
        # broken: the caster's token leaves play, the opponent's comes back, the cards go home
        assert sp is None and c0["discarded"] == 1 and c1["tokens"] == 6
        assert st["stack"][-1]["p"] == "return" and E.to_move(st) == [0]


def test_the_caster_decides_face_up_or_down_for_each_card_of_a_broken_spell():
    """Rulebook L158-161: the cards return face up or face down at the caster's choice."""
    st = roll(contested(), 1, 6)
    st = act(st, 0, type="return", up=[1])
    c = st["casters"][0]
    assert "0-earth-3-a" in c["up"]["earth"] and "0-fire-1-a" in c["pool"]["fire"]


def test_unplayed_will_tokens_are_added_to_each_roll():
    """Rulebook L146-148 (EX-SC-5): Will 2 (5 unplayed) rolls 3, Will 1 (2 unplayed) rolls 7: 8 v 9, locked."""
    st = contested(sheets={1: {"life_force": 2, "will": 0, "focus": 2, "skill": 2}})
    st = roll(st, 3, 7)
    assert st["last"]["totals"] == [8, 9] and st["last"]["band"] == "locked"


def test_over_all_hundred_roll_pairs_with_equal_tokens_the_bands_are_21_15_49_15_percent():
    """EX-SC-5 (run 2 of the spec)."""
    counts = {}
    for a in range(1, 11):
        for b in range(1, 11):
            band = contest_band(a - b)
            counts[band] = counts.get(band, 0) + 1
    assert counts == {"win_discard": 21, "win_return": 15, "locked": 49, "broken": 15}


def test_the_caster_orders_the_contests_and_a_lock_sends_the_later_tokens_home():
    """Rulebook L144-145, L168-172 (EX-SC-6): B, C, D contest; order B, C, D; beat B by 4, lock with C:
    B's token is gone, D takes its token back, the spell is not launched, caster and C are locked."""
    st = contested(4, placing=(1, 2, 3))
    assert E.to_move(st) == [0]
    assert sorted(a["with"] for a in E.legal_actions(st, 0)) == [1, 2, 3]
    st = act(st, 0, type="contest", **{"with": 1})
    st = roll(st, 5, 1)  # +4
    assert st["casters"][1]["discarded"] == 1
    st = act(st, 0, type="contest", **{"with": 2})
    st = roll(st, 3, 3)
    sp = st["casters"][0]["display"][0]
    assert sp["state"] == "locked" and sp["lock"] == 2 and sorted(sp["tokens"]) == [0, 2]
    assert st["casters"][3]["tokens"] == 6
    assert st["stack"] == [] and E.to_move(st) == [0]


def _locked():
    st = roll(contested(), 2, 2)
    st = act(st, 0, type="end_turn")
    return st


def test_a_locked_player_must_continue_or_withdraw_before_ending_the_turn():
    """Rulebook L208-213, SC-R14."""
    st = _locked()
    assert E.to_move(st) == [1]
    with pytest.raises(IllegalAction) as exc:
        act(st, 1, type="end_turn")
    assert exc.value.code == "obligations_pending"
    # with more than one AP the first action must still be Conjure or Rest
    assert {"type": "continue", "spell": "0:0"} not in E.legal_actions(st, 1)
    assert {"type": "withdraw", "spell": "0:0"} in E.legal_actions(st, 1)


def test_continuing_a_contest_costs_an_action_and_a_caster_win_launches_at_once():
    """Rulebook L208-211, L219, SC-R15: the caster makes the path choices even on the opponent's turn."""
    st = _locked()
    st = act(st, 1, type="rest")
    left = st["turn"]["left"]
    st = act(st, 1, type="continue", spell="0:0")
    assert st["turn"]["left"] == left - 1 and E.to_move(st) == [CHANCE]
    st = roll(st, 9, 2)
    sp = st["casters"][0]["display"][0]
    assert sp["state"] == "launched" and st["stack"][-1]["p"] == "steps" and E.to_move(st) == [0]


def test_when_the_opponent_withdraws_the_caster_launches_next_turn_free_and_uncontested():
    """Rulebook L212-216 (EX-SC-14)."""
    st = _locked()
    st = act(st, 1, type="withdraw", spell="0:0")
    assert st["casters"][1]["tokens"] == 6
    st = act(st, 1, type="end_turn")
    assert {"type": "free_launch", "spell": "0:0"} in E.legal_actions(st, 0)
    left = st["turn"]["left"]
    st = act(st, 0, type="free_launch", spell="0:0")
    assert st["turn"]["left"] == left and st["casters"][0]["display"][0]["state"] == "launched"
    assert E.to_move(st) == [0] and st["stack"][-1]["p"] == "steps"


def test_an_unused_free_launch_lapses_after_the_casters_next_turn():
    """SC-R16: the spell stays complete and unlaunched; the token goes back to the pile."""
    st = _locked()
    st = act(st, 1, type="withdraw", spell="0:0")
    st = act(st, 1, type="end_turn")
    st = act(st, 0, type="end_turn")
    sp = st["casters"][0]["display"][0]
    assert sp["state"] == "building" and sp["tokens"] == [] and st["casters"][0]["tokens"] == 6


def test_when_the_caster_withdraws_the_spell_is_broken_and_both_tokens_return():
    """Rulebook L216-218 (EX-SC-14), SC-R29."""
    st = _locked()
    st = act(st, 1, type="rest")
    st = roll(act(st, 1, type="continue", spell="0:0"), 4, 4)  # still locked
    st = act(st, 1, type="end_turn")
    st = act(st, 0, type="withdraw", spell="0:0")
    assert st["casters"][0]["display"][0] is None
    assert st["casters"][0]["tokens"] == 6 and st["casters"][1]["tokens"] == 6
    assert st["stack"][-1] == {
        "p": "return",
        "seat": 0,
        "cards": [{"id": "0-fire-1-a", "open": True}, {"id": "0-earth-3-a", "open": False}],
    }
    st = act(st, 0, type="return", up=[])
    assert "0-earth-3-a" in st["casters"][0]["pool"]["earth"]


def test_a_locked_spell_stays_at_its_point_when_the_caster_moves_and_launches_from_there():
    """Rulebook L249-251 (EX-SC-16)."""
    st = _locked()
    st = act(st, 1, type="rest")
    st = roll(act(st, 1, type="continue", spell="0:0"), 4, 4)  # still locked
    st = act(st, 1, type="end_turn")
    st = act(st, 0, type="conjure", cards=1)
    st = act(st, 0, type="draw", **{"from": "fire"})
    st = deal(st, "0-fire-1-b")
    st = act(st, 0, type="return_up")
    st = act(st, 0, type="move", to="iE")
    st = act(st, 0, type="continue", spell="0:0")
    st = roll(st, 10, 1)
    sp = st["casters"][0]["display"][0]
    assert sp["point"] == "C" and sp["launch_point"] == "C" and st["casters"][0]["point"] == "iE"


def test_a_player_without_an_unused_token_is_not_offered_a_contest():
    st = started(3)
    st["casters"][1]["discarded"] = st["casters"][1]["tokens"]
    st["casters"][1]["tokens"] = 0
    at(st, 0, "C")
    give_spell(st, 0, 0, motion=["0-fire-1-a"])
    st = act(st, 0, type="conjure", cards=1)
    st = act(st, 0, type="draw", **{"from": "air"})
    st = deal(st, "0-air-1-a")
    st = act(st, 0, type="return_up")
    st = act(st, 0, type="launch", spell="0:0")
    assert E.to_move(st) == [2]
