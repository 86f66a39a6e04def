"""Bots: a uniform random legal bot, and a heuristic bot that beats it."""

import random

from engines.base import CHANCE
from engines.chance import derive
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.bots import heuristic_action, throw_odds
from engines.wizard_dodgeball.scenario import arrange

SEED = b"iwdl-bot-trials"


def play(game: int, heuristic_seat: int, max_events: int = 30000):
    state = E.setup({}, 2)
    rng = random.Random(game)
    n = 0
    while E.to_move(state) and n < max_events:
        movers = E.to_move(state)
        if movers == [CHANCE]:
            event = {"kind": "chance", "outcome": derive(E.chance(state), SEED, f"game-{game}", n)}
        elif movers[0] == heuristic_seat:
            event = {"kind": "action", "seat": movers[0], "action": heuristic_action(E, state, movers[0], rng)}
        else:
            event = {"kind": "action", "seat": movers[0], "action": E.random_action(state, movers[0], rng)}
        state = E.apply(state, event)
        n += 1
    return E.result(state)


def test_the_heuristic_bot_beats_the_random_bot_in_at_least_80_percent_of_200_games():
    wins = 0
    for game in range(200):
        seat = game % 2  # alternate sides
        result = play(game, seat)
        assert result is not None, f"game {game} did not finish"
        wins += result["winners"] == [seat]
    assert wins >= 160, f"heuristic won only {wins} of 200"


def test_the_random_bot_only_picks_legal_actions():
    state = E.setup({"first_player": 0}, 2)
    rng = random.Random(7)
    for _ in range(300):
        movers = E.to_move(state)
        if not movers:
            break
        if movers == [CHANCE]:
            state = E.apply(state, {"kind": "chance", "outcome": derive(E.chance(state), SEED, "legal", _)})
            continue
        action = E.random_action(state, movers[0], rng)
        assert action in E.legal_actions(state, movers[0])
        state = E.apply(state, {"kind": "action", "seat": movers[0], "action": action})


def test_the_heuristic_bot_throws_an_active_ball_at_a_frozen_target():
    state = E.setup({"first_player": 0}, 2)
    state = arrange(
        state,
        wizards={21: [5, 7], 45: [5, 11]},
        balls={1: {"held_by": 21}},
        active={1: True},
        effects=[{"face": "freeze", "side": 0, "caster": 41, "wizard": 45}],
    )
    assert heuristic_action(E, state, 0, random.Random(1)) == {"type": "throw", "target": 45}


def test_throw_odds_against_a_frozen_target_count_only_totals_above_five():
    state = E.setup({"first_player": 0}, 2)
    state = arrange(
        state,
        wizards={47: [5, 11], 21: [5, 8]},
        balls={1: {"held_by": 47}},
        active={1: True},
        effects=[{"face": "freeze", "side": 1, "caster": 30, "wizard": 21}],
    )
    hit, caught = throw_odds(state, 47, 21, 1)
    # blue+blue+white: only 2+2+0, 2+2+1, 2+3+0 and 3+2+0 fail to beat the fixed 5
    assert caught == 0.0 and abs(hit - 212 / 216) < 1e-12


def test_the_heuristic_bot_teleports_a_ball_back_when_every_loose_ball_is_beyond_the_neutral_area():
    """Teleport: "Can teleport balls". Issue 20: wizards never cross the Neutral Area, but Teleport
    moves loose balls anywhere, so a side that keeps the balls at home can still be reached."""
    state = E.setup({"first_player": 1}, 2)
    state = arrange(state, wizards={45: [5, 11]}, balls={b: [2 * b - 1, 3] for b in range(1, 6)})
    action = heuristic_action(E, state, 1, random.Random(1))
    assert action["type"] == "cast" and action["spell"] == "teleport" and "ball" in action["targets"][0]
    # From the Neutral Area, where nobody casts, it steps back out first.
    in_the_middle = arrange(state, wizards={45: [4, 9]})
    step = heuristic_action(E, in_the_middle, 1, random.Random(1))
    assert step["type"] == "move" and step["to"][1] > 9


def test_the_heuristic_bot_beats_a_side_that_only_ends_its_turns():
    """A passive player cannot hold the game up against the bot: it is beaten by the book's rule."""
    for game in range(3):
        state = E.setup({"turn_limit": None}, 2)
        rng = random.Random(game)
        for n in range(5000):
            movers = E.to_move(state)
            if not movers:
                break
            if movers == [CHANCE]:
                event = {"kind": "chance", "outcome": derive(E.chance(state), SEED, f"passive-{game}", n)}
            elif movers[0] == 1:
                event = {"kind": "action", "seat": 1, "action": heuristic_action(E, state, 1, rng)}
            else:
                legal = E.legal_actions(state, 0)
                action = {"type": "end_turn"} if {"type": "end_turn"} in legal else legal[0]
                event = {"kind": "action", "seat": 0, "action": action}
            state = E.apply(state, event)
        assert E.result(state) is not None and E.result(state)["winners"] == [1], f"game {game}"
