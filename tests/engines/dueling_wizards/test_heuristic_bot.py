"""The heuristic bot (engines/dueling_wizards/bots.py) and its record against the random bot."""

from __future__ import annotations

from engines.base import CHANCE
from engines.chance import derive
from engines.dueling_wizards import ENGINE
from tests.engines.test_conformance import Rng


def play(i: int, heuristic_seat: int, seats: int = 2) -> dict:
    rng = Rng(f"dw-heuristic:{i}")
    state = ENGINE.setup({"jokers": True}, seats)
    seq = 1
    while ENGINE.to_move(state):
        seq += 1
        to_move = ENGINE.to_move(state)
        if to_move == [CHANCE]:
            event = {"kind": "chance", "outcome": derive(ENGINE.chance(state), b"dw-heuristic", f"duel-{i}", seq)}
        else:
            seat = to_move[0]
            bot = "heuristic" if seat == heuristic_seat else "random"
            event = {"kind": "action", "seat": seat, "action": ENGINE.bot_action(bot, state, seat, rng)}
        state = ENGINE.apply(state, event)
    return ENGINE.result(state)


def test_the_heuristic_bot_beats_the_random_bot_in_at_least_80_percent_of_200_duels():
    # Seats alternate so neither bot always opens ("The Play": seat 0 attacks first).
    wins = sum(play(i, i % 2)["winners"] == [i % 2] for i in range(200))
    assert wins >= 160, f"the heuristic bot won {wins} of 200"


def test_it_defends_with_its_least_valuable_card_and_attacks_with_its_most_valuable():
    state = {**ENGINE.setup({"jokers": True}, 2)}
    state.update(phase="defend", round=1, attacker=0, hands=[["RK", "P2", "S7"], ["W9", "X1", "LQ"]], pool=[], draws=[])
    defence = ENGINE.bot_action("heuristic", state, 1, Rng("x"))
    assert defence == {"type": "defend", "card": "X1"}  # a Joker attacks for nothing: spend it on defence
    after = ENGINE.apply(state, {"kind": "action", "seat": 1, "action": defence})
    assert ENGINE.bot_action("heuristic", after, 0, Rng("x")) == {"type": "attack", "card": "RK"}


def test_it_heals_when_hurt_and_the_heal_is_worth_it():
    state = {**ENGINE.setup({"jokers": True}, 2)}
    state.update(
        phase="attack",
        round=4,
        attacker=0,
        hands=[["RK", "RQ", "R9"], []],
        defences=[None, "P2"],
        health=[60, 200],
        pool=[],
        draws=[],
    )
    assert ENGINE.bot_action("heuristic", state, 0, Rng("x"))["type"] == "heal"
    state["health"] = [190, 200]
    # Queen and King both attack for 10: the tie goes to the first in canonical order.
    assert ENGINE.bot_action("heuristic", state, 0, Rng("x")) == {"type": "attack", "card": "RQ"}
