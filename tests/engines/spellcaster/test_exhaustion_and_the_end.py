"""Exhaustion, retirement, the winner, placements and the round limit for bot games."""

from .helpers import E, act, at, fresh_turn, launched, started


def strike(n=2, victim_life=2, victim_spell=True):
    """Seat 0 steers Earth 3 into seat 1 at iE; seat 1 has only ``victim_life`` squares left."""
    st = started(n)
    at(st, 0, "F")
    at(st, 1, "iE")
    st["casters"][1]["life"] = victim_life
    if victim_spell:
        launched(st, 1, 0, "W", ["1-water-1-a"], ["1-water-3-a"])
    launched(st, 0, 0, "C", ["0-fire-1-a"], ["0-earth-3-a"])
    fresh_turn(st, 0)
    st["turn"]["first_done"] = True
    st = act(st, 0, type="control", spell="0:0")
    return act(st, 0, type="step", to="iE")


def test_a_caster_whose_last_square_is_lost_is_exhausted_and_the_other_wins():
    """Rulebook L279-281 (EX-SC-19): no Life Force left -> exhausted, withdraws, loses."""
    st = strike()
    assert st["alive"] == [True, False] and st["phase"] == "over"
    assert E.result(st) == {"placements": [1, 2], "scores": [18, 0], "winners": [0], "reason": "last_standing"}
    assert E.to_move(st) == []


def test_a_retiring_casters_launched_spells_go_wild():
    """Rulebook L228-229 (EX-SC-19): with three players the game goes on and his spell is wild."""
    st = strike(n=3)
    assert st["phase"] == "play" and st["alive"] == [True, False, True]
    sp = st["casters"][1]["display"][0]
    assert sp["state"] == "wild" and sp["controller"] is None and sp["point"] == "W"
    assert st["casters"][1]["point"] is None


def test_the_retired_casters_turn_is_skipped():
    st = strike(n=3)
    st = act(st, 0, type="return", up=[])
    st = act(st, 0, type="end_turn")
    assert E.to_move(st) == [2]


def test_retired_casters_rank_by_retirement_order_and_together_share_a_place():
    """SC-R24 / B2.5: later retirement ranks higher; simultaneous retirements share."""
    st = started(4)
    st["alive"] = [True, False, False, False]
    st["retired_at"] = [None, 3, 1, 1]
    st["phase"] = "over"
    st["end"] = "last_standing"
    assert E.result(st)["placements"] == [1, 2, 3, 3]


def test_at_the_round_limit_the_living_rank_by_life_left():
    """SC-R25: the platform's round limit for bot games; the living rank by Life squares left."""
    st = started(3, config={"max_rounds": 5})
    st["casters"][1]["life"] = 10
    st["casters"][2]["life"] = 10
    for _ in range(5 * 3):
        st = act(st, E.to_move(st)[0], type="end_turn")
    assert st["phase"] == "over" and st["end"] == "round_limit"
    assert E.result(st)["placements"] == [1, 2, 2] and E.result(st)["winners"] == [0]


def test_with_the_round_limit_off_the_game_goes_on():
    st = started(2, config={"max_rounds": 0})
    for _ in range(2 * 70):
        st = act(st, E.to_move(st)[0], type="end_turn")
    assert st["phase"] == "play" and st["round"] == 71
