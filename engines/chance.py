"""Chance specs, outcome checks, and provably fair derivation from a committed seed.

An engine whose ``to_move`` says CHANCE describes the draw with one of these specs:

  ``{"kind": "shuffle", "size": n}``            outcome: a permutation of ``range(n)``
  ``{"kind": "dice", "dice": [[lo, hi], ...]}``  outcome: one int per die, ``lo <= v <= hi``

Both may carry a ``"label"`` for people. In server-dealt matches the outcome is derived
from ``HMAC-SHA256(seed, "<stream>:<seq>:<k>")`` with rejection sampling, so anyone who
learns the seed after the match can re-derive every outcome and compare.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Any, Callable

from .base import IllegalAction

_SPACE = 1 << 64


def seed_commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


class HmacStream:
    """Uniform integers from HMAC-SHA256(seed, "<stream>:<seq>:<k>"), k = 0, 1, 2, ..."""

    def __init__(self, seed: bytes, stream: str, seq: int):
        self._seed = seed
        self._prefix = f"{stream}:{seq}:"
        self._k = 0

    def _next64(self) -> int:
        msg = (self._prefix + str(self._k)).encode("ascii")
        self._k += 1
        return int.from_bytes(hmac.new(self._seed, msg, hashlib.sha256).digest()[:8], "big")

    def below(self, n: int) -> int:
        """Uniform in ``range(n)``: values in the biased tail of 2**64 are rejected, not folded."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _SPACE - (_SPACE % n)
        while True:
            value = self._next64()
            if value < limit:
                return value % n


def draw(spec: dict[str, Any], below: Callable[[int], int]) -> Any:
    """Produce an outcome for ``spec`` from a uniform integer source ``below(n)``."""
    kind = spec.get("kind")
    if kind == "shuffle":
        order = list(range(int(spec["size"])))
        for i in range(len(order) - 1, 0, -1):  # Fisher-Yates
            j = below(i + 1)
            order[i], order[j] = order[j], order[i]
        return order
    if kind == "dice":
        return [lo + below(hi - lo + 1) for lo, hi in spec["dice"]]
    raise ValueError(f"unknown chance kind {kind!r}")


def derive(spec: dict[str, Any], seed: bytes, stream: str, seq: int) -> Any:
    return draw(spec, HmacStream(seed, stream, seq).below)


def check_outcome(spec: dict[str, Any], outcome: Any) -> None:
    """Raise IllegalAction unless ``outcome`` is a possible result of ``spec``."""
    kind = spec.get("kind")
    if kind == "shuffle":
        size = int(spec["size"])
        if (
            not isinstance(outcome, list)
            or len(outcome) != size
            or any(type(v) is not int for v in outcome)
            or sorted(outcome) != list(range(size))
        ):
            raise IllegalAction(
                f"A shuffle outcome must list each of the numbers 0 to {size - 1} exactly once.",
                code="bad_chance_outcome",
            )
        return
    if kind == "dice":
        dice = spec["dice"]
        if not isinstance(outcome, list) or len(outcome) != len(dice):
            raise IllegalAction(f"Expected {len(dice)} die result(s).", code="bad_chance_outcome")
        for i, ((lo, hi), value) in enumerate(zip(dice, outcome)):
            if type(value) is not int or not lo <= value <= hi:
                raise IllegalAction(
                    f"Die {i + 1} shows {lo} to {hi}; {value!r} is not possible.", code="bad_chance_outcome"
                )
        return
    raise IllegalAction(f"Unknown chance kind {kind!r}.", code="bad_chance_outcome")
