"""Epic Spell Wars: Annihilageddon, the deck-building battle for 2-5 wizards.

State (plain JSON; every list in a deterministic order)::

    seats, config {max_rounds}, phase "setup" | "turn" | "over", round, first, active
    players[i]   hp, top (known top of the deck, in order: cards revealed and put back, or, while
                 a private draw is due, a deck that ran short on its way to the hand, which only
                 its owner sees: drawing_privately), pool (the rest of the deck, unordered, sorted
                 by id), hand (sorted), discard (last = top), ongoing, dwts, tile, familiar,
                 familiar_bought, trophy, standee, tile_dealt, familiar_dealt
    box          {"tile": [...], "familiar": [...]}: undealt (then returned) tiles and Familiars
    revealed     {"tile": bool, "familiar": bool}
    main         the main deck, unordered (sorted by id); lineup [id | None] x 5
    wild_magic, limp_wands   stack counts
    legend       {"up": id | None, "down": face-down count, "unseen": Legends not yet seen}
    dwt          {"count": tokens in the stack, "unseen": tokens never seen, "returned": known tokens
                 put back into the stack}
    destroyed, mayhem_pile, mayhem_now, defending ([seat, card]: Defenses used, shown, on their
                 way to the discard once the Attack is over for that player)
    turn         power, played (cards in the play area), played_log (played this turn, incl. via
                 Wild Magic), legend_taken, activated, ending
    stack, prompt, need   the interpreter (interp.py): frames, a pending decision, a pending draw
    window       version 2 on: "together", every defense window is one simultaneous, secret choice
    held_notes   version 2 on: what the last defense window showed and did, told in the next log line
    last_defense version 2 on: the choices the last defense window showed (public)
    hand_questions  version 3 on: "always", a question about a card of a hand is asked whatever
                 the hand holds, so that whether it is asked tells nobody what it holds
    gone         version 4, once a seat has left (``leave``): the seats that left, in the order
                 they left; absent until then
    deaths, scope, temp, notes, end_flags, end_reason

Decks are lazy: no order exists until a card leaves the pool (a private draw for the owner,
a public one for reveals); shuffling a discard pile just moves it into the pool.
See RULES.md beside this file for every ruling.
"""

from __future__ import annotations

import json
from typing import Any

from ..base import CHANCE, Action, Engine, IllegalAction, InvalidConfig, State, event_kind
from ..chance import check_outcome, draw_spec
from ..treecopy import copy_tree
from . import bots
from . import fast as _fast
from . import turn as turn_machine
from .cards import CARDS, ONGOING, WILD_MAGIC, matches, of_kind, physical
from .fast import POWER_ONLY
from .fast import draw_fits as _draw_fits
from .interp import (
    PLAY_TRIGGERS,
    SEAT_KEYS,
    SINGLE,
    START_HP,
    controls_any,
    defense_options,
    frame,
    new_scope,
    next_in_game,
    num,
    owned,
    run,
    static,
    zone_list,
)
from .turn import _END_DRAW_AT, END_OF_TURN, START_OF_TURN, resume

FAMILIAR_COST = 6
WILD_MAGIC_COST = 3
DEFAULT_MAX_ROUNDS = 60

#: The end of the turn of an active player who left (version 4; RULES.md, "A seat that leaves"):
#: the table's part of END_OF_TURN only, once whatever was still resolving is done.
LEAVER_TURN_END = [{"op": "_legend_flip"}, {"op": "_end_check"}]

SETUP_PROG = [
    {"op": "_deal", "cat": "tile"},
    {"op": "_choose", "cat": "tile"},
    {"op": "_deal", "cat": "familiar"},
    {"op": "_choose", "cat": "familiar"},
    {"op": "_refill", "setup": True},
    {"op": "_first_player"},
    {"op": "_opening_hands"},
]


def copy_state(st: State) -> State:
    """A copy of ``st`` that no apply of the copy can change ``st`` through: every container an
    apply writes into is copied, the rest is shared (issue 17, P1: copying the whole state was
    most of the copying apply's cost, several times the apply itself).

    The audit behind it, part by part, of every write in engine.py, interp.py and turn.py (an
    apply runs any op of the card programs and the turn machine):

    - written in place, so copied: the decks, zones and Line-Up (``main``, ``lineup``, a player's
      ``top``, ``pool``, ``hand`` and ``discard``); the dicts ``box``, ``legend``, ``dwt``,
      ``turn`` and each player (keys assigned) with their lists;
      ``deaths`` and ``defending`` (appended to and removed from; the pairs in them are never
      written, so they are shared); ``temp`` (``grant`` writes into a seat's dict: two levels);
      the ``stack`` list, each frame (``pc``, ``work`` assigned), its ``env`` (``attacking`` set
      and popped; its values are numbers, strings, booleans, None and the ``participants`` list,
      which is only read) and its ``work`` (written at any depth: copied whole by copy_tree).
    - only ever replaced, never written into, so shared: ``config`` (set up once), ``need`` (a
      new dict per draw, None once drawn), ``last_defense``, a frame's ``prog`` (the card table's
      programs and the turn machine's op lists), a player's ``ongoing``, ``dwts``, ``tile_dealt``
      and ``familiar_dealt`` (they change seldom, through interp.without or a new list), the
      seldom changed ``destroyed``, ``mayhem_pile``, ``end_flags`` and ``revealed`` (replaced
      by a new list or dict where they change).
    - ``notes`` and ``held_notes``: copied, as apply_in_place keeps an empty one rather than
      replacing it at every event (issue 17, P1: two lists made and freed per event of the fold),
      and may then append to it.
    - ``prompt``: replaced by every question, and set to None by the answer, except for a
      simultaneous choice, whose ``answers`` each defend writes into: that one dict is copied.

    A new write into a shared part must copy it first or move it to the copied ones:
    tests/engines/annihilageddon/test_copy_state.py applies, along playouts, each legal action
    and the rest of the playout to copies and checks that the state copied from stays as it was.
    Every value kept is equal to the state's, key order included."""
    out = dict(st)
    out["main"] = st["main"][:]
    out["lineup"] = st["lineup"][:]
    box, legend, dwt, turn = st["box"], st["legend"], st["dwt"], st["turn"]
    out["box"] = {**box, "tile": box["tile"][:], "familiar": box["familiar"][:]}
    out["legend"] = {**legend, "unseen": legend["unseen"][:]}
    out["dwt"] = {**dwt, "unseen": dwt["unseen"][:], "returned": dwt["returned"][:]}
    out["turn"] = {
        **turn,
        "played": turn["played"][:],
        "played_log": turn["played_log"][:],
        "bought": turn["bought"][:],
        "borrowed": turn["borrowed"][:],
    }
    out["players"] = [
        {
            **p,
            "top": p["top"][:],
            "pool": p["pool"][:],
            "hand": p["hand"][:],
            "discard": p["discard"][:],
        }
        for p in st["players"]
    ]
    out["notes"] = st["notes"][:]
    if "held_notes" in st:
        out["held_notes"] = st["held_notes"][:]
    out["deaths"] = st["deaths"][:]
    out["defending"] = st["defending"][:]
    temp = st["temp"]
    if temp:
        out["temp"] = {seat: dict(statics) for seat, statics in temp.items()}
    else:
        out["temp"] = {}
    # A frame's work is usually empty (an op that finishes leaves none): copy_tree only for the rest.
    out["stack"] = [
        {**f, "env": dict(f["env"]), "work": copy_tree(f["work"]) if f["work"] else {}} for f in st["stack"]
    ]
    pr = st["prompt"]
    if pr is not None and "answers" in pr:
        out["prompt"] = {**pr, "answers": dict(pr["answers"])}
    return out


#: Cards (not Ongoing, not in POWER_ONLY) whose play is only Power and heals of "you" by fixed
#: numbers (Heal-o-Matic, Burpy, Hexbat, Sister Mercy), with their programs.
PLAIN_PLAYS: dict[str, list] = {
    cid: prog
    for cid in CARDS
    if cid not in ONGOING
    and cid not in POWER_ONLY
    and (prog := CARDS[cid].get("play"))
    and all(turn_machine._plain(op) for op in prog)
}


def _leading_power(prog: list) -> tuple[int, int]:
    """How many of ``prog``'s first ops are plain Power ops (a fixed number), and their Power."""
    k = 0
    while k < len(prog) and prog[k].keys() == {"op", "n"} and prog[k]["op"] == "power" and type(prog[k]["n"]) is int:
        k += 1
    return k, sum(op["n"] for op in prog[:k])


