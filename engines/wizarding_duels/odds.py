"""Exact odds of Wizarding Duels' chance events (engines.odds), as fractions.

A draw takes cards from an unordered pile, each ordered pick equally likely, so the chance that it
holds a card of some kind is the hypergeometric tail over the pile. The stakes (RULES.md, "Odds"):

* a coin (setup: who chooses the map; initiative: who starts): each seat 1/2;
* the clash reveal (WD-92, A-09, A-10): the card kept is the best of those revealed under
  Advantage and the weakest under Disadvantage, ranked 2+ > +3 > +2 > +1 > 0; the stake is keeping
  one of the two strongest ranks, a +3 or a 2+: at least one among the revealed cards, or every one
  of them under Disadvantage;
* hand and quest draws, 2+ extras, Empowerment cards, challenge identities and the Horcrux deal: the
  outcome's chance only.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from engines.base import IllegalAction
from engines.odds import (
    ChanceOdds,
    Stake,
    hypergeometric_at_least,
    uniform_outcome_probability,
)

from .rules import waiting
from .state import P, other, rank

STRONG = 3  # rank of a +3; a 2+ ranks 4


def _reveal(state: dict[str, Any], step: dict[str, Any], outcome: list[int]) -> Stake:
    seat = step["seat"]
    deck = list(P(state, seat)["deck"])
    worst = state["clash"][step["side"]]["adv"] < 0
    good = sum(1 for c in deck if rank(state, c) >= STRONG)
    k = len(outcome)
    strong = [rank(state, deck[i]) >= STRONG for i in outcome]
    role = "attacker" if step["side"] == "att" else "defender"
    return Stake(
        label=f"Seat {seat} ({role}) keeps a +3 or a 2+ from the clash reveal",
        p=hypergeometric_at_least(len(deck), good, k, k if worst else 1),
        happened=all(strong) if worst else any(strong),
        favours=seat,
        hurts=other(seat),
    )


def chance_odds(engine: Any, state: dict[str, Any], outcome: Any) -> ChanceOdds:
    spec = engine.chance(state)
    if spec is None:
        raise IllegalAction("No chance event is due.", code="no_chance_due")
    step = waiting(state)
    stakes: list[Stake] = []
    if step["step"] == "coin":
        what = "chooses the map" if step["purpose"] == "setup" else "starts"
        stakes = [
            Stake(label=f"Seat {s} wins the coin and {what}", p=Fraction(1, 2), happened=outcome[0] == s, favours=s)
            for s in (0, 1)
        ]
    elif step["step"] == "draw" and step["pile"] == "clash" and step["dest"] == "reveal":
        stakes = [_reveal(state, step, outcome)]
    # A result that was certain or impossible decided nothing: it is not a stake.
    return ChanceOdds(p_outcome=uniform_outcome_probability(spec), stakes=tuple(s for s in stakes if 0 < s.p < 1))
