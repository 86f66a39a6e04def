"""Property tests over whole duels played by random bots, under both engine versions.

Chance outcomes (version 2's private draws, version 1's shuffle) come from a seed drawn
by hypothesis, bots pick uniformly among legal actions, and after every event the
invariants the rulebook implies are checked: cards are never created or lost ("The
Deck": one deck), health stays within 0..100 ("Healing": capped at 100; "The End":
zero is out), and every duel ends ("The End": the pile runs out).
"""

import collections
import copy
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import CHANCE, replay
from engines.chance import draw as chance_draw
from engines.dueling_wizards import ENGINE, ENGINE_V1, deck

# Each round sends at least two cards (an attack and a defence) to the discard, and
# the game is over once the deck is spent, so no duel outlasts 35 rounds.
MAX_ROUNDS = 35

PLAYOUTS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# Version 2 adds chance events: three deal draws and at most one draw per wizard per round.
def max_events(seats):
    return seats + MAX_ROUNDS * 2 * seats


ENGINES = pytest.mark.parametrize("engine", [ENGINE, ENGINE_V1], ids=["v2", "v1"])


@st.composite
def duels(draw):
    seats = draw(st.sampled_from([2, 3]))
    jokers = draw(st.booleans())
    chance_seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    bot_seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    return seats, jokers, chance_seed, bot_seed


def play(engine, seats, jokers, chance_seed, bot_seed, check=None):
    """Play a duel to the end; returns (final state, events). ``check(state)`` after each event."""
    rng = random.Random(bot_seed)
    chance_rng = random.Random(chance_seed)
    state = engine.setup({"jokers": jokers}, seats)
    events = []
    while True:
        to_move = engine.to_move(state)
        if not to_move:
            return state, events
        if to_move == [CHANCE]:
            outcome = chance_draw(engine.chance(state), chance_rng.randrange)
            event = {"kind": "chance", "outcome": outcome}
        else:
            seat = to_move[int(rng.random() * len(to_move))]  # defenders act in any order
            event = {"kind": "action", "seat": seat, "action": engine.random_action(state, seat, rng)}
        before = copy.deepcopy(state)
        after = engine.apply(state, event)
        assert state == before, "apply must not mutate its input"
        events.append(event)
        state = after
        if check:
            check(state)
        assert len(events) <= max_events(seats)


def assert_plain(value):
    """Only dict/list/str/int/bool/None: in particular no floats (health is in half-points)."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert type(key) is str
            assert_plain(item)
    elif isinstance(value, list):
        for item in value:
            assert_plain(item)
    else:
        assert value is None or type(value) in (str, int, bool), f"{value!r} is not plain JSON"


def cards_in_play(state):
    cards = list(state.get("pool", state.get("pile"))) + list(state["discard"])
    for hand in state["hands"]:
        cards += hand
    cards += [c for c in state["defences"] if c is not None]
    return cards


@ENGINES
@PLAYOUTS
@given(duel=duels())
def test_random_duels_never_raise_and_always_end_within_the_bound(engine, duel):
    seats = duel[0]
    state, events = play(engine, *duel)
    assert engine.to_move(state) == []
    assert state["round"] <= MAX_ROUNDS
    assert len(events) <= max_events(seats)
    result = engine.result(state)
    assert result["reason"] in ("last_standing", "deck_out")
    assert len(result["placements"]) == seats
    assert min(result["placements"]) == 1
    assert result["winners"] == [s for s in range(seats) if result["placements"][s] == 1]


@ENGINES
@PLAYOUTS
@given(duel=duels())
def test_every_card_of_the_deck_is_always_somewhere_exactly_once(engine, duel):
    jokers = duel[1]
    expected = collections.Counter(deck.deck(jokers))

    def check(state):
        found = collections.Counter(cards_in_play(state))
        assert found == expected

    play(engine, *duel, check=check)


@ENGINES
@PLAYOUTS
@given(duel=duels())
def test_health_never_leaves_zero_to_one_hundred_and_only_the_fallen_reach_zero(engine, duel):
    def check(state):
        for seat, health in enumerate(state["health"]):
            assert type(health) is int and 0 <= health <= 200
            assert (health == 0) == (not state["alive"][seat])
            if not state["alive"][seat]:
                assert state["hands"][seat] == []
        if state["phase"] in ("defend", "attack"):
            assert state["alive"][state["attacker"]]

    play(engine, *duel, check=check)


@ENGINES
@PLAYOUTS
@given(duel=duels())
def test_states_stay_plain_json_and_replay_gives_the_same_duel(engine, duel):
    seats, jokers = duel[0], duel[1]

    def check(state):
        assert_plain(state)
        assert json.loads(json.dumps(state)) == state

    state, events = play(engine, *duel, check=check)
    again = replay(engine, {"jokers": jokers}, seats, json.loads(json.dumps(events)))
    assert again == state


@ENGINES
@PLAYOUTS
@given(duel=duels())
def test_every_legal_action_the_engine_lists_is_accepted(engine, duel):
    def check(state):
        for seat in engine.to_move(state):
            if seat == CHANCE:
                continue
            for action in engine.legal_actions(state, seat):
                engine.validate(state, seat, action)

    play(engine, *duel, check=check)
