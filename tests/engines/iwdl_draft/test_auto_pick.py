"""The pick clock: what happens for a coach whose time runs out (issue 4, live draft room)."""

from engines.iwdl_draft import ENGINE as E
from engines.iwdl_draft.engine import default_spells

from .helpers import P1, P2, act, basic_with, building, start

# MAGIC: 7 -> 2, 10 -> 2, 23 -> 1, 44 -> 1, 58 -> 3, 21 -> 3, 63 -> 1, 25 -> 2, 47 -> 2, 3 -> 3; then 66 -> 2
TOP = [7, 10, 23, 44, 58, 21, 63, 25, 47, 3, 66]


def test_the_clock_picks_the_highest_magic_wizard_in_the_pool_lowest_jersey_on_a_tie():
    """Issue 4, live draft room: the default auto-pick is the highest MAGIC, ties by jersey."""
    state = act(start(top=TOP), 1, {"type": "take_first_pick"})
    assert E.auto_action(state, 1) == {"type": "pick", "wizard": 3, "auto": True}
    state = act(state, 1, E.auto_action(state, 1))
    assert E.auto_action(state, 0) == {"type": "pick", "wizard": 21, "auto": True}


def test_with_only_equal_magic_left_the_lowest_jersey_is_taken():
    """Issue 4: ties between equal MAGIC go to the lowest jersey number."""
    state = act(start(top=[47, 25, 10, 7, 23, 44, 63, 27, 30, 45], pool_size=4), 1, {"type": "take_first_pick"})
    assert state["pool"] == [47, 25, 10, 7]  # all MAGIC 2
    assert E.auto_action(state, 1)["wizard"] == 7


def test_an_auto_pick_is_marked_in_the_history_and_the_log():
    state = act(start(top=TOP), 1, {"type": "take_first_pick"})
    after = act(state, 1, E.auto_action(state, 1))
    assert after["picks"][0]["auto"] is True
    assert E.view(after, None)["history"][0]["auto"] is True
    line = E.describe(state, {"kind": "action", "seat": 1, "action": E.auto_action(state, 1)}, after)
    assert line.startswith("The clock runs out for seat 1 (player 2): auto-pick #3 Oswin Quillfeather (MAGIC 3)")


def test_the_clock_takes_the_first_pick_for_player_two():
    """Advanced Draft (Schoolyard) with the pick clock: taking is the default (ruling)."""
    state = start()
    assert E.auto_action(state, 1) == {"type": "take_first_pick", "auto": True}
    assert act(state, 1, E.auto_action(state, 1))["first_pick"] == {"seat": 1, "choice": "take", "auto": True}


def test_the_clock_does_nothing_for_a_coach_who_is_not_to_move():
    state = start()
    assert E.auto_action(state, 0) is None
    assert E.auto_action(E.setup({}, 2), 0) is None


def test_in_team_building_the_clock_sets_the_first_five_then_the_default_spells_then_ready():
    """Setup, 2. Choosing Team Spell Lists under the clock (ruling: the default list)."""
    state = basic_with(P1, P2)
    steps = []
    while 1 in E.to_move(state):
        action = E.auto_action(state, 1)
        steps.append(action)
        state = act(state, 1, action)
    assert steps == [
        {"type": "lineup", "wizards": P2, "auto": True},
        {"type": "spells", "spells": default_spells(11), "auto": True},
        {"type": "ready", "auto": True},
    ]


def test_the_default_spell_list_buys_in_card_order_whatever_still_fits():
    assert default_spells(13) == [
        "teleport",
        "fireball",
        "freeze",
        "shield",
        "dispel",
        "slow_speed",
        "strong_weak",
        "shrink_enlarge",
        "butter_sticky",
    ]
    assert default_spells(11) == [
        "teleport",
        "fireball",
        "freeze",
        "shield",
        "dispel",
        "slow_speed",
        "strong_weak",
        "shrink_enlarge",
    ]
    assert default_spells(3) == ["teleport", "fireball", "freeze"]
    assert default_spells(15)[-1] == "drain_boost" and default_spells(0) == []


def test_the_clock_rebuys_spells_that_no_longer_fit_the_line_up():
    from .test_spells_and_budget import PAIRED, SINGLES, stacked_tournament

    state = act(stacked_tournament(), 0, {"type": "spells", "spells": SINGLES + PAIRED})
    state = act(state, 0, {"type": "lineup", "wizards": [3, 12, 18, 21, 23]})
    assert E.auto_action(state, 0) == {"type": "spells", "spells": default_spells(13), "auto": True}


def test_the_clock_alone_finishes_every_format():
    for fmt in ("basic", "schoolyard", "tournament"):
        state = building(start(fmt))
        assert state["phase"] == "building"
        from .helpers import run_auto

        assert E.result(run_auto(state))["reason"] == "draft_complete"
