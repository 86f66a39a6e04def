"""Choosing Team Spell Lists: the team's MAGIC sum buys spells, singles 1 point, paired 2."""

import pytest

from engines.iwdl_draft import ENGINE as E
from engines.iwdl_draft.engine import default_spells, magic, spell_cost

from .helpers import P1, P2, act, basic_with, refused, start

SINGLES = ["teleport", "fireball", "freeze", "shield", "dispel"]
PAIRED = ["slow_speed", "strong_weak", "shrink_enlarge", "butter_sticky", "drain_boost"]


def spells(state, seat, chosen):
    return act(state, seat, {"type": "spells", "spells": chosen})


def test_single_spells_cost_one_point_and_paired_spells_two():
    """Setup, 2. Choosing Team Spell Lists: single spells cost 1 point, paired spells 2."""
    assert [spell_cost([s]) for s in SINGLES] == [1] * 5
    assert [spell_cost([s]) for s in PAIRED] == [2] * 5
    assert spell_cost(SINGLES + PAIRED) == 15


def test_the_rulebook_example_teams_have_budgets_13_and_11():
    """Example Gameplay, Spell Lists: player 1 can have 13 spell points and player 2 11."""
    state = basic_with(P1, P2)
    assert [E.budget(state, 0), E.budget(state, 1)] == [13, 11]
    assert E.view(state, None)["budgets"] == [13, 11]


def test_a_list_costing_exactly_the_budget_is_accepted():
    """Setup, 2. Choosing Team Spell Lists: the whole MAGIC sum may be spent."""
    state = spells(basic_with(P1, P2), 0, SINGLES + PAIRED[:4])  # 5 + 8 = 13
    assert state["spells"][0] == SINGLES + PAIRED[:4]


def test_an_over_budget_list_is_refused_with_both_numbers():
    """Setup, 2. Choosing Team Spell Lists: the MAGIC sum is the points you have to spend."""
    state = basic_with(P1, P2)
    message = refused(state, 0, {"type": "spells", "spells": SINGLES[:4] + PAIRED}, "spell_budget_exceeded")
    assert message == "These spells cost 14 points; your team's MAGIC is 13."
    message = refused(state, 1, {"type": "spells", "spells": SINGLES + PAIRED[:4]}, "spell_budget_exceeded")
    assert message == "These spells cost 13 points; your team's MAGIC is 11."


def test_a_spell_card_is_bought_at_most_once():
    """Component list: three markers of each spell per team come with the card; no second copy."""
    state = basic_with(P1, P2)
    message = refused(state, 0, {"type": "spells", "spells": ["freeze", "teleport", "freeze"]}, "duplicate_spell")
    assert message.startswith("Freeze is listed twice")


@pytest.mark.parametrize("bad", ["lightning", "Freeze", "slow", 3, None])
def test_an_unknown_spell_is_refused(bad):
    """League-Sanctioned Spell List: only its ten cards can be bought."""
    state = basic_with(P1, P2)
    message = refused(state, 0, {"type": "spells", "spells": ["teleport", bad]}, "unknown_spell")
    assert "there is no spell card" in message.lower()


def test_a_spell_list_is_kept_in_card_order_and_may_be_resubmitted_before_ready():
    """Setup, 2. Choosing Team Spell Lists: the list may change until the coach is ready (ruling)."""
    state = spells(basic_with(P1, P2), 0, ["drain_boost", "freeze"])
    assert state["spells"][0] == ["freeze", "drain_boost"]
    state = spells(state, 0, ["teleport"])
    assert state["spells"][0] == ["teleport"]
    state = spells(state, 0, [])
    assert state["spells"][0] == []


def test_spells_are_bought_only_after_the_picks():
    """Setup: "Once teams have been drafted" — spells and line-ups follow the picks."""
    state = start()
    refused(state, 1, {"type": "spells", "spells": []}, "bad_action")
    refused(state, 1, {"type": "lineup", "wizards": []}, "bad_action")
    refused(state, 1, {"type": "ready"}, "bad_action")


