"""Every chance event of every registered engine, every version, gets exact odds without raising.

Like the conformance suite: each engine and seat count plays one game (its best bot, chance derived
from a fixed seed), and at every chance event ``chance_odds`` is asked for the outcome that came up.
The outcome and every stake must have a probability in (0, 1] (stakes, being undecided beforehand,
in (0, 1)); each stake names seats that exist; the state asked about is left as it was; the answer
must be JSON for the pages and the API."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from engines import registry
from engines.base import CHANCE, IllegalAction
from engines.chance import derive

from .test_conformance import CASES, Rng, case_id

SEED = b"odds-suite-seed"
#: Events per game before we stop looking (random Wizard Dodgeball games run to thousands).
EVENTS = 4000


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_every_chance_event_of_a_game_has_exact_odds(case):
    engine, seats = case
    rng = Rng(f"odds:{engine.name}:{engine.version}:{seats}")
    state = engine.setup({}, seats)
    chance_events = 0
    for seq in range(EVENTS):
        movers = engine.to_move(state)
        if not movers:
            break
        if movers == [CHANCE]:
            outcome = derive(engine.chance(state), SEED, "odds", seq)
            frozen = json.dumps(state, sort_keys=True)
            odds = engine.chance_odds(state, outcome)
            assert json.dumps(state, sort_keys=True) == frozen, "chance_odds changed the state it read"
            assert isinstance(odds.p_outcome, Fraction) and 0 < odds.p_outcome <= 1
            for stake in odds.stakes:
                assert isinstance(stake.p, Fraction) and 0 < stake.p < 1, stake
                assert all(s is None or 0 <= s < seats for s in (stake.favours, stake.hurts)), stake
            json.dumps(odds.as_json())
            chance_events += 1
            state = engine.apply(state, {"kind": "chance", "outcome": outcome})
        else:
            seat = movers[0]
            action = engine.bot_action(engine.best_bot, state, seat, rng)
            state = engine.apply(state, {"kind": "action", "seat": seat, "action": action})
    assert chance_events > 0, "every registered game has chance events"


@pytest.mark.parametrize("engine", registry.all_engines(), ids=lambda e: f"{e.name}@{e.version}")
def test_odds_are_refused_when_no_chance_event_is_due(engine):
    """Odds are asked of a state with a chance pending; anywhere else the engine says so."""
    state = engine.setup({}, engine.min_seats)
    for seq in range(EVENTS):
        movers = engine.to_move(state)
        if movers and movers != [CHANCE]:
            with pytest.raises(IllegalAction):
                engine.chance_odds(state, [0])
            return
        state = engine.apply(state, {"kind": "chance", "outcome": derive(engine.chance(state), SEED, "x", seq)})
    pytest.fail("no seat ever had to act")
