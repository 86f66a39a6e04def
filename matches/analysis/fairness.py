"""The fairness report: observed dice faces and draw positions against the exact uniform distribution.

Pure (no Django): it takes chance events as ``(spec, outcome)`` pairs, so a test can feed it a
deliberately biased die. Every chance kind in engines.chance is uniform over its outcomes, so:

- each die of range ``lo..hi`` shows each face with probability ``1 / (hi - lo + 1)``;
- each card of a draw of ``count`` from a pool of ``n`` is, on its own, any of the ``n`` indices with
  probability ``1 / n`` (the first card, the second, ...: every position of an ordered draw without
  replacement is uniform by symmetry);
- the first card of a shuffle of ``n`` (its top card) is any of the ``n`` with probability ``1 / n``.
  Only the first: a whole permutation holds every index exactly once and would say nothing.

Draws come from pools of many sizes, so besides the per-pool-size tables they are pooled in tenths
of the pool (index * 10 // pool): the expected count of each tenth is summed exactly per card.

The test is Pearson's chi-square (scipy.stats.chisquare) against those expected counts. The cards of
one draw are not independent (no index twice), which makes their counts vary a little less than
independent picks would: the test is then slightly cautious, never quick to cry foul.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

#: A p-value below this is flagged: one honest group in a thousand would be flagged by chance alone.
FLAG_BELOW = 0.001
#: Pearson's test is trusted when every expected count is at least this.
MIN_EXPECTED = 5
TENTHS = 10


@dataclass
class Tally:
    """Counts gathered from chance events (the report is computed from it)."""

    dice: dict[tuple[int, int], dict[int, int]] = field(default_factory=dict)
    pools: dict[int, dict[int, int]] = field(default_factory=dict)
    tenths_observed: list[int] = field(default_factory=lambda: [0] * TENTHS)
    tenths_expected: list[Fraction] = field(default_factory=lambda: [Fraction(0)] * TENTHS)
    events: int = 0
    skipped: int = 0  # outcomes that were hidden or malformed: counted nowhere else

    def add(self, spec: dict[str, Any], outcome: Any) -> None:
        kind = spec.get("kind") if isinstance(spec, dict) else None
        if not isinstance(outcome, list) or kind not in ("dice", "draw", "shuffle"):
            self.skipped += 1
            return
        if kind == "dice":
            dice = spec.get("dice") or []
            if len(dice) != len(outcome):
                self.skipped += 1
                return
            for (lo, hi), value in zip(dice, outcome):
                faces = self.dice.setdefault((int(lo), int(hi)), {})
                faces[int(value)] = faces.get(int(value), 0) + 1
        elif kind == "draw":
            pool = int(spec["pool"])
            for index in outcome:
                self._card(pool, int(index))
        else:  # shuffle: its top card only (see the module's docstring)
            if not outcome:
                self.skipped += 1
                return
            self._card(len(outcome), int(outcome[0]))
        self.events += 1

    def _card(self, pool: int, index: int) -> None:
        counts = self.pools.setdefault(pool, {})
        counts[index] = counts.get(index, 0) + 1
        self.tenths_observed[index * TENTHS // pool] += 1
        for tenth, p in enumerate(tenth_probabilities(pool)):
            self.tenths_expected[tenth] += p


@lru_cache(maxsize=256)
def tenth_probabilities(pool: int) -> tuple[Fraction, ...]:
    """The exact probability that a uniform index of ``range(pool)`` falls in each tenth."""
    out = [Fraction(0)] * TENTHS
    for index in range(pool):
        out[index * TENTHS // pool] += Fraction(1, pool)
    return tuple(out)


def tally_events(events: Iterable[tuple[dict[str, Any], Any]]) -> Tally:
    tally = Tally()
    for spec, outcome in events:
        tally.add(spec, outcome)
    return tally


def chi_square(observed: list[int], expected: list[float]) -> tuple[float, float, int]:
    """(statistic, p-value, degrees of freedom) over the cells that can occur at all."""
    from scipy.stats import chisquare

    cells = [(o, e) for o, e in zip(observed, expected) if e > 0]
    if len(cells) < 2 or sum(o for o, _ in cells) == 0:
        return 0.0, 1.0, max(0, len(cells) - 1)
    result = chisquare([o for o, _ in cells], [e for _, e in cells])
    return float(result.statistic), float(result.pvalue), len(cells) - 1


def _group(key: str, title: str, labels: list[str], observed: list[int], expected: list[float]) -> dict[str, Any]:
    n = sum(observed)
    statistic, p_value, df = chi_square(observed, expected)
    enough = n > 0 and min(e for e in expected if e > 0) >= MIN_EXPECTED
    return {
        "key": key,
        "title": title,
        "n": n,
        "cells": [
            {"label": label, "observed": o, "expected": round(e, 3)} for label, o, e in zip(labels, observed, expected)
        ],
        "chi_square": round(statistic, 4),
        "df": df,
        "p_value": p_value,
        # Too few to judge: Pearson's approximation needs every expected count >= MIN_EXPECTED.
        "enough_data": enough,
        "flagged": enough and p_value < FLAG_BELOW,
    }


def report(tally: Tally) -> dict[str, Any]:
    """Every group's observed and expected counts, chi-square statistic and p-value."""
    dice = []
    for (lo, hi), faces in sorted(tally.dice.items()):
        values = list(range(lo, hi + 1))
        observed = [faces.get(v, 0) for v in values]
        # A face outside the die's range cannot happen; if it did, it is counted and flagged.
        strays = sum(c for v, c in faces.items() if not lo <= v <= hi)
        n = sum(observed) + strays
        group = _group(
            f"die:{lo}-{hi}", f"Die {lo}–{hi}", [str(v) for v in values], observed, [n / len(values)] * len(values)
        )
        if strays:
            group.update(flagged=True, p_value=0.0, strays=strays)
        dice.append(group)
    pools = []
    for pool, counts in sorted(tally.pools.items()):
        observed = [counts.get(i, 0) for i in range(pool)]
        pools.append(
            _group(
                f"pool:{pool}",
                f"Draws from a pool of {pool}",
                [str(i) for i in range(pool)],
                observed,
                [sum(observed) / pool] * pool,
            )
        )
    tenths = None
    if sum(tally.tenths_observed):
        tenths = _group(
            "draw-tenths",
            "Draw positions, in tenths of the pool",
            [f"{10 * t}–{10 * t + 9}%" for t in range(TENTHS)],
            list(tally.tenths_observed),
            [float(e) for e in tally.tenths_expected],
        )
    groups = dice + ([tenths] if tenths else []) + pools
    return {
        "events": tally.events,
        "skipped": tally.skipped,
        "flag_below": FLAG_BELOW,
        "dice": dice,
        "draw_tenths": tenths,
        "pools": pools,
        "flagged": [g["key"] for g in groups if g["flagged"]],
    }
