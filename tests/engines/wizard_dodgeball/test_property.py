"""Wizard Dodgeball's own invariants over random and heuristic playouts.

What every engine must do (playouts end, apply never mutates, listed actions apply, replays are
deterministic, everything is JSON) is the conformance suite's (tests/engines/test_conformance.py);
this file keeps what only this game has: five balls, one thing per square, wizards on their own half.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import CHANCE
from engines.chance import derive
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.bots import heuristic_action

PENDING_BALL_STEPS = {"attack", "dodge", "dodge_move", "place_ball"}


def no_floats_tuples_or_sets(value):
    if isinstance(value, dict):
        return all(isinstance(k, str) and no_floats_tuples_or_sets(v) for k, v in value.items())
    if isinstance(value, list):
        return all(no_floats_tuples_or_sets(v) for v in value)
    return value is None or isinstance(value, (bool, int, str))


def check_invariants(before, event, state):
    # five balls, each held, on a square, or in the air while a throw or a placement is pending
    assert len(state["balls"]) == 5
    for b in state["balls"]:
        if b["sq"] is None and b["holder"] is None:
            assert any(step["step"] in PENDING_BALL_STEPS and step.get("ball") == b["id"] for step in state["queue"])
        assert not (b["sq"] is not None and b["holder"] is not None)
        if b["holder"] is not None:
            holder = next(w for w in state["wizards"] if w["j"] == b["holder"])
            assert holder["ball"] == b["id"] and not holder["out"]
    # nothing shares a square; everything on the court is in bounds, wizards on their own half
    squares = [tuple(w["sq"]) for w in state["wizards"] if not w["out"]]
    squares += [tuple(b["sq"]) for b in state["balls"] if b["sq"] is not None]
    assert len(squares) == len(set(squares))
    for w in state["wizards"]:
        if w["out"]:
            assert w["sq"] is None and w["ball"] is None
        else:
            assert (1 <= w["sq"][1] <= 9) if w["side"] == 0 else (9 <= w["sq"][1] <= 17)
    # an eliminated wizard never acts (a caught thrower's turn ends once the pending choices are made)
    if state["turn"] is not None and state["winner"] is None and not state["queue"]:
        assert not next(w for w in state["wizards"] if w["j"] == state["turn"]["wizard"])["out"]
    if event["kind"] == "action" and not before["queue"]:
        actor = next(w for w in before["wizards"] if w["j"] == before["turn"]["wizard"])
        assert not actor["out"]
    assert no_floats_tuples_or_sets(state)


def playout(seed, heuristic_seats=(), max_events=40000):
    state = E.setup({}, 2)
    rng = random.Random(seed)
    for n in range(max_events):
        movers = E.to_move(state)
        if not movers:
            return state, n
        if movers == [CHANCE]:
            event = {"kind": "chance", "outcome": derive(E.chance(state), b"prop", str(seed), n)}
        else:
            seat = movers[0]
            if seat in heuristic_seats:
                action = heuristic_action(E, state, seat, rng)
            else:
                legal = E.legal_actions(state, seat)
                action = legal[int(rng.random() * len(legal))]
            event = {"kind": "action", "seat": seat, "action": action}
        after = E.apply(state, event)
        check_invariants(state, event, after)
        state = after
    return state, max_events


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_random_playouts_keep_every_invariant(seed):
    playout(seed, max_events=400)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_heuristic_games_end_and_keep_every_invariant(seed):
    state, n = playout(seed, heuristic_seats=(0, 1), max_events=20000)
    assert E.result(state) is not None
