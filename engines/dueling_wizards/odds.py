"""Exact odds of Dueling Wizards' chance events (engines.odds), as fractions.

Version 2 deals by private draws from an unknown pool with no order: a draw of k cards from n takes
any k of them with the same chance, so the chance that it holds a card of some kind is the
hypergeometric tail. The stake of a draw (RULES.md, "Odds") is a spell worth 10 (a 10, Jack, Queen
or King: The Play, "face cards attack with 10"), the strongest attack in the deck.

Version 1 shuffles the whole deck once: one permutation of n! (uniform_outcome_probability), and
no stake: the order decides every later draw at once, and no one result of it is "the" one that
mattered.
"""

from __future__ import annotations

from typing import Any

from engines.base import IllegalAction
from engines.odds import (
    ChanceOdds,
    Stake,
    hypergeometric_at_least,
    uniform_outcome_probability,
)

from .deck import VALUE_OF

TOP_VALUE = 10  # The Play: face cards attack with 10, Aces with 1, numbers with their rank, Jokers 0


def chance_odds(engine: Any, state: dict[str, Any], outcome: Any) -> ChanceOdds:
    spec = engine.chance(state)
    if spec is None:
        raise IllegalAction("No card draw is due now.", code="no_chance_due")
    p_outcome = uniform_outcome_probability(spec)
    if not engine.lazy:
        return ChanceOdds(p_outcome=p_outcome)
    seat, count = state["draws"][0]
    pool = state["pool"]
    good = sum(1 for card in pool if VALUE_OF[card] == TOP_VALUE)
    others = [s for s in range(state["seats"]) if s != seat and state["alive"][s]]
    stake = Stake(
        label=f"Seat {seat} draws a spell worth 10 (a 10 or a face card)",
        p=hypergeometric_at_least(len(pool), good, count),
        happened=any(VALUE_OF[pool[i]] == TOP_VALUE for i in outcome),
        favours=seat,
        # a duel of two: what helps one wizard hurts the other; among three nobody is singled out
        hurts=others[0] if len(others) == 1 else None,
    )
    # A result that was certain or impossible decided nothing: it is not a stake.
    return ChanceOdds(p_outcome=p_outcome, stakes=(stake,) if 0 < stake.p < 1 else ())
