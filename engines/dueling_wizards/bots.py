"""The heuristic bot: spend weak cards on defence, strong ones on attack, heal when hurt.

Why this works against an unknown hand: against an attack of a suit nobody can see yet, every
suit defends equally well on average (each relation, weaker to strongest, is one suit in five,
Joker or not), so a defence is best spent on the card worth least in attack. An attack's damage
is its value times a multiplier the attacker cannot steer (the defence is face down), so the
highest value hits hardest on average. Healing pays when it restores more than the spell would
likely take off the others.
"""

from __future__ import annotations

from typing import Any

from .deck import INDEX, VALUE_OF

#: Heal (half-points) when at or below this health and the heal would be worth it.
HEAL_BELOW = 120
#: A full heal is 2 x the cards' total in half-points; take it when it restores at least this much.
HEAL_WORTH = 30


def heuristic_action(engine, state: dict[str, Any], seat: int, rng) -> dict[str, Any]:
    """The bot's choice among ``engine.legal_actions(state, seat)``; ``rng`` is unused (it is
    deterministic) but kept for the bot signature every engine shares."""
    actions = engine.legal_actions(state, seat)
    defences = [a for a in actions if a["type"] == "defend"]
    if defences:
        return min(defences, key=lambda a: (VALUE_OF[a["card"]], INDEX[a["card"]]))
    heals = [a for a in actions if a["type"] == "heal"]
    health = state["health"][seat]
    if heals and health <= HEAL_BELOW:
        heal = heals[0]
        restored = min(200, health + 2 * sum(VALUE_OF[c] for c in heal["cards"])) - health
        if restored >= HEAL_WORTH:
            return heal
    attacks = [a for a in actions if a["type"] == "attack"]
    return max(attacks, key=lambda a: (VALUE_OF[a["card"]], -INDEX[a["card"]]))
