"""Setup, 1. Drafting Teams: players place their wizards in the order they will activate them."""

import pytest

from engines.iwdl_draft import ENGINE as E

from .helpers import P1, P2, act, basic_with, refused


def test_a_line_up_is_the_teams_five_in_any_order_of_activation():
    """Setup: each player activates their wizards from left to right."""
    state = basic_with(P1, P2)
    order = [36, 25, 41, 58, 21]
    state = act(state, 0, {"type": "lineup", "wizards": order})
    assert state["lineups"][0] == order


@pytest.mark.parametrize(
    "wizards, sentence",
    [
        ([21, 58, 41, 25], "A line-up names exactly 5 wizards; this one names 4."),
        ([21, 58, 41, 25, 36, 45], "A line-up names exactly 5 wizards; this one names 6."),
        ([21, 58, 41, 25, 45], "#45 Miguel Dasherdodge is not on seat 0's team."),
        ([21, 58, 41, 25, 99], "#99 is not on seat 0's team."),
        ([21, 58, 41, 25, "36"], "#36 is not on seat 0's team."),
        ([21, 58, 41, 25, 21], "#21 Hoary Burblepot is named twice in the line-up."),
    ],
)
def test_a_line_up_that_is_not_exactly_the_teams_five_is_refused(wizards, sentence):
    """Setup: players place their (five) wizards in the order they want to use them."""
    message = refused(basic_with(P1, P2), 0, {"type": "lineup", "wizards": wizards}, "bad_lineup")
    assert message == sentence


def test_line_up_and_spells_may_come_in_either_order_and_be_resubmitted():
    """Setup, Drafting Teams and Choosing Team Spell Lists: no order between the two (ruling)."""
    state = basic_with(P1, P2)
    state = act(state, 1, {"type": "spells", "spells": ["freeze"]})
    state = act(state, 1, {"type": "lineup", "wizards": P2})
    state = act(state, 1, {"type": "lineup", "wizards": list(reversed(P2))})
    state = act(state, 1, {"type": "ready"})
    state = act(state, 0, {"type": "lineup", "wizards": P1})
    state = act(state, 0, {"type": "spells", "spells": ["teleport", "dispel"]})
    state = act(state, 0, {"type": "ready"})
    assert state["phase"] == "over"
    teams = E.result(state)["teams"]
    assert teams[1]["wizards"] == list(reversed(P2)) and teams[1]["spells"] == ["freeze"]
    assert teams[0]["wizards"] == P1 and teams[0]["spells"] == ["teleport", "dispel"]


def test_the_draft_is_over_only_once_every_coach_is_ready():
    """Setup: the game starts once both teams are set (ruling: every coach is ready)."""
    state = basic_with(P1, P2)
    for seat, team in ((0, P1), (1, P2)):
        state = act(state, seat, {"type": "lineup", "wizards": team})
        state = act(state, seat, {"type": "spells", "spells": []})
    state = act(state, 1, {"type": "ready"})
    assert state["phase"] == "building" and E.result(state) is None
    state = act(state, 0, {"type": "ready"})
    assert state["phase"] == "over" and E.to_move(state) == []
    refused(state, 0, {"type": "ready"}, "game_over")
