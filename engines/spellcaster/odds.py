"""Exact odds of SpellCaster's chance events (engines.odds), as fractions.

`SC Lnnn` is a line of the rulebook (rules/spellcaster.txt), as in engine.py. RULES.md, "Odds",
says which results count as stakes and why. Four kinds of chance event:

* who goes first (SC L90): one seat of n, each 1/n;
* a Contest of Wills (SC L144-166): two d10, each plus its roller's unused Will tokens; 100 equally
  likely pairs, sorted into the rulebook's bands by the caster's margin (engine.contest_band);
* a capture (SC L231-236): 1d10 plus the capturer's unused tokens, 6 or more captures;
* a face-down draw of one card from an element's pool (SC L118-125): each card left equally likely.
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

from .engine import CAPTURE_NEEDS, contest_band, value_of

D10 = range(1, 11)


def band_probabilities(caster_tokens: int, opponent_tokens: int) -> dict[str, Fraction]:
    """The chance of each band of a Contest of Wills, by counting the 100 pairs of d10."""
    counts: dict[str, int] = {"win_discard": 0, "win_return": 0, "locked": 0, "broken": 0}
    for mine in D10:
        for theirs in D10:
            counts[contest_band((mine + caster_tokens) - (theirs + opponent_tokens))] += 1
    return {band: Fraction(n, 100) for band, n in counts.items()}


def _contest(state: dict[str, Any], outcome: list[int]) -> list[Stake]:
    con = state["contest"]
    caster, opp = con["caster"], con["current"]
    ct, ot = state["casters"][caster]["tokens"], state["casters"][opp]["tokens"]
    p = band_probabilities(ct, ot)
    band = contest_band((outcome[0] + ct) - (outcome[1] + ot))
    return [
        # SC L150-156: a margin of 2 or more wins the contest; 4 or more also discards the opponent's token.
        Stake(
            label=f"Seat {caster} wins the Contest of Wills against seat {opp} (by 2 or more)",
            p=p["win_discard"] + p["win_return"],
            happened=band in ("win_discard", "win_return"),
            favours=caster,
            hurts=opp,
        ),
        Stake(
            label=f"Seat {caster} wins by 4 or more: seat {opp}'s Will token leaves play",
            p=p["win_discard"],
            happened=band == "win_discard",
            favours=caster,
            hurts=opp,
        ),
        # SC L158-162: the opponent higher by 5 or more breaks the spell; the caster's token leaves play.
        Stake(
            label=f"Seat {opp} wins by 5 or more: seat {caster}'s spell is broken",
            p=p["broken"],
            happened=band == "broken",
            favours=opp,
            hurts=caster,
        ),
    ]


def _capture(state: dict[str, Any], outcome: list[int]) -> list[Stake]:
    seat = state["contest"]["caster"]
    tokens = state["casters"][seat]["tokens"]
    hits = sum(1 for roll in D10 if roll + tokens >= CAPTURE_NEEDS)
    return [
        Stake(
            label=f"Seat {seat} captures the Wild Spell (1d10 + {tokens} reaches {CAPTURE_NEEDS})",
            p=Fraction(hits, 10),
            happened=outcome[0] + tokens >= CAPTURE_NEEDS,
            favours=seat,
        )
    ]


def _deal(state: dict[str, Any], outcome: list[int]) -> list[Stake]:
    # SC L118-119: six 1s, three 3s and one 5 per element. The card worth having is the highest
    # value still in the pool (the 5 while it is there): a spell's cards together may not exceed
    # Skill (SC L114-116), so a high card builds the same spell from fewer cards.
    top = state["stack"][-1]
    seat, element = top["seat"], top["element"]
    pool = state["casters"][seat]["pool"][element]
    values = [value_of(cid) for cid in pool]
    best = max(values)
    good = values.count(best)
    return [
        Stake(
            label=f"Seat {seat} draws a {best}, the highest {element.capitalize()} card left",
            p=hypergeometric_at_least(len(pool), good, 1),
            happened=values[outcome[0]] == best,
            favours=seat,
        )
    ]


def chance_odds(engine: Any, state: dict[str, Any], outcome: Any) -> ChanceOdds:
    spec = engine.chance(state)
    if spec is None:
        raise IllegalAction("No random outcome is due now.", code="no_chance_due")
    if state["phase"] == "first":
        n = state["n"]
        stakes = [
            Stake(label=f"Seat {s} goes first", p=Fraction(1, n), happened=outcome[0] == s, favours=s) for s in range(n)
        ]
    elif state["stack"][-1]["p"] == "deal":
        stakes = _deal(state, outcome)
    elif state["contest"]["stage"] == "capture_roll":
        stakes = _capture(state, outcome)
    else:
        stakes = _contest(state, outcome)
    # A result that was certain or impossible decided nothing: it is not a stake.
    return ChanceOdds(p_outcome=uniform_outcome_probability(spec), stakes=tuple(s for s in stakes if 0 < s.p < 1))
