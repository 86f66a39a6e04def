"""Placements, scores and winners once a duel ends (rulebook: "The End")."""

from engines.dueling_wizards import ENGINE

from .helpers import play_round, position


def test_there_is_no_result_before_the_end():
    state = position([["R2", "R3", "R4"], ["P2", "P3", "P4"]], pile=["W2"])
    assert ENGINE.result(state) is None
    assert ENGINE.result(ENGINE.setup({}, 2)) is None


def test_a_two_wizard_duel_places_the_survivor_first():
    # The End: the last player with health left is the winner.
    state = position([["RK", "R3", "R4"], ["L2", "P3", "P4"]], pile=["W2", "W3"], health=[200, 20])
    result = ENGINE.result(play_round(state, {1: "L2"}, "RK"))
    assert result == {"placements": [1, 2], "scores": [100, 0], "winners": [0], "reason": "last_standing"}


def test_a_wizard_knocked_out_earlier_places_below_one_knocked_out_later():
    # The End (ruling): lasting longer is better, so the first to fall is last.
    state = position(
        [["R9", "RK", "R3"], ["S2", "S3", "L5"], ["L2", "P3", "P4"]],
        pile=["W2", "W3", "W4", "W5"],
        health=[200, 60, 18],
    )
    state = play_round(state, {1: "S2", 2: "L2"}, "R9")  # seat 2 (Lizard, weakest) falls
    assert state["alive"] == [True, True, False]
    state = play_round(state, {0: "R3"}, "S3")  # seat 1 attacks; seat 0 is barely scratched
    state = play_round(state, {1: "L5"}, "RK")  # Lizard is weakest against Rock: 20 > 16.5
    result = ENGINE.result(state)
    assert result["placements"] == [1, 2, 3]
    assert result["winners"] == [0]
    assert result["reason"] == "last_standing"


def test_wizards_knocked_out_in_the_same_round_share_their_placement():
    # The End (ruling): falling together is a tie.
    state = position(
        [["R9", "R3", "R4"], ["R2", "P3", "P4"], ["R5", "S3", "S4"]], pile=["W2", "W3"], health=[200, 18, 18]
    )
    result = ENGINE.result(play_round(state, {1: "R2", 2: "R5"}, "R9"))
    assert result["placements"] == [1, 2, 2]
    assert result["reason"] == "last_standing"


def test_at_a_deck_out_the_living_rank_by_health_above_the_fallen():
    # The End: most health wins; ruling: the already defeated rank below everyone alive.
    state = position([["R2"], ["P2", "P3"], []], health=[60, 150, 0])
    state["alive"] = [True, True, False]
    state["knocked_out_in"] = [None, None, 4]
    result = ENGINE.result(play_round(state, {1: "P2"}, "R2"))
    assert result["reason"] == "deck_out"
    assert result["placements"] == [2, 1, 3]
    assert result["winners"] == [1]


def test_two_living_wizards_level_at_a_deck_out_share_first_above_the_fallen():
    state = position([["R2"], ["P2", "P3"], []], health=[150, 150, 0])
    state["alive"] = [True, True, False]
    state["knocked_out_in"] = [None, None, 4]
    result = ENGINE.result(play_round(state, {1: "P2"}, "R2"))
    assert result["placements"] == [1, 1, 3]
    assert result["winners"] == [0, 1]


def test_scores_are_health_with_half_points_kept():
    state = position([["R9"], ["S2", "S3"]], health=[200, 200])
    result = ENGINE.result(play_round(state, {1: "S2"}, "R9"))
    assert result["scores"] == [100, 86.5]
    assert type(result["scores"][0]) is int
