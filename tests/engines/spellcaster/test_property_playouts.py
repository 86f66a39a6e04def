"""SpellCaster's own invariants over random and heuristic playouts of 2 to 4 seats: every card and
Will token accounted for, a log line per event, the round limit. What every engine must do (no
mutation, refused events change nothing, replays are deterministic) is the conformance suite's."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .helpers import E
from .playouts import check_conservation, playout


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**9), st.integers(2, 4))
def test_random_playouts_never_raise_and_keep_every_card_and_token(seed, n):
    def every(before, event, after):
        check_conservation(after)
        line = E.describe(before, event, after)
        assert isinstance(line, str) and line

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
