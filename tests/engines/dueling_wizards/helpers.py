"""Positions for the rule tests, reached through version 2's private draws.

Version 2 deals nothing from an ordered pile: every card that reaches a hand is a draw
event whose outcome indexes the unknown pool in canonical order. The helpers say which
cards come up (the way a person at a real table enters a draw: chance.indices_for_cards
over engine.draw_pool), so each rule test still controls every hand it needs.
"""

from __future__ import annotations

from engines.base import CHANCE
from engines.chance import indices_for_cards
from engines.dueling_wizards import ENGINE, deck


def draw(state, cards, engine=ENGINE):
    """The pending private draw, drawing exactly ``cards`` (in drawing order)."""
    outcome = indices_for_cards(engine.draw_pool(state), list(cards))
    return engine.apply(state, {"kind": "chance", "outcome": outcome})


def finish_draws(state, cards=(), engine=ENGINE):
    """Complete every pending draw: ``cards`` first, in drawing order, then the first
    cards of the pool in canonical order (the pool has no order of its own to follow)."""
    queue = list(cards)
    while engine.to_move(state) == [CHANCE]:
        count = engine.chance(state)["count"]
        take, queue = queue[:count], queue[count:]
        pool = engine.draw_pool(state)
        take += [card for card in pool if card not in take][: count - len(take)]
        state = draw(state, take, engine)
    assert not queue, f"the test meant {queue} to be drawn, but no draw was due"
    return state


def deal(hands, jokers=True):
    """The Deal: seat 0 draws ``hands[0]``, then seat 1 ``hands[1]``, and so on."""
    state = ENGINE.setup({"jokers": jokers}, len(hands))
    for hand in hands:
        state = draw(state, hand)
    return state


def act(state, seat, action, draws=()):
    """An action, then the refill it starts: ``draws`` are the cards that come up."""
    state = ENGINE.apply(state, {"kind": "action", "seat": seat, "action": action})
    return finish_draws(state, draws)


def defend(state, seat, card):
    return act(state, seat, {"type": "defend", "card": card})


def attack(state, seat, card, draws=()):
    return act(state, seat, {"type": "attack", "card": card}, draws)


def play_round(state, defences, attack_card, draws=()):
    """Every defender lays the given card, then the attacker attacks; the refill follows."""
    for seat, card in defences.items():
        state = defend(state, seat, card)
    return attack(state, state["attacker"], attack_card, draws)


def heal_round(state, defences, cards, draws=()):
    for seat, card in defences.items():
        state = defend(state, seat, card)
    return act(state, state["attacker"], {"type": "heal", "cards": cards}, draws)


def position(hands, pile=(), health=None, attacker=0, jokers=True, round_number=10, reversed_circle=False):
    """A mid-duel state: these hands, these cards left in the draw pile, every other card
    already discarded (the pool is kept in canonical order, whatever order ``pile`` has)."""
    state = ENGINE.setup({"jokers": jokers}, len(hands))
    in_play = {c for hand in hands for c in hand} | set(pile)
    state.update(
        phase="defend",
        round=round_number,
        attacker=attacker,
        hands=[deck.sort_cards(h) for h in hands],
        pool=deck.sort_cards(pile),
        draws=[],
        discard=[c for c in deck.deck(jokers) if c not in in_play],
        health=list(health or [200] * len(hands)),
        reversed=reversed_circle,
    )
    return state


def health_lost(before, after, seat):
    """HP lost as a number (state keeps half-points)."""
    return (before["health"][seat] - after["health"][seat]) / 2
