"""A game's odds live in an odds.py beside its engine, found by the base Engine: adding the odds of a
game touches its own package and nothing else."""

from __future__ import annotations

from fractions import Fraction
from math import factorial

import pytest

from engines import registry
from engines.base import CHANCE, IllegalAction


def test_a_game_with_an_odds_module_answers_through_it(monkeypatch):
    from engines.wizard_dodgeball import odds

    engine = registry.get("wizard-dodgeball")
    state = engine.setup(engine.validate_config({}, 2), 2)
    assert engine.to_move(state) == [CHANCE]
    asked = []
    monkeypatch.setattr(odds, "chance_odds", lambda eng, st, outcome: asked.append((eng, outcome)) or "theirs")
    assert engine.chance_odds(state, [1, 1]) == "theirs"
    assert asked == [(engine, [1, 1])]


def test_a_game_without_one_knows_only_the_chance_of_the_outcome():
    engine = registry.get("iwdl-draft")  # its one chance event is the shuffle of the pool
    state = engine.setup(engine.validate_config({}, 2), 2)
    spec = engine.chance(state)
    odds = engine.chance_odds(state, list(range(spec["size"])))
    assert odds.p_outcome == Fraction(1, factorial(spec["size"])) and odds.stakes == ()


def test_no_odds_are_given_when_no_chance_is_due():
    engine = registry.get("dueling-wizards", "1")
    state = engine.setup(engine.validate_config({}, 2), 2)
    while engine.to_move(state) == [CHANCE]:
        spec = engine.chance(state)
        state = engine.apply(state, {"kind": "chance", "outcome": list(range(spec["size"]))})
    with pytest.raises(IllegalAction) as refused:
        engine.chance_odds(state, None)
    assert refused.value.code == "no_chance_due"
