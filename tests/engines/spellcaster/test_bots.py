"""Bots: random (uniform over legal actions) and heuristic (conjures, launches, steers at opponents)."""

import random

import pytest

from engines.spellcaster.bots import best_step

from .helpers import E, act, at, fresh_turn, launched, started
from .playouts import playout


def heuristic_wins(games):
    wins = 0
    for game in range(games):
        seat = game % 2  # alternate seats
        st, _ = playout(10_000 + game, n=2, bots={seat: "heuristic", 1 - seat: "random"})
        result = E.result(st)
        assert result is not None, f"game {game} did not finish"
        wins += result["winners"] == [seat]
    return wins


def test_the_heuristic_bot_beats_the_random_bot_in_at_least_80_percent_of_40_games():
    assert heuristic_wins(40) >= 32


@pytest.mark.slow
def test_the_heuristic_bot_beats_the_random_bot_in_at_least_80_percent_of_200_games():
    wins = heuristic_wins(200)
    assert wins >= 160, f"heuristic won only {wins} of 200"


def test_the_bots_are_listed_strongest_first_and_an_unknown_bot_is_refused():
    from engines.base import IllegalAction

    assert E.bots == ("heuristic", "random")
    st = started(2)
    with pytest.raises(IllegalAction):
        E.bot_action("clever", st, 0, random.Random(1))


def test_the_heuristic_bot_steers_a_spell_into_an_opponent_within_reach():
    st = started(2)
    at(st, 0, "F")
    at(st, 1, "E")
    launched(st, 0, 0, "C", ["0-earth-1-a", "0-earth-1-b"], ["0-earth-5-a"])
    fresh_turn(st, 0)
    st["turn"]["first_done"] = True
    st = act(st, 0, type="control", spell="0:0")
    # two Earth steps reach the Earth corner only through iE
    assert best_step(st, 0, st["stack"][-1]) == "iE"


def test_the_heuristic_bot_does_not_steer_into_itself():
    st = started(2)
    at(st, 0, "iE")
    at(st, 1, "A")
    launched(st, 0, 0, "C", ["0-earth-1-a"], ["0-earth-5-a"])
    fresh_turn(st, 0)
    st["turn"]["first_done"] = True
    st = act(st, 0, type="control", spell="0:0")
    assert best_step(st, 0, st["stack"][-1]) != "iE"


def test_random_and_heuristic_bots_only_choose_legal_actions():
    def every(before, event, after):
        if event["kind"] == "action":
            assert event["action"] in E.legal_actions(before, event["seat"])

    playout(3, n=3, bots={0: "heuristic", 1: "random", 2: "heuristic"}, max_events=1500, every=every)
