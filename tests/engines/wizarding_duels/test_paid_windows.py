"""The fold's fast paths for a paid answer in a clash window (engines/wizarding_duels/fast.py,
issue 17, P1): an Empowerment paid for (FC-3) and a card's lower part used (FC-8 / FC-12) are
applied in one pass instead of through ``_check``, the window's list and ``decide``. At every
such window of playouts of both versions, every answer the list offers, and near misses of the
paid ones (the white markers off by one, as a float, missing or added, an extra field), must give
the same state through the fold as through the copying ``apply``, or the same refusal."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.base import IllegalAction, canonical_json
from engines.wizarding_duels import fast

from ..counted import Counted
from .playouts import played_events, varied_configs


def _outcome(engine, state, event, fold: bool):
    try:
        if fold:
            return "ok", canonical_json(engine.apply_in_place(engine.owned_copy(state), event))
        return "ok", canonical_json(engine.apply(state, event))
    except IllegalAction as exc:
        return "refused", exc.code, exc.message


def _near_misses(action: dict) -> list[dict]:
    out = [dict(action, x=1), {k: v for k, v in action.items() if k != "light"}, dict(action, light=0)]
    if "light" in action:
        out += [dict(action, light=action["light"] + 1), dict(action, light=action["light"] - 1)]
        out += [dict(action, light=float(action["light"])), dict(action, light=str(action["light"]))]
    if action.get("type") == "lower":
        out += [dict(action, use=1), dict(action, use="yes")]
    return out


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_paid_window_answer_folds_as_the_general_path_applies_it(version, monkeypatch):
    counted = {name: Counted(fast.FAST_PATHS[name]) for name in ("empower", "early", "late")}
    for name, path in counted.items():
        monkeypatch.setitem(fast.FAST_PATHS, name, path)
    paid: Counter = Counter()
    for seed, config in enumerate(varied_configs() * 2):
        for engine, s, ev in played_events(version, f"wzd-paid:{version}:{seed}", config):
            st = s["queue"][0]
            if ev["kind"] != "action" or st["step"] not in counted:
                continue
            seat = ev["seat"]
            listed = engine.legal_actions(s, seat)
            actions = list(listed)
            for a in listed:
                if a.get("type") == "empower" or a.get("use") is True:
                    paid[st["step"]] += 1
                    actions += _near_misses(a)
            for a in actions:
                event = {"kind": "action", "seat": seat, "action": a}
                assert _outcome(engine, s, event, fold=True) == _outcome(engine, s, event, fold=False), (st, a)
    # The paid answers were met, and each window's fast path applied them (it takes every answer
    # its list offers) and declined the near misses the list does not hold.
    for name in ("empower", "late"):
        assert paid[name] > 0, (name, paid)
    for name, c in counted.items():
        assert c.taken > 0 and (c.declined > 0 or paid[name] == 0), name
