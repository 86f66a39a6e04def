"""Chance specs, outcome checks, and provably fair derivation from a committed seed.

An engine whose ``to_move`` says CHANCE describes the draw with one of these specs:

  ``{"kind": "shuffle", "size": n}``            outcome: a permutation of ``range(n)``
  ``{"kind": "dice", "dice": [[lo, hi], ...]}``  outcome: one int per die, ``lo <= v <= hi``
  ``{"kind": "draw", "pool": n, "count": k}``     outcome: k distinct ints in ``range(n)``, in
                                                 the order drawn: indices into the engine's
                                                 canonical order of the unknown pool

Every spec may carry a ``"label"`` for people and ``"visible_to"``: "all", "none" (nobody
yet) or a list of seats (default: dice "all", shuffle "none", draw is required to say).
A spec never names a hidden card: a draw says how many cards leave a pool of what size,
and the engine alone knows which cards the indices stand for.

In server-dealt matches the outcome is derived from ``HMAC-SHA256(seed, "<stream>:<seq>:<k>")``
with rejection sampling, so anyone who learns the seed after the match can re-derive every
outcome and compare. docs/AUDIT.md is the byte-level specification.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from typing import Any

from .base import IllegalAction, quoted

_SPACE = 1 << 64


def seed_commitment(seed: bytes) -> str:
    return hashlib.sha256(seed).hexdigest()


def event_salt(secret: bytes, stream: str, seq: int) -> str:
    """The salt an event's hash covers: HMAC-SHA256(secret, "salt:<stream>:<seq>"), hex.
    Without the secret nobody can test a guess at a hidden event against its hash."""
    return hmac.new(secret, f"salt:{stream}:{seq}".encode("ascii"), hashlib.sha256).hexdigest()


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
    if kind == "draw":
        # One pick at a time from what is left, in ascending index order: uniform over the
        # ordered ways to take ``count`` cards, like dealing from the top of a shuffled pool.
        remaining = list(range(int(spec["pool"])))
        return [remaining.pop(below(len(remaining))) for _ in range(int(spec["count"]))]
    raise ValueError(f"unknown chance kind {kind!r}")


def derive(spec: dict[str, Any], seed: bytes, stream: str, seq: int) -> Any:
    return draw(spec, HmacStream(seed, stream, seq).below)


def draw_spec(*, pool: int, count: int, visible_to: str | list[int], label: str = "") -> dict[str, Any]:
    """A ``draw`` spec, checked: ``count`` cards from a pool of ``pool``, seen by ``visible_to``."""
    if type(pool) is not int or type(count) is not int or not 0 < count <= pool:
        raise ValueError(f"cannot draw {count!r} from a pool of {pool!r}")
    if visible_to not in ("all", "none") and not (
        isinstance(visible_to, list) and visible_to and all(type(s) is int and s >= 0 for s in visible_to)
    ):
        raise ValueError(f"visible_to must be 'all', 'none' or a list of seats, not {visible_to!r}")
    spec: dict[str, Any] = {"kind": "draw", "pool": pool, "count": count, "visible_to": visible_to}
    if label:
        spec["label"] = label
    return spec


def indices_for_cards(pool: list[Any], cards: Any) -> list[int]:
    """The draw outcome for the cards a person says they drew: each card's index in the
    canonical ``pool`` (a card the pool holds twice takes its next unused copy)."""
    if not isinstance(cards, list) or not cards:
        raise IllegalAction("Name the cards drawn as a non-empty list.", code="bad_chance_outcome")
    used: set[int] = set()
    out = []
    for card in cards:
        index = next((i for i, c in enumerate(pool) if c == card and i not in used), None)
        if index is None:
            raise IllegalAction(
                f"{quoted(card, otherwise='That card')} cannot have been drawn: it is not in the pool.",
                code="card_not_in_pool",
            )
        used.add(index)
        out.append(index)
    return out


def check_outcome(spec: dict[str, Any], outcome: Any) -> None:
    """Raise IllegalAction unless ``outcome`` is a possible result of ``spec``."""
    kind = spec.get("kind")
    if kind == "draw":
        pool, count = int(spec["pool"]), int(spec["count"])
        if (
            not isinstance(outcome, list)
            or len(outcome) != count
            or any(type(v) is not int or not 0 <= v < pool for v in outcome)
            or len(set(outcome)) != count
        ):
            raise IllegalAction(
                f"A draw of {count} from {pool} cards is {count} different numbers from 0 to {pool - 1}.",
                code="bad_chance_outcome",
            )
        return
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
                    f"Die {i + 1} shows {lo} to {hi}; {quoted(value)} is not possible.", code="bad_chance_outcome"
                )
        return
    raise IllegalAction(f"Unknown chance kind {kind!r}.", code="bad_chance_outcome")
