"""Exact odds of chance events, as fractions: the shape every engine's ``chance_odds`` returns.

An engine knows what a roll or a draw meant (a hit, a dodge, the card that was needed); the platform
knows only the chance spec. So the engine reports, for the outcome that occurred, its probability and
the probability of each result that mattered ("stakes"), and the analysis of a finished match turns
stakes into luck: a stake that happened with probability p moves luck by (1 - p) toward the seat it
favoured, one that did not happen by -p. Over a match those sum to "what happened minus what was
expected", zero on average for every seat.

Pure: no Django, no I/O, no floats in what is computed (floats only in ``as_json`` for display)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, factorial, perm
from typing import Any


@dataclass(frozen=True)
class Stake:
    """A result that mattered to a roll or a draw, with its probability before the outcome was known."""

    label: str  # what a person reads: "Airial Curtrod dodges the ball"
    p: Fraction  # probability of this result before the chance event
    happened: bool
    favours: int | None = None  # the seat this result helps, if any
    hurts: int | None = None  # the seat it harms, if any

    def luck(self) -> dict[int, Fraction]:
        """What this stake did to each seat's luck: happened - expected, signed by side."""
        delta = (1 if self.happened else 0) - self.p
        out: dict[int, Fraction] = {}
        if self.favours is not None:
            out[self.favours] = out.get(self.favours, Fraction(0)) + delta
        if self.hurts is not None:
            out[self.hurts] = out.get(self.hurts, Fraction(0)) - delta
        return out


@dataclass(frozen=True)
class ChanceOdds:
    p_outcome: Fraction  # probability of the exact outcome recorded
    stakes: tuple[Stake, ...] = field(default_factory=tuple)

    def luck(self) -> dict[int, Fraction]:
        total: dict[int, Fraction] = {}
        for stake in self.stakes:
            for seat, delta in stake.luck().items():
                total[seat] = total.get(seat, Fraction(0)) + delta
        return total

    def as_json(self) -> dict[str, Any]:
        return {
            "p_outcome": fraction_json(self.p_outcome),
            "stakes": [
                {
                    "label": s.label,
                    "p": fraction_json(s.p),
                    "happened": s.happened,
                    "favours": s.favours,
                    "hurts": s.hurts,
                }
                for s in self.stakes
            ],
            "luck": {str(seat): fraction_json(v) for seat, v in sorted(self.luck().items())},
        }


def fraction_json(value: Fraction) -> dict[str, Any]:
    """Exact and readable: {"exact": "5/36", "value": 0.1389}."""
    return {"exact": f"{value.numerator}/{value.denominator}", "value": round(float(value), 6)}


def uniform_outcome_probability(spec: dict[str, Any]) -> Fraction:
    """The probability of any one outcome of a chance spec (every kind in engines.chance is uniform
    over its outcomes): dice -> one face per die; shuffle -> one permutation; draw -> one ordered pick."""
    kind = spec.get("kind")
    if kind == "dice":
        p = Fraction(1)
        for lo, hi in spec["dice"]:
            p /= hi - lo + 1
        return p
    if kind == "shuffle":
        return Fraction(1, factorial(int(spec["size"])))
    if kind == "draw":
        return Fraction(1, perm(int(spec["pool"]), int(spec["count"])))
    raise ValueError(f"unknown chance kind {kind!r}")


def hypergeometric_at_least(pool: int, good: int, draws: int, at_least: int = 1) -> Fraction:
    """The chance that ``draws`` cards taken from ``pool`` unknown cards, ``good`` of them of the kind
    needed, hold at least ``at_least`` of that kind (the hypergeometric tail, exact)."""
    if not 0 <= good <= pool or not 0 <= draws <= pool:
        raise ValueError(f"cannot draw {draws} of {pool} cards with {good} good ones")
    total = comb(pool, draws)
    return Fraction(sum(comb(good, k) * comb(pool - good, draws - k) for k in range(at_least, draws + 1)), total)
