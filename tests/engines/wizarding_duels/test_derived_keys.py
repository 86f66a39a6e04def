"""The state's derived keys (``state.DERIVED_KEYS``, ``Engine.derived_keys``; issue 17, P1): each is
a pure function of the rest of the state, kept so the board's memos need not rebuild it. Along
random and heuristic playouts of both versions, applied both ways (copying and in place), every
derived key equals its recomputation after every event; a state saved without them (before the
engine kept them) plays on exactly as the same state with them; and no view shows them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engines.base import CHANCE
from engines.chance import draw as chance_draw
from engines.treecopy import copy_tree
from engines.wizarding_duels import rules
from engines.wizarding_duels.state import BOARD_KEY, DERIVED_KEYS, LIVING, SPACES, board_key, living, spaces

from .playouts import ENGINES, played_events, varied_configs

#: Each derived key and what it is derived from.
RECOMPUTE = {BOARD_KEY: board_key, LIVING: living, SPACES: spaces}


def test_every_derived_key_is_declared_on_the_engine_and_recomputed_here():
    for engine in ENGINES.values():
        assert engine.derived_keys == DERIVED_KEYS
    assert set(RECOMPUTE) == set(DERIVED_KEYS)


def _game(s):
    return {k: v for k, v in s.items() if k not in DERIVED_KEYS}


def _play(version, seed, config, bot, in_place):
    """Yield the state after every event of a game ``bot`` plays on both seats."""
    engine = ENGINES[version]
    rng = random.Random(seed)
    s = engine.setup(config, 2)
    if in_place:
        s = engine.owned_copy(s)
    yield s
    for _ in range(5000):
        tm = engine.to_move(s)
        if not tm:
            return
        if tm == [CHANCE]:
            event = {"kind": "chance", "outcome": chance_draw(engine.chance(s), rng.randrange)}
        else:
            seat = tm[int(rng.random() * len(tm))]
            event = {"kind": "action", "seat": seat, "action": engine.bot_action(bot, s, seat, rng)}
        s = engine.apply_in_place(s, event) if in_place else engine.apply(s, event)
        yield s
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("version", ["1", "2"])
@pytest.mark.parametrize("in_place", [False, True], ids=["copying", "in-place"])
def test_every_derived_key_equals_its_recomputation_after_every_event(version, in_place):
    seen, living_seen, spaces_seen = Counter(), Counter(), 0
    games = [(seed, config, "random") for seed, config in enumerate(varied_configs())]
    games += [(100 + seed, {}, "heuristic") for seed in range(2)]
    for seed, config, bot in games:
        last = living_last = spaces_last = None
        for s in _play(version, f"wzd-derived:{seed}", config, bot, in_place):
            for key, recompute in RECOMPUTE.items():
                assert s[key] == recompute(s), (seed, key)
            if s[BOARD_KEY] != last:
                seen["+" in s[BOARD_KEY].partition(":")[2], s["phase"]] += 1
                last = s[BOARD_KEY]
            if s[LIVING] != living_last:
                living_seen[sum(map(len, s[LIVING])) < sum(map(len, living_last or ([], [])))] += 1
                living_last = s[LIVING]
            if s[SPACES] != spaces_last:
                spaces_seen += 1
                spaces_last = copy_tree(s[SPACES])  # the in-place fold changes the same dicts
    # The key changed with the overlays face down (placed) and face up (unveiled, flipped).
    assert any(n for (up, _), n in seen.items() if up) and any(n for (up, _), n in seen.items() if not up), seen
    # The living uids changed as Groups were installed and as models were removed.
    assert living_seen[False] and living_seen[True], living_seen
    # The models by space changed as models were deployed, moved, placed and removed.
    assert spaces_seen > 100, spaces_seen


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_state_saved_without_its_derived_keys_plays_on_as_the_same_state(version):
    """As a match's state stored before the engine kept the keys: every event applies to it, both
    ways, as to the state with them, and the lists, turns and chance specs read the same."""
    engine = ENGINES[version]
    checked = Counter()
    for k, (_engine, s, event) in enumerate(played_events(version, "wzd-derived-old:0", {})):
        if k % 3:
            continue
        old = {key: value for key, value in copy_tree(s).items() if key not in DERIVED_KEYS}
        # A fresh process: no memo holds what the state with the key left there.
        rules._step_memo.cache_clear()
        rules._MARKS.clear()
        assert engine.to_move(old) == engine.to_move(s)
        if engine.to_move(s) == [CHANCE]:
            assert engine.chance(old) == engine.chance(s)
        else:
            for seat in engine.to_move(s):
                assert engine.legal_actions(old, seat) == engine.legal_actions(s, seat)
        assert _game(engine.apply(old, event)) == _game(engine.apply(s, event))
        assert _game(engine.apply_in_place(copy_tree(old), event)) == _game(engine.apply(s, event))
        checked[s["phase"]] += 1
    assert checked["activation"] > 20, checked


def test_no_view_shows_a_derived_key():
    engine = ENGINES["2"]
    for k, (_engine, s, _event) in enumerate(played_events("2", "wzd-derived-view:0", {})):
        if k % 5:
            continue
        assert BOARD_KEY in s and LIVING in s
        for seat in (0, 1, None):
            assert not set(DERIVED_KEYS) & set(engine.view(s, seat))
