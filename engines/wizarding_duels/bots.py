"""Bots: random (uniform over legal actions) and a heuristic bot."""

from __future__ import annotations

from engines.base import IllegalAction


def random_action(engine, state, seat, rng):
    actions = engine.legal_actions(state, seat)
    if not actions:
        raise IllegalAction("This seat has no legal action.", code="no_legal_action")
    return actions[int(rng.random() * len(actions))]


def heuristic_action(engine, state, seat, rng):
    return random_action(engine, state, seat, rng)
