"""Basic Draft (Random Draw): shuffle the deck and deal each player five wizards."""

from engines.iwdl_draft import ENGINE as E

from .helpers import ORDER, P1, P2, basic_with, refused, start


def test_the_deal_gives_five_each_one_card_at_a_time_starting_with_seat_0():
    """Basic Draft (Random Draw): deal each player 5 wizards."""
    state = start("basic")
    assert state["teams"] == [ORDER[0:10:2], ORDER[1:10:2]]
    assert state["deck"] == ORDER[10:]


def test_a_stacked_deal_gives_each_coach_the_cards_it_alternates_onto():
    """Basic Draft (Random Draw): the deal alternates card by card."""
    state = basic_with(P1, P2)
    assert state["teams"] == [P1, P2]


def test_the_seat_order_decides_who_is_dealt_first():
    """Setup, step 2: player 1 is decided before the draft and is dealt to first (ruling)."""
    state = start("basic", seat_order=[1, 0])
    assert state["teams"][1] == ORDER[0:10:2]
    assert state["teams"][0] == ORDER[1:10:2]


def test_a_basic_draft_goes_straight_to_team_building_with_no_picks():
    """Basic Draft (Random Draw), then "Once teams have been drafted": line-ups and spells."""
    state = start("basic")
    assert state["phase"] == "building"
    assert state["picks"] == [] and state["pick_order"] == [] and state["pool"] == []
    assert E.to_move(state) == [0, 1]
    view = E.view(state, None)
    assert view["deck_remaining"] == 14 and view["picks_total"] == 0


def test_a_basic_draft_has_no_picks_and_no_first_pick_choice():
    """Basic Draft (Random Draw): the teams are dealt, nobody picks."""
    state = start("basic")
    refused(state, 0, {"type": "pick", "wizard": ORDER[12]}, "bad_action")
    refused(state, 1, {"type": "pass_first_pick"}, "pass_only_at_first_pick")
    refused(state, 1, {"type": "take_first_pick"}, "pass_only_at_first_pick")
