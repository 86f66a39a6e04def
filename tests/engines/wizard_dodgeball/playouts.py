"""Playouts of Wizard Dodgeball with a named bot, shared by the fold's tests (issue 17, P1)."""

from __future__ import annotations

from engines.base import CHANCE

from ..test_conformance import Rng, step


def bot_playout(engine, seats: int, key: str, bot: str, bound: int):
    """(state before, event, state after) for each event of a game played by ``bot`` (``random``,
    or one of the engine's bots with chance derived as the conformance suite derives it), for at
    most ``bound`` events. Each state is the copying ``apply``'s, so none is changed later."""
    rng = Rng(key)
    state = engine.setup(engine.validate_config({}, seats), seats)
    n = 0
    while engine.to_move(state) and n < bound:
        to_move = engine.to_move(state)
        if bot == "random" or to_move == [CHANCE]:
            event = step(engine, state, n + 2, rng)
        else:
            event = {"kind": "action", "seat": to_move[0], "action": engine.bot_action(bot, state, to_move[0], rng)}
        after = engine.apply(state, event)
        yield state, event, after
        state = after
        n += 1