#: For the other cards whose play begins with plain Power ops (the Wand, most Attacks: about
#: two plays in three of the rest), how many and their Power: done at the play, the program's
#: frame pushed past them.
LEAD_POWER: dict[str, tuple[int, int]] = {
    cid: lead
    for cid in CARDS
    if cid not in POWER_ONLY and cid not in PLAIN_PLAYS and (lead := _leading_power(CARDS[cid].get("play", [])))[0]
}


def _choice_first(cid: str) -> tuple[str, ...] | None:
    """The labels of the "choose one" a play of ``cid`` asks first (after its leading Power), else None."""
    prog = CARDS[cid].get("play") or []
    k = LEAD_POWER.get(cid, (0, 0))[0]
    if cid in POWER_ONLY or cid in PLAIN_PLAYS or k >= len(prog) or prog[k]["op"] != "choose_one":
        return None
    return tuple(o["label"] for o in prog[k]["options"])


#: Cards whose play asks "choose one" before anything else (Wild Magic: a play in eight), with the
#: options' labels: the question is posed at the play, as op_choose_one poses it.
CHOICE_FIRST: dict[str, tuple[str, ...]] = {cid: labels for cid in CARDS if (labels := _choice_first(cid)) is not None}


def _target_first(cid: str) -> str | None:
    """``who`` of the Attack a play of ``cid`` makes first (after its leading Power) when its player
    picks the target among the foes or all players, else None."""
    prog = CARDS[cid].get("play") or []
    k = LEAD_POWER.get(cid, (0, 0))[0]
    if cid in POWER_ONLY or cid in PLAIN_PLAYS or k >= len(prog) or prog[k]["op"] != "attack":
        return None
    return prog[k]["who"] if prog[k]["who"] in ("target_foe", "target_player") else None


#: Cards whose play first makes an Attack on a target its player picks (the Wand, Snot Rocket, ...),
#: with the Attack's ``who``: the question is posed at the play, as op_attack's targets poses it.
TARGET_FIRST: dict[str, str] = {cid: who for cid in CARDS if (who := _target_first(cid)) is not None}

#: The seats such an Attack's question offers, by ``who``, the number of seats (up to max_seats)
#: and the player's: interp._table_targets' clockwise order from the player, the player left out
#: for a foe. Worked out once (issue 17, P1: two ranges and their unpacking per Attack played).
_FIRST_TARGETS: dict[str, tuple[tuple[tuple[int, ...], ...], ...]] = {
    who: tuple(
        tuple(tuple(range(seat, n))[who == "target_foe" :] + tuple(range(seat)) for seat in range(n)) for n in range(6)
    )
    for who in ("target_foe", "target_player")
}


def legends_in_game(seats: int) -> int:
    """AN L112-121: 8/7/6/5 face-down Legends under the first one for 2/3/4/5 players."""
    return 10 - seats


def starting_deck() -> list[str]:
    # AN L94: 6 Glyph, 1 Wand, 3 Fizzle
    return sorted(["glyph"] * 6 + ["wand"] + ["fizzle"] * 3)


def new_player() -> dict:
    return {
        "hp": START_HP,
        "top": [],
        "pool": starting_deck(),
        "hand": [],
        "discard": [],
        "ongoing": [],
        "dwts": [],
        "tile": None,
        "familiar": None,
        "familiar_bought": False,
        "trophy": False,
        "standee": None,
        "tile_dealt": [],
        "familiar_dealt": [],
    }


def first_legend() -> str:
    return next(c for c in of_kind("legend") if CARDS[c].get("letter") == "first")


#: Every version this class can play; the newest is what new matches use.
VERSIONS = ("1", "2", "3", "4", "5")
LATEST = VERSIONS[-1]


