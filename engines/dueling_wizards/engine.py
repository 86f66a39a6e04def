"""Dueling Wizards: a Janken Deck duel for two or three wizards.

A round: every living defender lays one card face down (all of them, in any order),
then the attacker casts an attack card face up, or heals with three cards of one suit.
The attack hurts each defender according to how the defender's suit stands against
the attacking suit. Played cards are discarded, everyone draws back up to three, and
the next wizard to the left attacks.

Three engine versions share this class (RULES.md, "Version history"):

* version "3" (current): version 2's rules, and a wizard who resigns or runs out of time
  while two others still duel leaves the duel, which goes on without them (``leave``);
* version "2" (replay only): the draw pile is an unknown pool with no order; every card
  that leaves it is a private draw (one chance event per wizard per deal or refill),
  and a Joker reverses the circle of strength until another Joker turns it back;
* version "1" (replay only): one shuffle of the whole deck orders the pile, and a Joker
  mirrors the suits for its own round only. Kept exactly as it was recorded.

State layout (plain JSON; health in half-points so that 13.5 damage stays an int):

    seats, jokers        fixed by the config
    phase                "deal" -> "defend" -> "attack" -> ("refill" ->) "defend" ... -> "over"
                         ("refill" only in version 2: drawing back up to three)
    round                1 for the first attack (0 before the deal)
    attacker             the seat casting this round
    pile                 version 1: the draw pile, index 0 on top
    pool                 version 2: the draw pile, unknown cards in canonical order
    draws                version 2: the private draws still due, [[seat, count], ...] in order
    reversed             version 2: whether the circle of strength stands reversed (public)
    hands                per seat, the spell book in canonical card order
    defences             per seat, the face-down card laid this round, or None
    discard              every card that has left play, in the order it left (public)
    health               per seat, half-points (200 = 100 HP)
    alive                per seat
    knocked_out_in       per seat, the round that knocked the seat out, or None
    left                 version 3, once a wizard has left: per seat None, or when it left,
                         [round, 0 before that round's spell or 2 after it, wizards gone before]
    last_round           the previous round, fully revealed (see _resolve)
    end                  None, "last_standing" or "deck_out"

See RULES.md beside this file for every ruling behind the code.
"""

from __future__ import annotations

from typing import Any

from ..base import CHANCE, Action, Engine, IllegalAction, InvalidConfig, State, event_kind, quoted
from ..chance import check_outcome, draw_spec
from . import deck
from .deck import INDEX, INVERTED, MULTIPLIER_HALVES, STRONGER, STRONGEST, SUIT_OF, VALUE_OF

START_HEALTH = 200  # half-points: 100 HP
MAX_HEALTH = 200  # Healing: nobody climbs above 100 HP
HAND_SIZE = 3

DEAL, DEFEND, ATTACK, REFILL, OVER = "deal", "defend", "attack", "refill", "over"
LAST_STANDING, DECK_OUT = "last_standing", "deck_out"

#: Every version this class can play; the newest is what new matches use.
VERSIONS = ("1", "2", "3")
LATEST = "3"

_COUNT_WORDS = {1: "one spell", 2: "two spells", 3: "three spells"}

_ACTION_KEYS = {"defend": {"type", "card"}, "attack": {"type", "card"}, "heal": {"type", "cards"}}

# Healing is halved when a defence stands above the healing suit (after any Joker swap).
_HALVES_HEALING = (STRONGER, STRONGEST)


def points(half_points: int) -> int | float:
    """Half-points as a number for people: 27 -> 13.5, 18 -> 9 (an int when whole)."""
    return half_points // 2 if half_points % 2 == 0 else half_points / 2


def _seat_order_from(first: int, alive: list[bool]) -> list[int]:
    """Living seats clockwise (to the left, seat + 1) starting at ``first``."""
    n = len(alive)
    return [(first + k) % n for k in range(n) if alive[(first + k) % n]]


def _next_attacker(attacker: int, alive: list[bool]) -> int:
    # The Play: play passes to the left, which is seat + 1; the fallen are skipped.
    n = len(alive)
    for k in range(1, n + 1):
        seat = (attacker + k) % n
        if alive[seat]:
            return seat
    return attacker