def test_ready_needs_a_line_up_and_a_spell_list():
    """Setup: both a line-up and a spell list are set before the game (ruling: ready needs both)."""
    state = basic_with(P1, P2)
    refused(state, 0, {"type": "ready"}, "lineup_missing")
    state = act(state, 0, {"type": "lineup", "wizards": P1})
    refused(state, 0, {"type": "ready"}, "spells_missing")
    state = spells(state, 0, [])
    assert {"type": "ready"} in E.legal_actions(state, 0)
    state = act(state, 0, {"type": "ready"})
    assert state["ready"] == [True, False]
    assert E.to_move(state) == [1]


def test_after_ready_nothing_can_be_changed():
    """Ruling: ready locks the line-up and the spells."""
    state = basic_with(P1, P2)
    for action in ({"type": "lineup", "wizards": P1}, {"type": "spells", "spells": ["freeze"]}, {"type": "ready"}):
        state = act(state, 0, action)
    for action in ({"type": "lineup", "wizards": P1}, {"type": "spells", "spells": []}, {"type": "ready"}):
        refused(state, 0, action, "already_ready")


def stacked_tournament():
    """A straight tournament draft in which seat 0 drafts 3, 12, 18, 21, 39 (MAGIC 3 each) and 23 (MAGIC 1)."""
    top = [3, 12, 18, 21, 39, 23, 7, 10, 14, 25, 27, 30, 33, 36]
    state = start("tournament", top=top, order="straight")
    plan = [3, 12, 18, 21, 39, 23]
    while state["phase"] == "picking":
        seat = E.to_move(state)[0]
        choice = plan.pop(0) if seat == 0 else [j for j in state["pool"] if j not in plan][0]
        state = act(state, seat, {"type": "pick", "wizard": choice})
    assert state["teams"][0] == [3, 12, 18, 21, 39, 23]
    return state


def test_a_six_wizard_team_is_budgeted_on_its_line_up_not_its_alternate():
    """Variants, Tournaments: 5 plus an alternate; only the five who play add MAGIC (ruling)."""
    state = stacked_tournament()
    assert E.budget(state, 0) is None  # no line-up yet
    assert E.budget(act(state, 0, {"type": "lineup", "wizards": [3, 12, 18, 21, 39]}), 0) == 15
    assert E.budget(act(state, 0, {"type": "lineup", "wizards": [3, 12, 18, 21, 23]}), 0) == 13


def test_spells_before_a_tournament_line_up_are_checked_against_the_best_five():
    """Setup, 2. Choosing Team Spell Lists, for a six-wizard team without a line-up (ruling)."""
    state = stacked_tournament()
    team = state["teams"][1]
    best = sum(sorted((magic(j) for j in team), reverse=True)[:5])
    assert best < 15
    message = refused(state, 1, {"type": "spells", "spells": SINGLES + PAIRED}, "spell_budget_exceeded")
    assert message == f"These spells cost 15 points; even your best five wizards have only {best} MAGIC."
    state = spells(state, 1, default_spells(best))
    assert spell_cost(state["spells"][1]) <= best


def test_a_tournament_budget_is_checked_again_at_ready_against_the_line_up():
    """Ruling: a line-up may be changed after the spells; ready checks the spells against it."""
    state = spells(stacked_tournament(), 0, SINGLES + PAIRED)  # 15 points: the best five have MAGIC 15
    state = act(state, 0, {"type": "lineup", "wizards": [3, 12, 18, 21, 23]})  # MAGIC 13
    message = refused(state, 0, {"type": "ready"}, "spell_budget_exceeded")
    assert message == "These spells cost 15 points; your line-up's MAGIC is 13. Change the spells or the line-up."
    assert {"type": "ready"} not in E.legal_actions(state, 0)
    message = refused(state, 0, {"type": "spells", "spells": SINGLES + PAIRED}, "spell_budget_exceeded")
    assert message == "These spells cost 15 points; your line-up's MAGIC is 13."
    state = act(state, 0, {"type": "lineup", "wizards": [39, 3, 12, 18, 21]})
    state = act(state, 0, {"type": "ready"})
    assert state["ready"][0]
