"""The ruling "Leaving", over every registered engine whose ``leave`` plays on (engines/base.py).

A seat that resigns or runs out of time while at least two others still play leaves the game:
``leave`` never changes the state it is given; afterwards the seat is out (``in_game`` False) and
never to move; the state is JSON and plays on as its JSON copy does; random playouts with random
leaves end; and every result places each leaver below every seat that was still playing when it
left, a later leaver above an earlier one (``result`` at the game's end, ``result_on_time`` when
the last but one seat leaves). An engine joins by returning a state from ``leave``.
"""

from __future__ import annotations

import copy
import json

import pytest

from engines import registry
from engines.base import CHANCE, IllegalAction

from .test_conformance import PLAYOUT_BOUND, Rng, engine_id, seat_counts, step


def _plays_on(engine) -> bool:
    seats = max(seat_counts(engine))
    if seats < 3:
        return False
    state = engine.setup(engine.validate_config({}, seats), seats)
    try:
        return engine.leave(state, 0) is not None
    except IllegalAction:
        return True  # it decides by the state: a seat cannot leave at the very start


PLAYING_ON = [(e, n) for e in registry.all_engines() if _plays_on(e) for n in seat_counts(e) if n >= 3]


def test_the_engines_that_play_on_include_dueling_wizards_and_spellcaster():
    names = {(e.name, e.version) for e, _ in PLAYING_ON}
    assert {("dueling-wizards", "3"), ("spellcaster", "2")} <= names
    assert ("dueling-wizards", "2") not in names and ("spellcaster", "1") not in names


def in_game(engine, state, seats: int) -> list[int]:
    return [s for s in range(seats) if engine.in_game(state, s)]


def playout_with_leaves(engine, seats: int, key: str, chance_of_leaving: float = 0.02):
    """A random playout in which, now and then, a random seat still in the game leaves while two
    others play on. Checks every leave on the way; returns (final state, leaves as (seat, the
    seats in the game when it left)), and the state before each leave."""
    rng = Rng(key)
    state = engine.setup(engine.validate_config({}, seats), seats)
    leaves: list[tuple[int, list[int]]] = []
    before_leaves = []
    events = 0
    while engine.to_move(state):
        assert events < PLAYOUT_BOUND, f"{engine_id(engine)} did not end within {PLAYOUT_BOUND} events"
        playing = in_game(engine, state, seats)
        if len(playing) >= 3 and rng.random() < chance_of_leaving:
            seat = playing[int(rng.random() * len(playing))]
            kept = copy.deepcopy(state)
            after = engine.leave(state, seat)
            assert after is not None
            assert state == kept, "leave changed the state it was given"
            assert not engine.in_game(after, seat)
            assert json.loads(json.dumps(after)) == after
            before_leaves.append(state)
            leaves.append((seat, [s for s in playing if s != seat]))
            state = after
            events += 1
            continue
        event = step(engine, state, events + 2, rng)
        after = engine.apply(state, event)
        # The state after a leave plays on exactly as its JSON copy (what the server stores) does.
        assert engine.apply(json.loads(json.dumps(state)), event) == after
        state = after
        events += 1
        for seat, _ in leaves:
            assert not engine.in_game(state, seat) and seat not in engine.to_move(state)
    return state, leaves, before_leaves


def assert_leavers_placed(placements: list[int], leaves) -> None:
    for i, (seat, playing) in enumerate(leaves):
        for other in playing:
            assert placements[seat] > placements[other], (seat, other, placements, leaves)
        for later, _ in leaves[i + 1 :]:
            assert placements[later] < placements[seat], (later, seat, placements, leaves)


@pytest.mark.parametrize(("engine", "seats"), PLAYING_ON, ids=[f"{engine_id(e)}-{n}p" for e, n in PLAYING_ON])
def test_random_playouts_with_random_leaves_end_and_place_every_leaver_below_those_who_played_on(engine, seats):
    left_in_some = 0
    for k in range(6):
        state, leaves, _ = playout_with_leaves(engine, seats, f"leaving:{engine_id(engine)}:{seats}:{k}", 0.05)
        result = engine.result(state)
        assert result is not None and len(result["placements"]) == seats
        assert_leavers_placed(result["placements"], leaves)
        left_in_some += bool(leaves)
    assert left_in_some, "no playout had a seat leave: the test checked nothing"


@pytest.mark.parametrize(("engine", "seats"), PLAYING_ON, ids=[f"{engine_id(e)}-{n}p" for e, n in PLAYING_ON])
def test_after_a_leave_the_seat_is_never_to_move_and_a_later_loss_on_time_keeps_the_leavers_below(engine, seats):
    rng = Rng(f"leave-then-time:{engine_id(engine)}:{seats}")
    state = engine.setup(engine.validate_config({}, seats), seats)
    leaves = []
    events = 0
    # Seats leave, one after another, until two are left; then one of them runs out of time.
    while len(in_game(engine, state, seats)) >= 3 and engine.to_move(state):
        for _ in range(int(rng.random() * 40)):
            if not engine.to_move(state):
                break
            state = engine.apply(state, step(engine, state, events + 2, rng))
            events += 1
        playing = in_game(engine, state, seats)
        if len(playing) < 3 or not engine.to_move(state):
            break
        seat = playing[int(rng.random() * len(playing))]
        state = engine.leave(state, seat)
        assert seat not in engine.to_move(state) and engine.to_move(state) != []
        assert all(seat not in engine.legal_actions(state, s) for s in [seat])
        assert engine.legal_actions(state, seat) == []
        leaves.append((seat, [s for s in playing if s != seat]))
    playing = in_game(engine, state, seats)
    if engine.to_move(state) and len(playing) == 2:
        timed_out = playing[0]
        result = engine.result_on_time(state, timed_out, seats)
        assert result["placements"][playing[1]] == 1
        assert_leavers_placed(result["placements"], [*leaves, (timed_out, [playing[1]])])
    assert leaves


@pytest.mark.parametrize(("engine", "seats"), PLAYING_ON, ids=[f"{engine_id(e)}-{n}p" for e, n in PLAYING_ON])
def test_leave_never_changes_its_input_and_the_seat_is_out_at_any_point_of_a_playout(engine, seats):
    rng = Rng(f"leave-anywhere:{engine_id(engine)}:{seats}")
    state = engine.setup(engine.validate_config({}, seats), seats)
    tried = events = 0
    while engine.to_move(state) and events < 3000:
        if events % 7 == 0 and len(in_game(engine, state, seats)) >= 3:
            for seat in in_game(engine, state, seats):
                kept = copy.deepcopy(state)
                after = engine.leave(state, seat)
                assert state == kept
                assert not engine.in_game(after, seat) and seat not in engine.to_move(after)
                assert engine.to_move(after) != [] or engine.result(after) is not None
                if engine.to_move(after) == [CHANCE]:
                    assert engine.chance(after) is not None
                json.dumps(engine.view(after, None))
                tried += 1
        state = engine.apply(state, step(engine, state, events + 2, rng))
        events += 1
    assert tried
