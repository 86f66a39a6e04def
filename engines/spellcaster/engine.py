"""SpellCaster: a contest of wills between two to four magic users (rules/spellcaster.txt).

`SC Lnnn` below is a line of the rulebook; `SC-Rn` a ruling recorded in RULES.md.

State (plain JSON):

    n, chart, max_rounds     fixed at setup
    phase                    "allocate" (secret, simultaneous) -> "first" (chance) -> "play" -> "over"
    round, first, turn_no    round counter, the first seat, a counter of turns begun
    alive, retired_at        per seat; retired_at orders retirements (equal values share a place)
    casters[s]               alloc (secret until all allocated), attrs, squares (owned Life chart
                             squares), life (squares left), point, tokens (unused Will tokens),
                             discarded, pool {element: [card ids, sorted]} (face-down, unordered),
                             up {element: [ids]} (returned face up), hand (drawn cards awaiting a
                             choice), display [spell or None per Focus point], removed
    turn                     the seat whose turn it is and what it has done (None between turns)
    upcoming                 the seat whose turn starts next (while the Wild Spells move)
    clock                    counts impacts, so casters struck together retire together
    end                      None, "last_standing" or "round_limit"
    stack                    prompts still owed, last = next (chance draws, contests, path steps,
                             return choices, wild-movement picks)
    contest                  the Contests of Wills being resolved, or None
    wild                     the wild-movement sequence of this round start, or None
    last                     the latest contest or impact, for the pages and the log

A card is ``{"id": "<seat>-<element>-<value>-<letter>", "open": bool}``; ``open`` means its
value is public. A card id names its value, so a closed card's id is never shown to others.
A spell is ``{"motion": [card], "mass": [card], "state": ..., ...}`` on its conjurer's display;
it is named in actions by ``"<conjurer>:<space>"``.

Actions (``{"type": ...}``): allocate {life_force, will, focus, skill}; on a turn conjure {cards: 3|1},
rest, move {to}, continue / withdraw / control / abandon / capture / free_launch {spell}, end_turn;
answering a prompt: draw {from: element or face-up card id}, keep {card, spell, section} / keep_none,
place {spell, section} / return_up, launch {spell} / no_launch, will {place}, contest {with},
step {to}, return {up: [card positions]}, wild_pick {spell} / wild_pass, wild_next {seat}.
Chance: the first seat (public die), each face-down draw (a private lazy draw of one card from the
element's pool, visible to the drawer), each contest round (two public d10s, the caster's first)
and each capture (one public d10).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from ..base import CHANCE, Action, Engine, IllegalAction, InvalidConfig, State, event_kind
from ..chance import check_outcome, draw_spec
from ..treecopy import copy_tree
from . import board as B
from .board import ELEMENTS

SUIT = (1, 1, 1, 1, 1, 1, 3, 3, 3, 5)  # SC L118-119
BASE = {"life_force": 1, "will": 1, "focus": 2, "skill": 5}  # SC L39-41
ATTRS = ("life_force", "will", "focus", "skill")
POINTS_TO_ALLOCATE = 6
MAX_LIFE_POINTS = 2
TOKENS_PER_WILL = 3  # SC L47-48
MAX_CARDS, MAX_SECTION = 5, 3  # SC L112-116
WIN_DISCARD, WIN_RETURN, BROKEN = 4, 2, -5  # SC L150-166
CAPTURE_NEEDS = 6  # SC L234-236
DEFAULT_MAX_ROUNDS = 60  # SC-R25
SECTIONS = ("motion", "mass")
COST_ACTIONS = ("conjure", "continue", "control", "capture", "move", "rest")

#: Every version this class can play; the newest is what new matches use (RULES.md, "Version history").
VERSIONS = ("1", "2")
LATEST = "2"


def card_ids(seat: int, element: str) -> list[str]:
    ids = _CARD_IDS.get((seat, element))
    return list(ids) if ids is not None else _card_ids(seat, element)


def _card_ids(seat: int, element: str) -> list[str]:
    letters = {1: "abcdef", 3: "abc", 5: "a"}
    out = []
    for value in (1, 3, 5):
        out += [f"{seat}-{element}-{value}-{ch}" for ch in letters[value]]
    return sorted(out)


#: Every card id of every seat (at most four) with its element and value, read once: parsing an id
#: (a split and an int) on every look was a good part of a replay's cost (issue 17, P1). Every id
#: a state holds is here, so the hot paths read ``_VALUE_OF[cid]`` directly.
#: Each setup deals every seat its decks from ``_CARD_IDS`` (building and sorting them was most
#: of a setup).
_CARD_IDS: dict[tuple[int, str], tuple[str, ...]] = {}
_ELEMENT_OF: dict[str, str] = {}
_VALUE_OF: dict[str, int] = {}
for _seat in range(4):
    for _element in ELEMENTS:
        _CARD_IDS[_seat, _element] = tuple(_card_ids(_seat, _element))
        for _cid in _CARD_IDS[_seat, _element]:
            _ELEMENT_OF[_cid] = _element
            _VALUE_OF[_cid] = int(_cid.split("-")[2])


def element_of(cid: str) -> str:
    element = _ELEMENT_OF.get(cid)
    return element if element is not None else cid.split("-")[1]


def value_of(cid: str) -> int:
    value = _VALUE_OF.get(cid)
    return value if value is not None else int(cid.split("-")[2])


def card_name(cid: str) -> str:
    return f"{element_of(cid).capitalize()} {value_of(cid)}"


def ref(owner: int, slot: int) -> str:
    return f"{owner}:{slot}"


def unref(r: Any) -> tuple[int, int]:
    if not isinstance(r, str) or r.count(":") != 1:
        raise IllegalAction("A spell is named '<conjurer seat>:<display space>', e.g. '0:1'.", code="bad_spell")
    a, b = r.split(":")
    if not (a.isdigit() and b.isdigit()):
        raise IllegalAction("A spell is named '<conjurer seat>:<display space>', e.g. '0:1'.", code="bad_spell")
    return int(a), int(b)


#: The usual spell names already split (four seats, more display spaces than Focus gives):
#: ``unref`` of one of them, without its checks and split (issue 17, P1). Others go to unref.
_REF_PARTS = {ref(owner, slot): (owner, slot) for owner in range(4) for slot in range(16)}


def allocations() -> list[dict[str, int]]:
    """Every legal allocation of the six points (SC L39-43), in a fixed order."""
    out = []
    for life in range(MAX_LIFE_POINTS + 1):
        for will in range(POINTS_TO_ALLOCATE - life + 1):
            for focus in range(POINTS_TO_ALLOCATE - life - will + 1):
                skill = POINTS_TO_ALLOCATE - life - will - focus
                out.append({"life_force": life, "will": will, "focus": focus, "skill": skill})
    return out


def spell_cards(spell: dict[str, Any]) -> list[dict[str, Any]]:
    return spell["motion"] + spell["mass"]


def spell_total(spell: dict[str, Any] | None) -> int:
    if spell is None:
        return 0
    total = 0
    for c in spell["motion"]:
        total += _VALUE_OF[c["id"]]
    for c in spell["mass"]:
        total += _VALUE_OF[c["id"]]
    return total


def _copy(state: State) -> State:
    # The state is a tree of JSON values (no container appears twice), so copy_tree gives what a
    # JSON round trip gave, several times faster (issue 17, P1).
    return copy_tree(state)


def _clockwise_from(start: int, n: int) -> list[int]:
    return [(start + k) % n for k in range(n)]


class SpellCasterEngine(Engine):
    """``SpellCasterEngine()`` plays the current rules; ``SpellCasterEngine(version="1")`` replays
    matches recorded before a caster who resigns or runs out of time could leave a game the
    others play on (version 2, ``leave``). Both play every other rule alike."""

    name = "spellcaster"
    title = "SpellCaster"
    howto = "howto.md"  # the How to play page (engines/base.py)
    min_seats = 2
    max_seats = 4
    bots = ("heuristic", "random")
    rating = "openskill"
    people_config = {"max_rounds": 0}  # RULES.md: the round bound is for bot games

    def __init__(self, version: str = LATEST):
        if version not in VERSIONS:
            raise ValueError(f"SpellCaster has no engine version {version!r}.")
        self.version = version
        # Version 1 stays registered only so that matches recorded with it replay and verify.
        self.current = version == LATEST
        self.plays_on = version != "1"

    # -- configuration -----------------------------------------------------------------
    def default_config(self, seats: int) -> dict[str, Any]:
        return {"max_rounds": DEFAULT_MAX_ROUNDS, "life_chart": B.life_chart()}

    def validate_config(self, config: dict[str, Any] | None, seats: int) -> dict[str, Any]:
        merged = self._checked_config(config, seats)
        # A new match's chart only: a match recorded before the bound must still set up (setup
        # checks what it checked then), or its replay would be refused.
        try:
            B.check_chart_size(merged["life_chart"])
        except B.DataError as exc:
            raise InvalidConfig(str(exc), code="bad_life_chart") from None
        return merged

    def _checked_config(self, config: dict[str, Any] | None, seats: int) -> dict[str, Any]:
        merged = super().validate_config(config, seats)
        rounds = merged["max_rounds"]
        if type(rounds) is not int or not (rounds == 0 or 5 <= rounds <= 1000):
            raise InvalidConfig(
                "'max_rounds' is 0 (no limit) or a whole number of rounds from 5 to 1000.", code="bad_max_rounds"
            )
        try:
            B.validate_life_chart(merged["life_chart"])
        except B.DataError as exc:
            raise InvalidConfig(str(exc), code="bad_life_chart") from None
        return merged

    # -- setup ---------------------------------------------------------------------------
    def setup(self, config: dict[str, Any], seats: int) -> State:
        config = self._checked_config(config, seats)
        starts = B.starts(seats)  # SC L65-67, SC-R2
        casters = []
        for s in range(seats):
            casters.append(
                {
                    "alloc": None,
                    "attrs": None,
                    "squares": [],
                    "life": 0,
                    "point": starts[s],
                    "tokens": 0,
                    "discarded": 0,
                    # SC L61-63: four element decks of ten, face down.
                    "pool": {e: card_ids(s, e) for e in ELEMENTS},
                    "up": {e: [] for e in ELEMENTS},
                    "hand": [],
                    "display": [],
                    "removed": [],
                }
            )
        return {
            "n": seats,
            "chart": config["life_chart"],
            "max_rounds": config["max_rounds"],
            "phase": "allocate",
            "round": 0,
            "first": None,
            "turn_no": 0,
            "clock": 0,
            "alive": [True] * seats,
            "retired_at": [None] * seats,
            "casters": casters,
            "turn": None,
            "upcoming": None,
            "stack": [],
            "contest": None,
            "wild": None,
            "last": None,
            "end": None,
        }

    # -- who acts --------------------------------------------------------------------------
    def in_game(self, state: State, seat: int) -> bool:
        return state["alive"][seat]

    def leave(self, state: State, seat: int) -> State | None:
        """Version 2 (RULES.md, "Leaving the game"): the caster retires now, as an exhausted one
        does (his spells go wild or break, his prompts and turn end), at a moment of his own, so
        he places below everyone still playing and above everyone retired before. What he owed is
        settled: a secret allocation leaves with him unrevealed; a Contest of Wills goes on
        without him (or ends, when it was his)."""
        if not self.plays_on:
            return None
        n = state["n"]
        if type(seat) is not int or not 0 <= seat < n:
            raise IllegalAction(f"Seat must be a whole number from 0 to {n - 1}.", code="bad_seat")
        if state["phase"] == "over" or not state["alive"][seat]:
            raise IllegalAction(f"Seat {seat} is no longer in the game.", code="not_in_game")
        if state["alive"].count(True) < 3:
            raise IllegalAction("A caster leaves the game only while two others play on.", code="too_few_left")
        st = _copy(state)
        _leave(st, seat)
        return st

    def to_move(self, state: State) -> list[int]:
        phase = state["phase"]
        if phase == "over":
            return []
        if phase == "allocate":
            alive = state["alive"]
            return [s for s in range(state["n"]) if state["casters"][s]["alloc"] is None and alive[s]]
        if phase == "first":
            return [CHANCE]
        if state["stack"]:
            top = state["stack"][-1]
            if top["p"] == "contest":
                return self._contest_movers(state)
            return [CHANCE] if top["p"] == "deal" else [top["seat"]]
        return [state["turn"]["seat"]]

    def _contest_movers(self, state: State) -> list[int]:
        c = state["contest"]
        if c["stage"] in ("roll", "capture_roll"):
            return [CHANCE]
        if c["stage"] == "offer":
            return [c["offers"][0]]
        return [c["caster"]]  # order

    def chance(self, state: State) -> dict[str, Any] | None:
        if state["phase"] == "first":
            # SC L90: the players determine who goes first.
            return {"kind": "dice", "dice": [[0, state["n"] - 1]], "label": "Who goes first"}
        if state["phase"] != "play" or not state["stack"]:
            return None
        top = state["stack"][-1]
        if top["p"] == "deal":
            pool = state["casters"][top["seat"]]["pool"][top["element"]]
            # A private draw from the element's unknown pool: only the drawer sees the card.
            return draw_spec(
                pool=len(pool),
                count=1,
                visible_to=[top["seat"]],
                label=f"Seat {top['seat']} draws a {top['element'].capitalize()} card",
            )
        if top["p"] == "contest":
            c = state["contest"]
            if c["stage"] == "roll":
                return {
                    "kind": "dice",
                    "dice": [[1, 10], [1, 10]],
                    "label": f"Contest of Wills: seat {c['caster']} (first die) against seat {c['current']}",
                }
            if c["stage"] == "capture_roll":
                return {"kind": "dice", "dice": [[1, 10]], "label": f"Seat {c['caster']} tries to capture a Wild Spell"}
        return None

    def draw_pool(self, state: State) -> list[Any]:
        top = state["stack"][-1] if state["phase"] == "play" and state["stack"] else None
        if not top or top["p"] != "deal":
            raise IllegalAction("No card draw is due now.", code="no_draw_due")
        return list(state["casters"][top["seat"]]["pool"][top["element"]])

    # -- legal actions -------------------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if type(seat) is not int or seat not in self.to_move(state):
            return []
        if state["phase"] == "allocate":
            return [dict(a, type="allocate") for a in allocations()]
        if state["stack"]:
            return _prompt_actions(state, state["stack"][-1], seat)
        return _turn_actions(state, seat)

    def validate(self, state: State, seat: int, action: Action) -> None:
        if type(seat) is not int or not 0 <= seat < state["n"]:
            raise IllegalAction(f"Seat must be a whole number from 0 to {state['n'] - 1}.", code="bad_seat")
        phase = state["phase"]
        if phase == "over":
            raise IllegalAction("The contest is over.", code="game_over")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("An action is a JSON object with a 'type'.", code="bad_action")
        if phase == "play":
            # When one seat is to move (the prompt's or the turn's), what to_move would list is
            # checked without the list, and the action goes straight to its type's check.
            stack = state["stack"]
            if not stack:
                if seat != state["turn"]["seat"]:
                    raise IllegalAction("It is not this seat's turn to act.", code="not_your_turn")
                check = _TURN_CHECKS.get(action["type"])
                if check is not None:
                    if check(state, seat, action):
                        return
                    raise _explain(state, seat, action)
                return self._check_listed(state, seat, action)
            top = stack[-1]
            p = top["p"]
            if p != "contest" and p != "deal":
                if seat != top["seat"]:
                    raise IllegalAction("It is not this seat's turn to act.", code="not_your_turn")
                answer_check = _ANSWER_CHECKS.get((p, action["type"]))
                if answer_check is not None:
                    if answer_check(state, top, seat, action):
                        return
                    raise _explain(state, seat, action)
                return self._check_listed(state, seat, action)
        movers = self.to_move(state)
        if movers == [CHANCE]:
            raise IllegalAction("A random outcome is due before anyone acts.", code="chance_pending")
        if seat not in movers:
            raise IllegalAction("It is not this seat's turn to act.", code="not_your_turn")
        self._check_listed(state, seat, action)

    def _check_listed(self, state: State, seat: int, action: Action) -> None:
        if _allowed(state, seat, action):
            return
        raise _explain(state, seat, action)

    # -- transitions -----------------------------------------------------------------------------
    def apply(self, state: State, event: dict[str, Any]) -> State:
        # This class's step itself, not whatever the instance's apply_in_place attribute is now.
        return SpellCasterEngine.apply_in_place(self, state, event, False)

    def apply_in_place(self, state: State, event: dict[str, Any], owned: bool = True) -> State:
        """``owned`` False is ``apply``: the state is copied after the checks, before any write.
        (One method for both, so the in-place fold pays no extra call per event.)"""
        # event_kind's exact envelope, without its call: an action of three keys with "seat" and
        # "action" among them has exactly its keys, and reading them is the test (the fold needs
        # them anyway; a test of each key first was a tenth of a deal's fast path). Anything else
        # (a key missing, a list or a string for an event) goes to event_kind, which refuses it.
        # The try costs nothing until it catches (Python 3.11's exceptions).
        try:
            kind = event["kind"]
            if kind == "action" and len(event) == 3:
                seat = event["seat"]
                action = event["action"]
            elif kind == "chance" and len(event) == 2:
                outcome = event["outcome"]
            else:
                kind = event_kind(event)
        except (TypeError, KeyError):
            kind = event_kind(event)
        if state["phase"] == "over":
            raise IllegalAction("The contest is over; nothing more can happen.", code="game_over")
        # The checks read ``state`` before the first write: with an owned state, ``st`` is ``state``.
        # An owned state's later writes must not reach into the caller's event, hence its copy.
        # Nothing of an event is stored as a container: the handlers keep only its numbers and
        # strings (a return's list is read into a set), so an owned state needs no copy of it.
        if kind == "chance":
            stack = state["stack"]
            # A card dealt from a face-down deck (nearly every chance event): _outcome_fits,
            # _apply_chance and what _settle does next, without their calls.
            if (
                stack
                and (top := stack[-1])["p"] == "deal"
                and state["phase"] == "play"
                and type(outcome) is list
                and len(outcome) == 1
                and type(o := outcome[0]) is int
                and 0 <= o < len(pool := (c := state["casters"][top["seat"]])["pool"][top["element"]])
            ):
                if owned:
                    st = state
                else:  # the copy's own caster and deck
                    st = _copy(state)
                    c = st["casters"][top["seat"]]
                    pool = c["pool"][top["element"]]
                stack = st["stack"]
                stack.pop()
                c["hand"].append({"id": pool.pop(o), "open": False})
                if stack and (top := stack[-1])["p"] == "draw" and st["alive"].count(True) > 1:
                    _card_drawn(st, top)
                    return st
                _settle(st)
                return st
            if not _outcome_fits(state, outcome):
                spec = self.chance(state)
                if spec is None:
                    raise IllegalAction("No random outcome is due now.", code="no_chance_due")
                check_outcome(spec, outcome)
            st = state if owned else _copy(state)
            _apply_chance(st, outcome)
        else:
            # The commonest turn actions, checked and settled here when validate would go
            # straight to their check and _settle has little to do (end the turn, let it go on,
            # leave a draw waiting): the seat whose turn it is, no prompt, no wild movement,
            # more than one caster alive.
            if (
                not state["stack"]
                and type(action) is dict
                and (
                    (atype := action.get("type")) == "end_turn"
                    or atype == "move"
                    or atype == "conjure"
                    or atype == "rest"
                )
                and type(seat) is int
                and state["phase"] == "play"
                and state["wild"] is None
                and seat == state["turn"]["seat"]
                and state["alive"][seat]
                and state["alive"].count(True) > 1
            ):
                if atype == "end_turn":
                    if len(action) == 1:
                        if _quiet(state):
                            # Nothing owed, nothing to lapse, nothing wild (two thirds of the
                            # ends of turns): the handover without the scans that find so.
                            st = state if owned else _copy(state)
                            _turn_ends(st, seat, True)
                            return st
                        if not _owes(state, seat):
                            st = state if owned else _copy(state)
                            _turn_ends(st, seat)
                            return st
                elif atype == "move":
                    if _ok_move(state, seat, action):
                        st = state if owned else _copy(state)
                        _spend_action(st["turn"])
                        if _move(st, seat, action):
                            _settle(st)
                        # else the turn goes on, as _settle would find
                        return st
                elif atype == "conjure":
                    if _ok_conjure(state, seat, action):
                        st = state if owned else _copy(state)
                        _spend_action(st["turn"])
                        _conjure(st, seat, action)
                        if not has_draw_source(st, seat):
                            _settle(st)  # else the draw waits for its seat, as _settle would find
                        return st
                elif _ok_rest(state, seat, action):
                    st = state if owned else _copy(state)
                    _spend_action(st["turn"])
                    _rest(st, seat, action)
                    return st  # the turn goes on, as _settle would find
            elif (
                state["stack"]
                and (top := state["stack"][-1])["p"] == "draw"
                and type(action) is dict
                and action.get("type") == "draw"
                and type(seat) is int
                and seat == top["seat"]
                and state["phase"] == "play"
                and _ok_draw(state, top, seat, action)
            ):
                # A draw answering its prompt: validate's check and the handler, without validate.
                st = state if owned else _copy(state)
                _on_draw(st, seat, action, top := st["stack"][-1])
                if st["alive"].count(True) <= 1:
                    _settle(st)
                elif st["stack"][-1] is top:
                    _card_drawn(st, top)  # a face-up card taken (a deal waits for its chance outcome)
                return st
            elif (
                state["stack"]
                and (top := state["stack"][-1])["p"] == "steps"
                and type(action) is dict
                and action.get("type") == "step"
                and type(seat) is int
                and seat == top["seat"]
                and state["phase"] == "play"
                and len(action) == 2
                and (sp := spell_at(state, top["spell"])) is not None
                and action.get("to") in B.along(sp["point"], _ELEMENT_OF[sp["motion"][top["card"]]["id"]])
            ):
                # A familiar's step answering its prompt: validate's _ok_step and _on_step, and
                # when nothing was struck and the card has steps left, what _settle's _auto finds
                # (the prompt waits), without a second and third spell_at (a step cost twice a
                # draw; issue 17, P1).
                if owned:
                    st = state
                else:  # the copy's own prompt and spell
                    st = _copy(state)
                    top = st["stack"][-1]
                    sp = spell_at(st, top["spell"])
                _on_step(st, seat, action, top, sp)
                stack = st["stack"]
                if stack and stack[-1] is top and top["left"] > 0 and st["alive"].count(True) > 1:
                    # Not struck (a strike pops the prompt), and the card's colour leads on from
                    # ``to``: at least back along the path just taken (every path is walked both
                    # ways, test_fold_shortcuts.py), so _auto's test of it is not asked here.
                    return st
                _settle(st)
                return st
            self.validate(state, seat, action)
            st = state if owned else _copy(state)
            # _apply_action, without its call
            if st["stack"]:
                top = st["stack"][-1]
                _PROMPT_HANDLERS[top["p"]](st, seat, action, top)
            else:
                _apply_action(st, seat, action)
        stack = st["stack"]
        if st["phase"] == "play" and stack and stack[-1]["p"] in _NEVER_AUTO and st["alive"].count(True) > 1:
            return st  # what _settle would find first: a prompt waiting for its seat
        _settle(st)
        return st

    # -- the end ------------------------------------------------------------------------------------
    def result(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != "over":
            return None
        n = state["n"]
        # B2.5 / SC-R24: the last caster standing first; retired casters by retirement order
        # (later is better, together shares); at the round limit the living rank by Life left.
        keys = []
        for s in range(n):
            c = state["casters"][s]
            if state["alive"][s]:
                keys.append((1, c["life"]))
            else:
                keys.append((0, state["retired_at"][s]))
        placements = [1 + sum(1 for k in keys if k > keys[s]) for s in range(n)]
        return {
            "placements": placements,
            "scores": [state["casters"][s]["life"] for s in range(n)],
            "winners": [s for s in range(n) if placements[s] == 1],
            "reason": state["end"],
        }

    def result_on_time(self, state: State, seat: int, seats: int) -> dict[str, Any]:
        """Version 2: the casters still playing share first, the one out of time is next, and
        everyone retired before (exhausted or left) keeps the place his retirement gave him."""
        if not self.plays_on:
            return super().result_on_time(state, seat, seats)
        alive, retired_at = state["alive"], state["retired_at"]
        keys = [(2, 0) if s != seat and alive[s] else (1, 0) if s == seat else (0, retired_at[s]) for s in range(seats)]
        placements = [1 + sum(1 for k in keys if k > keys[s]) for s in range(seats)]
        return {
            "placements": placements,
            "scores": [0] * seats,
            "winners": [s for s in range(seats) if placements[s] == 1],
            "reason": "timeout",
            "timed_out": seat,
        }

    # -- views ---------------------------------------------------------------------------------------
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        n = state["n"]
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise IllegalAction(f"Seat must be a whole number from 0 to {n - 1}.", code="bad_seat")
        from .views import build_view

        return build_view(self, state, seat)

    def redact_action(self, seat: int, action: Action, viewer: int | None) -> Action:
        # SC-R3: the allocation is secret until every caster has allocated.
        if isinstance(action, dict) and action.get("type") == "allocate" and viewer != seat:
            return {"type": "allocate"}
        return action

    def describe(self, before: State, event: dict[str, Any], after: State) -> str:
        from .views import describe

        return describe(before, event, after)

    def resample_hidden(self, state: State, viewer: int | None, rng) -> State:
        from .hidden import resample

        return resample(state, viewer, rng)

    # -- bots ----------------------------------------------------------------------------------------
    def bot_action(self, bot: str, state: State, seat: int, rng) -> Action:
        if bot == "heuristic":
            from .bots import heuristic_action

            return heuristic_action(self, state, seat, rng)
        return super().bot_action(bot, state, seat, rng)


# ======================================================================================================
# Derived numbers
# ======================================================================================================


def ap_now(caster: dict[str, Any]) -> int:
    """Action points: the number on the top remaining square (SC L92-94, SC-R1)."""
    if caster["life"] <= 0:
        return 0
    return caster["squares"][len(caster["squares"]) - caster["life"]]


def free_pairs(state: State, seat: int) -> int:
    c = state["casters"][seat]
    if c["attrs"] is None:
        return 0
    used = 0
    for o, other in enumerate(state["casters"]):
        for sp in other["display"]:
            if sp is None:
                continue
            if sp["familiar"] and sp["familiar"][0] == seat:
                used += 1
            # A spell of his waiting to launch keeps a pair for itself (SC L174-176 needs one at launch).
            if o == seat and sp["state"] in ("launching", "locked", "released"):
                used += 1
    return c["attrs"]["focus"] - used


def _free_pair_number(state: State, seat: int) -> int:
    used = {sp[2]["familiar"][1] for sp in _spells(state) if sp[2]["familiar"] and sp[2]["familiar"][0] == seat}
    return next(k for k in range(1, 100) if k not in used)


def _spells(state: State) -> list[tuple[int, int, dict[str, Any]]]:
    return [(s, i, sp) for s, c in enumerate(state["casters"]) for i, sp in enumerate(c["display"]) if sp is not None]


def spell_at(state: State, r: str) -> dict[str, Any] | None:
    try:
        owner, slot = _REF_PARTS[r]
    except (KeyError, TypeError):  # not a usual name (unref refuses what is not a name at all)
        owner, slot = unref(r)
    if not 0 <= owner < state["n"]:
        return None
    display = state["casters"][owner]["display"]
    return display[slot] if 0 <= slot < len(display) else None


def _new_spell() -> dict[str, Any]:
    return {
        "motion": [],
        "mass": [],
        "state": "building",  # building | locked | released | launched | wild
        "tokens": [],  # seats whose Will tokens lie on it (caster first)
        "lock": None,  # the opponent in a locked Contest of Wills
        "launch_point": None,
        "point": None,  # the familiar's point on the board
        "familiar": None,  # [seat, pair number]
        "controller": None,
        "last_controller": None,
        "released_at": None,
    }


def slot_fits(state: State, seat: int, slot: int, section: str, cid: str) -> bool:
    """Whether a card may go into that section of that display space (SC L112-116, SC-R8)."""
    c = state["casters"][seat]
    if not 0 <= slot < len(c["display"]) or section not in SECTIONS:
        return False
    sp = c["display"][slot]
    if sp is not None and sp["state"] != "building":
        return False
    count = 0 if sp is None else len(spell_cards(sp))
    in_section = 0 if sp is None else len(sp[section])
    if count >= MAX_CARDS or in_section >= MAX_SECTION:
        return False
    total = spell_total(sp) + _VALUE_OF[cid]
    if total > c["attrs"]["skill"]:
        return False
    has_motion = sp is not None and sp["motion"]
    if section == "mass" and not has_motion:
        # SC-R8: a spell without Motion keeps room for a one-point Motion card.
        if total + 1 > c["attrs"]["skill"] or count + 1 >= MAX_CARDS:
            return False
    return True


def legal_slots(state: State, seat: int, cid: str) -> list[tuple[int, str]]:
    c = state["casters"][seat]
    return [(i, sec) for i in range(len(c["display"])) for sec in SECTIONS if slot_fits(state, seat, i, sec, cid)]


def complete(sp: dict[str, Any]) -> bool:
    return sp["state"] == "building" and bool(sp["motion"])  # SC-R9


def launchable(state: State, seat: int) -> list[str]:
    c = state["casters"][seat]
    if c["tokens"] < 1 or free_pairs(state, seat) < 1:
        return []
    return [ref(seat, i) for i, sp in enumerate(c["display"]) if sp is not None and complete(sp)]


def can_launch(state: State, seat: int) -> bool:
    """Whether ``launchable`` lists anything, counting the free pairs only when it might."""
    c = state["casters"][seat]
    if c["tokens"] < 1:
        return False
    for sp in c["display"]:
        if sp is not None and sp["state"] == "building" and sp["motion"]:  # complete(sp)
            return free_pairs(state, seat) >= 1
    return False


def draw_sources(state: State, seat: int) -> list[str]:
    """Face-down decks and face-up cards of the elements active where the caster stands (SC L132-133)."""
    c = state["casters"][seat]
    out = []
    for e in B.active_table()[c["point"]]:
        if c["pool"][e]:
            out.append(e)
        out += c["up"][e]
    return out


def has_draw_source(state: State, seat: int) -> bool:
    """Whether ``draw_sources`` lists anything, without the list."""
    c = state["casters"][seat]
    pool, up = c["pool"], c["up"]
    for e in B.active_table()[c["point"]]:
        if pool[e] or up[e]:
            return True
    return False


def locks_of(state: State, seat: int) -> list[str]:
    return [ref(s, i) for s, i, sp in _spells(state) if sp["state"] == "locked" and (s == seat or sp["lock"] == seat)]


def controlled_launched(state: State, seat: int) -> list[str]:
    return [ref(s, i) for s, i, sp in _spells(state) if sp["state"] == "launched" and sp["controller"] == seat]


def obligations(state: State, seat: int) -> list[str]:
    """What must be done before the turn can end (SC L208-213, L221-224, SC-R14, SC-R17)."""
    t = state["turn"]
    out = [f"settle the Contest of Wills over spell {r}" for r in locks_of(state, seat) if r not in t["handled"]]
    out += [f"control or abandon spell {r}" for r in controlled_launched(state, seat) if r not in t["controlled"]]
    return out


# ======================================================================================================
# Legal actions
# ======================================================================================================


def _cost_ok(t: dict[str, Any], kind: str) -> bool:
    """An action that costs an Action Point: one left, and the first-action rule (SC L99-101)."""
    if t["left"] < 1:
        return False
    if t["ap"] > 1 and not t["first_done"] and kind not in ("conjure", "rest"):
        return False
    return True


def _turn_actions(state: State, seat: int) -> list[Action]:
    out: list[Action] = []
    for family in _TURN_FAMILIES:
        out += family(state, seat)
    return out


def _turn_conjure(state: State, seat: int) -> list[Action]:
    t = state["turn"]
    # SC L101-104: Conjure and Rest once a turn; after Resting no Move or Conjure.
    if not t["conjured"] and not t["rested"] and _cost_ok(t, "conjure"):
        if has_draw_source(state, seat) or can_launch(state, seat):
            return [{"type": "conjure", "cards": 3}, {"type": "conjure", "cards": 1}]
    return []


def _turn_rest(state: State, seat: int) -> list[Action]:
    t = state["turn"]
    if not t["rested"] and not t["conjured"] and not t["moved"] and _cost_ok(t, "rest"):
        return [{"type": "rest"}]
    return []


def _turn_move(state: State, seat: int) -> list[Action]:
    t = state["turn"]
    if not t["rested"] and _cost_ok(t, "move"):
        return [{"type": "move", "to": p} for p in B.adjacent(state["casters"][seat]["point"])]
    return []


def _turn_locks(state: State, seat: int) -> list[Action]:
    t = state["turn"]
    out: list[Action] = []
    for r in locks_of(state, seat):
        if _cost_ok(t, "continue"):
            out.append({"type": "continue", "spell": r})
        out.append({"type": "withdraw", "spell": r})
    return out


def _turn_controlled(state: State, seat: int) -> list[Action]:
    t = state["turn"]
    out: list[Action] = []
    for r in controlled_launched(state, seat):
        if r not in t["controlled"] and _cost_ok(t, "control"):
            out.append({"type": "control", "spell": r})
        out.append({"type": "abandon", "spell": r})
    return out


def _turn_capture(state: State, seat: int) -> list[Action]:
    out: list[Action] = []
    if state["casters"][seat]["tokens"] >= 1 and free_pairs(state, seat) >= 1 and _cost_ok(state["turn"], "capture"):
        for s, i, sp in _spells(state):
            if sp["state"] == "wild" and sp["last_controller"] != seat:
                out.append({"type": "capture", "spell": ref(s, i)})
    return out


def _turn_free_launch(state: State, seat: int) -> list[Action]:
    # The released spell kept its familiar pair (see free_pairs), so no other check is needed.
    return [
        {"type": "free_launch", "spell": ref(seat, i)}
        for i, sp in enumerate(state["casters"][seat]["display"])
        if sp is not None and sp["state"] == "released"
    ]


def _turn_end(state: State, seat: int) -> list[Action]:
    return [] if obligations(state, seat) else [{"type": "end_turn"}]


#: A turn's actions, family by family, in the order legal_actions lists them.
_TURN_FAMILIES = (
    _turn_conjure,
    _turn_rest,
    _turn_move,
    _turn_locks,
    _turn_controlled,
    _turn_capture,
    _turn_free_launch,
    _turn_end,
)

#: The one family an action of each type can belong to: validate lists only that family, not
#: every action of the turn (issue 17, P1).
_TURN_FAMILY_OF = {
    "conjure": _turn_conjure,
    "rest": _turn_rest,
    "move": _turn_move,
    "continue": _turn_locks,
    "withdraw": _turn_locks,
    "control": _turn_controlled,
    "abandon": _turn_controlled,
    "capture": _turn_capture,
    "free_launch": _turn_free_launch,
    "end_turn": _turn_end,
}


def _prompt_actions(state: State, top: dict[str, Any], seat: int) -> list[Action]:
    p = top["p"]
    c = state["casters"][seat]
    if p == "draw":
        return [{"type": "draw", "from": src} for src in draw_sources(state, seat)]
    if p == "keep":
        return _keep_answers(state, seat) or [{"type": "keep_none"}]
    if p == "place":
        slots = legal_slots(state, seat, c["hand"][0]["id"])
        return [{"type": "place", "spell": slot, "section": sec} for slot, sec in slots] + [{"type": "return_up"}]
    if p == "launch":
        return [{"type": "launch", "spell": r} for r in launchable(state, seat)] + [{"type": "no_launch"}]
    if p == "contest":
        con = state["contest"]
        if con["stage"] == "offer":
            return [{"type": "will", "place": True}, {"type": "will", "place": False}]
        return [{"type": "contest", "with": s} for s in con["queue"]]
    if p == "steps":
        sp = spell_at(state, top["spell"])
        element = element_of(sp["motion"][top["card"]]["id"])
        return [{"type": "step", "to": q} for q in B.along(sp["point"], element)]
    if p == "return":
        k = len(top["cards"])
        return [{"type": "return", "up": list(sub)} for r in range(k + 1) for sub in combinations(range(k), r)]
    if p == "wild_pick":
        w = state["wild"]
        if w["current"] is not None:
            picks = [w["current"]]
        else:
            picks = [r for r in w["spells"] if r not in w["done"]]
        return [{"type": "wild_pick", "spell": r} for r in picks] + [{"type": "wild_pass"}]
    if p == "wild_next":
        return [{"type": "wild_next", "seat": s} for s in _wild_candidates(state)]
    return []


def _keep_answers(state: State, seat: int, card: Any = None) -> list[Action]:
    """The keep answers for every card in the hand, or (``card`` given) for the card at that index."""
    hand = state["casters"][seat]["hand"]
    return [
        {"type": "keep", "card": i, "spell": slot, "section": sec}
        for i in range(len(hand))
        if card is None or i == card
        for slot, sec in legal_slots(state, seat, hand[i]["id"])
    ]


# ======================================================================================================
# Checking one action directly
# ======================================================================================================
# validate asks whether an action is in legal_actions' list. Building the list to find one action
# in it was most of a replay's cost (issue 17, P1), so each check below answers that membership
# question for its action type without the list: the same keys, and values equal to the list's
# and of the JSON type the list writes them in (RULES.md, "Answers are typed"). Python's list
# equality would take 1.0 and True for 1 and 0 for False, so every check that compares a number or
# a flag asks its type first (``type(v) is int``, on the path the check already takes: a check of
# every field of every action cost 1.8% of the replay). Strings need no such test: no number
# equals one. tests/engines/spellcaster/test_direct_checks.py holds every check to the list over
# playouts, on the legal actions and on near misses of them, and test_answers_are_typed.py holds
# every listed answer retyped to a refusal.


def _typed(action: Action) -> bool:
    """Is ``action`` typed as the lists write it: its one flag (a Will answer's ``place``) a JSON
    boolean, every number a JSON integer? Asked only of a refused action, for its reason: the
    checks themselves test the type of each number they compare (RULES.md, "Answers are typed")."""
    for k, v in action.items():
        t = type(v)
        if k == "place":
            if t is not bool:
                return False
        elif t is bool or t is float:
            return False
        elif t is list:
            for x in v:
                if type(x) is bool or type(x) is float:
                    return False
    return True


def _allowed(state: State, seat: int, action: Action) -> bool:
    """Whether ``action`` is in ``legal_actions(state, seat)``, for a seat that is to move."""
    kind = action["type"]
    if state["phase"] == "allocate":
        # The list's == takes false for 0 and 2.0 for 2: each point an int first.
        return (
            kind == "allocate"
            and all(type(action.get(a)) is int for a in ATTRS)
            and action in [dict(a, type="allocate") for a in allocations()]
        )
    stack = state["stack"]
    if not stack:
        check = _TURN_CHECKS.get(kind)
        if check is not None:
            return check(state, seat, action)
        # The rare turn actions: only their own family can hold them (an unknown type is in none).
        family = _TURN_FAMILY_OF.get(kind)
        return family is not None and action in family(state, seat)
    top = stack[-1]
    check = _ANSWER_CHECKS.get((top["p"], kind))
    if check is not None:
        return check(state, top, seat, action)
    if (top["p"], kind) in _ANSWER_TYPES:
        return action in _prompt_actions(state, top, seat)
    return False  # no answer to this prompt has that type


def _ok_conjure(state: State, seat: int, action: Action) -> bool:
    return (
        len(action) == 2
        and type(cards := action.get("cards")) is int  # not true for 1 (RULES.md, "Answers are typed")
        and (cards == 3 or cards == 1)
        and bool(_turn_conjure(state, seat))
    )


def _ok_rest(state: State, seat: int, action: Action) -> bool:
    return len(action) == 1 and bool(_turn_rest(state, seat))


def _ok_move(state: State, seat: int, action: Action) -> bool:
    if len(action) != 2 or "to" not in action:
        return False
    t = state["turn"]
    # _cost_ok(t, "move"), without its call
    return (
        not t["rested"]
        and t["left"] >= 1
        and (t["ap"] <= 1 or t["first_done"])
        and action["to"] in B.adjacent(state["casters"][seat]["point"])
    )


def _ok_end_turn(state: State, seat: int, action: Action) -> bool:
    return len(action) == 1 and not _owes(state, seat)


def _quiet(state: State) -> bool:
    """Whether every spell on the displays is still building: none locked or launched (so an end
    of turn owes nothing), none released (nothing lapses) and none wild (nothing moves at the
    round's end). tests/engines/spellcaster/test_fold_shortcuts.py holds the end of turn it lets
    through to the general one."""
    for c in state["casters"]:
        for sp in c["display"]:
            if sp is not None and sp["state"] != "building":
                return False
    return True


def _owes(state: State, seat: int) -> bool:
    """Whether ``obligations(state, seat)`` lists anything."""
    for c in state["casters"]:
        for sp in c["display"]:
            if sp is not None and sp["state"] in ("locked", "launched"):
                break
        else:
            continue
        break
    else:
        return False  # no spell is locked or launched (nearly every end of turn)
    for s, c in enumerate(state["casters"]):
        for i, sp in enumerate(c["display"]):
            if sp is None:
                continue
            kind = sp["state"]
            if kind == "locked":
                if (s == seat or sp["lock"] == seat) and ref(s, i) not in state["turn"]["handled"]:
                    return True
            elif kind == "launched" and sp["controller"] == seat and ref(s, i) not in state["turn"]["controlled"]:
                return True
    return False


_TURN_CHECKS = {"conjure": _ok_conjure, "rest": _ok_rest, "move": _ok_move, "end_turn": _ok_end_turn}


def _ok_draw(state: State, top: dict[str, Any], seat: int, action: Action) -> bool:
    if len(action) != 2 or "from" not in action:
        return False
    src = action["from"]
    c = state["casters"][seat]
    for e in B.active_table()[c["point"]]:
        if src == e:
            return bool(c["pool"][e])
        if src in c["up"][e]:
            return True
    return False


def _ok_keep(state: State, top: dict[str, Any], seat: int, action: Action) -> bool:
    if len(action) != 4 or "card" not in action or "spell" not in action or "section" not in action:
        return False
    hand = state["casters"][seat]["hand"]
    i, slot = action["card"], action["spell"]
    if type(i) is not int or type(slot) is not int or not 0 <= i < len(hand):
        return False
    return slot_fits(state, seat, slot, action["section"], hand[i]["id"])


def _ok_keep_none(state: State, top: dict[str, Any], seat: int, action: Action) -> bool:
    # Offered only when no card of the hand fits anywhere.
    if len(action) != 1:
        return False
    c = state["casters"][seat]
    if not c["hand"]:
        return True
    # Whether a card fits depends on the card through its value alone, and a smaller value fits
    # wherever a larger one does: the hand's smallest card fits somewhere or none does.
    smallest = min(c["hand"], key=lambda card: value_of(card["id"]))["id"]
    return not any(slot_fits(state, seat, i, sec, smallest) for i in range(len(c["display"])) for sec in SECTIONS)


def _ok_place(state: State, top: dict[str, Any], seat: int, action: Action) -> bool:
    if len(action) != 3 or "spell" not in action or "section" not in action:
        return False
    slot = action["spell"]
    c = state["casters"][seat]
    return type(slot) is int and slot_fits(state, seat, slot, action["section"], c["hand"][0]["id"])


def _ok_alone(state: State, top: dict[str, Any], seat: int, action: Action) -> bool:
    # return_up, no_launch: always offered by their prompt, and they carry nothing else.
    return len(action) == 1


def _ok_launch(state: State, top: dict[str, Any], seat: int, action: Action) -> bool:
    if len(action) != 2 or "spell" not in action:
        return False
    r = action["spell"]
    for i, sp in enumerate(state["casters"][seat]["display"]):
        if sp is not None and complete(sp) and ref(seat, i) == r:
            return can_launch(state, seat)
    return False


def _ok_will(state: State, top: dict[str, Any], seat: int, action: Action) -> bool:
    return (
        state["contest"]["stage"] == "offer"
        and len(action) == 2
        and "place" in action
        and type(action["place"]) is bool  # not 1 or 0.0 (RULES.md, "Answers are typed")
    )


def _ok_contest(state: State, top: dict[str, Any], seat: int, action: Action) -> bool:
    con = state["contest"]
    return (
        con["stage"] != "offer"
        and len(action) == 2
        and type(action.get("with")) is int
        and action["with"] in con["queue"]
    )


def _ok_step(state: State, top: dict[str, Any], seat: int, action: Action) -> bool:
    if len(action) != 2 or "to" not in action:
        return False
    sp = spell_at(state, top["spell"])
    return action["to"] in B.along(sp["point"], _ELEMENT_OF[sp["motion"][top["card"]]["id"]])


def _ok_return(state: State, top: dict[str, Any], seat: int, action: Action) -> bool:
    # The list offers every increasing list of card positions, the empty one included.
    if len(action) != 2 or "up" not in action or not isinstance(action["up"], list):
        return False
    k, last = len(top["cards"]), -1
    for v in action["up"]:
        if type(v) is not int or not last < v < k:
            return False
        last = v
    return True


def _ok_wild_next(state: State, top: dict[str, Any], seat: int, action: Action) -> bool:
    return len(action) == 2 and type(action.get("seat")) is int and action["seat"] in _wild_candidates(state)


_ANSWER_CHECKS = {
    ("draw", "draw"): _ok_draw,
    ("keep", "keep"): _ok_keep,
    ("keep", "keep_none"): _ok_keep_none,
    ("place", "place"): _ok_place,
    ("place", "return_up"): _ok_alone,
    ("launch", "launch"): _ok_launch,
    ("launch", "no_launch"): _ok_alone,
    ("contest", "will"): _ok_will,
    ("contest", "contest"): _ok_contest,
    ("steps", "step"): _ok_step,
    ("return", "return"): _ok_return,
    ("wild_next", "wild_next"): _ok_wild_next,
}

#: The answers still checked against their prompt's list (the wild movement's picks, a few per
#: round; a spell is named by a string, which no number equals).
_ANSWER_TYPES = {("wild_pick", "wild_pick"), ("wild_pick", "wild_pass")}


def _outcome_fits(state: State, outcome: Any) -> bool:
    """True when ``outcome`` is certainly what the pending draw or contest roll allows; False
    sends the caller to the spec and ``check_outcome`` (the other chances, and every refusal)."""
    stack = state["stack"]
    if state["phase"] != "play" or not stack or type(outcome) is not list:
        return False
    top = stack[-1]
    if top["p"] == "deal":
        pool = state["casters"][top["seat"]]["pool"][top["element"]]
        return len(outcome) == 1 and type(outcome[0]) is int and 0 <= outcome[0] < len(pool)
    if top["p"] == "contest":
        stage = state["contest"]["stage"]
        if stage == "roll":
            dice = 2
        elif stage == "capture_roll":
            dice = 1
        else:
            return False
        return len(outcome) == dice and all(type(v) is int and 1 <= v <= 10 for v in outcome)
    return False


def _explain(state: State, seat: int, action: Action) -> IllegalAction:
    """The reason an action is refused, with a stable code."""
    if not _typed(action):
        return IllegalAction(
            "An action's numbers are whole numbers (not true, false or 1.0), and 'place' is true or false.",
            code="bad_action",
        )
    kind = action.get("type")
    if state["phase"] == "allocate":
        if kind != "allocate":
            return IllegalAction("First allocate your six attribute points.", code="allocate_first")
        return IllegalAction(
            "Allocate exactly six points as whole numbers to life_force, will, focus and skill, "
            "at most two of them on Life Force.",
            code="bad_allocation",
        )
    if state["stack"]:
        top = state["stack"][-1]
        if top["p"] in ("keep", "place") and kind in ("keep", "place"):
            return IllegalAction(
                "That card does not fit there: a spell holds at most five cards, three Motion and three "
                "Mass, its values may not exceed your Skill, and a spell without Motion keeps room for one.",
                code="card_does_not_fit",
            )
        if top["p"] == "draw" and kind == "draw":
            return IllegalAction(
                "You may only draw from decks of the elements active at your point.", code="element_not_active"
            )
        if top["p"] == "steps" and kind == "step":
            return IllegalAction(
                "The familiar can only cross a path of the current Motion card's colour.", code="no_such_path"
            )
        return IllegalAction("Answer the pending question first.", code="prompt_pending")
    t = state["turn"]
    if kind in COST_ACTIONS:
        if kind == "conjure" and t["conjured"]:
            return IllegalAction("You may Conjure a Spell only once a turn.", code="conjure_once_per_turn")
        if kind == "rest" and t["rested"]:
            return IllegalAction("You may Rest only once a turn.", code="rest_once_per_turn")
        if kind in ("conjure", "move") and t["rested"]:
            return IllegalAction("A caster who Rests may not Move or Conjure that turn.", code="rested")
        if kind == "rest" and (t["conjured"] or t["moved"]):
            return IllegalAction("You may Rest only in a turn without Conjure or Move.", code="cannot_rest")
        if t["left"] < 1:
            return IllegalAction("You have no Action Points left this turn.", code="no_action_points")
        if t["ap"] > 1 and not t["first_done"] and kind not in ("conjure", "rest"):
            return IllegalAction(
                "With more than one Action Point your first action must be Conjure a Spell or Rest.",
                code="first_action_conjure_or_rest",
            )
        if kind == "move":
            return IllegalAction("Move along one path to an adjacent point.", code="not_adjacent")
    if kind == "end_turn":
        return IllegalAction(
            "Before ending the turn: " + "; ".join(obligations(state, seat)) + ".", code="obligations_pending"
        )
    return IllegalAction("That action is not allowed now.", code="illegal_action")


# ======================================================================================================
# Applying actions
# ======================================================================================================


def _apply_action(st: State, seat: int, action: Action) -> None:
    kind = action["type"]
    if kind == "allocate":
        _allocate(st, seat, action)
        return
    if st["stack"]:
        top = st["stack"][-1]
        _PROMPT_HANDLERS[top["p"]](st, seat, action, top)
        return
    if kind in COST_ACTIONS:
        _spend_action(st["turn"])
    _TURN_HANDLERS[kind](st, seat, action)


def _spend_action(t: dict) -> None:
    """One of the turn's actions is used (a move, a conjure, a rest, ...)."""
    t["left"] -= 1
    t["first_done"] = True


def _allocate(st: State, seat: int, action: Action) -> None:
    st["casters"][seat]["alloc"] = {a: action[a] for a in ATTRS}
    _reveal_when_allocated(st)


def _reveal_when_allocated(st: State) -> None:
    alive = st["alive"]
    if any(c["alloc"] is None and alive[s] for s, c in enumerate(st["casters"])):
        return
    # SC L45-49: all sheets are revealed together (a caster who left before has none).
    for c in st["casters"]:
        if c["alloc"] is None:
            continue
        attrs = {a: BASE[a] + c["alloc"][a] for a in ATTRS}
        c["attrs"] = attrs
        c["squares"] = B.owned_squares(st["chart"], attrs["life_force"])
        c["life"] = len(c["squares"])
        c["tokens"] = TOKENS_PER_WILL * attrs["will"]
        c["display"] = [None] * attrs["focus"]
    st["phase"] = "first"


# -- turn actions ---------------------------------------------------------------------------------------


def _conjure(st: State, seat: int, action: Action) -> None:
    st["turn"]["conjured"] = True
    st["stack"].append({"p": "draw", "seat": seat, "mode": action["cards"], "left": action["cards"]})


def _rest(st: State, seat: int, action: Action) -> None:
    # SC L254-257: one square per element at the point, never above the owned rows.
    c = st["casters"][seat]
    st["turn"]["rested"] = True
    before = c["life"]
    c["life"] = min(len(c["squares"]), c["life"] + len(B.active(c["point"])))
    st["last"] = {"kind": "rest", "seat": seat, "healed": c["life"] - before}


def _move(st: State, seat: int, action: Action) -> bool:
    """Whether spells standing at the point struck (apply_in_place's fast path settles only then)."""
    # SC L247-252: one path to an adjacent point; spells standing there strike.
    c = st["casters"][seat]
    st["turn"]["moved"] = True
    c["point"] = action["to"]
    if not _familiar_at(st, action["to"]):
        return False  # most moves: nothing strikes
    _strike(st, seat, action["to"])
    return True


def _strike(st: State, seat: int, point: Any) -> None:
    """The launched and wild spells standing at ``point`` strike the caster who moved there."""
    for s, i, sp in _spells(st):
        if sp["state"] in ("launched", "wild") and sp["point"] == point and st["alive"][seat]:
            _impact(st, ref(s, i))


def _familiar_at(st: State, point: Any) -> bool:
    """Whether a launched or wild spell's familiar stands at ``point``."""
    for c in st["casters"]:
        for sp in c["display"]:
            if sp is not None and sp["point"] == point and sp["state"] in ("launched", "wild"):
                return True
    return False


def _continue(st: State, seat: int, action: Action) -> None:
    r = action["spell"]
    st["turn"]["handled"].append(r)
    owner, _ = unref(r)
    sp = spell_at(st, r)
    st["contest"] = {
        "kind": "continue",
        "spell": r,
        "caster": owner,
        "offers": [],
        "queue": [sp["lock"]],
        "current": sp["lock"],
        "stage": "roll",
    }
    st["stack"].append({"p": "contest"})


def _withdraw(st: State, seat: int, action: Action) -> None:
    # SC L208-219, SC-R29.
    r = action["spell"]
    st["turn"]["handled"].append(r)
    owner, _ = unref(r)
    sp = spell_at(st, r)
    if seat == owner:
        _token_back(st, sp, sp["lock"])
        _token_back(st, sp, owner)
        _break(st, r)
    else:
        _release(st, r)


def _release(st: State, r: str) -> None:
    """The opponent left the lock: the caster may launch next turn, free and uncontested."""
    sp = spell_at(st, r)
    _token_back(st, sp, sp["lock"])
    sp["lock"] = None
    sp["state"] = "released"
    sp["released_at"] = st["turn_no"]


def _control(st: State, seat: int, action: Action) -> None:
    # SC L221-223, SC-R17: one Control action moves the familiar by every Motion card.
    r = action["spell"]
    st["turn"]["controlled"].append(r)
    _start_motion(st, r, seat)


def _abandon(st: State, seat: int, action: Action) -> None:
    # SC L223-227: the token returns to the pile; the spell goes wild and stays until the wild move.
    r = action["spell"]
    sp = spell_at(st, r)
    _token_back(st, sp, seat)
    sp["state"] = "wild"
    sp["controller"] = None
    sp["last_controller"] = seat


def _capture(st: State, seat: int, action: Action) -> None:
    # SC L231-236: the token goes on the launcher's display; 1d10 + unused tokens, 6 or more.
    r = action["spell"]
    sp = spell_at(st, r)
    st["casters"][seat]["tokens"] -= 1
    sp["tokens"].append(seat)
    st["contest"] = {
        "kind": "capture",
        "spell": r,
        "caster": seat,
        "offers": [],
        "queue": [],
        "current": None,
        "stage": "capture_roll",
    }
    st["stack"].append({"p": "contest"})


def _free_launch(st: State, seat: int, action: Action) -> None:
    r = action["spell"]
    _launch(st, r)


def _end_turn(st: State, seat: int, action: Action) -> None:
    st["turn"]["over"] = True


_TURN_HANDLERS = {
    "conjure": _conjure,
    "rest": _rest,
    "move": _move,
    "continue": _continue,
    "withdraw": _withdraw,
    "control": _control,
    "abandon": _abandon,
    "capture": _capture,
    "free_launch": _free_launch,
    "end_turn": _end_turn,
}


# -- prompts ------------------------------------------------------------------------------------------------


def _on_draw(st: State, seat: int, action: Action, top: dict[str, Any]) -> None:
    c = st["casters"][seat]
    src = action["from"]
    top["left"] -= 1
    if src in ELEMENTS:
        st["stack"].append({"p": "deal", "seat": seat, "element": src})
    else:
        e = _ELEMENT_OF[src]
        c["up"][e].remove(src)
        c["hand"].append({"id": src, "open": True})


def _on_keep(st: State, seat: int, action: Action, top: dict[str, Any]) -> None:
    c = st["casters"][seat]
    st["stack"].pop()
    hand, c["hand"] = c["hand"], []
    kept = None
    if action["type"] == "keep":
        kept = hand.pop(action["card"])
        kept["open"] = True  # played face up (SC L123-125)
        _put(c, action["spell"], action["section"], kept)
    for card in hand:  # the others go back face down (SC L124)
        _to_pool(c, card["id"])
    st["last"] = {
        "kind": "keep",
        "seat": seat,
        "kept": kept and kept["id"],
        "returned": [element_of(card["id"]) for card in hand],
    }
    _offer_launch(st, seat)


def _on_place(st: State, seat: int, action: Action, top: dict[str, Any]) -> None:
    c = st["casters"][seat]
    st["stack"].pop()
    card = c["hand"].pop()
    if action["type"] == "place":
        _put(c, action["spell"], action["section"], card)  # face down (SC L127-129)
    else:
        card["open"] = True
        _to_up(c, card["id"])
    _offer_launch(st, seat)


def _put(c: dict[str, Any], slot: int, section: str, card: dict[str, Any]) -> None:
    if c["display"][slot] is None:
        c["display"][slot] = _new_spell()
    c["display"][slot][section].append(card)


def _to_pool(c: dict[str, Any], cid: str) -> None:
    e = _ELEMENT_OF[cid]
    c["pool"][e] = sorted(c["pool"][e] + [cid])


def _to_up(c: dict[str, Any], cid: str) -> None:
    e = _ELEMENT_OF[cid]
    c["up"][e] = sorted(c["up"][e] + [cid])


def _offer_launch(st: State, seat: int) -> None:
    # SC L135-136: a complete spell may be launched as part of the Conjure action.
    if can_launch(st, seat):
        st["stack"].append({"p": "launch", "seat": seat})


def _on_launch(st: State, seat: int, action: Action, top: dict[str, Any]) -> None:
    st["stack"].pop()
    if action["type"] == "no_launch":
        return
    r = action["spell"]
    sp = spell_at(st, r)
    c = st["casters"][seat]
    # SC L137-142: Motion cards face up, the caster's token on the display, offers clockwise.
    for card in sp["motion"]:
        card["open"] = True
    c["tokens"] -= 1
    sp["tokens"] = [seat]
    sp["launch_point"] = c["point"]
    sp["state"] = "launching"
    n = st["n"]
    offers = [s for s in _clockwise_from(seat, n)[1:] if st["alive"][s]]
    st["contest"] = {
        "kind": "launch",
        "spell": r,
        "caster": seat,
        "offers": offers,
        "queue": [],
        "current": None,
        "stage": "offer",
    }
    st["stack"].append({"p": "contest"})


def _on_contest(st: State, seat: int, action: Action, top: dict[str, Any]) -> None:
    con = st["contest"]
    if con["stage"] == "offer":
        s = con["offers"].pop(0)
        if action["place"]:
            st["casters"][s]["tokens"] -= 1
            spell_at(st, con["spell"])["tokens"].append(s)
            con["queue"].append(s)
        if not con["offers"]:
            _contest_next(st)
        return
    # order: the caster picks the next contest (SC L144-145)
    con["current"] = action["with"]
    con["stage"] = "roll"


def _on_step(st: State, seat: int, action: Action, top: dict[str, Any], sp: dict[str, Any] | None = None) -> None:
    """``sp``: the stepping spell, when the caller has it from ``st`` (apply_in_place's shortcut)."""
    r = top["spell"]
    if sp is None:
        sp = spell_at(st, r)
    sp["point"] = to = action["to"]
    top["left"] -= 1
    casters, alive = st["casters"], st["alive"]
    for s in range(st["n"]):
        if alive[s] and casters[s]["point"] == to:
            break
    else:
        return  # nobody stands there
    # SC L193-194, SC-R19: the spell strikes; its remaining motion is lost.
    st["stack"].pop()
    if top.get("wild"):
        _wild_done(st, r)
    _impact(st, r)


def _on_return(st: State, seat: int, action: Action, top: dict[str, Any]) -> None:
    st["stack"].pop()
    c = st["casters"][seat]
    up = set(action["up"])
    for i, card in enumerate(top["cards"]):
        if i in up:
            _to_up(c, card["id"])
        else:
            _to_pool(c, card["id"])
    st["last"] = {
        "kind": "return",
        "seat": seat,
        "up": [top["cards"][i]["id"] for i in sorted(up)],
        "down": [element_of(card["id"]) for i, card in enumerate(top["cards"]) if i not in up],
    }


def _on_wild_pick(st: State, seat: int, action: Action, top: dict[str, Any]) -> None:
    st["stack"].pop()
    w = st["wild"]
    w["stage"] = "next"
    if action["type"] == "wild_pass":
        # SC L262-264: a passing player may not move a Wild Spell again in this sequence.
        w["passed"].append(seat)
        return
    r = action["spell"]
    if w["current"] is None:
        w["current"], w["card"] = r, 0
    card = w["card"]
    w["card"] += 1
    sp = spell_at(st, r)
    if w["card"] >= len(sp["motion"]):
        _wild_done(st, r)
    st["stack"].append(
        {
            "p": "steps",
            "seat": seat,
            "spell": r,
            "card": card,
            "left": value_of(sp["motion"][card]["id"]),
            "last": card,
            "wild": True,
        }
    )


def _on_wild_next(st: State, seat: int, action: Action, top: dict[str, Any]) -> None:
    st["stack"].pop()
    w = st["wild"]
    chosen = action["seat"]
    if chosen in w["selected"]:
        w["selected"] = []  # SC L273-276: everyone was selected once; a new cycle among those who have not passed
    w["selected"].append(chosen)
    w["picker"] = chosen
    w["stage"] = "pick"


_PROMPT_HANDLERS = {
    "draw": _on_draw,
    "keep": _on_keep,
    "place": _on_place,
    "launch": _on_launch,
    "contest": _on_contest,
    "steps": _on_step,
    "return": _on_return,
    "wild_pick": _on_wild_pick,
    "wild_next": _on_wild_next,
}


# ======================================================================================================
# Chance
# ======================================================================================================


def _apply_chance(st: State, outcome: Any) -> None:
    if st["phase"] == "first":
        st["first"] = outcome[0]
        st["phase"] = "play"
        st["round"] = 1
        st["upcoming"] = outcome[0]
        return
    top = st["stack"][-1]
    if top["p"] == "deal":
        st["stack"].pop()
        c = st["casters"][top["seat"]]
        cid = c["pool"][top["element"]].pop(outcome[0])
        c["hand"].append({"id": cid, "open": False})
        return
    con = st["contest"]
    if con["stage"] == "capture_roll":
        _capture_roll(st, outcome[0])
    else:
        _contest_roll(st, outcome[0], outcome[1])


def _capture_roll(st: State, roll: int) -> None:
    con = st["contest"]
    capturer = con["caster"]
    c = st["casters"][capturer]
    total = roll + c["tokens"]
    ok = total >= CAPTURE_NEEDS
    st["last"] = {
        "kind": "capture",
        "seat": capturer,
        "spell": con["spell"],
        "roll": roll,
        "tokens": c["tokens"],
        "total": total,
        "captured": ok,
    }
    if not ok:
        _token_back(st, spell_at(st, con["spell"]), capturer)
        _contest_over(st)
        return
    # SC L240-241: every player but the conjurer may contest, clockwise from the capturer's left.
    owner, _ = unref(con["spell"])
    con["offers"] = [s for s in _clockwise_from(capturer, st["n"])[1:] if st["alive"][s] and s != owner]
    con["stage"] = "offer"


def contest_band(d: int) -> str:
    """SC L150-166: the outcome of a Contest of Wills by the caster's margin ``d``."""
    if d >= WIN_DISCARD:
        return "win_discard"
    if d >= WIN_RETURN:
        return "win_return"
    if d <= BROKEN:
        return "broken"
    return "locked"


def _contest_roll(st: State, caster_roll: int, opp_roll: int) -> None:
    con = st["contest"]
    caster, opp, r = con["caster"], con["current"], con["spell"]
    sp = spell_at(st, r)
    # SC L146-148, SC-R28: add the tokens in the unused pile at the moment of the roll.
    ct, ot = st["casters"][caster]["tokens"], st["casters"][opp]["tokens"]
    d = (caster_roll + ct) - (opp_roll + ot)
    band = contest_band(d)
    st["last"] = {
        "kind": "contest",
        "spell": r,
        "caster": caster,
        "opponent": opp,
        "rolls": [caster_roll, opp_roll],
        "tokens": [ct, ot],
        "totals": [caster_roll + ct, opp_roll + ot],
        "margin": d,
        "band": band,
        "for": con["kind"],
    }
    if con["current"] in con["queue"]:
        con["queue"].remove(opp)
    if band == "win_discard":
        sp["tokens"].remove(opp)
        st["casters"][opp]["discarded"] += 1
    elif band == "win_return":
        _token_back(st, sp, opp)
    if band in ("win_discard", "win_return"):
        con["current"] = None
        if con["kind"] == "continue":
            sp["lock"] = None
            _contest_over(st)
            _launch(st, r)  # SC L219, SC-R15: launched at once
            return
        _contest_next(st)
        return
    # not a win: the other contesters take their tokens back (SC L168-170)
    for s in con["queue"]:
        _token_back(st, sp, s)
    if con["kind"] == "capture":
        # SC L241-242, SC-R21: the spell is wild again; the capturer's token back (lost when broken).
        if band == "broken":
            sp["tokens"].remove(caster)
            st["casters"][caster]["discarded"] += 1
        else:
            _token_back(st, sp, caster)
        _token_back(st, sp, opp)
        _contest_over(st)
        return
    if band == "broken":
        # SC L158-162: the caster's token leaves play, the opponent's comes back, cards go home.
        _token_back(st, sp, opp)
        sp["tokens"].remove(caster)
        st["casters"][caster]["discarded"] += 1
        _contest_over(st)
        _break(st, r)
        return
    # locked (SC L164-166); the round just fought settles the lock for this turn (SC-R14)
    sp["state"] = "locked"
    sp["lock"] = opp
    if st["turn"] and st["turn"]["seat"] in (caster, opp) and r not in st["turn"]["handled"]:
        st["turn"]["handled"].append(r)
    _contest_over(st)


def _contest_next(st: State) -> None:
    con = st["contest"]
    if con["offers"]:
        con["stage"] = "offer"
    elif not con["queue"]:
        r, kind, caster = con["spell"], con["kind"], con["caster"]
        _contest_over(st)
        if kind == "capture":
            _capture_stands(st, r, caster)
        else:
            _launch(st, r)
    elif len(con["queue"]) == 1:
        con["current"] = con["queue"][0]
        con["stage"] = "roll"
    else:
        con["stage"] = "order"


def _contest_over(st: State) -> None:
    st["contest"] = None
    if st["stack"] and st["stack"][-1]["p"] == "contest":
        st["stack"].pop()


def _capture_stands(st: State, r: str, capturer: int) -> None:
    # SC L236-245: the capturer's familiars replace the old set; he moves it now.
    sp = spell_at(st, r)
    sp["familiar"] = None
    sp["familiar"] = [capturer, _free_pair_number(st, capturer)]
    sp["state"] = "launched"
    sp["controller"] = capturer
    sp["last_controller"] = capturer
    if st["turn"] and st["turn"]["seat"] == capturer:
        st["turn"]["controlled"].append(r)
    _start_motion(st, r, capturer)


def _launch(st: State, r: str) -> None:
    # SC L174-178: a familiar on the spell, its twin at the launch point, then it moves.
    owner, _ = unref(r)
    sp = spell_at(st, r)
    for card in sp["motion"]:
        card["open"] = True
    if not sp["tokens"]:
        st["casters"][owner]["tokens"] -= 1  # a free launch after a withdrawal keeps the caster's token
        sp["tokens"] = [owner]
    sp["state"] = "launched"
    sp["lock"] = None
    sp["familiar"] = [owner, _free_pair_number(st, owner)]
    sp["point"] = sp["launch_point"]
    sp["controller"] = owner
    sp["last_controller"] = owner
    if st["turn"] and st["turn"]["seat"] == owner:
        st["turn"]["controlled"].append(r)
    _start_motion(st, r, owner)


def _start_motion(st: State, r: str, controller: int) -> None:
    sp = spell_at(st, r)
    st["stack"].append(
        {
            "p": "steps",
            "seat": controller,
            "spell": r,
            "card": 0,
            "left": value_of(sp["motion"][0]["id"]),
            "last": len(sp["motion"]) - 1,
            "wild": False,
        }
    )


def _token_back(st: State, sp: dict[str, Any], seat: int | None) -> None:
    if seat is not None and seat in sp["tokens"]:
        sp["tokens"].remove(seat)
        if st["alive"][seat]:
            st["casters"][seat]["tokens"] += 1
        else:
            st["casters"][seat]["discarded"] += 1


def _break(st: State, r: str) -> None:
    """The spell leaves the display; its cards go back to the conjurer's decks by his choice."""
    owner, slot = unref(r)
    sp = spell_at(st, r)
    for s in list(sp["tokens"]):
        _token_back(st, sp, s)
    st["casters"][owner]["display"][slot] = None
    cards = spell_cards(sp)
    if st["alive"][owner]:
        st["stack"].append({"p": "return", "seat": owner, "cards": cards})
    else:
        st["casters"][owner]["removed"] += [c["id"] for c in cards]


def _impact(st: State, r: str) -> None:
    """SC L193-206: every caster at the point loses a square per point of each Mass card whose
    element is active there; then the familiar and the cards leave."""
    sp = spell_at(st, r)
    point = sp["point"]
    live = B.active(point)
    for card in sp["mass"]:
        card["open"] = True
    damage = sum(value_of(c["id"]) for c in sp["mass"] if element_of(c["id"]) in live)
    struck = [s for s in range(st["n"]) if st["alive"][s] and st["casters"][s]["point"] == point]
    st["last"] = {
        "kind": "impact",
        "spell": r,
        "point": point,
        "damage": damage,
        "struck": struck,
        "mass": [c["id"] for c in sp["mass"]],
    }
    for s in struck:
        c = st["casters"][s]
        c["life"] = max(0, c["life"] - damage)
    _break(st, r)
    st["clock"] += 1
    for s in struck:
        if st["casters"][s]["life"] == 0:
            _retire(st, s)


def _retire(st: State, seat: int) -> None:
    """SC L279-281, L228-229, SC-R23: exhausted; his spells go wild or break."""
    st["alive"][seat] = False
    st["retired_at"][seat] = st["clock"]
    c = st["casters"][seat]
    c["point"] = None
    for s, i, sp in _spells(st):
        r = ref(s, i)
        if sp["state"] == "launched" and sp["controller"] == seat:
            _token_back(st, sp, seat)
            sp["state"] = "wild"
            sp["controller"] = None
            sp["last_controller"] = seat
        elif sp["state"] == "locked" and sp["lock"] == seat:
            _release(st, r)
        elif s == seat and sp["state"] in ("building", "locked", "released", "launching"):
            for t in list(sp["tokens"]):
                _token_back(st, sp, t)
            c["display"][i] = None
            c["removed"] += [card["id"] for card in spell_cards(sp)]
        elif seat in sp["tokens"]:
            _token_back(st, sp, seat)
    c["removed"] += [card["id"] for card in c["hand"]]
    c["hand"] = []
    keep = []
    for prompt in st["stack"]:
        if prompt.get("seat") == seat:
            if prompt["p"] == "return":
                c["removed"] += [card["id"] for card in prompt["cards"]]
            continue
        keep.append(prompt)
    st["stack"] = keep
    if st["turn"] and st["turn"]["seat"] == seat:
        st["turn"]["over"] = True
    if st["wild"] and st["wild"]["picker"] == seat:
        st["wild"]["picker"] = _next_living(st, seat)
    c["discarded"] += c["tokens"]
    c["tokens"] = 0


def _leave(st: State, seat: int) -> None:
    """Version 2: ``seat`` leaves (``SpellCasterEngine.leave``; RULES.md, "Leaving the game")."""
    # A moment of his own: retired casters rank by retired_at, and one struck before him shares
    # none with him, nor does one struck after.
    st["clock"] += 1
    if st["phase"] == "allocate":
        st["casters"][seat]["alloc"] = None  # never revealed: it leaves with him
    _retire(st, seat)
    con = st["contest"]
    if con is not None:
        sp = spell_at(st, con["spell"])
        if con["caster"] == seat:
            # His contest ends: every contester's token goes home (his own left with him).
            if sp is not None:
                for s in list(con["queue"]):
                    _token_back(st, sp, s)
            _contest_over(st)
        else:
            if seat in con["offers"]:
                con["offers"].remove(seat)
            if seat in con["queue"]:
                con["queue"].remove(seat)
            if con["current"] == seat:
                con["current"] = None
                if con["kind"] == "continue":
                    _contest_over(st)  # the lock was his: _retire released it, as his withdrawal
                else:
                    _contest_next(st)
            elif con["stage"] == "order" and len(con["queue"]) < 2:
                _contest_next(st)
    if st["phase"] == "allocate":
        _reveal_when_allocated(st)
    _settle(st)


# ======================================================================================================
# Settling: automatic steps, turns, rounds and the wild movement
# ======================================================================================================


def _living(st: State) -> list[int]:
    return [s for s in range(st["n"]) if st["alive"][s]]


def _next_living(st: State, seat: int) -> int:
    n = st["n"]
    for k in range(1, n + 1):
        s = (seat + k) % n
        if st["alive"][s]:
            return s
    return seat


def _finish(st: State, reason: str) -> None:
    st["phase"] = "over"
    st["end"] = reason
    for prompt in st["stack"]:
        if prompt["p"] == "return":  # cards on their way home go back face down
            for card in prompt["cards"]:
                _to_pool(st["casters"][prompt["seat"]], card["id"])
    st["stack"] = []
    st["contest"] = None
    st["wild"] = None
    st["turn"] = None
    for c in st["casters"]:
        for card in c["hand"]:
            _to_pool(c, card["id"])
        c["hand"] = []


def _settle(st: State) -> None:
    while True:
        if st["phase"] != "play":
            return
        if st["alive"].count(True) <= 1:  # at most one caster left
            _finish(st, "last_standing")
            return
        if st["stack"]:
            if _auto(st):
                continue
            return
        if st["wild"] is not None:
            _wild_advance(st)
            continue
        t = st["turn"]
        if t is not None:
            if not t["over"] and st["alive"][t["seat"]]:
                return
            if not _close_turn(st):
                return
            continue
        seat = st["upcoming"]
        if not st["alive"][seat]:
            seat = _next_living(st, seat)
        _start_turn(st, seat)
        return


def _card_drawn(st: State, top: dict[str, Any]) -> None:
    """What _settle does once a card of the draw ``top`` (the top prompt) came to its seat's hand,
    more than one caster alive: nothing while the draw goes on; else _auto's end of the draw, its
    keep or place question (the hand holds that card at least). Without _settle's loop and _auto's
    tests: a deal ending a draw is a sixth of the chance events (issue 17, P1).
    tests/engines/spellcaster/test_fold_shortcuts.py holds it to _settle."""
    if top["left"] > 0 and has_draw_source(st, top["seat"]):
        return
    st["stack"][-1] = {"p": "keep" if top["mode"] == 3 else "place", "seat": top["seat"]}


#: Prompts that always wait for a seat (or a chance outcome): _auto has nothing to do for them.
_NEVER_AUTO = frozenset(("deal", "keep", "place", "launch", "return", "wild_pick"))


def _auto(st: State) -> bool:
    """Resolve the top prompt when nobody has a choice; True if something changed."""
    top = st["stack"][-1]
    p = top["p"]
    if p in _NEVER_AUTO:
        return False
    if p == "draw":
        if top["left"] > 0 and has_draw_source(st, top["seat"]):
            return False
        st["stack"].pop()
        # SC-R6: fewer cards than asked -> what there is; none -> straight to the launch step.
        if st["casters"][top["seat"]]["hand"]:
            st["stack"].append({"p": "keep" if top["mode"] == 3 else "place", "seat": top["seat"]})
        else:
            _offer_launch(st, top["seat"])
        return True
    if p == "contest":
        con = st["contest"]
        if con["stage"] == "offer":
            if not con["offers"]:
                _contest_next(st)
                return True
            s = con["offers"][0]
            if not st["alive"][s] or st["casters"][s]["tokens"] < 1:
                con["offers"].pop(0)
                return True
        return False
    if p == "steps":
        sp = spell_at(st, top["spell"])
        if sp is None or sp["state"] not in ("launched", "wild"):
            st["stack"].pop()
            return True
        if top["left"] == 0:
            top["card"] += 1
            if top["card"] > top["last"]:
                st["stack"].pop()
                return True
            top["left"] = _VALUE_OF[sp["motion"][top["card"]]["id"]]
        element = _ELEMENT_OF[sp["motion"][top["card"]]["id"]]
        if not B.along(sp["point"], element):
            # SC L190-191, SC-R18: no path of that colour: the familiar ends its move.
            st["stack"].pop()
            if top.get("wild"):
                _wild_done(st, top["spell"])
            return True
        return False
    if p == "wild_next" and not _wild_candidates(st):
        st["stack"].pop()
        st["wild"] = None  # SC-R22: everyone left has passed
        return True
    return False


def _start_turn(st: State, seat: int) -> None:
    st["turn_no"] += 1
    c = st["casters"][seat]
    # SC-R4: read at the start of the turn (ap_now, without its call)
    ap = c["squares"][len(c["squares"]) - c["life"]] if c["life"] > 0 else 0
    st["turn"] = {
        "seat": seat,
        "ap": ap,
        "left": ap,
        "conjured": False,
        "rested": False,
        "moved": False,
        "first_done": False,
        "handled": [],
        "controlled": [],
        "over": False,
        "no": st["turn_no"],
    }
    st["upcoming"] = None


def _lapse_free_launches(st: State, seat: int, turn_no: int) -> None:
    """SC-R16: a free launch not taken in the caster's next turn lapses (as the turn ends)."""
    for sp in st["casters"][seat]["display"]:
        if sp is not None and sp["state"] == "released" and sp["released_at"] < turn_no:
            _token_back(st, sp, seat)
            sp["state"] = "building"
            sp["released_at"] = None
            sp["launch_point"] = None


def _close_turn(st: State, quiet: bool = False) -> bool:
    """End the turn; the next living seat clockwise is upcoming. False when the game ended.
    ``quiet``: every spell is building (``_quiet``), so none is released to lapse or wild to move."""
    t = st["turn"]
    seat = t["seat"]
    if not quiet:
        _lapse_free_launches(st, seat, t["no"])
    st["turn"] = None
    nxt = _next_living(st, seat)
    first = st["first"]
    n = st["n"]
    if (nxt - first) % n <= (seat - first) % n:
        st["round"] += 1
        if st["max_rounds"] and st["round"] > st["max_rounds"]:
            _finish(st, "round_limit")
            return False
        # SC L259-262: the wild spells move before the first player's turn.
        if not quiet:
            _close_wild(st, nxt)
    st["upcoming"] = nxt
    return True


def _turn_ends(st: State, seat: int, quiet: bool = False) -> None:
    """An end_turn's _settle, for a turn of a living seat with no prompt and no wild movement,
    more than one caster alive: _close_turn, then _start_turn of the next living seat unless the
    round's end set wild spells moving (then _settle goes on from there, as it would have).
    (The ended turn's "over" is not written: _close_turn drops the turn.)"""
    if not _close_turn(st, quiet):
        return
    if st["wild"] is None:
        _start_turn(st, st["upcoming"])  # the next living seat: _settle would not look further
    else:
        _settle(st)


def _close_wild(st: State, nxt: int) -> None:
    """At the end of a round, the wild spells' movement, first picked by ``nxt``, if any is wild."""
    wild = [
        ref(s, i)
        for s, c in enumerate(st["casters"])
        for i, sp in enumerate(c["display"])
        if sp is not None and sp["state"] == "wild"
    ]
    if not wild:
        return
    st["wild"] = {
        "spells": wild,
        "done": [],
        "current": None,
        "card": 0,
        "selected": [nxt],
        "passed": [],
        "picker": nxt,
        "stage": "pick",
    }


def _wild_candidates(st: State) -> list[int]:
    w = st["wild"]
    living = _living(st)
    fresh = [s for s in living if s not in w["selected"] and s not in w["passed"]]
    if fresh:
        return fresh
    return [s for s in living if s not in w["passed"]]


def _wild_done(st: State, r: str) -> None:
    w = st["wild"]
    if w is None:
        return
    if r not in w["done"]:
        w["done"].append(r)
    if w["current"] == r:
        w["current"] = None
        w["card"] = 0


def _wild_advance(st: State) -> None:
    w = st["wild"]
    for r in w["spells"]:
        sp = spell_at(st, r)
        if (sp is None or sp["state"] != "wild") and r not in w["done"]:
            _wild_done(st, r)
    if all(r in w["done"] for r in w["spells"]):
        st["wild"] = None
        return
    if not st["alive"][w["picker"]]:
        w["picker"] = _next_living(st, w["picker"])
    if w["stage"] == "pick":
        if w["picker"] in w["passed"]:
            w["stage"] = "next"
            return
        st["stack"].append({"p": "wild_pick", "seat": w["picker"]})
    else:
        if not _wild_candidates(st):
            st["wild"] = None
            return
        st["stack"].append({"p": "wild_next", "seat": w["picker"]})
