"""Advanced Draft (Schoolyard): player 2 takes or passes the first pick; picks alternate."""

from engines.iwdl_draft import ENGINE as E

from .helpers import ORDER, act, pick, refused, start


def test_after_the_shuffle_only_player_two_is_to_move_with_take_or_pass():
    """Advanced Draft (Schoolyard): Player 2 can either have the first choice or pass the first pick."""
    state = start()
    assert state["phase"] == "choose_first"
    assert E.to_move(state) == [1]
    assert E.legal_actions(state, 1) == [{"type": "take_first_pick"}, {"type": "pass_first_pick"}]
    assert E.legal_actions(state, 0) == []


def test_taking_the_first_pick_makes_player_two_pick_first_and_then_picks_alternate():
    """Advanced Draft (Schoolyard): players take turns picking one wizard from the pool."""
    state = act(start(), 1, {"type": "take_first_pick"})
    assert state["pick_order"] == [1, 0] * 5
    assert state["first_pick"] == {"seat": 1, "choice": "take", "auto": False}
    seats = []
    while state["phase"] == "picking":
        seat = E.to_move(state)[0]
        seats.append(seat)
        state = pick(state, seat, state["pool"][0])
    assert seats == [1, 0, 1, 0, 1, 0, 1, 0, 1, 0]


def test_passing_the_first_pick_makes_player_one_pick_first():
    """Advanced Draft (Schoolyard): player 2 ... can pass the first pick."""
    state = act(start(), 1, {"type": "pass_first_pick"})
    assert state["pick_order"] == [0, 1] * 5
    assert E.to_move(state) == [0]
    assert state["first_pick"]["choice"] == "pass"


def test_with_a_swapped_seat_order_seat_0_is_player_two_and_decides():
    """Setup, step 2 decides player 1; the seat order names player 1 and player 2 (ruling)."""
    state = start(seat_order=[1, 0])
    assert E.to_move(state) == [0]
    refused(state, 1, {"type": "pass_first_pick"}, "only_player_two_may_pass")
    state = act(state, 0, {"type": "pass_first_pick"})
    assert E.to_move(state) == [1]


def test_player_one_may_neither_take_nor_pass_the_first_pick():
    """Advanced Draft (Schoolyard): the choice is player 2's."""
    state = start()
    message = refused(state, 0, {"type": "pass_first_pick"}, "only_player_two_may_pass")
    assert message == "Only player 2 (seat 1) may take or pass the first pick; seat 0 is player 1."
    refused(state, 0, {"type": "take_first_pick"}, "only_player_two_may_pass")


def test_the_first_pick_cannot_be_passed_once_it_is_settled():
    """Advanced Draft (Schoolyard): the pass is of the first pick only."""
    state = act(start(), 1, {"type": "take_first_pick"})
    refused(state, 1, {"type": "pass_first_pick"}, "pass_only_at_first_pick")
    state = pick(state, 1, state["pool"][0])
    refused(state, 1, {"type": "pass_first_pick"}, "pass_only_at_first_pick")
    refused(state, 0, {"type": "pass_first_pick"}, "pass_only_at_first_pick")


def test_nobody_picks_before_player_two_has_decided():
    """Advanced Draft (Schoolyard): the choice comes before the first pick (ruling: it is explicit)."""
    state = start()
    refused(state, 0, {"type": "pick", "wizard": state["pool"][0]}, "not_your_pick")
    refused(state, 1, {"type": "pick", "wizard": state["pool"][0]}, "first_pick_undecided")


def test_a_pick_out_of_turn_is_refused():
    """Advanced Draft (Schoolyard): players take turns picking."""
    state = act(start(), 1, {"type": "take_first_pick"})
    message = refused(state, 0, {"type": "pick", "wizard": state["pool"][0]}, "not_your_pick")
    assert message == "Pick 1 of 10 belongs to seat 1, not seat 0."


def test_a_wizard_still_in_the_deck_cannot_be_picked():
    """Advanced Draft (Schoolyard): players pick one wizard from the pool."""
    state = act(start(), 1, {"type": "take_first_pick"})
    message = refused(state, 1, {"type": "pick", "wizard": ORDER[15]}, "wizard_not_in_pool")
    assert "is not in the pool" in message


def test_a_jersey_outside_the_roster_cannot_be_picked():
    """Advanced Draft (Schoolyard): only the 24 wizards of the deck exist."""
    state = act(start(), 1, {"type": "take_first_pick"})
    message = refused(state, 1, {"type": "pick", "wizard": 99}, "wizard_not_in_pool")
    assert message == "There is no wizard #99 in the IWDL roster."


def test_a_wizard_already_drafted_cannot_be_picked_again():
    """Advanced Draft (Schoolyard): a picked wizard leaves the pool for good."""
    state = act(start(top=[21]), 1, {"type": "take_first_pick"})
    state = pick(state, 1, 21)
    message = refused(state, 0, {"type": "pick", "wizard": 21}, "wizard_taken")
    assert message == "#21 Hoary Burblepot has already been drafted by seat 1."


def test_drafting_continues_until_each_team_has_five_then_team_building_begins():
    """Advanced Draft (Schoolyard): drafting continues until each player has a team of 5 wizards."""
    state = act(start(), 1, {"type": "pass_first_pick"})
    for _ in range(9):
        state = pick(state, E.to_move(state)[0], state["pool"][-1])
        assert state["phase"] == "picking"
    state = pick(state, 1, state["pool"][-1])
    assert [len(t) for t in state["teams"]] == [5, 5]
    assert state["phase"] == "building"
    assert E.to_move(state) == [0, 1]
    refused(state, 0, {"type": "pick", "wizard": state["pool"][0]}, "bad_action")
