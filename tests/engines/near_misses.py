"""Near misses of legal actions, for the tests that hold an engine's direct action checks to its
``legal_actions`` list (issue 17, P1): an engine may check an action without listing every legal
one, but it must accept exactly the actions the list holds and refuse every other one as before.

A near miss keeps an action's type and changes one thing: a value one off, of another JSON type
(1.0 and True equal 1 in the list too, so they must be judged as the list judges them), a key
dropped or added. Actions legal elsewhere in the same playout (another state's moves, answers and
targets) are tried as well: they are the likeliest to slip through a check that forgets a rule.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from engines.base import CHANCE, IllegalAction


def _variants(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value, int(value), float(value), str(value).lower(), None]
    if isinstance(value, int):
        return [value - 1, value + 1, float(value), value + 0.5, str(value), None, [value], -1, True, False]
    if isinstance(value, float):
        return [value + 1, int(value) if value.is_integer() else 0, str(value), None]
    if isinstance(value, str):
        out = [value + "x", value[:-1], value.upper(), "", 0, None, [value]]
        return out + [value[:-1] + c for c in "0123456789" if value and not value.endswith(c)][:3]
    if isinstance(value, list):
        out: list[Any] = [value[:-1], value + [0], list(reversed(value)), "x", None, {}]
        if value:
            out += [value + [value[-1]], [value[0]] + value, [_shift(v) for v in value]]
            out += [[float(v) if isinstance(v, int) and not isinstance(v, bool) else v for v in value]]
            out += [[str(v) for v in value]]
        return out
    if isinstance(value, dict):
        out = [{}, None, [value]]
        for key, inner in value.items():
            out += [{**value, key: v} for v in _variants(inner)[:4]]
        return out
    return [0, "x"]


def _shift(v: Any) -> Any:
    return v + 1 if isinstance(v, int) and not isinstance(v, bool) else v


def near_misses(action: dict[str, Any]) -> list[dict[str, Any]]:
    out = [{**action, "extra": 1}]
    for key, value in action.items():
        if key == "type":
            continue
        out.append({k: v for k, v in action.items() if k != key})
        out += [{**action, key: v} for v in _variants(value)]
    return out


def written_as_listed(action: dict[str, Any], legal: list[dict[str, Any]]) -> bool:
    """``action`` is in ``legal`` with every field of the JSON type the list writes it in: for an
    engine whose answers are typed (``true`` or ``1.0`` is not a count, ``1`` is not a flag)."""
    return any(action == a and _same_types(action, a) for a in legal)


def _same_types(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if type(a) is list:
        return all(_same_types(x, y) for x, y in zip(a, b))
    if type(a) is dict:
        return all(_same_types(a[k], b[k]) for k in b)
    return True


def retyped(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """``answer`` with one number or flag, wherever it lies (a field, an item of a list, a field of
    a dict within), written as another JSON type that Python finds equal: 1.0 or true for 1, 0 or
    0.0 for false. A membership test in the listed actions takes every one of them."""
    return _retyped(answer)


def _retyped(value: Any) -> list[Any]:
    if type(value) is dict:
        return [{**value, k: x} for k, v in value.items() for x in _retyped(v)]
    if type(value) is list:
        return [[*value[:i], x, *value[i + 1 :]] for i, v in enumerate(value) for x in _retyped(v)]
    if type(value) is bool:
        return [int(value), float(value)]
    if type(value) is int:
        return [bool(value), float(value)] if value in (0, 1) else [float(value)]
    return []


def _key(action: Any) -> str:
    return json.dumps(action, sort_keys=True)


class DirectCheckAudit:
    """Walks states and compares ``engine.validate`` with membership in ``legal_actions`` for every
    legal action, its near misses and a sample of actions legal in earlier states.

    ``reference(state, seat, action)`` gives the refusal code the list-based check gave for an
    action not in the list (the engine's own explanation, as before the direct checks)."""

    def __init__(
        self,
        engine,
        reference: Callable[[Any, int, dict], str],
        *,
        seed: str,
        elsewhere: int = 40,
        listed: Callable[[dict, list], bool] | None = None,
    ):
        self.engine = engine
        # Whether an action not in the list by JSON is in it as the engine means it (by default
        # the list's own equality: 1.0 equals 1 there too).
        self.listed = listed or (lambda action, legal: action in legal)
        self.reference = reference
        self.rng = random.Random(seed)
        self.elsewhere = elsewhere
        self.seen: dict[str, dict] = {}
        self.accepted = 0
        self.refused = 0
        self.kinds: set[str] = set()

    def check(self, state, seat: int) -> None:
        engine = self.engine
        legal = engine.legal_actions(state, seat)
        legal_keys = {_key(a) for a in legal}
        candidates = list(legal)
        for action in legal:
            candidates += near_misses(action)
            self.seen.setdefault(_key(action), action)
        pool = list(self.seen.values())
        candidates += self.rng.sample(pool, min(self.elsewhere, len(pool)))
        # The actions that are only a type (end a turn, activate, decline) every time: whether
        # they are allowed is all state, so each state is a test of its own.
        candidates += [a for a in pool if len(a) == 1]
        before = json.dumps(state, sort_keys=True)
        for action in candidates:
            expected = self.listed(action, legal) if _key(action) not in legal_keys else True
            try:
                engine.validate(state, seat, action)
            except IllegalAction as exc:
                got = exc.code
            else:
                got = None
            want = None if expected else self.reference(state, seat, action)
            assert got == want, f"{action!r} for seat {seat}: validate says {got!r}, the list says {want!r}"
            if expected:
                self.accepted += 1
                self.kinds.add(str(action.get("type")))
            else:
                self.refused += 1
        assert json.dumps(state, sort_keys=True) == before, "validate changed the state"

    def walk(self, states) -> None:
        for state in states:
            movers = self.engine.to_move(state)
            if movers and movers != [CHANCE]:
                for seat in movers:
                    self.check(state, seat)


def _containers(value: Any, out: set[int]) -> set[int]:
    if isinstance(value, (dict, list)):
        out.add(id(value))
        for inner in value.values() if isinstance(value, dict) else value:
            _containers(inner, out)
    return out


def assert_fold_keeps_no_event_container(engine, seats: int, events: list[dict]) -> None:
    """Fold ``events`` in place as replay does and check after every one that the state holds no
    list or dict of any event: an engine that skips copying an event's action or outcome must
    keep only its numbers and strings (or new containers), or a later in-place write would
    change the caller's events."""
    events = json.loads(json.dumps(events))  # as the event store hands them over
    of_events = _containers(events, set())
    state = engine.owned_copy(engine.setup(engine.validate_config({}, seats), seats))
    for k, event in enumerate(events):
        state = engine.apply_in_place(state, event)
        shared = _containers(state, set()) & of_events
        assert not shared, f"after event {k} ({event}) the state holds a container of an event"
