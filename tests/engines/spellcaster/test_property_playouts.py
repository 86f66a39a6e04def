"""Property tests: random playouts of 2 to 4 seats never raise, keep the invariants and always end."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import CHANCE

from .helpers import E
from .playouts import check_conservation, next_event, playout


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.integers(2, 4))
def test_random_playouts_never_raise_and_keep_every_card_and_token(seed, n):
    def every(before, event, after):
        check_conservation(after)
        line = E.describe(before, event, after)
        assert isinstance(line, str) and line
        movers = E.to_move(after)
        if movers and movers != [CHANCE]:
            assert E.legal_actions(after, movers[0]), "a seat to move always has a legal action"

    playout(seed, n=n, max_events=600, every=every)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.integers(2, 4))
def test_every_random_game_ends_within_the_round_limit(seed, n):
    st_, k = playout(seed, n=n)
    result = E.result(st_)
    assert result is not None, f"still going after {k} events"
    assert st_["round"] <= 61
    assert sorted(result["placements"])[0] == 1


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.integers(2, 4))
def test_heuristic_games_end_and_keep_every_invariant(seed, n):
    st_, _ = playout(seed, n=n, bots={s: "heuristic" for s in range(n)}, every=lambda b, e, a: check_conservation(a))
    assert E.result(st_) is not None


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_apply_never_mutates_its_input_and_a_refused_action_changes_nothing(seed):
    rng = random.Random(seed)

    def every(before, event, after):
        snapshot = json.dumps(before, sort_keys=True)
        E.apply(before, event)
        assert json.dumps(before, sort_keys=True) == snapshot
        movers = E.to_move(before)
        if movers and movers != [CHANCE]:
            try:
                E.apply(before, {"kind": "action", "seat": movers[0], "action": {"type": "rest", "x": rng.random()}})
            except Exception as exc:  # noqa: BLE001 - the refusal type is what is checked
                assert type(exc).__name__ == "IllegalAction"
            assert json.dumps(before, sort_keys=True) == snapshot

    playout(seed, n=3, max_events=300, every=every)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9))
def test_a_replayed_game_reaches_the_same_state(seed):
    rng = random.Random(seed)
    state = E.setup({}, 3)
    events = []
    for k in range(600):
        if not E.to_move(state):
            break
        event = json.loads(json.dumps(next_event(state, rng, seed, k)))
        events.append(event)
        state = E.apply(state, event)
    again = E.setup({}, 3)
    for event in events:
        again = E.apply(again, event)
    assert again == state
