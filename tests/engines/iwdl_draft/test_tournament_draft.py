"""Variants, Tournaments: four coaches draft six wizards each, snake or straight."""

from engines.iwdl_draft import ENGINE as E

from .helpers import act, pick, refused, start


def drafted_order(state):
    seats = []
    while state["phase"] == "picking":
        seat = E.to_move(state)[0]
        seats.append(seat)
        state = pick(state, seat, state["pool"][0])
    return seats, state


def test_a_snake_draft_reverses_the_order_every_round():
    """Variants, Tournaments: draft teams of 6 in an order the organiser sets (snake)."""
    seats, state = drafted_order(start("tournament"))
    assert seats == [0, 1, 2, 3, 3, 2, 1, 0] * 3
    assert [len(t) for t in state["teams"]] == [6, 6, 6, 6]
    assert state["phase"] == "building"


def test_a_straight_draft_repeats_the_same_order_every_round():
    """Variants, Tournaments: draft teams of 6 in an order the organiser sets (straight)."""
    seats, _ = drafted_order(start("tournament", order="straight"))
    assert seats == [0, 1, 2, 3] * 6


def test_the_organisers_seat_order_is_followed():
    """Variants, Tournaments: the organiser decides the tournament style and order."""
    seats, _ = drafted_order(start("tournament", seat_order=[2, 0, 3, 1]))
    assert seats[:8] == [2, 0, 3, 1, 1, 3, 0, 2]
    seats, _ = drafted_order(start("tournament", order="straight", seat_order=[3, 2, 1, 0]))
    assert seats[:8] == [3, 2, 1, 0, 3, 2, 1, 0]


def test_a_tournament_draft_starts_picking_at_once_without_a_first_pick_choice():
    """Advanced Draft (Schoolyard) gives player 2 the pass; a tournament has no player 2 (ruling)."""
    state = start("tournament")
    assert state["phase"] == "picking"
    assert E.to_move(state) == [0]
    refused(state, 1, {"type": "pass_first_pick"}, "pass_only_at_first_pick")
    refused(state, 0, {"type": "take_first_pick"}, "pass_only_at_first_pick")
    refused(state, 1, {"type": "pick", "wizard": state["pool"][0]}, "not_your_pick")


def test_a_tournament_may_draft_teams_of_five_without_alternates():
    """Variants, Tournaments with a house rule: no alternates (team_size 5)."""
    seats, state = drafted_order(start("tournament", team_size=5))
    assert len(seats) == 20 and [len(t) for t in state["teams"]] == [5] * 4
    assert len(state["deck"]) == 0 and len(state["pool"]) == 4


def test_the_line_up_is_five_of_the_six_and_the_sixth_is_the_alternate():
    """Variants, Tournaments: teams of 6 wizards (5 plus an alternate)."""
    _, state = drafted_order(start("tournament"))
    team = state["teams"][2]
    refused(state, 2, {"type": "lineup", "wizards": team}, "bad_lineup")
    lineup = [team[5], team[4], team[3], team[2], team[1]]
    state = act(state, 2, {"type": "lineup", "wizards": lineup})
    state = act(state, 2, {"type": "spells", "spells": []})
    state = act(state, 2, {"type": "ready"})
    for seat in (0, 1, 3):
        while seat in E.to_move(state):
            state = act(state, seat, E.auto_action(state, seat))
    team_result = E.result(state)["teams"][2]
    assert team_result["wizards"] == lineup
    assert team_result["alternate"] == team[0]
