"""The original card set ("original-v1") as data, and the schema check that loads it.

Every card is a JSON object in one of the files under ``cards/``; its behaviour is a
*program* (a list of ops, see ``interp.py``), never code. ``load()`` reads every file,
checks every card against the schema below and returns ``{id: card}``. A card that breaks
the schema stops the import with a sentence naming the card, so a bad edit can never reach
a match.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

CARD_DIR = Path(__file__).parent / "cards"
FILES = ("starters", "main", "mayhems", "legends", "familiars", "dwts", "tiles", "stacks")

KINDS = ("starter", "main", "mayhem", "legend", "familiar", "wild_magic", "limp_wand", "dwt", "tile", "standee")
TYPES = ("Wizard", "Creature", "Spell", "Treasure", "Location", "Mayhem", "Legend", "Familiar")
ICONS = ("attack", "defense", "ongoing", "unavoidable")

# The box's physical counts (AN L61-80; issue 11 deliverable 1).
PHYSICAL_COUNTS = {
    "starter": 50,
    "main": 104,
    "mayhem": 20,
    "legend": 12,
    "familiar": 12,
    "wild_magic": 16,
    "limp_wand": 16,
    "dwt": 20,
    "tile": 8,
    "standee": 2,
}

SELECTORS_ONE = ("you", "it", "attacker", "killer", "active")
SELECTORS_CHOICE = ("target_foe", "target_player", "weakest_foe", "strongest_foe")
SELECTORS_MANY = (
    "each_foe",
    "each_player",
    "left",
    "right",
    "left_and_right",
    "weaker_foes",
    "stronger_foes",
    "weakest_players",
    "strongest_players",
)
SELECTORS = SELECTORS_ONE + SELECTORS_CHOICE + SELECTORS_MANY

ZONES_FROM = ("hand", "discard", "hand_or_discard", "deck_top", "lineup", "ongoing")
COUNT_ZONES = ("hand", "discard", "owned", "ongoing", "played", "lineup", "mayhem_pile", "cost5")

# op -> (required keys, optional keys). "op" itself is implied.
OPS: dict[str, tuple[set[str], set[str]]] = {
    "power": ({"n"}, set()),
    "draw": ({"who", "n"}, set()),
    "damage": ({"who", "n"}, {"fatality"}),
    "heal": ({"who", "n"}, set()),
    "pay_hp": ({"n"}, set()),
    "gain": ({"who", "from"}, {"filter", "to"}),
    "discard": ({"who", "n"}, {"filter", "or_token"}),
    "destroy": ({"who", "from", "n"}, {"filter", "may"}),
    "search_top": ({"who", "n", "filter"}, set()),
    "reveal_sort": ({"who", "n"}, set()),
    "return_ongoing": ({"who"}, set()),
    "return_dwt": ({"who"}, set()),
    "give": ({"who"}, set()),
    "grant": ({"who", "static"}, set()),
    "legend_attack_self": (set(), set()),
    "pay_repeat": ({"who", "n", "do"}, set()),
    "swap_dwt": ({"who"}, set()),
    "attack": ({"who", "do"}, {"unavoidable", "interactive", "deny"}),
    "for_each": ({"who", "do"}, set()),
    "may": ({"do"}, {"who"}),
    "choose_one": ({"options"}, set()),
    "if": ({"cond", "then"}, {"else"}),
    "pass": ({"dir"}, set()),
    "play_top": ({"who"}, set()),
    "play_mayhem": (set(), set()),
    "grant_standee": ({"id"}, set()),
}
# Ops that act on one player at a time: a many-player selector runs them once per player.
SINGLE_OPS = (
    "draw",
    "damage",
    "heal",
    "gain",
    "discard",
    "destroy",
    "search_top",
    "reveal_sort",
    "return_ongoing",
    "return_dwt",
    "swap_dwt",
    "give",
    "grant",
    "pay_repeat",
)
GAIN_FROM = ("lineup", "main_top", "limp_wand", "wild_magic")
STATICS = (
    "heal_multiplier",
    "wand_extra",
    "no_mayhem_defense",
    "may_decline_mayhem",
    "counts_as_dwt",
    "wild_magic_cost",
    "respawn_bonus",
)
CONDS = ("killed", "cmp", "at_death", "weakest", "has")
NUM_KEYS = ("count", "dwt_count", "ongoing_count", "hp", "played_distinct", "count_sel")


class CardDataError(ValueError):
    pass


def _fail(card_id: str, msg: str) -> None:
    raise CardDataError(f"card {card_id!r}: {msg}")


def _check_filter(cid: str, flt: Any) -> None:
    if not isinstance(flt, dict):
        _fail(cid, "a filter must be an object")
    allowed = {"type", "kind", "icon", "name", "cost_min", "cost_max", "not_kind"}
    bad = set(flt) - allowed
    if bad:
        _fail(cid, f"unknown filter keys {sorted(bad)}")
    for key in ("type",):
        vals = flt.get(key)
        if vals is not None:
            for v in vals if isinstance(vals, list) else [vals]:
                if v not in TYPES:
                    _fail(cid, f"unknown card type {v!r} in a filter")


def _check_num(cid: str, num: Any) -> None:
    if type(num) is int:
        return
    if not isinstance(num, dict) or not any(k in num for k in NUM_KEYS):
        _fail(cid, f"{num!r} is not a number expression")
    if "count" in num:
        if num["count"] not in COUNT_ZONES:
            _fail(cid, f"cannot count zone {num['count']!r}")
        if "filter" in num:
            _check_filter(cid, num["filter"])
    for key in ("dwt_count", "ongoing_count", "hp", "of"):
        if key in num and num[key] not in SELECTORS_ONE:
            _fail(cid, f"{key} must name one player, not {num[key]!r}")
    if "played_distinct" in num:
        _check_filter(cid, num["played_distinct"])
    if "count_sel" in num and num["count_sel"] not in SELECTORS_MANY:
        _fail(cid, "count_sel counts the players a many-player selector names")
    for key in ("times", "plus", "max"):
        if key in num and type(num[key]) is not int:
            _fail(cid, f"{key} must be a whole number")


def _check_cond(cid: str, cond: Any) -> None:
    if not isinstance(cond, dict) or len(cond) != 1 or next(iter(cond)) not in CONDS:
        _fail(cid, f"{cond!r} is not a condition")
    key, val = next(iter(cond.items()))
    if key == "cmp":
        if not (isinstance(val, list) and len(val) == 3 and val[1] in ("==", "!=", "<", "<=", ">", ">=")):
            _fail(cid, "cmp is [number, operator, number]")
        _check_num(cid, val[0])
        _check_num(cid, val[2])
    elif key in ("killed", "weakest") and val not in SELECTORS_ONE:
        _fail(cid, f"{key} names one player")
    elif key == "has":
        _check_num(
            cid,
            {
                "count": val.get("zone"),
                "of": val.get("of", "you"),
                **({"filter": val["filter"]} if "filter" in val else {}),
            },
        )


def check_program(cid: str, prog: Any, *, in_attack: bool = False) -> None:
    if not isinstance(prog, list):
        _fail(cid, "a program is a list of ops")
    for op in prog:
        if not isinstance(op, dict) or op.get("op") not in OPS:
            _fail(cid, f"unknown op {op!r}")
        required, optional = OPS[op["op"]]
        keys = set(op) - {"op"}
        if not required <= keys:
            _fail(cid, f"op {op['op']} needs {sorted(required - keys)}")
        if keys - required - optional:
            _fail(cid, f"op {op['op']} does not take {sorted(keys - required - optional)}")
        if "who" in op and op["who"] not in SELECTORS:
            _fail(cid, f"unknown selector {op['who']!r}")
        if "n" in op and op["op"] != "discard":
            _check_num(cid, op["n"])
        if op["op"] == "discard" and op["n"] != "all":
            _check_num(cid, op["n"])
        if "filter" in op:
            _check_filter(cid, op["filter"])
        if op["op"] == "gain" and op["from"] not in GAIN_FROM:
            _fail(cid, f"cannot gain from {op['from']!r}")
        if op["op"] == "gain" and op.get("to", "discard") not in ("discard", "hand"):
            _fail(cid, "gained cards go to the discard pile or the hand")
        if op["op"] == "destroy" and op["from"] not in ZONES_FROM:
            _fail(cid, f"cannot destroy from {op['from']!r}")
        if op["op"] == "pass" and op["dir"] not in ("left", "right", "both"):
            _fail(cid, "pass goes left, right or both ways")
        if op["op"] == "grant" and op["static"] not in ("self_target",):
            _fail(cid, f"cannot grant {op['static']!r} for a turn")
        if op["op"] == "attack" and op.get("deny") and op.get("interactive"):
            _fail(cid, "a deny-the-good-effect Attack is not interactive")
        if op["op"] == "attack":
            if in_attack:
                _fail(cid, "an Attack cannot hold another Attack")
            check_program(cid, op["do"], in_attack=True)
        for key in ("do", "then", "else"):
            if key in op and op["op"] != "attack":
                check_program(cid, op[key], in_attack=in_attack)
        if op["op"] == "if":
            _check_cond(cid, op["cond"])
        if op["op"] == "choose_one":
            if not isinstance(op["options"], list) or len(op["options"]) < 2:
                _fail(cid, "choose_one offers at least two options")
            for opt in op["options"]:
                if not isinstance(opt, dict) or set(opt) != {"label", "do"}:
                    _fail(cid, "each option is {label, do}")
                check_program(cid, opt["do"], in_attack=in_attack)


CARD_KEYS = {
    "id",
    "name",
    "kind",
    "type",
    "cost",
    "vp",
    "copies",
    "icons",
    "text",
    "play",
    "defense",
    "ongoing",
    "end_of_turn",
    "group_attack",
    "mayhem",
    "respawn_hp",
    "on_gain",
    "activated",
    "static",
    "wizard",
    "start_of_turn",
    "on_play",
    "on_kill",
    "on_destroy_owned",
    "letter",
}


def _check_vp(cid: str, vp: Any) -> None:
    if type(vp) is int:
        return
    if not isinstance(vp, dict):
        _fail(cid, "VP is a whole number or a formula")
    if "per" in vp:
        _check_num(cid, vp["per"])
    elif "set" in vp:
        if not isinstance(vp["set"], dict) or not all(k.isdigit() and type(v) is int for k, v in vp["set"].items()):
            _fail(cid, "a set VP table maps copies owned to VP")
    else:
        _fail(cid, "a VP formula has 'per' or 'set'")


def check_card(card: Any) -> None:
    if not isinstance(card, dict) or not isinstance(card.get("id"), str):
        raise CardDataError(f"{card!r} is not a card object with an id")
    cid = card["id"]
    extra = set(card) - CARD_KEYS
    if extra:
        _fail(cid, f"unknown keys {sorted(extra)}")
    for key in ("name", "kind", "text"):
        if not isinstance(card.get(key), str) or not card[key]:
            _fail(cid, f"needs a {key}")
    if card["kind"] not in KINDS:
        _fail(cid, f"unknown kind {card['kind']!r}")
    if card.get("type") is not None and card["type"] not in TYPES:
        _fail(cid, f"unknown type {card['type']!r}")
    if type(card.get("copies", 1)) is not int or card.get("copies", 1) < 1:
        _fail(cid, "copies is a positive whole number")
    if card.get("cost") is not None and type(card["cost"]) is not int:
        _fail(cid, "cost is a whole number or null")
    if "vp" in card:
        _check_vp(cid, card["vp"])
    for icon in card.get("icons", []):
        if icon not in ICONS:
            _fail(cid, f"unknown icon {icon!r}")
    for key in ("play", "end_of_turn", "group_attack", "on_gain", "start_of_turn", "on_kill", "on_destroy_owned"):
        if key in card:
            check_program(cid, card[key])
    if "defense" in card:
        d = card["defense"]
        if not isinstance(d, dict) or set(d) - {"redirect", "then"} or type(d.get("redirect", False)) is not bool:
            _fail(cid, "defense is {redirect, then}")
        check_program(cid, d.get("then", []))
        if "defense" not in card.get("icons", []):
            _fail(cid, "a card with a Defense shows the Defense icon")
    if "on_play" in card:
        trig = card["on_play"]
        if not isinstance(trig, dict) or "do" not in trig:
            _fail(cid, "on_play is {filter, cond, do}")
        check_program(cid, trig["do"])
        if "filter" in trig:
            _check_filter(cid, trig["filter"])
        if "cond" in trig:
            _check_cond(cid, trig["cond"])
    if "static" in card:
        if not isinstance(card["static"], dict) or set(card["static"]) - set(STATICS):
            _fail(cid, f"unknown statics {sorted(set(card['static']) - set(STATICS))}")
    if "ongoing" in card.get("icons", []) and card["kind"] in ("main", "legend", "familiar"):
        if "play" not in card and not any(k in card for k in ("start_of_turn", "on_play", "static")):
            _fail(cid, "an Ongoing card needs something to do")
    if "mayhem" in card:
        m = card["mayhem"]
        if not isinstance(m, dict) or set(m) != {"attack", "do"}:
            _fail(cid, "mayhem is {attack, do}")
        check_program(cid, m["do"])
        tops = [op for op in m["do"] if op["op"] == "attack"]
        if m["attack"] != bool(tops):
            _fail(cid, "a Mayhem is an Attack exactly when its program attacks")
    if card["kind"] == "mayhem" and "mayhem" not in card:
        _fail(cid, "a Mayhem needs its mayhem program")
    if card["kind"] == "legend" and type(card.get("cost")) is int and not 8 <= card["cost"] <= 12:
        _fail(cid, "Legends cost 8 to 12 (AN L231)")
    if card["kind"] == "familiar":
        if card.get("cost") != 6 or "defense" not in card or not card.get("wizard"):
            _fail(cid, "a Familiar costs 6, has a Defense and names its Wizard (AN L88, L203, L205)")
    if "activated" in card:
        a = card["activated"]
        if not isinstance(a, dict) or set(a) != {"pay_hp", "do"} or type(a["pay_hp"]) is not int:
            _fail(cid, "activated is {pay_hp, do}")
        check_program(cid, a["do"])
    if card["kind"] == "dwt" and card.get("vp", -3) > -3:
        _fail(cid, "a Dead Wizard Token is worth -3 VP or less (AN L340)")
    if "respawn_hp" in card and not (type(card["respawn_hp"]) is int and 1 <= card["respawn_hp"] <= 25):
        _fail(cid, "respawn HP is 1 to 25")


def _interned(value: Any) -> Any:
    """``value`` (JSON data) with every string in it, keys too, replaced by its interned copy."""
    if type(value) is str:
        return sys.intern(value)
    if type(value) is list:
        return [_interned(v) for v in value]
    if type(value) is dict:
        return {sys.intern(k): _interned(v) for k, v in value.items()}
    return value


def load(directory: Path = CARD_DIR) -> dict[str, dict[str, Any]]:
    cards: dict[str, dict[str, Any]] = {}
    for name in FILES:
        with open(directory / f"{name}.json", encoding="utf-8") as fh:
            data = _interned(json.load(fh))
        if not isinstance(data, list):
            raise CardDataError(f"{name}.json must hold a list of cards")
        for card in data:
            check_card(card)
            if card["id"] in cards:
                raise CardDataError(f"card id {card['id']!r} appears twice")
            cards[card["id"]] = card
    counts: dict[str, int] = {}
    for card in cards.values():
        counts[card["kind"]] = counts.get(card["kind"], 0) + card.get("copies", 1)
    for kind, expected in PHYSICAL_COUNTS.items():
        if counts.get(kind, 0) != expected:
            raise CardDataError(f"the set has {counts.get(kind, 0)} {kind} cards, the box has {expected}")
    return cards


CARDS = load()

#: The two stacks' card ids as the table's own (interned) strings, for the code that puts one
#: into a state: a literal with a hyphen is a string of its own, not the interned one.
WILD_MAGIC = sys.intern("wild-magic")
LIMP_WAND = sys.intern("limp-wand")


def card(cid: str) -> dict[str, Any]:
    return CARDS[cid]


#: of_kind's and physical's answers, worked out once per kind (every setup asks them again): the
#: card table is loaded once and never changed.
_OF_KIND: dict[str, tuple[str, ...]] = {}
_PHYSICAL: dict[str, tuple[str, ...]] = {}


def of_kind(kind: str) -> list[str]:
    """Ids of every design of ``kind``, sorted."""
    got = _OF_KIND.get(kind)
    if got is None:
        got = _OF_KIND[kind] = tuple(sorted(c["id"] for c in CARDS.values() if c["kind"] == kind))
    return list(got)


def physical(kind: str) -> list[str]:
    """One id per physical card of ``kind`` (copies repeated), sorted."""
    got = _PHYSICAL.get(kind)
    if got is None:
        out: list[str] = []
        for cid in of_kind(kind):
            out += [cid] * CARDS[cid].get("copies", 1)
        got = _PHYSICAL[kind] = tuple(out)
    return list(got)


def matches(cid: str, flt: dict[str, Any] | None) -> bool:
    if not flt:
        return True
    c = CARDS[cid]
    if "type" in flt:
        types = flt["type"] if isinstance(flt["type"], list) else [flt["type"]]
        if c.get("type") not in types:
            return False
    if "kind" in flt:
        kinds = flt["kind"] if isinstance(flt["kind"], list) else [flt["kind"]]
        if c["kind"] not in kinds:
            return False
    if "not_kind" in flt and c["kind"] == flt["not_kind"]:
        return False
    if "icon" in flt and flt["icon"] not in c.get("icons", []):
        return False
    if "name" in flt and cid != flt["name"]:
        return False
    cost = c.get("cost") or 0
    if "cost_min" in flt and cost < flt["cost_min"]:
        return False
    if "cost_max" in flt and cost > flt["cost_max"]:
        return False
    return True


def is_ongoing(cid: str) -> bool:
    return "ongoing" in CARDS[cid].get("icons", [])


#: The ids ``is_ongoing`` is true for, for the interpreter's per-play question.
ONGOING = frozenset(cid for cid in CARDS if is_ongoing(cid))
