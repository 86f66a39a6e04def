"""Exact odds of Annihilageddon's chance events (engines.odds), as fractions.

Every draw takes cards from an unordered pool (interp.draw_from), each ordered pick equally likely,
so the chance that a draw holds a card of some kind is the hypergeometric tail over the pool. The
stakes (RULES.md, "Odds"):

* who goes first (AN: the players pick a first player at random): each seat 1/n;
* a draw from a seat's own deck: at least one card that cost Power to get (a bought card, not a
  starting Glyph, Wand or Fizzle and not a Limp Wand): the deck-builder's measure of a good hand;
* a card turned from the main deck (Line-Up refill, "top of the main deck"): a Mayhem card, which
  strikes the table (no seat favoured: shown, no luck);
* Legends, Dead Wizard Tokens, the box's tiles and familiars: the outcome's chance only.
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

from .cards import CARDS
from .interp import zone_list


def bought(cid: str) -> bool:
    """A card that cost Power to get: starters cost 0 and a Limp Wand has no cost."""
    return (CARDS[cid].get("cost") or 0) > 0


def _deck_draw(state: dict[str, Any], seat: int, pool: list[str], outcome: list[int]) -> Stake:
    seats = state["seats"]
    return Stake(
        label=f"Seat {seat} draws at least one card bought with Power",
        p=hypergeometric_at_least(len(pool), sum(1 for c in pool if bought(c)), len(outcome)),
        happened=any(bought(pool[i]) for i in outcome),
        favours=seat,
        hurts=1 - seat if seats == 2 else None,  # among more players nobody is singled out
    )


def _main_draw(pool: list[str], outcome: list[int]) -> Stake:
    mayhem = sum(1 for c in pool if CARDS[c]["kind"] == "mayhem")
    return Stake(
        label="A Mayhem card turns up",
        p=hypergeometric_at_least(len(pool), mayhem, len(outcome)),
        happened=any(CARDS[pool[i]]["kind"] == "mayhem" for i in outcome),
    )


def chance_odds(engine: Any, state: dict[str, Any], outcome: Any) -> ChanceOdds:
    spec = engine.chance(state)
    if spec is None:
        raise IllegalAction("No chance event is due.", code="no_chance_due")
    need = state["need"]
    stakes: list[Stake] = []
    if "dice" in need and need["label"] == "Who goes first":
        n = state["seats"]
        stakes = [
            Stake(label=f"Seat {s} goes first", p=Fraction(1, n), happened=outcome[0] == s, favours=s) for s in range(n)
        ]
    elif "zone" in need and need["zone"][0] == "player":
        stakes = [_deck_draw(state, need["zone"][1], zone_list(state, need["zone"]), outcome)]
    elif "zone" in need and need["zone"][0] == "main":
        stakes = [_main_draw(zone_list(state, need["zone"]), outcome)]
    # A result that was certain or impossible decided nothing: it is not a stake.
    return ChanceOdds(p_outcome=uniform_outcome_probability(spec), stakes=tuple(s for s in stakes if 0 < s.p < 1))
