"""A mulligan answer is checked without listing every subset of the hand (``engine.mulligan_listed``,
issue 17, P1). For the Quest hands of playouts' mulligans, every listed answer, every other order
and near misses must be judged as membership in ``legal_actions`` judges them."""

from __future__ import annotations

import itertools

from engines.wizarding_duels.engine import mulligan_listed

from .playouts import played_events, varied_configs


def _tried(hand: list[str]) -> list:
    ordered = sorted(hand)
    out = []
    for n in range(len(ordered) + 1):
        for picked in itertools.permutations(ordered, n):
            out.append({"type": "mulligan", "discard": list(picked)})
    out += [
        {"type": "mulligan", "discard": ordered + ordered[:1]},
        {"type": "mulligan", "discard": ordered[:1] * 2},
        {"type": "mulligan", "discard": ["no-such-quest"]},
        {"type": "mulligan", "discard": ordered[:1] + ["zzz"]},
        {"type": "mulligan", "discard": tuple(ordered[:1])},
        {"type": "mulligan", "discard": [1]},
        {"type": "mulligan", "discard": None},
        {"type": "mulligan"},
        {"type": "mulligan", "discard": [], "x": 1},
        {"type": "mull", "discard": []},
        {"discard": []},
    ]
    return out


def test_a_mulligan_answer_is_allowed_exactly_when_the_list_holds_it():
    met = allowed = 0
    for seed, config in enumerate(varied_configs()):
        for engine, s, ev in played_events("2", f"wzd-mulligan:{seed}", config):
            if ev["kind"] != "action" or s["queue"][0]["step"] != "mulligan":
                continue
            seat = ev["seat"]
            listed = engine.legal_actions(s, seat)
            hand = s["players"][seat]["qhand"]
            for a in _tried(hand):
                met += 1
                assert mulligan_listed(hand, a) == (a in listed), a
                allowed += a in listed
            if s["phase"] != "mulligan":
                break
    assert met > 100 and allowed > 20, (met, allowed)
