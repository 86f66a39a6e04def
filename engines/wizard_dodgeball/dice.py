"""Dice of Wizard Dodgeball: four colours of six-sided dice, each a run of six values.

A die is named by its colour; a roll is described to the platform as a chance spec
``{"kind": "dice", "dice": [[lo, hi], ...], "label": "..."}`` (see engines.chance).
"""

from __future__ import annotations

from functools import cache

#: colour -> (lowest face, highest face). GAME-FACTS: white 0-5, grey 1-6, blue 2-7, red 3-8.
COLOURS: dict[str, tuple[int, int]] = {
    "white": (0, 5),
    "grey": (1, 6),
    "blue": (2, 7),
    "red": (3, 8),
}

#: colours from weakest to strongest; a stat card's right die is never weaker than its left.
COLOUR_ORDER = ["white", "grey", "blue", "red"]


def colour_range(colour: str) -> list[int]:
    lo, hi = COLOURS[colour]
    return [lo, hi]


def spec(colours: list[str], label: str) -> dict:
    """The chance spec for rolling ``colours`` (one die each, in order)."""
    return {"kind": "dice", "dice": [colour_range(c) for c in colours], "label": label, "colours": list(colours)}


@cache
def distribution(colours: tuple[str, ...]) -> dict[int, float]:
    """Probability of each total when rolling ``colours`` (used by the heuristic bot only)."""
    dist = {0: 1.0}
    for colour in colours:
        lo, hi = COLOURS[colour]
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(lo, hi + 1):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / 6.0
        dist = nxt
    return dist
