"""Wild Spells: their movement before the first player's turn (pick or pass), and capture."""

import pytest

from engines.base import CHANCE

from .helpers import E, act, fresh_turn, launched, roll, started


def with_wild(n=3, motion=("1-earth-1-a", "1-fire-1-a"), mass=("1-fire-3-a",), point="C", owner=1):
    st = started(n, first=0)
    launched(st, owner, 0, point, list(motion), list(mass))
    sp = st["casters"][owner]["display"][0]
    st["casters"][owner]["tokens"] += 1
    sp.update(state="wild", controller=None, tokens=[], last_controller=owner)
    return st


def round_over(st):
    for s in range(st["n"]):
        if st["alive"][s] and E.to_move(st) == [s] and not st["stack"]:
            st = act(st, s, type="end_turn")
    return st


def test_wild_spells_move_before_the_first_players_turn_by_pick_or_pass():
    """Rulebook L106, L226-227, L259-262: once every player had a turn, the wild spells move first."""
    st = round_over(with_wild())
    assert st["round"] == 2 and st["turn"] is None
    assert E.to_move(st) == [0] and st["stack"][-1]["p"] == "wild_pick"
    assert E.legal_actions(st, 0) == [{"type": "wild_pick", "spell": "1:0"}, {"type": "wild_pass"}]


def test_a_player_who_passes_moves_no_more_wild_spells_and_the_next_picker_uses_the_next_motion_card():
    """Rulebook L262-269 (EX-SC-18): seat 0 picks (Earth 1) and selects seat 2; seat 2 passes and, as the
    next selector, names seat 1, who moves the spell by its second card (Fire 1)."""
    st = round_over(with_wild())
    st = act(st, 0, type="wild_pick", spell="1:0")
    assert sorted(a["to"] for a in E.legal_actions(st, 0)) == ["iE", "iF", "iW"]  # Earth paths
    st = act(st, 0, type="step", to="iF")
    assert sorted(a["seat"] for a in E.legal_actions(st, 0)) == [1, 2]
    st = act(st, 0, type="wild_next", seat=2)
    st = act(st, 2, type="wild_pass")
    assert st["wild"]["passed"] == [2]
    assert E.to_move(st) == [2] and E.legal_actions(st, 2) == [{"type": "wild_next", "seat": 1}]
    st = act(st, 2, type="wild_next", seat=1)
    assert E.legal_actions(st, 1) == [{"type": "wild_pick", "spell": "1:0"}, {"type": "wild_pass"}]
    st = act(st, 1, type="wild_pick", spell="1:0")
    assert sorted(a["to"] for a in E.legal_actions(st, 1)) == ["AF", "C", "F", "FE"]  # Fire paths
    st = act(st, 1, type="step", to="FE")
    # every Motion card used: the sequence is over and the first player's turn begins
    assert st["wild"] is None and st["turn"]["seat"] == 0
    assert st["casters"][1]["display"][0]["point"] == "FE"


def test_a_wild_spell_that_enters_a_casters_point_strikes_him():
    """Rulebook L193-196 apply to a wild spell too (SC-R19)."""
    st = round_over(with_wild(motion=("1-earth-1-a",), mass=("1-earth-3-a",), point="iE"))
    st = act(st, 0, type="wild_pick", spell="1:0")
    st = act(st, 0, type="step", to="E")  # seat 1 stands in the Earth corner
    assert st["casters"][1]["life"] == 15 and st["stack"][-1] == {
        "p": "return",
        "seat": 1,
        "cards": [{"id": "1-earth-1-a", "open": True}, {"id": "1-earth-3-a", "open": True}],
    }


def test_when_everyone_has_passed_the_rest_of_the_wild_motion_is_skipped():
    """SC-R22."""
    st = round_over(with_wild(n=2))
    st = act(st, 0, type="wild_pass")
    st = act(st, 0, type="wild_next", seat=1)
    st = act(st, 1, type="wild_pass")
    assert st["wild"] is None and st["turn"]["seat"] == 0
    assert st["casters"][1]["display"][0]["point"] == "C"