class Annihilageddon(Engine):
    """``Annihilageddon()`` plays the current rules; ``Annihilageddon(version="1")`` and
    ``Annihilageddon(version="2")`` replay matches recorded before the next version exactly as
    they were played. Version 2 makes every defense window one simultaneous, secret choice (a
    ``defend`` action); version 1 asked the affected players one at a time (a ``choose`` action,
    shown at once). Version 3 keeps a setup tile or Familiar with a secret ``keep`` action and
    asks every question about a hand's cards whatever the hand holds. Version 4 plays the same
    events the same way and plays on when a seat leaves (``leave``: RULING "Leaving"); versions 1
    to 3 end the match then. Version 5 plays as version 4 but for a killer that leaves with its
    fatality's second token still to draw: that draw is withdrawn. RULES.md, "Versions" and "A seat
    that leaves"."""

    name = "annihilageddon"
    title = "Epic Spell Wars: Annihilageddon"
    howto = "howto.md"  # the How to play page (engines/base.py)
    min_seats = 2
    max_seats = 5
    bots = ("heuristic", "random")
    rating = "openskill"
    people_config = {"max_rounds": None}  # RULES.md: the round bound is for bot games
    playable = True

    def __init__(self, version: str = LATEST):
        if version not in VERSIONS:
            raise ValueError(f"Annihilageddon has no engine version {version!r}.")
        self.version = version
        self.current = version == LATEST
        self.together = version != "1"
        # Version 3 (RULES.md, "Versions"): a setup keep is a ``keep`` action, redacted for the
        # other viewers; a discard or a destroy from a hand asks whatever the hand holds.
        self.secret_keeps = self.hand_questions = version not in ("1", "2")
        # Version 4 (RULES.md, "A seat that leaves"): a seat that resigns or runs out of time
        # leaves, and the others play on.
        self.plays_on = version not in ("1", "2", "3")
        # Version 5 (RULES.md, "A seat that leaves"): a killer that leaves with the second token of
        # its fatality still to be drawn withdraws that draw. Version 4 still asks it (a table's
        # match could have recorded its outcome after the leave), and the draw changes nothing.
        self.withdraws_second_token = version not in ("1", "2", "3", "4")

    @staticmethod
    def owned_copy(state: State) -> State:
        """engines.base.Engine.owned_copy: for a state, copy_state's copy, which shares only what
        no apply writes into (its audit, which test_copy_state holds along playouts), so folding
        it in place, or a second owned copy beside it (audit.matchverify), leaves the other as it
        was; anything else (a chance spec) copy_tree's. A replay owns its setup so (issue 17, P1:
        copy_tree's marshal round trip of a setup was about 300,000 instructions a stream).
        test_owned_copy.py."""
        if type(state) is dict and "stack" in state and "players" in state:
            return copy_state(state)
        return copy_tree(state)

    # -- configuration ------------------------------------------------------------------
    def default_config(self, seats: int) -> dict[str, Any]:
        return {"max_rounds": DEFAULT_MAX_ROUNDS}

    def validate_config(self, config: dict[str, Any] | None, seats: int) -> dict[str, Any]:
        merged = super().validate_config(config, seats)
        bound = merged["max_rounds"]
        if bound is not None and (type(bound) is not int or bound < 1):
            raise InvalidConfig(
                "'max_rounds' is a whole number of rounds (1 or more) or null.", code="bad_option_value"
            )
        return merged

    # -- setup ------------------------------------------------------------------------------
    def setup(self, config: dict[str, Any], seats: int) -> State:
        config = self.validate_config(config, seats)
        first = first_legend()
        others = sorted(c for c in of_kind("legend") if c != first)
        st: State = {
            "seats": seats,
            "config": config,
            "phase": "setup",
            "round": 1,
            "first": None,
            "active": None,
            "players": [new_player() for _ in range(seats)],
            "box": {"tile": physical("tile"), "familiar": physical("familiar")},
            "revealed": {"tile": False, "familiar": False},
            "main": sorted(physical("main") + physical("mayhem")),
            "lineup": [None] * 5,
            "wild_magic": CARDS["wild-magic"]["copies"],
            "limp_wands": CARDS["limp-wand"]["copies"],
            "legend": {"up": first, "down": legends_in_game(seats), "unseen": others},
            # AN L131: 4 tokens per player, face down; the rest leave unseen. Drawing lazily from
            # all 20 is the same as drawing from 4N picked at random.
            "dwt": {"count": 4 * seats, "unseen": physical("dwt"), "returned": []},
            "destroyed": [],
            "mayhem_pile": [],
            "mayhem_now": None,
            "defending": [],
            "turn": turn_machine.fresh_turn(),
            "stack": [frame(SETUP_PROG, {"you": 0})],
            "prompt": None,
            "need": None,
            "deaths": [],
            "scope": 0,
            "temp": {},
            "notes": [],
            "end_flags": [],
            "end_reason": None,
        }
        if self.together:
            st.update(window="together", held_notes=[], last_defense=None)
        if self.hand_questions:
            st["hand_questions"] = "always"
        run(st)
        return st

    # -- queries ------------------------------------------------------------------------------
    def chance(self, state: State) -> dict[str, Any] | None:
        need = state["need"]
        if need is None:
            return None
        if "dice" in need:
            return {"kind": "dice", "dice": need["dice"], "label": need["label"]}
        pool = zone_list(state, need["zone"])
        return draw_spec(pool=len(pool), count=need["count"], visible_to=need["visible"], label=need["label"])

    def draw_pool(self, state: State) -> list[Any]:
        need = state["need"]
        if need is None or "dice" in need:
            raise IllegalAction("No card draw is due.", code="no_draw_due")
        return list(zone_list(state, need["zone"]))

    def to_move(self, state: State) -> list[int]:
        if state["phase"] == "over":
            return []
        if state["need"] is not None:
            return [CHANCE]
        pr = state["prompt"]
        if pr is not None:
            if "seats" in pr:  # a simultaneous choice: whoever has not answered yet
                return [s for s in pr["seats"] if str(s) not in pr["answers"]]
            return [pr["seat"]]
        if state["phase"] == "turn" and not state["stack"]:
            return [state["active"]]
        return []  # pragma: no cover - run() never stops elsewhere

    def prompt_options(self, state: State, seat: int | None = None) -> list[Any]:
        """The answers ``seat`` may give to the open prompt (by default its only seat)."""
        pr = state["prompt"]
        kind = pr["kind"]
        seat = pr["seat"] if seat is None else seat
        p = state["players"][seat]
        if kind in ("target", "slot", "option", "token", "yesno", "trigger"):
            return list(pr["options"])
        if kind == "defend":
            can = pr["can_defend"][str(seat)] if "seats" in pr else pr["can_defend"]
            return defense_options(state, seat, can)
        if kind == "decline":
            return ["participate", "decline"]
        if kind == "setup":
            return sorted(set(p[f"{pr['cat']}_dealt"]))
        if kind == "card":
            owner = state["players"][pr["of"]]
            zone = pr["zone"]
            if zone == "hand_or_discard":
                opts = [
                    f"{z}:{c}"
                    for z in ("hand", "discard")
                    for c in sorted(set(owner[z]))
                    if matches(c, pr.get("filter"))
                ]
            else:
                opts = [c for c in sorted(set(owner[zone])) if matches(c, pr.get("filter"))]
            if pr.get("tokens"):
                opts += [f"token:{t}" for t in sorted(set(owner["dwts"]))]
            # "none": an optional question's no, or (version 3) the answer when nothing in the
            # hand matches: the question is asked whatever the hand holds (RULES.md, "Every
            # question about a hand is asked whatever it holds").
            return opts + (["none"] if pr.get("optional") or not opts else [])
        raise ValueError(kind)  # pragma: no cover

    def main_actions(self, state: State, seat: int) -> list[Action]:
        p = state["players"][seat]
        t = state["turn"]
        power = t["power"]
        out: list[Action] = [{"type": "play", "card": c} for c in sorted(set(p["hand"]))]
        for i, c in enumerate(state["lineup"]):
            if c and CARDS[c]["cost"] <= power:
                out.append({"type": "buy", "from": "lineup", "slot": i})
        if state["wild_magic"] > 0 and self.wild_magic_cost(state, seat) <= power:
            out.append({"type": "buy", "from": "wild_magic"})
        leg = state["legend"]["up"]
        if leg and not t["legend_taken"] and CARDS[leg]["cost"] <= power:
            out.append({"type": "buy", "from": "legend"})
        if p["familiar"] and not p["familiar_bought"] and FAMILIAR_COST <= power:
            out.append({"type": "buy", "from": "familiar"})
        tile = p["tile"]
        if tile and "activated" in CARDS[tile] and not t["activated"] and p["hp"] >= CARDS[tile]["activated"]["pay_hp"]:
            out.append({"type": "activate"})
        out.append({"type": "end_turn"})
        return out

    def wild_magic_cost(self, state: State, seat: int) -> int:
        return static(state, seat, "wild_magic_cost", WILD_MAGIC_COST)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if type(seat) is not int or seat not in self.to_move(state):
            return []
        pr = state["prompt"]
        if pr is not None:
            kind = self.answer_type(pr)
            return [{"type": kind, "value": v} for v in self.prompt_options(state, seat)]
        return self.main_actions(state, seat)

    def answer_type(self, pr: dict[str, Any]) -> str:
        """The type of the action that answers the open prompt ``pr``: "defend" in a (version 2)
        defense window, "keep" for a setup keep (version 3: secret, so redact_action can tell it
        from every other answer), else "choose"."""
        if "seats" in pr:
            return "defend"
        if self.secret_keeps and pr["kind"] == "setup":
            return "keep"
        return "choose"

    def validate(self, state: State, seat: int, action: Action) -> None:
        n = state["seats"]
        if type(seat) is not int or not 0 <= seat < n:
            raise IllegalAction(f"Seat must be a whole number from 0 to {n - 1}.", code="bad_seat")
        phase = state["phase"]
        if phase == "over":
            raise IllegalAction("The game is over.", code="game_over")
        if "gone" in state and seat in state["gone"]:
            raise IllegalAction(f"Seat {seat} has left the game.", code="not_in_game")
        if state["need"] is not None:
            raise IllegalAction("A random draw is due before anyone acts.", code="chance_pending")
        pr = state["prompt"]
        if not self._moving(state, seat, pr):
            raise IllegalAction(f"It is not seat {seat}'s turn to act.", code="not_your_turn")
        if not (type(action) is dict and type(action.get("type")) is str) and not (
            isinstance(action, dict) and isinstance(action.get("type"), str)
        ):
            raise IllegalAction("An action is a JSON object with a 'type'.", code="bad_action")
        if pr is not None:
            answer = self.answer_type(pr)
            if action["type"] != answer:
                raise IllegalAction(f"Answer the open question first (a '{answer}' action).", code="prompt_pending")
        if not self._allowed(state, seat, action, pr):
            kind = action["type"]
            if kind == "play":
                raise IllegalAction("That card is not in your hand.", code="card_not_in_hand")
            if kind == "buy":
                if action.get("from") == "lineup" and type(action.get("slot")) in (bool, float):
                    # Only the refusal asks this: the check itself compares the slot's type (_buy_cost).
                    raise IllegalAction(
                        "A Line-Up slot is a whole number (0 for the first card), not true or 1.0.",
                        code="bad_action",
                    )
                raise IllegalAction(
                    "You cannot buy that now: it is not there, or it costs more Power than you have "
                    "(and only one Legend per turn).",
                    code="cannot_buy",
                )
            if kind in ("choose", "defend", "keep"):
                value = action.get("value")
                if pr is not None and type(value) in (bool, float) and value in self.prompt_options(state, seat):
                    # Equal to an option only as Python compares numbers: say how to answer it.
                    raise IllegalAction(
                        f"{json.dumps(value)} is not one of the choices offered: give a choice exactly as "
                        f"offered (the whole number {int(value)}, not {json.dumps(value)}).",
                        code="bad_choice",
                    )
                raise IllegalAction("That is not one of the choices offered.", code="bad_choice")
            raise IllegalAction("That action is not allowed now.", code="illegal_action")

    @staticmethod
    def _moving(state: State, seat: int, pr: dict[str, Any] | None) -> bool:
        """``seat in self.to_move(state)`` for an int seat when no draw is due, without building
        the list (issue 17, P1); ``pr`` is the state's prompt. validate and apply_in_place both
        ask it."""
        if pr is None:
            return seat == state["active"] and state["phase"] == "turn" and not state["stack"]
        if state["phase"] == "over":
            return False
        if "seats" in pr:  # a simultaneous choice: whoever has not answered yet
            return seat in pr["seats"] and str(seat) not in pr["answers"]
        return seat == pr["seat"]

    def _allowed(self, state: State, seat: int, action: Action, pr: dict[str, Any] | None) -> bool:
        """Whether ``action`` is in ``legal_actions(state, seat)``, for a seat that is to move and
        an action of the prompt's answer type, without building the list (issue 17, P1): the same
        keys, and values equal as the list compares them (1.0 names slot 1).
        tests/engines/annihilageddon/test_direct_checks.py holds it to the list."""
        if pr is not None:
            return len(action) == 2 and "value" in action and self._answer_offered(state, seat, pr, action["value"])
        kind = action["type"]
        if kind == "play":
            return len(action) == 2 and "card" in action and action["card"] in state["players"][seat]["hand"]
        if kind == "end_turn":
            return len(action) == 1
        if kind == "buy":
            return self._buy_cost(state, seat, action) is not None
        if kind == "activate":
            p = state["players"][seat]
            tile = p["tile"]
            return (
                len(action) == 1
                and bool(tile)
                and "activated" in CARDS[tile]
                and not state["turn"]["activated"]
                and p["hp"] >= CARDS[tile]["activated"]["pay_hp"]
            )
        return False

    def _buy_cost(self, state: State, seat: int, action: Action) -> int | None:
        """The Power the buy ``action`` costs when _allowed admits it, else None: the test and the
        price are one reading, which _buy then pays (issue 17, P1: Wild Magic's cost, a build of
        the seat's statics under a tile that changes it, was worked out for the test and again
        for the payment)."""
        src = action.get("from")
        power = state["turn"]["power"]
        if src == "lineup":
            if len(action) != 3 or "slot" not in action:
                return None
            slot = action["slot"]
            # A slot is a JSON integer, as the list writes it: true and 1.0 are not slot 1, though
            # Python's True == 1.0 == 1 (RULES.md, "Actions and prompts"); refused as a prompt's
            # answer is (_answer_offered).
            lineup = state["lineup"]
            if type(slot) is not int or not 0 <= slot < len(lineup) or not lineup[slot]:
                return None
            cost = CARDS[lineup[slot]]["cost"]
        elif len(action) != 2:
            return None
        elif src == "wild_magic":
            if state["wild_magic"] <= 0:
                return None
            cost = self.wild_magic_cost(state, seat)
        elif src == "legend":
            leg = state["legend"]["up"]
            if not leg or state["turn"]["legend_taken"]:
                return None
            cost = CARDS[leg]["cost"]
        elif src == "familiar":
            p = state["players"][seat]
            if not p["familiar"] or p["familiar_bought"]:
                return None
            cost = FAMILIAR_COST
        else:
            return None
        return cost if cost <= power else None

    def _answer_offered(self, state: State, seat: int, pr: dict[str, Any], value: Any) -> bool:
        """``value in self.prompt_options(state, seat)``, without building the list for the
        prompts every turn asks (its options as stored; a defense: "take" or a Defense in hand)."""
        kind = pr["kind"]
        if kind in ("target", "slot", "option", "token", "yesno", "trigger"):
            # Every option is an int or a str; the list's == would also take 1.0 and True for 1,
            # which the ops then use as an index or a seat (a TypeError, or a bool in the state).
            return (type(value) is int or type(value) is str) and value in pr["options"]
        if kind == "defend":
            if value == "take":
                return True
            can = pr["can_defend"][str(seat)] if "seats" in pr else pr["can_defend"]
            # ``value in hand`` first: only then is it a card id, which CARDS can be asked about.
            return bool(can) and value in state["players"][seat]["hand"] and "defense" in CARDS[value]
        if kind == "card" and pr["zone"] != "hand_or_discard":
            # prompt_options' list for a card from one zone, asked of ``value`` alone: a card id of
            # the zone that matches the filter, "none" when optional, or one of the owner's tokens.
            owner = state["players"][pr["of"]]
            if value in owner[pr["zone"]]:
                return matches(value, pr.get("filter"))
            if value == "none":
                return bool(pr.get("optional")) or self.prompt_options(state, seat) == ["none"]
            return (
                bool(pr.get("tokens"))
                and type(value) is str
                and value.startswith("token:")
                and value[6:] in owner["dwts"]
            )
        return value in self.prompt_options(state, seat)

    # -- transitions --------------------------------------------------------------------------
    def apply(self, state: State, event: dict[str, Any]) -> State:
        # The in-place step on a copy: its checks only read, so a refused event leaves ``state``
        # as it was either way (one call less per event than a shared body with a flag).
        return self.apply_in_place(copy_state(state), event)

    def apply_in_place(self, state: State, event: dict[str, Any]) -> State:
        # engines.base.event_kind's check, inline for the common well-formed envelopes.
        st = state
        # An action goes past the chance branch on one test; the key count first, so a chance
        # event's kind is read once (no ``kind`` local: a store and loads per event).
        if not (
            type(event) is dict
            and len(event) == 3
            and event.get("kind") == "action"
            and "seat" in event
            and "action" in event
        ) and (
            (type(event) is dict and len(event) == 2 and event.get("kind") == "chance" and "outcome" in event)
            or event_kind(event) == "chance"
        ):
            need = st["need"]
            if need is None:
                raise IllegalAction("No random outcome is due now.", code="no_chance_due")
            outcome = event["outcome"]
            if "dice" in need:
                check_outcome(self.chance(st), outcome)
            else:
                f = st["stack"][-1]
                # The end of a turn's draw (a third of the chance events), checked and taken in one
                # pass (engine's end_draw_at_once); anything it declines, legal or not, takes the
                # general path below. Through the module, which test_fold_fast_paths patches.
                if (
                    f["prog"] is END_OF_TURN
                    and f["pc"] == _END_DRAW_AT
                    and _fast.end_draw_at_once(st, f, need, outcome)
                ):
                    return st
                # A turn's Line-Up refill (pc 0: its _refill op, the frame's only draw) likewise.
                if f["prog"] is START_OF_TURN and f["pc"] == 0 and _fast.refill_drawn(st, f, need, outcome):
                    return st
                # A card's draw (op_draw waiting in ensure_top) likewise.
                due = f["prog"][f["pc"]]["op"]
                if due == "draw" and _fast.card_drawn(st, f, need, outcome):
                    return st
                # Wild Magic's play of a foe's top card likewise, when it only adds Power.
                if due == "play_top" and _fast.top_card_played(st, f, need, outcome):
                    return st
                # zone_list's commonest answer (a player's deck: every end of turn's draw) inline.
                zone = need["zone"]
                pool = st["players"][zone[1]]["pool"] if zone[0] == "player" else zone_list(st, zone)
                if not _draw_fits(len(pool), need["count"], outcome):
                    check_outcome(self.chance(st), outcome)  # a refusal in check_outcome's words
            if st["notes"]:  # an empty list is kept (copy_state copies it: see there)
                st["notes"] = []
            if "held_notes" in st and st["held_notes"]:
                st["held_notes"] = []
            st["need"] = None
            f = st["stack"][-1]
            # Only a list of ints gets here: a new list holds nothing of the event.
            f["work"]["outcome"] = list(outcome)
            if f["prog"] is END_OF_TURN and f["pc"] == _END_DRAW_AT:
                # resume's first case, asked here (most draws are this one; a frame read back
                # from JSON holds an equal list, not this one, and goes through resume). Through
                # the module, which test_turn_shortcuts patches to hold it to run.
                turn_machine.end_turn_at_once(st, f)
            else:
                resume(st)
            return st
        seat, action = event["seat"], event["action"]
        # validate's tests, without its refusals (issue 17, P1: validate and the chain of type
        # tests after it were about a fifth of an action's cost): an int seat to move
        # (_moving), no draw due, an action of the type the moment answers, and _allowed's test
        # (the common two inline). Anything refused goes through validate itself, which refuses
        # it with its own code.
        pr = st["prompt"]
        if type(action) is not dict or type(seat) is not int or st["need"] is not None:
            t = ok = None
        elif pr is None:
            # _moving's test for the main phase, inline (most actions are played here).
            t = action.get("type")
            if seat != st["active"] or st["phase"] != "turn" or st["stack"]:
                ok = False
            elif t == "play":
                # The card and the hand are kept for the play below (ok: both set).
                ok = (
                    len(action) == 2
                    and "card" in action
                    and (cid := action["card"]) in (hand := st["players"][seat]["hand"])
                )
            elif t == "end_turn":
                if len(action) == 1:
                    # Done here, past the dispatch below (its notes cleared as there).
                    if st["notes"]:
                        st["notes"] = []
                    if "held_notes" in st and st["held_notes"]:
                        st["held_notes"] = []
                    turn_machine.end_turn(st, seat)
                    return st
                ok = False
            elif t == "buy":
                ok = (cost := self._buy_cost(st, seat, action)) is not None
            elif type(t) is str:
                ok = self._allowed(st, seat, action, None)  # False for a type that is no action's
            else:
                ok = False
        elif "seats" in pr:
            # _moving, the answer type and _answer_offered's test for a defense window, inline:
            # a seat asked that has not answered, "take" or a Defense in hand when it may defend.
            t = action.get("type")
            ok = (
                t == "defend"
                and len(action) == 2
                and "value" in action
                and st["phase"] != "over"
                and seat in pr["seats"]
                and (key := SEAT_KEYS[seat]) not in pr["answers"]
                and pr["kind"] == "defend"
                and (
                    (value := action["value"]) == "take"
                    or (pr["can_defend"][key] and value in st["players"][seat]["hand"] and "defense" in CARDS[value])
                )
            )
        else:
            t = action.get("type")
            ok = (
                t == "choose"
                and pr["kind"] != "setup"  # a setup keep goes through validate (version 3: "keep")
                and seat == pr["seat"]
                and st["phase"] != "over"
                and len(action) == 2
                and "value" in action
                and self._answer_offered(st, seat, pr, action["value"])
            )
        if not ok:
            self.validate(st, seat, action)
            t = action["type"]
        # The state is written in place, yet needs no copy of the action: what the rules keep of one
        # is a card id, a slot or an answer, and validate lets an answer through only when it equals
        # one of the prompt's options, every one a string or a number (never a container).
        if st["notes"]:  # an empty list is kept (copy_state copies it: see there)
            st["notes"] = []
        if "held_notes" in st and st["held_notes"]:
            st["held_notes"] = []
        if t == "play":
            # Play the card from the hand, here rather than in a method of its own (issue 17, P1:
            # a third of the events are plays, and a call was a tenth of a Power-only one's cost).
            if not ok:  # validate let it through: the card and hand not yet read
                cid = action["card"]
                hand = st["players"][seat]["hand"]
            # The hand's own string, not the event's equal one: the card table's interned id
            # (cards.load), which every look-up of it later finds by identity.
            cid = hand.pop(hand.index(cid))
            turn = st["turn"]
            turn["played"].append(cid)
            turn["played_log"].append(cid)
            st["scope"] = scope = st["scope"] + 1
            power = POWER_ONLY.get(cid)
            if power is not None and not ((trigs := PLAY_TRIGGERS[cid]) and controls_any(st, seat, trigs)):
                # What the two frames below would do, run to the end at once: op_power's test holds
                # (validate: the seat's own turn), _after_play moves no card that is not Ongoing,
                # and nothing the seat controls triggers on this card (after_play_triggers passes
                # over a text whose filter the card fails before reading anything else); nothing
                # else reads or writes.
                if not turn["ending"]:
                    turn["power"] += power
                return st
            if cid in PLAIN_PLAYS and not ((trigs := PLAY_TRIGGERS[cid]) and controls_any(st, seat, trigs)):
                # The same for Power and heals of the player, op by op in the program's order, as
                # op_power and op_heal do them (the heal's one target is "you", asked of no state;
                # op_heal reads no frame for a fixed number): a play of Heal-o-Matic ran both
                # frames through the interpreter, about three times a Power-only play's cost.
                for op in PLAIN_PLAYS[cid]:
                    if op["op"] == "power":
                        if not turn["ending"]:
                            turn["power"] += op["n"]
                    else:
                        SINGLE["heal"](st, None, op, seat)
                return st
            # interp.push of [the card's program, then _after_play], with the frames written out.
            stack = st["stack"]
            stack.append({"prog": [{"op": "_after_play", "card": cid}], "pc": 0, "env": {"you": seat}, "work": {}})
            env = {"you": seat, "source": seat, "card": cid, "scope": scope, "active": seat}
            lead = LEAD_POWER.get(cid)
            if lead is None:
                stack.append({"prog": CARDS[cid].get("play", []), "pc": 0, "env": env, "work": {}})
            else:
                # Its first ops as op_power does them (its test holds, as above), and the frame
                # where run leaves it after them: at the next op, its work empty.
                if not turn["ending"]:
                    turn["power"] += lead[1]
                stack.append({"prog": CARDS[cid]["play"], "pc": lead[0], "env": env, "work": {}})
            who = TARGET_FIRST.get(cid)
            # static only with a grant in temp: self_target is a Mayhem's grant for the turn, no
            # card's static text (test_self_target_is_only_granted.py; a call per Attack played).
            if who is not None and not (st["temp"] and static(st, seat, "self_target")) and "gone" not in st:
                # run's first step on the frame: op_attack marks its env attacking and targets asks
                # whom (interp._table_targets: clockwise from the player, the player left out for a
                # foe) when there are two or more to pick from, and not under the mirror Mayhem
                # (self_target, which static answers the same at every step). run stops there.
                # Once a seat has left (version 4) targets leaves it out: run asks.
                cands = _FIRST_TARGETS[who][st["seats"]][seat]
                if len(cands) > 1:
                    env["attacking"] = True
                    st["prompt"] = {"seat": seat, "kind": "target", "options": list(cands), "why": who, "card": cid}
                    return st
            labels = CHOICE_FIRST.get(cid)
            if labels is not None:
                # run's first step on the frame: op_choose_one asks (interp.ask's prompt, new lists),
                # and run stops there with the frame as it is.
                options = list(range(len(labels)))
                st["prompt"] = {"seat": seat, "kind": "option", "options": options, "labels": list(labels), "card": cid}
                return st
            run(st)
            return st
        if t == "end_turn":
            turn_machine.end_turn(st, seat)
            return st
        if t == "choose" or t == "keep":
            question = pr["kind"]
            if question == "target" and _fast.attack_target_answer(st, action["value"]):
                return st
            if question == "option" and _fast.power_option_chosen(st, action["value"]):
                return st
            f = st["stack"][-1]
            if f["prog"] is END_OF_TURN and f["pc"] == turn_machine._TROPHY_AT:
                # The Trophy's discard, the frame then run from its Legend flip on as
                # end_turn_at_once runs it (through the module, which the tests patch).
                turn_machine.trophy_discarded(st, f, action["value"])
                return st
            st["prompt"] = None
            st["stack"][-1]["work"]["answer"] = action["value"]
        elif t == "defend":
            if _fast.plain_hit_taken(st, pr, action["value"]):
                st["held_notes"], st["notes"] = st["notes"], []  # as below
                return st
            # A secret answer: kept in the prompt until every asked seat has answered, then
            # all are handed to the waiting Attack at once (interp.ask_together).
            answers = pr["answers"]
            answers[key if ok else str(seat)] = action["value"]
            # validate admits only an asked seat that has not answered: the keys are a subset.
            if len(answers) < len(pr["seats"]):
                return st
            st["prompt"] = None
            # Sorted by seat key (unique, so no value is compared); not a comprehension, whose
            # cell for ``answers`` every apply_in_place would make.
            st["stack"][-1]["work"]["answer"] = dict(sorted(answers.items()))
            run(st)
            # What the window showed and did is told in the next log line: this event's
            # line must read the same whatever was chosen (describe()).
            st["held_notes"], st["notes"] = st["notes"], []
            return st
        elif t == "buy":
            # The cost _buy_cost checked (ok: this branch set it), else worked out again.
            self._buy(st, seat, action, cost if ok else None)
        elif t == "activate":
            st["turn"]["activated"] = True
            st["stack"].append(
                frame(
                    [{"op": "_activate"}],
                    {
                        "you": seat,
                        "source": seat,
                        "card": st["players"][seat]["tile"],
                        "scope": new_scope(st),
                        "active": seat,
                    },
                )
            )
        run(st)
        return st

    def _buy(self, st: State, seat: int, action: Action, cost: int | None = None) -> None:
        """The allowed buy ``action``, paying ``cost`` (_buy_cost's, worked out here when not given)."""
        if cost is None:
            cost = self._buy_cost(st, seat, action)
        p = st["players"][seat]
        t = st["turn"]
        src = action["from"]
        if src == "lineup":
            slot = action["slot"]  # an int: _buy_cost refuses any other type
            cid = st["lineup"][slot]
            st["lineup"][slot] = None
        elif src == "wild_magic":
            cid = WILD_MAGIC
            st["wild_magic"] -= 1
        elif src == "legend":
            # AN L231: the next Legend stays face down until the turn is over.
            cid = st["legend"]["up"]
            st["legend"]["up"] = None
            t["legend_taken"] = True
        else:
            cid = p["familiar"]
            p["familiar_bought"] = True
        t["power"] -= cost
        t["bought"].append(cid)
        p["discard"].append(cid)

    # -- a seat that leaves (version 4) -----------------------------------------------------------
    def in_game(self, state: State, seat: int) -> bool:
        return not ("gone" in state and seat in state["gone"])

    def leave(self, state: State, seat: int) -> State | None:
        """engines.base.Engine.leave. Version 4 plays on without the seat (RULES.md, "A seat that
        leaves"): whatever it owed is settled at once, its turn ends if it was the active player,
        and nothing names it again; versions 1 to 3 (None) end the match as they always did."""
        if not self.plays_on:
            return None
        n = state["seats"]
        if type(seat) is not int or not 0 <= seat < n:
            raise IllegalAction(f"Seat must be a whole number from 0 to {n - 1}.", code="bad_seat")
        if state["phase"] == "over":
            raise IllegalAction("The game is over.", code="game_over")
        gone = state.get("gone", [])
        if seat in gone:
            raise IllegalAction(f"Seat {seat} has already left the game.", code="not_in_game")
        if n - len(gone) - 1 < 2:
            return None  # RULING "Leaving": with one other seat still playing the match ends at once
        st = copy_tree(state)  # a leave is rare: a whole copy, sharing nothing with ``state``
        st["gone"] = gone + [seat]  # replaced, never written into (copy_state shares it)
        held, st["notes"] = st["notes"], []
        self._settle_leaver(st, seat)
        # Told in the next event's log line, as a defense window's reveal is (describe: held_notes).
        told = [*st.get("held_notes", []), f"Seat {seat} leaves the game.", *st["notes"]]
        st["notes"] = held
        if self.together:
            st["held_notes"] = told
        return st

    def _settle_leaver(self, st: State, seat: int) -> None:
        """What ``seat`` owed or had under way when it left, settled (RULES.md, "A seat that
        leaves"): the frames that act for it or on it are dropped, with the cards and tokens they
        held put back; the frames it only anchors (a Mayhem, a Group Attack) go on from the next
        seat in the game; a question to it is withdrawn (a defense window goes on without it);
        and if it was the active player its turn ends: the table's end of turn (a Legend flip,
        the end check) comes once whatever is still resolving is done."""
        stack = st["stack"]
        was_active = st["phase"] == "turn" and st["active"] == seat
        drawer = self.drawing_privately(st)
        p = st["players"][seat]
        kept = []
        top_dropped = False
        top_retargeted = False
        for i, f in enumerate(stack):
            env, w = f["env"], f["work"]
            if self._leaver_frame(f, seat):
                self._put_back(st, f)
                top_dropped = top_dropped or i == len(stack) - 1
                continue
            if env.get("you") == seat:
                env["you"] = next_in_game(st, seat)  # a Mayhem or Group Attack it only anchored
            for role in ("attacker", "killer"):
                if env.get(role) == seat:
                    env[role] = None  # a Defense's or a token's text names it no more (AN L320)
            parts = env.get("participants")
            if parts is not None and seat in parts:
                env["participants"] = [s for s in parts if s != seat]
            mine = (w.get("held") or {}).pop(SEAT_KEYS[seat], None)
            if mine:  # cards it had picked for a pass go back to its hand (AN L320: it passes nothing)
                p["hand"] = sorted(p["hand"] + [c for _, c in sorted(mine.items()) if c is not None])
            who = w.get("_who")
            if who is not None and seat in who:
                w["_who"] = [s for s in who if s != seat]
                top_retargeted = top_retargeted or i == len(stack) - 1
            kept.append(f)
        st["stack"] = kept
        # Defenses it used wait in ``defending`` for frames that are gone: into its discard.
        if any(d[0] == seat for d in st["defending"]):
            p["discard"] = p["discard"] + [card for s, card in st["defending"] if s == seat]
            st["defending"] = [d for d in st["defending"] if d[0] != seat]
        pr, need = st["prompt"], st["need"]
        if top_dropped:
            st["prompt"] = st["need"] = None
        elif pr is not None and "seats" in pr:
            if seat in pr["seats"]:
                # A defense window goes on without it; its answer, if given, is withdrawn (AN L320).
                key = SEAT_KEYS[seat]
                pr["seats"] = [s for s in pr["seats"] if s != seat]
                pr["answers"].pop(key, None)
                pr["can_defend"] = {k: v for k, v in pr["can_defend"].items() if k != key}
                if len(pr["answers"]) == len(pr["seats"]):
                    st["prompt"] = None
                    st["stack"][-1]["work"]["answer"] = dict(sorted(pr["answers"].items()))
        elif (
            pr is not None
            and (pr["seat"] == seat or top_retargeted or (pr["kind"] == "target" and seat in pr["options"]))
        ) or (
            need is not None
            and (
                top_retargeted
                or need.get("zone") == ["player", seat]
                or need.get("visible") == [seat]
                or (self.withdraws_second_token and self._second_token_due(kept, seat))
            )
        ):
            # A question to it, or about it, or offering it as a target, is withdrawn: the op asks
            # again of the seats in the game (or, with one choice left, asks nothing). So is a draw
            # only it would see (its deck, a setup deal): its outcome must not go to another seat.
            # So is the second token of its fatality: it picks nothing, so that draw would change
            # nothing but the log (op_die gives the victim the first token).
            st["prompt"] = st["need"] = None
        if drawer is not None and st["need"] is None:
            # A private draw stopped: the cards already on their way to the drawer's hand (its old
            # deck taken whole, its known top) were seen by it alone. Left on the top they would be
            # shown to everyone (view's deck_top), so they go back into its deck, face down.
            d = st["players"][drawer]
            d["pool"], d["top"] = sorted(d["pool"] + d["top"]), []
        # The Trophy and a standee are the table's (AN L342: held "until someone wrestles it away"):
        # set aside for the next player who takes them, not kept by a seat that plays no more.
        p["trophy"] = False
        p["standee"] = None
        if was_active:
            # Its turn ends at once: no end-of-turn texts, no draw, no Trophy discard (it plays no
            # more); what it played goes to its discard. The table's end of turn comes last.
            t = st["turn"]
            t["ending"] = True
            p["discard"] = p["discard"] + t["played"]
            t["played"] = []
            t["power"] = 0
            st["stack"].insert(0, frame(LEAVER_TURN_END, {"you": None}))
        if st["stack"] and st["prompt"] is None and st["need"] is None:
            run(st)

    @staticmethod
    def _second_token_due(stack: list, seat: int) -> bool:
        """Whether the draw due is the second Dead Wizard Token of a fatality ``seat`` scored (AN
        L370: two drawn for the killer's pick), the first already drawn: the draw on top of the
        stack of a ``_die`` whose killer is ``seat``."""
        if not stack:
            return False
        f = stack[-1]
        op = f["prog"][f["pc"]] if f["pc"] < len(f["prog"]) else {}
        return op.get("op") == "_die" and bool(op.get("choose")) and op["killer"] == seat and "t1" in f["work"]

    @staticmethod
    def _leaver_frame(f: dict, seat: int) -> bool:
        """Whether the frame ``f`` acts for ``seat`` (its card, its Defense, its turn) or on it (an
        effect on it as "it", a redirect it made), and so ends when the seat leaves."""
        env, prog = f["env"], f["prog"]
        first = prog[0]["op"] if prog else None
        if first in ("_deal", "_start_turn", "_mayhem", "_mayhem_done"):
            return False  # setup, a turn about to start, a Mayhem's own frames: the table's
        if first == "_die":
            return prog[0]["seat"] == seat
        if env.get("it") == seat or env.get("count_it") == seat:
            return True
        return env.get("you") == seat and not (env.get("mayhem") or env.get("group"))

    @staticmethod
    def _put_back(st: State, f: dict) -> None:
        """Cards and tokens a dropped frame held, back where they belong."""
        w = f["work"]
        for passer, mine in sorted((w.get("held") or {}).items()):
            q = st["players"][int(passer)]
            q["hand"] = sorted(q["hand"] + [c for _, c in sorted(mine.items()) if c is not None])
        op = f["prog"][0] if f["prog"] else {}
        if op.get("op") == "_after_play" and op.get("owner") is not None and op["card"] in st["turn"]["borrowed"]:
            st["turn"]["borrowed"].remove(op["card"])
            st["players"][op["owner"]]["discard"].append(op["card"])
        if op.get("op") == "_die":
            for key in ("t1", "t2"):
                if w.get(key) is not None:
                    st["dwt"]["returned"] = sorted(st["dwt"]["returned"] + [w[key]])
                    st["dwt"]["count"] += 1

    def result_on_time(self, state: State, seat: int, seats: int) -> dict[str, Any]:
        """engines.base.Engine.result_on_time; once seats have left (version 4), they place below
        ``seat``, the later leaver higher (RULING "Leaving")."""
        gone = state.get("gone")
        if not gone:
            return super().result_on_time(state, seat, seats)
        staying = [s for s in range(seats) if s != seat and s not in gone]
        placements = [1] * seats
        placements[seat] = len(staying) + 1
        for i, s in enumerate(gone):
            placements[s] = len(staying) + 1 + len(gone) - i
        return {
            "placements": placements,
            "scores": [0] * seats,
            "winners": staying,
            "reason": "timeout",
            "timed_out": seat,
            "left": list(gone),
        }

    # -- the end --------------------------------------------------------------------------------
    def vp(self, state: State, seat: int) -> int:
        return sum(self.vp_breakdown(state, seat).values())

    def vp_breakdown(self, state: State, seat: int) -> dict[str, int]:
        """AN L191-193: every card owned counts (Ongoing, hand, discard back in the deck); Dead
        Wizard Tokens and Limp Wands subtract."""
        counts: dict[str, int] = {}
        for c in owned(state, seat):
            counts[c] = counts.get(c, 0) + 1
        out: dict[str, int] = {}
        env = {"you": seat, "active": None}
        for cid in sorted(counts):
            spec = CARDS[cid].get("vp", 0)
            k = counts[cid]
            if type(spec) is int:
                value = spec * k
            elif "set" in spec:
                table = spec["set"]
                top = max(int(x) for x in table)
                value = table[str(min(k, top))] if str(min(k, top)) in table else 0
            else:
                value = (spec.get("base", 0) + num(state, env, spec["per"])) * k
            out[cid] = value
        for token in state["players"][seat]["dwts"]:
            out[f"dwt:{token}"] = out.get(f"dwt:{token}", 0) + self._token_vp(state, seat, token)
        return out

    def _token_vp(self, state: State, seat: int, token: str) -> int:
        spec = CARDS[token].get("vp", -3)
        if type(spec) is int:
            return spec
        return -3 + num(state, {"you": seat}, spec["per"])

    def legends_owned(self, state: State, seat: int) -> int:
        return sum(1 for c in owned(state, seat) if CARDS[c]["kind"] == "legend")

    def result(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != "over":
            return None
        n = state["seats"]
        scores = [self.vp(state, s) for s in range(n)]
        legends = [self.legends_owned(state, s) for s in range(n)]
        dwts = [len(state["players"][s]["dwts"]) for s in range(n)]
        # AN L195: most VP; then more Legends; then fewer Dead Wizard Tokens; then shared (AN-R20)
        keys = [(-scores[s], -legends[s], dwts[s]) for s in range(n)]
        gone = state.get("gone")
        if gone:
            # RULING "Leaving" (version 4): the seats that stayed by the game's own order, then
            # the seats that left, below them all, the later leaver higher.
            staying = [s for s in range(n) if s not in gone]
            placements = [1 + sum(1 for o in staying if keys[o] < keys[s]) for s in range(n)]
            for i, s in enumerate(gone):
                placements[s] = len(staying) + len(gone) - i
        else:
            placements = [1 + sum(1 for o in range(n) if keys[o] < keys[s]) for s in range(n)]
        out = {
            "placements": placements,
            "scores": scores,
            "winners": [s for s in range(n) if placements[s] == 1],
            "legends": legends,
            "dwts": dwts,
            "end_reason": state["end_reason"],
        }
        if gone:
            out["left"] = list(gone)
        return out

    # -- what people see -------------------------------------------------------------------------
    @staticmethod
    def drawing_privately(state: State) -> int | None:
        """The seat a private draw from its own deck is due for, else None. The cards then on
        its deck's top are the old deck, taken whole, and any known top cards, all on their
        way to its hand: only that seat sees them (RULES.md, "A deck that runs short")."""
        need = state["need"]
        if need is not None and "zone" in need and need["zone"][0] == "player" and need["visible"] != "all":
            return need["zone"][1]
        return None

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = state["phase"] == "over"
        drawing = self.drawing_privately(state)
        players = []
        for s, p in enumerate(state["players"]):
            mine = seat == s or over
            # Being drawn: the others see how many cards, not which (hand + deck is public as
            # a whole, so naming the deck's cards would name the hand's).
            drawn = s == drawing and not mine
            v = {
                "hp": p["hp"],
                "hand_count": len(p["hand"]),
                "deck_count": len(p["top"]) + len(p["pool"]),
                "deck_top": [] if drawn else list(p["top"]),
                "deck_top_hidden": len(p["top"]) if drawn else 0,
                "discard": list(p["discard"]),
                "ongoing": list(p["ongoing"]),
                "dwts": list(p["dwts"]),
                "familiar_bought": p["familiar_bought"],
                "trophy": p["trophy"],
                "standee": p["standee"],
                "tile": p["tile"] if (state["revealed"]["tile"] or mine) else None,
                "familiar": p["familiar"] if (state["revealed"]["familiar"] or mine) else None,
            }
            if mine:
                v["hand"] = list(p["hand"])
                v["deck_cards"] = sorted(p["pool"])
                v["tile_dealt"] = list(p["tile_dealt"])
                v["familiar_dealt"] = list(p["familiar_dealt"])
            players.append(v)
        pr = state["prompt"]
        prompt = None
        to_move = self.to_move(state)
        if pr is not None:
            # A simultaneous choice's answers stay secret: everyone sees who has decided, each
            # seat sees only its own answer.
            prompt = {k: v for k, v in pr.items() if k != "answers"}
            if "seats" in pr:
                prompt["decided"] = [s for s in pr["seats"] if str(s) in pr["answers"]]
                if seat is not None and str(seat) in pr["answers"]:
                    prompt["mine"] = pr["answers"][str(seat)]
            if seat is not None and seat in to_move:
                prompt["choices"] = self.prompt_options(state, seat)
        need = state["need"]
        t = state["turn"]
        out = {
            "seats": state["seats"],
            "phase": state["phase"],
            "round": state["round"],
            "first": state["first"],
            "active": state["active"],
            "players": players,
            "lineup": list(state["lineup"]),
            "main_count": len(state["main"]),
            "wild_magic": state["wild_magic"],
            "limp_wands": state["limp_wands"],
            "legend": {"up": state["legend"]["up"], "down": state["legend"]["down"]},
            "dwt_count": state["dwt"]["count"],
            "dwt_returned": list(state["dwt"]["returned"]),
            "destroyed": list(state["destroyed"]),
            "mayhem_pile": list(state["mayhem_pile"]),
            "mayhem_now": state["mayhem_now"],
            "defending": [list(d) for d in state["defending"]],
            "passing": self.passing(state),
            "turn": {
                "power": t["power"],
                "played": list(t["played"]),
                "played_log": list(t["played_log"]),
                "legend_taken": t["legend_taken"],
                "activated": t["activated"],
                "borrowed": list(t["borrowed"]),
            },
            "prompt": prompt,
            "waiting_for": None if need is None else need["label"],
            "end_reason": state["end_reason"],
            "max_rounds": state["config"]["max_rounds"],
            "to_move": to_move,
            # What this seat may do now, so a page needs no second request (a spectator: nothing).
            "legal_actions": self.legal_actions(state, seat) if seat is not None and not over else [],
        }
        if "last_defense" in state:
            out["last_defense"] = state["last_defense"]
        if "gone" in state:
            out["left"] = list(state["gone"])  # who left, in order (version 4)
            for s, v in enumerate(players):
                v["left"] = s in state["gone"]
        if over:
            out["result"] = self.result(state)
        return out

    @staticmethod
    def passing(state: State) -> dict[str, list[str]]:
        """Cards already picked for a pass that has not happened yet (passing is public)."""
        out: dict[str, list[str]] = {}
        for f in state["stack"]:
            for seat, mine in sorted((f["work"].get("held") or {}).items()):
                cards = [c for _, c in sorted(mine.items()) if c is not None]
                if cards:
                    out[seat] = cards
        return out

    def describe(self, before: State, event: dict[str, Any], after: State) -> str:
        if not self.together:
            return self._describe_v1(before, event, after)
        # Version 2: what the last defense window showed and did comes first (held_notes).
        held = " ".join(before.get("held_notes") or [])
        notes = " ".join(after.get("notes", []))
        if event.get("kind") == "chance":
            line = self._chance_line(before, event)
            if line is None:
                return (held + " chance").strip()
            return " ".join(x for x in (held, line, notes) if x)
        seat, action = event["seat"], event["action"]
        t = action.get("type")
        if t == "defend":
            # Secret until every asked seat has answered, and the last answer's line must read the
            # same whatever it was: the reveal is told in the next line (held_notes).
            left = len(self.to_move(before)) - 1
            line = f"Seat {seat} has decided how to meet the Attack."
            if not left:
                line += " Every choice is in."
            return " ".join(x for x in (held, line) if x)
        line = self._main_line(before, seat, action)
        if line is None:
            line = self._describe_choice(before, seat, before["prompt"], action.get("value"))
        return " ".join(x for x in (held, line, notes) if x)

    @staticmethod
    def _chance_line(before: State, event: dict[str, Any]) -> str | None:
        """A roll or draw as the log tells it, in both versions (None: nothing was pending)."""
        need = before["need"]
        if need is None:
            return None
        if "dice" in need and need["label"] == "Who goes first":
            return f"{need['label']}: seat {event['outcome'][0]}."
        if "dice" in need:
            return f"{need['label']}: {event['outcome'][0] + 1} of {need['dice'][0][1] + 1}."
        if need["visible"] == "all":
            pool = zone_list(before, need["zone"])
            names = ", ".join(CARDS[pool[i]]["name"] for i in event["outcome"])
            return f"{need['label']}: {names}."
        return f"{need['label']} (private)."

    @staticmethod
    def _main_line(before: State, seat: int, action: Action) -> str | None:
        """A main-phase move as the log tells it, in both versions (None: an answer to a prompt)."""
        t = action.get("type")
        if t == "play":
            return f"Seat {seat} plays {CARDS[action['card']]['name']}."
        if t == "buy":
            what = {
                "lineup": lambda: CARDS[before["lineup"][action["slot"]]]["name"],
                "wild_magic": lambda: "a Wild Magic",
                "legend": lambda: CARDS[before["legend"]["up"]]["name"],
                "familiar": lambda: CARDS[before["players"][seat]["familiar"]]["name"],
            }[action["from"]]()
            return f"Seat {seat} buys {what}."
        if t == "activate":
            return f"Seat {seat} uses their Ability tile."
        if t == "end_turn":
            return f"Seat {seat} ends their turn."
        return None

    def _describe_v1(self, before: State, event: dict[str, Any], after: State) -> str:
        """Version 1's lines, word for word: a recorded match's log is checked against them when it
        is verified again (audit.matchverify), so they never change."""
        notes = " ".join(after.get("notes", []))
        if event.get("kind") == "chance":
            line = self._chance_line(before, event)
            if line is None:
                return "chance"
            return (line + " " + notes).strip()
        seat, action = event["seat"], event["action"]
        line = self._main_line(before, seat, action)
        if line is None:
            pr = before["prompt"]
            v = action.get("value")
            if pr["kind"] == "defend":
                line = (
                    f"Seat {seat} takes the Attack." if v == "take" else f"Seat {seat} defends with {CARDS[v]['name']}."
                )
            elif pr["kind"] == "setup":
                line = f"Seat {seat} keeps a {pr['cat']}."
            elif pr["kind"] == "card" and pr.get("why") == "pass":
                line = f"Seat {seat} passes {CARDS[v]['name']}."
            elif pr["kind"] == "card":
                shown = v if v == "none" else CARDS[v.split(":", 1)[-1]]["name"]
                line = f"Seat {seat} chooses {shown}."
            else:
                line = f"Seat {seat} chooses {v}."
        return (line + " " + notes).strip()

    @staticmethod
    def _describe_choice(before: State, seat: int, pr: dict, v: Any) -> str:
        """An answer to a prompt as a person would say it: card names and seats, never an option
        number or an internal value."""
        kind, why = pr["kind"], pr.get("why")
        name = lambda cid: CARDS[cid]["name"]  # noqa: E731
        src = name(pr["card"]) if pr.get("card") else None
        who = f"Seat {seat}"
        if kind == "setup":
            # Which one stays hidden until every seat has chosen (AN-R19).
            return f"{who} keeps one of their {'Ability tiles' if pr['cat'] == 'tile' else 'Familiars'}."
        if kind == "target":
            if why == "pass_to":
                return f"{who} passes their one card to seat {v}."
            target = "themselves" if v == seat else f"seat {v}"
            return f"{who} targets {target}" + (f" with {src}." if src else ".")
        if kind == "slot":
            if v == "none":
                return f"{who} leaves the Line-Up as it is."
            card = name(before["lineup"][v])
            return (
                f"{who} gains {card} from the Line-Up." if why == "gain" else f"{who} destroys {card} in the Line-Up."
            )
        if kind == "option":
            label = pr["labels"][v]
            return f'{who} chooses "{label}"' + (f" ({src})." if src else ".")
        if kind == "yesno":
            if why == "pay":
                return f"{who} pays the HP." if v == "yes" else f"{who} does not pay."
            offer = f"{src}'s offer" if src else "the offer"
            return f"{who} accepts {offer}." if v == "yes" else f"{who} turns down {offer}."
        if kind == "decline":
            return f"{who} takes part in {src}." if v == "participate" else f"{who} declines to take part in {src}."
        if kind == "trigger":
            return f"{who} resolves {name(v)} next."
        if kind == "token":
            return {
                "fatality": f"{who} gives their victim {name(v)}.",
                "give": f"{who} gives away {name(v)}.",
                "take": f"{who} takes {name(v)}.",
                "return": f"{who} puts {name(v)} back into the stack.",
            }.get(why, f"{who} picks {name(v)}.")
        if kind == "card":
            if v == "none":
                return {"destroy": f"{who} destroys nothing.", "discard": f"{who} discards nothing."}.get(
                    why, f"{who} picks nothing."
                )
            zone, _, cid = v.rpartition(":")
            if zone == "token":
                return f"{who} puts {name(cid)} back into the stack instead."
            whose = "" if pr.get("of") in (None, seat) else f"seat {pr['of']}'s "
            return {
                "pass": f"{who} passes {name(cid)}.",
                "discard": f"{who} discards {name(cid)}.",
                "trophy": f"{who} discards {name(cid)} (the Trophy's extra card).",
                "destroy": f"{who} destroys {whose}{name(cid)}"
                + (f" from their {zone}." if zone and not whose else "."),
                "give": f"{who} gives away {name(cid)}.",
                "return": f"{who} returns {whose}{name(cid)} to its owner's discard pile.",
            }.get(why, f"{who} picks {name(cid)}.")
        return f"{who} answers."  # pragma: no cover - every prompt kind is told above

    def resample_hidden(self, state: State, viewer: int | None, rng) -> State:
        """Hidden from ``viewer``: each other seat's hand and deck pool (their union is public,
        so they are reshuffled within the seat), the top of a deck a private draw is due from
        (drawing_privately: reshuffled with that seat's hand and pool), and, during setup, the
        tiles and Familiars dealt to others, chosen but not yet shown, returned or never dealt."""
        st = copy_state(state)
        if st["phase"] == "over":
            return st  # a finished game shows every hand (AN L191: all cards are counted openly)
        for p in st["players"]:
            # copy_state shares these with ``state`` (no apply writes into them); this does.
            p["tile_dealt"], p["familiar_dealt"] = p["tile_dealt"][:], p["familiar_dealt"][:]

        def shuffle(items: list) -> list:
            items = list(items)
            for i in range(len(items) - 1, 0, -1):
                j = int(rng.random() * (i + 1))
                items[i], items[j] = items[j], items[i]
            return items

        drawing = self.drawing_privately(st)
        for s, p in enumerate(st["players"]):
            if s == viewer:
                continue
            top = p["top"] if s == drawing else []
            both = shuffle(p["hand"] + top + p["pool"])
            k, t = len(p["hand"]), len(top)
            p["hand"] = sorted(both[:k])
            if t:
                p["top"] = sorted(both[k : k + t])
            p["pool"] = sorted(both[k + t :])
        for cat in ("tile", "familiar"):
            slots: list[tuple] = []
            values: list[str] = []
            for i, c in enumerate(st["box"][cat]):
                slots.append(("box", i))
                values.append(c)
            for s, p in enumerate(st["players"]):
                if s == viewer:
                    continue
                for i, c in enumerate(p[f"{cat}_dealt"]):
                    slots.append(("dealt", s, i))
                    values.append(c)
                if p[cat] is not None and not st["revealed"][cat]:
                    slots.append(("chosen", s))
                    values.append(p[cat])
            values = shuffle(values)
            for slot, value in zip(slots, values):
                if slot[0] == "box":
                    st["box"][cat][slot[1]] = value
                elif slot[0] == "dealt":
                    st["players"][slot[1]][f"{cat}_dealt"][slot[2]] = value
                else:
                    st["players"][slot[1]][cat] = value
            st["box"][cat].sort()
            for p in st["players"]:
                p[f"{cat}_dealt"].sort()
        pr = st["prompt"]
        if pr is not None and "seats" in pr:
            # Version 2: the other seats' secret answers, any answer their (resampled) hand allows.
            for key in sorted(pr["answers"]):
                if int(key) != viewer:
                    options = self.prompt_options(st, int(key))
                    pr["answers"][key] = options[int(rng.random() * len(options))]
        return st

    def redact_action(self, seat: int, action: Action, viewer: int | None) -> Action:
        # Version 2: a defense answer is secret until every asked seat has answered; the answers
        # are then shown by the state (last_defense, the next log line), never by the event.
        # Version 3: so is a setup keep until every seat has kept (AN-R19); the view shows the
        # kept tiles and Familiars then. (The platform shows every event once the match is over.)
        if isinstance(action, dict) and viewer != seat and action.get("type") in ("defend", "keep"):
            return {"type": action["type"]}
        return action

    # -- bots -----------------------------------------------------------------------------------
    def bot_action(self, bot: str, state: State, seat: int, rng) -> Action:
        if not self.in_game(state, seat):
            raise IllegalAction(f"Seat {seat} has left the game.", code="not_in_game")
        if bot == "heuristic":
            return bots.heuristic_action(self, state, seat, rng)
        return super().bot_action(bot, state, seat, rng)