class DuelingWizards(Engine):
    """``DuelingWizards()`` plays the current rules; ``DuelingWizards(version="1")`` replays
    matches recorded before version 2 exactly as they were played."""

    name = "dueling-wizards"
    title = "Dueling Wizards"
    howto = "howto.md"  # the How to play page (engines/base.py)
    min_seats = 2
    max_seats = 3
    bots = ("heuristic", "random")  # strongest first: bots.py
    rating = "openskill"  # two or three wizards: one system from the first result on

    def __init__(self, version: str = LATEST):
        if version not in VERSIONS:
            raise ValueError(f"Dueling Wizards has no engine version {version!r}.")
        self.version = version
        # Version 1 stays registered only so that matches recorded with it replay and verify.
        self.current = version == LATEST
        #: Version 2 draws lazily from an unknown pool and keeps the Joker reversal.
        self.lazy = version != "1"
        #: Version 3: a wizard who resigns or runs out of time leaves, and the others duel on.
        self.plays_on = version not in ("1", "2")

    # -- configuration -------------------------------------------------------------
    def default_config(self, seats: int) -> dict[str, Any]:
        return {"jokers": True}

    def validate_config(self, config: dict[str, Any] | None, seats: int) -> dict[str, Any]:
        merged = super().validate_config(config, seats)
        if type(merged["jokers"]) is not bool:
            raise InvalidConfig("The 'jokers' option must be true or false.", code="bad_option_value")
        return merged

    # -- setup and queries -----------------------------------------------------------
    def setup(self, config: dict[str, Any], seats: int) -> State:
        config = self.validate_config(config, seats)
        state = {
            "seats": seats,
            "jokers": config["jokers"],
            "phase": DEAL,
            "round": 0,
            # The Play: the player left of the dealer attacks first; seats are numbered
            # from that player, so seat 0 opens.
            "attacker": 0,
            "hands": [[] for _ in range(seats)],
            "defences": [None] * seats,
            "discard": [],
            "health": [START_HEALTH] * seats,
            "alive": [True] * seats,
            "knocked_out_in": [None] * seats,
            "last_round": None,
            "end": None,
        }
        if not self.lazy:
            state["pile"] = []  # version 1: filled in order by the shuffle
            return state
        # No order exists until a card is drawn: the pile is the set of unknown cards.
        state["pool"] = list(deck.deck(config["jokers"]))
        # The Deal: three cards to each wizard, seat 0 first, each a private draw.
        state["draws"] = [[seat, HAND_SIZE] for seat in range(seats)]
        state["reversed"] = False
        return state

    def deck_size(self, state: State) -> int:
        return deck.FULL_SIZE if state["jokers"] else deck.SUITED_SIZE

    def chance(self, state: State) -> dict[str, Any] | None:
        if self.lazy:
            if not state["draws"]:
                return None
            seat, count = state["draws"][0]
            # Private: the drawer alone sees the cards (and alone enters them at a real table).
            return draw_spec(
                pool=len(state["pool"]),
                count=count,
                visible_to=[seat],
                label=f"Seat {seat} draws {_COUNT_WORDS[count]}",
            )
        if state["phase"] != DEAL:
            return None
        return {"kind": "shuffle", "size": self.deck_size(state), "label": "Shuffle the Janken Deck"}

    def draw_pool(self, state: State) -> list[str]:
        """The unknown cards in canonical order: what the pending draw's indices point into."""
        if not self.lazy or not state["draws"]:
            raise IllegalAction("No card draw is due now.", code="no_draw_due")
        return list(state["pool"])

    def in_game(self, state: State, seat: int) -> bool:
        return state["alive"][seat]

    def leave(self, state: State, seat: int) -> State | None:
        """Version 3 (RULES.md, "Leaving the duel"): the wizard leaves as if knocked out now. What
        they owed is settled: their pending draws are dropped (the cards stay in the pool), their
        spell book and any defence they laid leave play face up; an attacker who leaves voids the
        round: the defences laid go back to their owners' books unseen, and the attack passes to
        the left with the round begun again."""
        if not self.plays_on:
            return None
        n = state["seats"]
        if type(seat) is not int or not 0 <= seat < n:
            raise IllegalAction(f"Seat must be a whole number from 0 to {n - 1}.", code="bad_seat")
        alive = list(state["alive"])
        if state["phase"] == OVER or not alive[seat]:
            raise IllegalAction(f"Seat {seat} is no longer in the duel.", code="not_in_game")
        if sum(alive) < 3:
            raise IllegalAction("A wizard leaves a duel only while two others go on.", code="too_few_left")
        alive[seat] = False
        phase, attacker = state["phase"], state["attacker"]
        hands = list(state["hands"])
        defences = list(state["defences"])
        discard = list(state["discard"])
        left = list(state.get("left") or [None] * n)
        # Placed below every wizard still duelling and above everyone gone before (_place_key).
        left[seat] = [state["round"], 2 if phase == REFILL else 0, sum(1 for x in left if x is not None)]
        if seat == attacker and phase in (DEFEND, ATTACK):
            for s in range(n):
                if defences[s] is not None and s != seat:
                    hands[s] = deck.sort_cards(hands[s] + [defences[s]])
                    defences[s] = None
            phase = DEFEND
        if defences[seat] is not None:
            discard.append(defences[seat])
            defences[seat] = None
        discard += hands[seat]
        hands[seat] = []
        new = dict(state)
        new.update(alive=alive, hands=hands, defences=defences, discard=discard, left=left, phase=phase)
        if seat == attacker:
            new["attacker"] = _next_attacker(seat, alive)
        new["draws"] = [list(d) for d in state["draws"] if d[0] != seat]
        if phase in (DEAL, REFILL) and not new["draws"]:
            if phase == DEAL:
                new.update(phase=DEFEND, round=1)
                return new
            return _after_refill(new)
        if phase == DEFEND and all(defences[s] is not None for s in range(n) if alive[s] and s != new["attacker"]):
            new["phase"] = ATTACK
        return new

    def to_move(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == DEFEND:
            # Defences are simultaneous: everyone still to choose may act, in seat order.
            defences, alive, attacker = state["defences"], state["alive"], state["attacker"]
            return [
                seat for seat in range(state["seats"]) if alive[seat] and seat != attacker and defences[seat] is None
            ]
        if phase == ATTACK:
            return [state["attacker"]]
        if phase == DEAL or phase == REFILL:
            return [CHANCE]
        return []

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if type(seat) is not int or seat not in self.to_move(state):
            return []
        hand = state["hands"][seat]
        if state["phase"] == DEFEND:
            return [{"type": "defend", "card": card} for card in hand]
        actions: list[Action] = [{"type": "attack", "card": card} for card in hand]
        if _can_heal(hand):
            actions.append({"type": "heal", "cards": list(hand)})
        return actions

    # -- validation -------------------------------------------------------------------
    def validate(self, state: State, seat: int, action: Action) -> None:
        """Raise IllegalAction (with a stable code) unless ``seat`` may take ``action``."""
        n = state["seats"]
        if type(seat) is not int or not 0 <= seat < n:
            raise IllegalAction(f"Seat must be a whole number from 0 to {n - 1}.", code="bad_seat")
        phase = state["phase"]
        if phase == OVER:
            raise IllegalAction("The duel is over; no more spells can be cast.", code="game_over")
        if phase == DEAL:
            if self.lazy:
                raise IllegalAction("The spell books have not been dealt yet.", code="chance_pending")
            raise IllegalAction("The cards have not been shuffled and dealt yet.", code="chance_pending")
        if phase == REFILL:
            raise IllegalAction("The wizards are still drawing back up to three spells.", code="chance_pending")
        _check_action_shape(action)
        if not state["alive"][seat]:
            raise IllegalAction(f"Seat {seat} has been knocked out of the duel.", code="not_your_turn")

        kind = action["type"]
        attacker = state["attacker"]
        if seat == attacker:
            if kind == "defend":
                raise IllegalAction(
                    f"Seat {seat} is the attacker this round and does not defend.",
                    code="wrong_action_type",
                )
            if phase == DEFEND:
                raise IllegalAction(
                    "The attacker casts only after every defender has laid a defence.",
                    code="waiting_for_defences",
                )
        else:
            if state["defences"][seat] is not None:
                raise IllegalAction(f"Seat {seat} has already laid a defence this round.", code="already_defended")
            if kind != "defend":
                raise IllegalAction(
                    f"Seat {seat} is defending this round; only the attacker may {kind}.",
                    code="wrong_action_type",
                )

        hand = state["hands"][seat]
        if kind == "heal":
            _check_heal(action["cards"], hand)
        else:
            _check_card_in_hand(action["card"], hand)

    # -- transitions --------------------------------------------------------------------
    def apply(self, state: State, event: dict[str, Any]) -> State:
        kind = event_kind(event)
        if state["phase"] == OVER:
            raise IllegalAction("The duel is over; nothing more can happen.", code="game_over")

        if kind == "chance":
            if self.lazy and state["draws"] and _plain_draw(event["outcome"], state["draws"][0][1], len(state["pool"])):
                # Replay's common case, checked directly: building the spec (its label, its own
                # checks) and check_outcome's general test cost more than the draw itself.
                return _draw(state, event["outcome"])
            spec = self.chance(state)
            if spec is None:
                if self.lazy:
                    raise IllegalAction("No card draw is due now.", code="no_chance_due")
                raise IllegalAction("No shuffle is due now.", code="no_chance_due")
            check_outcome(spec, event["outcome"])
            if self.lazy:
                return _draw(state, event["outcome"])
            return self._deal(state, event["outcome"])

        if state["phase"] == DEAL:
            if self.lazy:
                raise IllegalAction("Every wizard draws three spells before anyone casts.", code="chance_pending")
            raise IllegalAction("The deck must be shuffled and dealt before anyone casts.", code="chance_pending")
        seat, action = event["seat"], event["action"]
        self.validate(state, seat, action)
        if action["type"] == "defend":
            return _defend(state, seat, action["card"])
        return _resolve(state, seat, action, lazy=self.lazy)

    def _deal(self, state: State, outcome: list[int]) -> State:
        cards = deck.deck(state["jokers"])
        pile = [cards[i] for i in outcome]
        n = state["seats"]
        # The Deal: three cards each, one at a time, starting with seat 0.
        dealt = HAND_SIZE * n
        hands = [deck.sort_cards(pile[seat:dealt:n]) for seat in range(n)]
        new = dict(state)
        new.update(pile=pile[dealt:], hands=hands, phase=DEFEND, round=1)
        return new

    # -- the end ---------------------------------------------------------------------------
    def result(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != OVER:
            return None
        n = state["seats"]
        health, alive = state["health"], state["alive"]
        # The End: the living rank above the fallen (by health, which only matters at a
        # deck-out); the fallen rank by how long they lasted. Equal keys share a place.
        keys = [(1, health[s]) if alive[s] else _fallen_key(state, s) for s in range(n)]
        placements = [1 + sum(1 for other in keys if other > keys[s]) for s in range(n)]
        return {
            "placements": placements,
            "scores": [points(h) for h in health],
            "winners": [s for s in range(n) if placements[s] == 1],
            "reason": state["end"],
        }

    def result_on_time(self, state: State, seat: int, seats: int) -> dict[str, Any]:
        """Version 3: the wizards still duelling share first, the one out of time is next, and
        everyone gone before (knocked out or left) keeps the place their going gave them."""
        if not self.plays_on:
            return super().result_on_time(state, seat, seats)
        alive = state["alive"]
        keys = [(2,) if s != seat and alive[s] else (1,) if s == seat else _fallen_key(state, s) for s in range(seats)]
        placements = [1 + sum(1 for other in keys if other > keys[s]) for s in range(seats)]
        return {
            "placements": placements,
            "scores": [0] * seats,
            "winners": [s for s in range(seats) if placements[s] == 1],
            "reason": "timeout",
            "timed_out": seat,
        }

    # -- what people see ----------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        n = state["seats"]
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise IllegalAction(f"Seat must be a whole number from 0 to {n - 1}.", code="bad_seat")
        over = state["phase"] == OVER
        hands, defences = state["hands"], state["defences"]
        players = []
        for s in range(n):
            mine = s == seat
            players.append(
                {
                    "seat": s,
                    "health": points(state["health"][s]),
                    "alive": state["alive"][s],
                    "hand_size": len(hands[s]),
                    # Hidden hands are None (not []), so "no cards" and "not shown" differ.
                    "hand": list(hands[s]) if (mine or over) else None,
                    "attacker": s == state["attacker"] and state["phase"] != DEAL,
                    "has_defended": defences[s] is not None,
                    # The Play: defences lie face down until the round resolves.
                    "defence": defences[s] if mine else None,
                }
            )
        view = {
            "game": self.name,
            "phase": state["phase"],
            "round": state["round"],
            "seats": n,
            "jokers": state["jokers"],
            "viewer": seat,
            "attacker": state["attacker"],
            "players": players,
            "hand": list(hands[seat]) if seat is not None else None,
            "my_defence": defences[seat] if seat is not None else None,
            "defended": [s for s in range(n) if defences[s] is not None],
            "pile_size": len(state["pool" if self.lazy else "pile"]),
            "discard_size": len(state["discard"]),
            "last_round": public_round(state["last_round"]),
            "to_move": self.to_move(state),
            "legal_actions": self.legal_actions(state, seat) if seat is not None else [],
            "result": self.result(state),
        }
        if self.lazy:
            draw = state["draws"][0] if state["draws"] else None
            view.update(
                # Every discarded card was played face up (or turned up when its wizard fell).
                discard=list(state["discard"]),
                # Public: who draws how many now, never which cards.
                draw={"seat": draw[0], "count": draw[1]} if draw else None,
                circle_reversed=state["reversed"],
            )
        return view

    def redact_action(self, seat: int, action: Action, viewer: int | None) -> Action:
        # The Play: a defence lies face down; only its owner knows the card while the
        # match is live (the resolved round is revealed through last_round instead).
        if isinstance(action, dict) and action.get("type") == "defend" and viewer != seat:
            return {"type": "defend"}
        return action

    def bot_action(self, bot: str, state: State, seat: int, rng) -> Action:
        if bot == "heuristic":
            from .bots import heuristic_action

            return heuristic_action(self, state, seat, rng)
        return super().bot_action(bot, state, seat, rng)

    def redact_chance(self, spec: dict[str, Any], outcome: Any, viewer: int | None) -> Any:
        """Version 2 hides a draw's outcome from everyone while live, the drawer included.

        The drawer sees the drawn cards in their own view. The outcome itself would tell
        them more: an index counts the pool cards that come before the drawn card in the
        canonical order, and the drawer knows every card that is not in the pool or in
        another wizard's hand, so the indices would count the cards of other hands."""
        if self.lazy and isinstance(spec, dict) and spec.get("kind") == "draw":
            return None
        return super().redact_chance(spec, outcome, viewer)

    def resample_hidden(self, state: State, viewer: int | None, rng) -> State:
        """Every card ``viewer`` cannot see dealt again at random into the same places.

        Hidden from a seat: the other spell books (until the duel is over), the other
        face-down defences and the draw pile (its order too, in version 1). A spectator
        sees no spell book while the duel is live. Everything else is public and kept."""
        n = state["seats"]
        over = state["phase"] == OVER
        pile_key = "pool" if self.lazy else "pile"
        hand_seats = [] if over else [s for s in range(n) if s != viewer]
        defence_seats = [s for s in range(n) if s != viewer and state["defences"][s] is not None]
        cards = [c for s in hand_seats for c in state["hands"][s]]
        cards += [state["defences"][s] for s in defence_seats]
        cards += state[pile_key]
        # Fisher-Yates with the only randomness the contract offers: rng.random().
        for i in range(len(cards) - 1, 0, -1):
            j = min(int(rng.random() * (i + 1)), i)
            cards[i], cards[j] = cards[j], cards[i]
        hands = [list(hand) for hand in state["hands"]]
        defences = list(state["defences"])
        top = 0
        for s in hand_seats:
            size = len(hands[s])
            hands[s] = deck.sort_cards(cards[top : top + size])
            top += size
        for s in defence_seats:
            defences[s] = cards[top]
            top += 1
        pile = cards[top:]
        new = dict(state)
        new.update(hands=hands, defences=defences)
        new[pile_key] = deck.sort_cards(pile) if self.lazy else pile
        return new

    def describe(self, before: State, event: dict[str, Any], after: State) -> str:
        if not isinstance(event, dict):
            return "Unknown event."
        if self.lazy:
            return self._describe_v2(before, event, after)
        if event.get("kind") == "chance":
            return (
                f"The Janken Deck ({self.deck_size(after)} cards) is shuffled and each wizard is "
                f"dealt three spells; seat {after['attacker']} attacks first."
            )
        action = event.get("action") or {}
        seat = event.get("seat")
        if action.get("type") == "defend":
            return f"Seat {seat} chose a defence."
        played = after.get("last_round")
        if not played:
            return f"Seat {seat} casts."
        line = _describe_round(played)
        ending = _describe_end(self.result(after))
        return f"{line} {ending}".strip()

    def _describe_v2(self, before: State, event: dict[str, Any], after: State) -> str:
        if event.get("kind") == "chance":
            # A private draw: who drew how many, never which cards.
            if not before.get("draws"):
                return "Cards are drawn."
            seat, count = before["draws"][0]
            line = f"Seat {seat} draws {_COUNT_WORDS.get(count, f'{count} spells')}."
            if before["phase"] == DEAL and after["phase"] == DEFEND:
                line += f" Every wizard holds three spells; seat {after['attacker']} attacks first."
            return f"{line} {_describe_end(self.result(after))}".strip()
        action = event.get("action") or {}
        seat = event.get("seat")
        if action.get("type") == "defend":
            return f"Seat {seat} chose a defence."
        played = after.get("last_round")
        if not played:
            return f"Seat {seat} casts."
        line = _describe_round(played) + _describe_reversal(played)
        ending = _describe_end(self.result(after))
        return f"{line} {ending}".strip()


# -- validation helpers ---------------------------------------------------------------------


def _check_action_shape(action: Any) -> None:
    if not isinstance(action, dict):
        raise IllegalAction("An action must be a JSON object with a 'type'.", code="bad_action")
    kind = action.get("type")
    if not isinstance(kind, str) or kind not in _ACTION_KEYS:
        raise IllegalAction("An action's 'type' is 'defend', 'attack' or 'heal'.", code="bad_action")
    expected = _ACTION_KEYS[kind]
    if action.keys() != expected:
        keys = " and ".join(f"'{k}'" for k in sorted(expected))
        raise IllegalAction(f"A '{kind}' action has exactly the keys {keys}.", code="bad_action")
    if kind == "heal":
        if not isinstance(action["cards"], list) or not all(isinstance(c, str) for c in action["cards"]):
            raise IllegalAction("'cards' must be a list of card codes such as \"RK\".", code="bad_action")
    elif not isinstance(action["card"], str):
        raise IllegalAction("'card' must be a card code such as \"R9\".", code="bad_action")


def _check_card_in_hand(card: str, hand: list[str]) -> None:
    if card not in INDEX:
        raise IllegalAction(
            f"There is no card {quoted(card, otherwise='of that name')} in the Janken Deck.", code="unknown_card"
        )
    if card not in hand:
        raise IllegalAction(f"The {deck.card_name(card)} is not in this spell book.", code="card_not_in_hand")


def _check_heal(cards: list[str], hand: list[str]) -> None:
    # Healing: it takes the whole spell book, three cards of one suit.
    if len(cards) != HAND_SIZE:
        raise IllegalAction("A healing spell uses exactly three cards.", code="heal_needs_three_cards")
    if len(hand) != HAND_SIZE:
        raise IllegalAction(
            f"A healing spell needs a full spell book of three cards; this one holds {len(hand)}.",
            code="heal_needs_three_cards",
        )
    for card in cards:
        if card not in INDEX:
            raise IllegalAction(
                f"There is no card {quoted(card, otherwise='of that name')} in the Janken Deck.", code="unknown_card"
            )
    if len(set(cards)) != HAND_SIZE:
        raise IllegalAction("A healing spell uses three different cards.", code="duplicate_card")
    for card in cards:
        if card not in hand:
            raise IllegalAction(f"The {deck.card_name(card)} is not in this spell book.", code="card_not_in_hand")
    if not _can_heal(cards):
        raise IllegalAction(
            "A healing spell needs three cards of the same suit (Jokers have no suit).",
            code="not_three_of_a_suit",
        )


def _can_heal(cards: list[str]) -> bool:
    if len(cards) != HAND_SIZE:
        return False
    first = SUIT_OF[cards[0]]
    return first is not None and SUIT_OF[cards[1]] == first and SUIT_OF[cards[2]] == first


# -- transitions ----------------------------------------------------------------------------


def _defend(state: State, seat: int, card: str) -> State:
    # The card leaves the hand now and lies face down until the attack resolves. Every card of
    # the deck is different, so removing it is removing its one copy.
    hands = list(state["hands"])
    hand = hands[seat][:]
    hand.remove(card)
    hands[seat] = hand
    defences = list(state["defences"])
    defences[seat] = card
    new = dict(state)
    new["hands"] = hands
    new["defences"] = defences
    alive, attacker = state["alive"], state["attacker"]
    for s in range(state["seats"]):
        if defences[s] is None and alive[s] and s != attacker:
            return new  # another defender still to choose
    new["phase"] = ATTACK
    return new


def _resolve(state: State, seat: int, action: Action, lazy: bool = False) -> State:
    """The attacker's spell ends the round: damage or healing, knock-outs, refill, rotation.

    ``lazy`` (version 2): the Joker reversal lasts across rounds and the refill is a
    series of private draws; otherwise version 1 exactly as it was recorded."""
    n = state["seats"]
    defences = state["defences"]
    defenders = []
    defence_cards = []
    defence_jokers = 0
    for s in range(n):
        card = defences[s]
        if card is not None:
            defenders.append(s)
            defence_cards.append(card)
            if SUIT_OF[card] is None:
                defence_jokers += 1
    hands = list(state["hands"])
    health = list(state["health"])
    attack = action["type"] == "attack"

    if attack:
        card = action["card"]
        spell = [card]
        hand = hands[seat][:]
        hand.remove(card)  # every card of the deck is different: its one copy
        hands[seat] = hand
        attack_suit, value = SUIT_OF[card], VALUE_OF[card]
        # Joker ruling: a Joker anywhere in the round swaps every suited relation.
        spell_jokers = 1 if attack_suit is None else 0
    else:
        spell = sorted(action["cards"], key=INDEX.__getitem__)
        hands[seat] = []
        heal_suit = SUIT_OF[spell[0]]
        spell_jokers = 0  # a healing spell is three cards of one suit
    if lazy:
        # Version 2 Joker ruling: every Joker played this round (attack or defence) turns
        # the circle over once, and the round is already fought on the turned circle. The
        # Jokers are revealed together, so two of them turn it over and back: they cancel.
        jokers = spell_jokers + defence_jokers
        turned = jokers % 2 == 1
        reversed_now = state["reversed"] != turned
        inverted = reversed_now
    else:
        # Version 1: a Joker anywhere in the round swaps the suits for that round (Jokers cannot
        # heal, so for a heal only a Joker among the defences does).
        inverted = spell_jokers > 0 or defence_jokers > 0

    record_defences = []
    if attack:
        for s in defenders:
            relation = deck.relation(attack_suit, SUIT_OF[defences[s]])
            if inverted:
                relation = INVERTED[relation]
            # The defending card's rank never matters, only its suit.
            multiplier = MULTIPLIER_HALVES[relation]
            damage = value * multiplier
            taken = min(damage, health[s])  # health stops at zero
            health[s] -= taken
            record_defences.append(
                {
                    "seat": s,
                    "card": defences[s],
                    "relation": relation,
                    "multiplier_halves": multiplier,
                    "damage": damage,
                }
            )
        heal = healed = halved = None
    else:
        halved = False
        for s in defenders:
            relation = deck.relation(heal_suit, SUIT_OF[defences[s]])
            if inverted:
                relation = INVERTED[relation]
            halved = halved or relation in _HALVES_HEALING
            record_defences.append(
                {"seat": s, "card": defences[s], "relation": relation, "multiplier_halves": None, "damage": 0}
            )
        total = VALUE_OF[spell[0]] + VALUE_OF[spell[1]] + VALUE_OF[spell[2]]
        # Half-points: the full spell is 2 * total, a halved one exactly total.
        heal = total if halved else 2 * total
        healed = min(MAX_HEALTH, health[seat] + heal) - health[seat]
        health[seat] += healed

    # The End: a wizard at zero is out; the fallen's spell books leave play.
    alive = state["alive"]
    knocked_out_in = state["knocked_out_in"]
    discard = state["discard"] + spell + defence_cards
    knocked_out = []
    for s in defenders:
        if health[s] == 0:
            if not knocked_out:
                alive = list(alive)
                knocked_out_in = list(knocked_out_in)
            alive[s] = False
            knocked_out_in[s] = state["round"]
            knocked_out.append(s)
            discard += hands[s]
            hands[s] = []

    new = dict(state)
    new["hands"] = hands
    new["health"] = health
    new["alive"] = alive
    new["knocked_out_in"] = knocked_out_in
    new["discard"] = discard
    new["defences"] = [None] * n
    last_round = {
        "round": state["round"],
        "attacker": seat,
        "spell": action["type"],
        "cards": spell,
        "inverted": inverted,
        "defences": record_defences,
        "heal": heal,
        "heal_halved": halved,
        "healed": healed,
        "knocked_out": knocked_out,
    }
    new["last_round"] = last_round
    if lazy:
        last_round["jokers"] = jokers
        last_round["turned"] = turned
        new["reversed"] = reversed_now

    if sum(alive) == 1:
        new["phase"] = OVER
        new["end"] = LAST_STANDING
        return new

    attacker = _next_attacker(seat, alive)
    new["attacker"] = attacker
    if lazy:
        # The Play / Healing: back up to three, one card per wizard per pass while the pile
        # lasts. How many each wizard gets follows from the pile's size alone (public); the
        # cards themselves are private draws, one per wizard, in the same order.
        order = _seat_order_from(attacker, alive)
        needs = [HAND_SIZE - len(hands[s]) for s in order]
        size = len(state["pool"])
        counts = needs if sum(needs) <= size else _refill_counts(needs, size)
        draws = [[s, k] for s, k in zip(order, counts) if k]
        new["draws"] = draws
        if draws:
            new["phase"] = REFILL
            return new
        return _after_refill(new)
    hands, pile = _refill(hands, state["pile"], _seat_order_from(attacker, alive))
    new["hands"] = hands
    new["pile"] = pile

    # The End: an empty pile ends the duel as soon as a living wizard has no spell left.
    if not pile and any(alive[s] and not hands[s] for s in range(n)):
        new["phase"] = OVER
        new["end"] = DECK_OUT
        return new
    new["phase"] = DEFEND
    new["round"] = state["round"] + 1
    return new


def _fallen_key(state: State, seat: int) -> tuple:
    """How long a wizard no longer duelling lasted, for its place (later is better): knocked out
    at the end of round r is (0, r, 1, 0); left in round r before its spell (0, r, 0, k), after
    it (0, r, 2, k), where k counts the wizards that left before (version 3, "left")."""
    gone = (state.get("left") or [None] * state["seats"])[seat]
    if gone is not None:
        return (0, *gone)
    return (0, state["knocked_out_in"][seat], 1, 0)


def _plain_draw(outcome: Any, count: int, size: int) -> bool:
    """True when ``outcome`` is what check_outcome accepts for a draw of ``count`` from ``size``
    cards: ``count`` different whole numbers from 0 to size - 1. False sends the event through
    the full check, which refuses it with its own message."""
    if type(outcome) is not list or len(outcome) != count:
        return False
    for v in outcome:
        if type(v) is not int or not 0 <= v < size:
            return False
    return count == 1 or len(set(outcome)) == count


def _draw(state: State, outcome: list[int]) -> State:
    """Version 2: the pending private draw takes the cards at ``outcome`` in the pool."""
    draws = state["draws"]
    seat = draws[0][0]
    pool = state["pool"]
    hands = list(state["hands"])
    # The outcome's indices are distinct (checked): deleting from the highest keeps the rest
    # in canonical order without testing every card of the pool against the outcome.
    rest = list(pool)
    if len(outcome) == 1:
        i = outcome[0]
        hands[seat] = sorted(hands[seat] + [pool[i]], key=INDEX.__getitem__)
        del rest[i]
    else:
        hands[seat] = sorted(hands[seat] + [pool[i] for i in outcome], key=INDEX.__getitem__)
        for i in sorted(outcome, reverse=True):
            del rest[i]
    new = dict(state)
    new["hands"] = hands
    new["pool"] = rest
    new["draws"] = draws[1:]
    if len(draws) > 1:
        return new
    if state["phase"] == DEAL:
        new["phase"] = DEFEND
        new["round"] = 1
        return new
    return _after_refill(new)


def _after_refill(new: State) -> State:
    """Version 2: the refill is complete (or nobody could draw); the duel goes on or ends.
    ``new`` is the caller's fresh state (shared lists are only read), so it is changed here."""
    # The End: an empty pile ends the duel as soon as a living wizard has no spell left.
    if not new["pool"]:
        alive, hands = new["alive"], new["hands"]
        if any(alive[s] and not hands[s] for s in range(new["seats"])):
            new["phase"] = OVER
            new["end"] = DECK_OUT
            return new
    new["phase"] = DEFEND
    new["round"] += 1
    return new


def _refill_counts(needs: list[int], size: int) -> list[int]:
    """How many cards each wizard gets when ``size`` cards are dealt one per wizard per
    pass, in the order of ``needs``, each wizard taking at most what they need."""
    counts = [0] * len(needs)
    left = size
    for lap in range(max(needs, default=0)):
        for i, need in enumerate(needs):
            if need > lap and left:
                counts[i] += 1
                left -= 1
    return counts


def _refill(hands: list[list[str]], pile: list[str], order: list[int]) -> tuple[list[list[str]], list[str]]:
    """Draw back up to three, one card per wizard per pass, in ``order``, while the pile lasts.

    ``hands`` is the caller's fresh outer list and is updated in place; the inner hands
    are replaced, never appended to, because they may be shared with the previous state.
    """
    needs = [HAND_SIZE - len(hands[s]) for s in order]
    drawn: list[list[str]] = [[] for _ in order]
    top, size = 0, len(pile)
    for lap in range(max(needs)):
        for i, need in enumerate(needs):
            if need > lap and top < size:
                drawn[i].append(pile[top])
                top += 1
    if not top:
        return hands, pile
    for i, s in enumerate(order):
        if drawn[i]:
            hands[s] = sorted(hands[s] + drawn[i], key=INDEX.__getitem__)
    return hands, pile[top:]


# -- presentation ---------------------------------------------------------------------------


def public_round(played: dict[str, Any] | None) -> dict[str, Any] | None:
    """The resolved round for a view: half-points become numbers, cards get names."""
    if played is None:
        return None
    defences = []
    for d in played["defences"]:
        mult = d["multiplier_halves"]
        defences.append(
            {
                "seat": d["seat"],
                "card": d["card"],
                "card_name": deck.card_name(d["card"]),
                "relation": d["relation"],
                "multiplier": None if mult is None else points(mult),
                "damage": points(d["damage"]),
            }
        )
    heal = played["spell"] == "heal"
    return {
        "round": played["round"],
        "attacker": played["attacker"],
        "spell": played["spell"],
        "attack": None if heal else played["cards"][0],
        "heal_cards": list(played["cards"]) if heal else None,
        "cards_name": deck.cards_name(played["cards"]),
        "inverted_by_joker": played["inverted"],
        "defences": defences,
        "heal": None if played["heal"] is None else points(played["heal"]),
        "heal_halved": played["heal_halved"],
        "healed": None if played["healed"] is None else points(played["healed"]),
        "knocked_out": list(played["knocked_out"]),
        # Version 2: how many Jokers were played and whether they turned the circle over.
        **({"jokers": played["jokers"], "circle_turned": played["turned"]} if "turned" in played else {}),
    }


def _defence_label(d: dict[str, Any]) -> str:
    card_suit = SUIT_OF[d["card"]]
    if card_suit is None:
        return "Joker"
    if d["relation"] == deck.NONE:
        return deck.SUIT_NAMES[card_suit]
    return f"{deck.SUIT_NAMES[card_suit]}, {d['relation']}"


def _describe_round(played: dict[str, Any]) -> str:
    seat = played["attacker"]
    # A Joker attack has no suit to swap against; say so only when it changed something.
    joker_attack = played["spell"] == "attack" and SUIT_OF[played["cards"][0]] is None
    swap = " (a Joker swaps the suits)" if played["inverted"] and not joker_attack else ""
    if "turned" in played:  # version 2: the circle may stand reversed with no Joker this round
        swap = " (on the reversed circle)" if played["inverted"] and not joker_attack else ""
    if played["spell"] == "attack":
        card = played["cards"][0]
        what = "a Joker" if SUIT_OF[card] is None else f"the {deck.card_name(card)}"
        hits = "; ".join(
            f"seat {d['seat']} ({_defence_label(d)}) takes {points(d['damage'])}" for d in played["defences"]
        )
        line = f"Seat {seat} attacks with {what}{swap}: {hits}."
    else:
        defences = "; ".join(f"seat {d['seat']} ({_defence_label(d)})" for d in played["defences"])
        line = f"Seat {seat} heals with the {deck.cards_name(played['cards'])}{swap}"
        if played["heal_halved"]:
            full = points(2 * played["heal"])
            # Relations are recorded after any Joker swap, so "stronger" is always the culprit.
            line += f" for {full}, halved to {points(played['heal'])} by a stronger defence"
        else:
            line += f" for {points(played['heal'])}"
        line += f" and gains {points(played['healed'])} (defences: {defences})."
    for s in played["knocked_out"]:
        line += f" Seat {s} is knocked out."
    return line


def _describe_reversal(played: dict[str, Any]) -> str:
    """Version 2: what this round's Jokers did to the circle of strength, or nothing."""
    jokers = played["jokers"]
    if not jokers:
        return ""
    count = {2: "Two", 3: "Three"}.get(jokers, str(jokers))
    if not played["turned"]:
        state = "reversed" if played["inverted"] else "as it was"
        return f" {count} Jokers cancel out: the circle of strength stays {state}."
    who = "A Joker" if jokers == 1 else f"{count} Jokers (an odd number)"
    if played["inverted"]:
        return f" {who} reverses the circle of strength from this round on."
    return f" {who} turns the circle of strength back from this round on."


def _describe_end(result: dict[str, Any] | None) -> str:
    if result is None:
        return ""
    winners = result["winners"]
    if result["reason"] == DECK_OUT:
        head = "The draw pile is spent and a wizard has no spell left:"
        score = result["scores"][winners[0]]
        if len(winners) == 1:
            return f"{head} seat {winners[0]} wins with {score} health."
        seats = " and ".join(f"seat {s}" for s in winners)
        return f"{head} {seats} share first place with {score} health."
    return f"Seat {winners[0]} is the last wizard standing and wins."
