"""The Janken Deck: five suits of thirteen ranks, plus five Jokers.

Cards are short strings so that states, events and views stay plain JSON:
``"R9"`` is the 9 of Rock, ``"PK"`` the King of Paper, ``"X3"`` the third Joker.

Two orders matter and they are different on purpose:

* the *canonical* order (Rock, Paper, Scissors, Lizard, Water; A..K; then the Jokers)
  numbers the cards for shuffle outcomes and lists actions deterministically;
* the *circle* (Rock -> Scissors -> Lizard -> Paper -> Water -> Rock) decides which
  suit beats which: every suit beats the next two around it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SUITS = ("R", "P", "S", "L", "W")  # canonical order
SUIT_NAMES = {"R": "Rock", "P": "Paper", "S": "Scissors", "L": "Lizard", "W": "Water"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
JOKERS = ("X1", "X2", "X3", "X4", "X5")

# The Play: face cards attack with 10, Aces with 1, numbers with their rank, Jokers with 0.
_RANK_VALUE = {"A": 1, "J": 10, "Q": 10, "K": 10, **{str(n): n for n in range(2, 11)}}

SUITED_CARDS = tuple(suit + rank for suit in SUITS for rank in RANKS)
ALL_CARDS = SUITED_CARDS + JOKERS
FULL_SIZE = len(ALL_CARDS)  # 70
SUITED_SIZE = len(SUITED_CARDS)  # 65

#: Canonical index of every card: shuffle outcomes and sorting use it.
INDEX = {card: i for i, card in enumerate(ALL_CARDS)}

# Lookup tables, built once, so the hot path of replay is dictionary reads.
SUIT_OF: dict[str, str | None] = {card: card[0] for card in SUITED_CARDS}
SUIT_OF.update({joker: None for joker in JOKERS})
VALUE_OF: dict[str, int] = {card: _RANK_VALUE[card[1:]] for card in SUITED_CARDS}
VALUE_OF.update({joker: 0 for joker in JOKERS})

# -- suit relations -------------------------------------------------------------

CIRCLE = ("R", "S", "L", "P", "W")
_POSITION = {suit: i for i, suit in enumerate(CIRCLE)}

SAME, WEAKER, WEAKEST, STRONGER, STRONGEST, NONE = (
    "same",
    "weaker",
    "weakest",
    "stronger",
    "strongest",
    "none",
)

# Steps clockwise from the attacking suit to the defending suit: +1 and +2 are beaten
# by the attack, -1 (= 4) and -2 (= 3) beat it.
_BY_STEP = {0: SAME, 1: WEAKER, 2: WEAKEST, 3: STRONGEST, 4: STRONGER}

#: Damage multipliers in halves, so that 1.5 and 0.5 stay exact integers (3 and 1).
MULTIPLIER_HALVES = {SAME: 2, WEAKER: 3, WEAKEST: 4, STRONGER: 1, STRONGEST: 0, NONE: 2}

#: The Joker ruling swaps each relation with its mirror; "same" has no mirror.
INVERTED = {
    SAME: SAME,
    WEAKER: STRONGER,
    STRONGER: WEAKER,
    WEAKEST: STRONGEST,
    STRONGEST: WEAKEST,
    NONE: NONE,
}

_RELATION = {(a, d): _BY_STEP[(_POSITION[d] - _POSITION[a]) % 5] for a in SUITS for d in SUITS}


def relation(attack_suit: str | None, defence_suit: str | None) -> str:
    """How the defending suit stands against the attacking suit.

    ``"none"`` when either side is a Joker: a Joker has no suit, so no relation.
    """
    if attack_suit is None or defence_suit is None:
        return NONE
    return _RELATION[(attack_suit, defence_suit)]


def multiplier(relation_name: str) -> float:
    """The multiplier as a number for people (1, 1.5, 2, 0.5, 0)."""
    return MULTIPLIER_HALVES[relation_name] / 2


# -- cards ------------------------------------------------------------------------


def is_joker(card: str) -> bool:
    return SUIT_OF[card] is None


def suit(card: str) -> str | None:
    """The suit code ("R", "P", "S", "L", "W"), or None for a Joker."""
    return SUIT_OF[card]


def rank_value(card: str) -> int:
    """Attack strength and healing value: A 1, 2-10 face value, J/Q/K 10, Joker 0."""
    return VALUE_OF[card]


def suit_name(suit_code: str | None) -> str:
    return SUIT_NAMES[suit_code] if suit_code else "no suit"


def card_name(card: str) -> str:
    """ "9 of Rock", "King of Water", "Joker"."""
    if SUIT_OF[card] is None:
        return "Joker"
    rank = card[1:]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[card[0]]}"


def cards_name(cards: Sequence[str]) -> str:
    """Three cards of one suit read as "King, 7 and Ace of Rock"; otherwise a plain list."""
    suits = {SUIT_OF[c] for c in cards}
    if len(cards) > 1 and len(suits) == 1 and None not in suits:
        ranks = [RANK_NAMES.get(c[1:], c[1:]) for c in sorted(cards, key=_strength_then_index)]
        return f"{', '.join(ranks[:-1])} and {ranks[-1]} of {SUIT_NAMES[cards[0][0]]}"
    return ", ".join(card_name(c) for c in cards)


def _strength_then_index(card: str) -> tuple[int, int]:
    # Highest card first reads naturally ("King, 7 and Ace").
    return (-VALUE_OF[card], -INDEX[card])


def sort_cards(cards: Iterable[str]) -> list[str]:
    return sorted(cards, key=INDEX.__getitem__)


def deck(jokers: bool = True) -> tuple[str, ...]:
    """The cards in play, in canonical order (shuffle outcomes index into this)."""
    return ALL_CARDS if jokers else SUITED_CARDS


# -- arranged deals ----------------------------------------------------------------


def arranged_shuffle(hands: Sequence[Sequence[str]], then: Sequence[str] = (), jokers: bool = True) -> list[int]:
    """A shuffle outcome whose deal gives seat ``i`` exactly ``hands[i]``.

    The deal goes one card at a time starting with seat 0, so the top of the pile is
    interleaved accordingly; ``then`` lists the next cards of the draw pile (in drawing
    order); every other card follows in canonical order. Useful for tabletop entry of a
    known deal and for tests that need a particular position.
    """
    cards = deck(jokers)
    seats = len(hands)
    if any(len(hand) != 3 for hand in hands):
        raise ValueError("every hand needs three cards")
    top = [hands[seat][k] for k in range(3) for seat in range(seats)] + list(then)
    if len(set(top)) != len(top) or any(card not in cards for card in top):
        raise ValueError("arranged cards must be distinct cards of this deck")
    chosen = set(top)
    rest = [card for card in cards if card not in chosen]
    return [INDEX[card] for card in top + rest]
