"""The analysis of one finished match, computed from its events alone (no Django, no I/O).

The stream is replayed once through the engine it was recorded under; before every chance event
the engine is asked for the exact odds of the outcome that came (``Engine.chance_odds``): the
probability of the outcome itself and of each result that mattered (a stake), with the seat each
helped or hurt. Luck follows engines.odds: a stake that happened with probability p moves the luck
of the seat it favoured by 1 - p, one that did not by -p (the seat it hurt moves the other way).
Summed over a match, a seat's luck is what went its way minus what it could expect: zero on
average, positive for the lucky.
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Iterable
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from engines.base import CHANCE
from engines.odds import fraction_json
from matches.replay import LEAVE, engine_event, left_state

#: Bumped whenever this module's output changes shape or meaning: every cached analysis is redone.
ANALYSIS_VERSION = 1


@lru_cache(maxsize=64)
def _fingerprint_of(engine_class: type) -> str:
    """A digest of the code that computes an engine's odds: its ``chance_odds`` method, every module
    of the engine's package (its odds.py and what that reads: rules, dice, the names in the labels)
    and engines/odds.py. A cached analysis made by other odds code (an engine that learnt its stakes
    since) is recomputed."""
    import engines.odds

    digest = hashlib.sha256()
    try:
        digest.update(inspect.getsource(engine_class.chance_odds).encode())
        package = Path(inspect.getsourcefile(engine_class) or "").parent
        for module in sorted(package.glob("*.py")):
            digest.update(module.name.encode() + b"\0" + module.read_bytes())
        digest.update(Path(inspect.getsourcefile(engines.odds) or "").read_bytes())
    except (OSError, TypeError):  # no source (a frozen build): the engine version alone decides
        return "nosource"
    return digest.hexdigest()[:16]


def odds_fingerprint(engine) -> str:
    return _fingerprint_of(type(engine))


def _spec_public(spec: dict[str, Any]) -> dict[str, Any]:
    keys = ("kind", "label", "dice", "pool", "count", "size")
    return {k: spec[k] for k in keys if k in spec}


def analyse(engine, config: dict[str, Any], seats: int, events: Iterable[tuple[int, str, dict[str, Any]]]) -> dict:
    """``events``: (seq, type, data) of the stream in order (other types are passed over).
    Returns plain JSON: per chance event the odds, stakes and luck; per seat the luck over time."""
    # Only the state before each chance event is read, so one owned state takes every event in place.
    state = engine.owned_setup(config, seats)
    luck = [Fraction(0)] * seats
    expected = [Fraction(0)] * seats
    actual = [Fraction(0)] * seats
    rows: list[dict[str, Any]] = []
    series: list[dict[str, Any]] = [{"seq": 0, "luck": [0.0] * seats}]
    for seq, type_, data in events:
        event = engine_event(type_, data)
        if event is None:
            continue
        if event["kind"] == LEAVE:
            # A seat left a game the others played on: its own copy, as apply_in_place owns it.
            state = engine.owned_copy(left_state(engine, state, event["seat"]))
            continue
        if type_ == "chance" and engine.to_move(state) == [CHANCE]:
            spec = engine.chance(state) or {}
            odds = engine.chance_odds(state, event["outcome"])
            for stake in odds.stakes:
                # What went a seat's way: a stake favouring it happening, one hurting it not happening.
                if stake.favours is not None and 0 <= stake.favours < seats:
                    expected[stake.favours] += stake.p
                    actual[stake.favours] += 1 if stake.happened else 0
                if stake.hurts is not None and 0 <= stake.hurts < seats:
                    expected[stake.hurts] += 1 - stake.p
                    actual[stake.hurts] += 0 if stake.happened else 1
            deltas = odds.luck()
            for seat, delta in deltas.items():
                if 0 <= seat < seats:
                    luck[seat] += delta
            rows.append(
                {
                    "seq": seq,
                    # The spec may hold the state's own lists, which later events change in place.
                    "spec": engine.owned_copy(_spec_public(spec)),
                    "outcome": event["outcome"],
                    **odds.as_json(),
                }
            )
            series.append({"seq": seq, "luck": [round(float(v), 6) for v in luck]})
        state = engine.apply_in_place(state, event)
    return {
        "analysis_version": ANALYSIS_VERSION,
        "game": engine.name,
        "engine_version": engine.version,
        "odds_fingerprint": odds_fingerprint(engine),
        "seats": seats,
        "chance_events": rows,
        "luck": {
            "series": series,
            "totals": [
                {
                    "seat": s,
                    "luck": fraction_json(luck[s]),
                    "expected": fraction_json(expected[s]),
                    "actual": fraction_json(actual[s]),
                }
                for s in range(seats)
            ],
        },
    }