def capture_state(tokens_after_placing, n=2, capturer=0):
    st = with_wild(n=n, owner=1)
    c = st["casters"][capturer]
    c["discarded"] = c["tokens"] - (tokens_after_placing + 1)
    c["tokens"] = tokens_after_placing + 1
    fresh_turn(st, capturer)
    st["turn"]["first_done"] = True
    return act(st, capturer, type="capture", spell="1:0")


@pytest.mark.parametrize("tokens, lowest_success", [(0, 6), (2, 4), (5, 1)])
def test_capture_succeeds_on_a_modified_roll_of_six_or_more(tokens, lowest_success):
    """Rulebook L231-236 (EX-SC-7): 1d10 + unused tokens >= 6: with 0 / 2 / 5 left, 6+ / 4+ / always."""
    st = capture_state(tokens)
    assert E.chance(st)["dice"] == [[1, 10]]
    assert st["casters"][1]["display"][0]["tokens"] == [0]  # the token lies on the launcher's display
    for face in range(1, 11):
        after = roll(st, face)
        assert after["last"]["captured"] == (face >= lowest_success)
        if face < lowest_success:
            assert after["casters"][0]["tokens"] == tokens + 1  # the token comes back
            assert after["casters"][1]["display"][0]["state"] == "wild"


def test_a_captured_spell_takes_the_capturers_familiars_and_moves_now():
    """Rulebook L236-245: the capturer's familiar set replaces the old one; he may move it at once."""
    st = roll(capture_state(2), 9)
    sp = st["casters"][1]["display"][0]
    assert sp["familiar"] == [0, 1] and sp["controller"] == 0 and sp["state"] == "launched"
    assert st["stack"][-1]["p"] == "steps" and E.to_move(st) == [0]


def test_only_players_other_than_the_conjurer_may_contest_a_capture():
    """Rulebook L239-243, SC-R21: seat 1 conjured it, so only seat 2 is asked; losing makes it wild again."""
    st = roll(capture_state(2, n=3), 9)
    assert E.to_move(st) == [2]
    st = act(st, 2, type="will", place=True)
    assert E.to_move(st) == [CHANCE]
    st = roll(st, 1, 3)  # capturer 1 + 2 = 3 against 3 + 5 = 8: -5, broken
    sp = st["casters"][1]["display"][0]
    assert sp["state"] == "wild" and sp["controller"] is None and sp["familiar"] == [1, 1]
    assert st["casters"][0]["discarded"] >= 1 and st["casters"][2]["tokens"] == 6


def test_a_capturer_who_wins_every_contest_controls_the_spell_from_then_on():
    st = roll(capture_state(4, n=3), 9)
    st = act(st, 2, type="will", place=True)
    st = roll(st, 10, 1)
    sp = st["casters"][1]["display"][0]
    assert sp["controller"] == 0 and sp["familiar"][0] == 0 and st["stack"][-1]["p"] == "steps"


def test_the_player_who_let_a_spell_go_wild_may_not_capture_it_back():
    """Ruling SC-R21a (RULES.md): 'may be controlled by another Player' (L228)."""
    st = with_wild(n=2, owner=1)
    fresh_turn(st, 1)
    st["turn"]["first_done"] = True
    assert not [a for a in E.legal_actions(st, 1) if a["type"] == "capture"]


def test_the_capturer_must_control_or_abandon_the_captured_spell_in_later_turns():
    """Rulebook L243-245: he may continue to move it in subsequent turns or abandon it as any spell he controls."""
    st = roll(capture_state(2), 9)
    st = act(st, 0, type="step", to="iE")  # Earth 1, then Fire 1: nobody stands on the way
    st = act(st, 0, type="step", to="C")
    assert st["stack"] == [] and st["casters"][1]["display"][0]["point"] == "C"
    st = act(st, 0, type="end_turn")
    st = act(st, 1, type="end_turn")
    # next round: seat 0's turn (no wild spell left to move), and the captured spell is an obligation
    assert st["turn"]["seat"] == 0
    assert {"type": "end_turn"} not in E.legal_actions(st, 0)
    assert {"type": "abandon", "spell": "1:0"} in E.legal_actions(st, 0)
    st = act(st, 0, type="abandon", spell="1:0")
    sp = st["casters"][1]["display"][0]
    assert sp["state"] == "wild" and sp["last_controller"] == 0 and st["casters"][0]["tokens"] == 3
