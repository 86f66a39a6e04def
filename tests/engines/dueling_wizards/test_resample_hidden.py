"""resample_hidden: the engine's declaration of what each viewer cannot see.

Hidden from a seat (rulebook L20-21 "spell books", L24-26 defences "face down", the draw
pile): the other wizards' hands while the duel is live, their face-down defences, and the
pile. A spectator sees no hand at all. Public: health, the discard, the last round, whose
turn it is, the Joker reversal, the pending draw (who draws how many). A resampled state
must look the same to that viewer, whatever the hidden cards are.
"""

import collections
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import CHANCE
from engines.chance import draw as chance_draw
from engines.dueling_wizards import ENGINE, ENGINE_V1, deck

from .helpers import deal, defend, position

PUBLIC = (
    "seats",
    "jokers",
    "phase",
    "round",
    "attacker",
    "discard",
    "health",
    "alive",
    "knocked_out_in",
    "last_round",
    "end",
)


def all_cards(state, pile_key="pool"):
    cards = list(state[pile_key]) + list(state["discard"]) + [c for h in state["hands"] for c in h]
    return collections.Counter(cards + [c for c in state["defences"] if c is not None])


def states_of_a_duel(engine, seats, seed):
    """Every state of a random duel, start to end."""
    rng = random.Random(seed)
    state = engine.setup({}, seats)
    out = [state]
    while engine.to_move(state):
        if engine.to_move(state) == [CHANCE]:
            event = {"kind": "chance", "outcome": chance_draw(engine.chance(state), rng.randrange)}
        else:
            seat = engine.to_move(state)[int(rng.random() * len(engine.to_move(state)))]
            event = {"kind": "action", "seat": seat, "action": engine.random_action(state, seat, rng)}
        state = engine.apply(state, event)
        out.append(state)
    return out


@settings(max_examples=25, deadline=None)
@given(seats=st.sampled_from([2, 3]), seed=st.integers(0, 2**32 - 1), resample_seed=st.integers(0, 2**32 - 1))
def test_every_view_is_unchanged_for_its_viewer_through_a_whole_duel(seats, seed, resample_seed):
    rng = random.Random(resample_seed)
    for engine, pile_key in ((ENGINE, "pool"), (ENGINE_V1, "pile")):
        for state in states_of_a_duel(engine, seats, seed):
            for viewer in (None, *range(seats)):
                snapshot = repr(state)
                other = engine.resample_hidden(state, viewer, rng)
                assert repr(state) == snapshot, "resample_hidden must not mutate its input"
                assert engine.view(other, viewer) == engine.view(state, viewer)
                assert engine.chance(other) == engine.chance(state)
                assert engine.to_move(other) == engine.to_move(state)
                assert all_cards(other, pile_key) == all_cards(state, pile_key)
                assert {k: other[k] for k in PUBLIC} == {k: state[k] for k in PUBLIC}


def test_a_spectator_resample_redeals_every_hand_defence_and_the_pool():
    state = defend(deal([["R9", "R3", "R4"], ["S4", "P3", "P4"], ["W4", "L3", "L5"]]), 1, "S4")
    rng = random.Random(1)
    seen = [ENGINE.resample_hidden(state, None, rng) for _ in range(50)]
    for seat in range(3):
        assert any(s["hands"][seat] != state["hands"][seat] for s in seen)
        assert all(len(s["hands"][seat]) == len(state["hands"][seat]) for s in seen)
    assert any(s["defences"][1] != "S4" for s in seen)
    assert all(s["defences"][2] is None and s["defences"][0] is None for s in seen)
    assert any(s["pool"] != state["pool"] for s in seen)
    assert all(s["pool"] == deck.sort_cards(s["pool"]) for s in seen)  # still in canonical order


def test_a_seat_keeps_its_own_hand_and_defence_and_nothing_else():
    state = defend(deal([["R9", "R3", "R4"], ["S4", "P3", "P4"], ["W4", "L3", "L5"]]), 1, "S4")
    rng = random.Random(2)
    seen = [ENGINE.resample_hidden(state, 1, rng) for _ in range(50)]
    assert all(s["hands"][1] == state["hands"][1] and s["defences"][1] == "S4" for s in seen)
    assert any(s["hands"][0] != state["hands"][0] for s in seen)
    assert any(s["hands"][2] != state["hands"][2] for s in seen)
    # The attacker (seat 0) cannot see seat 1's face-down card.
    assert any(s["defences"][1] != "S4" for s in (ENGINE.resample_hidden(state, 0, rng) for _ in range(50)))


def test_the_reversal_and_the_pending_draw_are_kept():
    state = position([["R9", "R3", "R4"], ["S4", "P3", "P4"]], pile=["W2", "W3", "W4"], reversed_circle=True)
    state = defend(state, 1, "S4")
    state = ENGINE.apply(state, {"kind": "action", "seat": 0, "action": {"type": "attack", "card": "R9"}})
    assert state["phase"] == "refill"
    other = ENGINE.resample_hidden(state, None, random.Random(3))
    assert other["reversed"] is True and other["draws"] == state["draws"]
    assert ENGINE.chance(other) == ENGINE.chance(state)


def test_after_the_end_every_hand_is_public_and_only_the_pool_is_redrawn():
    state = position([["RK", "R3", "R4"], ["L2", "P3", "P4"]], pile=["W2", "W3", "W4"], health=[200, 20])
    state = defend(state, 1, "L2")
    over = ENGINE.apply(state, {"kind": "action", "seat": 0, "action": {"type": "attack", "card": "RK"}})
    assert over["phase"] == "over"
    other = ENGINE.resample_hidden(over, None, random.Random(4))
    assert other["hands"] == over["hands"]
    assert ENGINE.view(other, None) == ENGINE.view(over, None)
