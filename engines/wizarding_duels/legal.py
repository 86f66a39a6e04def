"""Is one action legal now? ``allowed(s, st, seat, action)`` answers exactly what
``action in rules.options(s, st, seat)`` answers, for the one action (issue 17, P1).

Listing every answer to check one was most of a replay's cost: a move listed every destination
and every route's danger count, a cast every target of every spell with its line of sight, a
challenge placement every space of the board. Here the action's own fields pick the one answer it
could be, and only that answer's conditions are worked out. Each check then compares the action
with that answer as a whole dict (``action == {...}``), so extra keys and Python's equality (1 ==
1.0 == True) are judged as the list membership judged them. Steps whose list is a handful of
answers with no search (pass / peek, a swap, an Empowerment payment) still take the list.
``tests/engines/wizarding_duels/test_direct_check.py`` checks this agreement on recorded
playouts, for every listed answer and for near misses of them.
"""

from __future__ import annotations

from . import geometry, rules
from .state import M, P, State, board, controls, has, hex_of, other, pack, rules_version, terrain

#: The answers' fields that hold a flag (``"keep"``, ``"use"``, ``"animal"``); every other
#: number an answer holds is a count or an index.
FLAGS = frozenset(("keep", "use", "animal"))


def typed(action: dict) -> bool:
    """Are ``action``'s flags JSON booleans and its numbers JSON integers, as the options write
    them? Membership alone compares as Python does (``1 == 1.0 == True``), which let ``true`` or
    ``1.0`` stand for a danger count or a split (and put a float in the state), and ``1`` for a
    flag (RULES.md, "Answers are typed")."""
    for k, v in action.items():
        t = type(v)
        if t is bool:
            if k not in FLAGS:
                return False
        elif t is float or k in FLAGS:
            return False
    return True


def allowed(s: State, st: dict, seat: int, action: dict, found: list | None = None) -> bool:
    """``action in rules.options(s, st, seat)`` for the front step ``st``; ``action`` is a dict.

    When ``found`` is a list and the action is an allowed move by the safest route (no
    ``dangerous`` field), the number of Dangerous spaces that route enters is appended to it:
    the check has just searched for it, and making the move needs that number and nothing else
    of the search, so ``rules.decide`` takes it instead of asking ``safest_to`` again (issue 17, P1)."""
    check = CHECKS.get(st["step"])
    if check is None:
        return action in rules.options(s, st, seat)
    if found is not None and check in _ROUTED:
        return check(s, st, action, found)
    return check(s, st, action)


def _space(k) -> tuple[int, int] | None:
    """The space a ``"q,r"`` key names, only if ``k`` is written the way the options write it."""
    if not isinstance(k, str):
        return None
    try:
        h = geometry.parse(k)
    except ValueError:
        return None
    return h if geometry.key(h) == k else None


def _model(s: State, uid) -> dict | None:
    """The model ``uid`` names when it is on the board (``on_board``'s test), else None."""
    if not isinstance(uid, str):
        return None
    m = s["models"].get(uid)
    if m is None or m["removed"] or m["hex"] is None:
        return None
    return m


def _move(s: State, m: dict, points: int, action: dict, field: str, fixed: dict, found: list | None = None) -> bool:
    """Is ``action`` one of ``rules.move_choices(s, m, points, make)``, where ``make(k)`` is
    ``{**fixed, field: k}``? (``found``: see ``allowed``.)"""
    k = action.get(field)
    h = _space(k)
    if h is None:
        return False
    safest = rules.safest_to(s, m, points, h)
    if safest is None:
        return False
    if "dangerous" not in action:
        if action != {**fixed, field: k}:
            return False
        if found is not None:
            found.append(safest)
        return True
    if rules_version(s) < 2:
        return False
    danger = action["dangerous"]
    if action != {**fixed, field: k, "dangerous": danger}:
        return False
    if type(danger) is int:
        # The one count asked, searched for alone (issue 17, P1).
        return rules.riskier_route_with(s, m, points, h, safest, danger)
    return danger in rules.riskier_routes_to(s, m, points, h, safest)


def _in_reach_of(s: State, m: dict, uid, seat: int, rng: int) -> bool:
    """Is ``uid`` a model of ``seat`` on the board within ``rng`` of ``m`` and seen by it?"""
    o = _model(s, uid)
    return o is not None and o["seat"] == seat and rules.in_reach(s, m, o, rng)


def _index(items: list, i) -> int | None:
    """The list position ``i`` equals (``i in range(len(items))``, so ``True`` is 1 as in a list's
    ``==``), else None."""
    n = range(len(items))
    if i not in n:
        return None
    return n.index(i)


def _first_unspent(potions: list, i: int) -> bool:
    """Potion ``i`` is unspent and no unspent potion before it has its id (the options list
    each kind of potion once, at its first unspent copy)."""
    pot = potions[i]
    if pot["spent"]:
        return False
    pid = pot["id"]
    # A loop, not ``any`` over a generator: asked for every potion checked (issue 17, P1).
    for j in range(i):
        x = potions[j]
        if not x["spent"] and x["id"] == pid:
            return False
    return True


# ---------------------------------------------------------------------------- the act step


def _act(s: State, st: dict, action: dict, found: list | None = None) -> bool:
    t = action.get("type")
    if t == "end":
        return action == {"type": "end"}
    if not isinstance(t, str) or t not in _ACT_CHECKS:
        return False
    m = s["models"][s["act"]["model"]]
    if m["removed"] or m["hex"] is None or s["game_over"]:
        return False
    if t == "move":
        return _act_move(s, m, action, found)
    return _ACT_CHECKS[t](s, m, action)


def _act_move(s: State, m: dict, action: dict, found: list | None = None) -> bool:
    if not rules._slot(s, "move", m):
        return False
    return _move(s, m, rules.move_points(s, m), action, "to", {"type": "move"}, found)


def _act_attack(s: State, m: dict, action: dict) -> bool:
    if not rules._slot(s, "advanced", m, "elite_fighter"):
        return False
    target = action.get("target")
    o = _model(s, target)
    if o is None or o["seat"] != other(m["seat"]):
        return False
    for prof, art in rules.attack_profiles(s, m):
        answer = {"type": "attack", "attack": prof["id"], "target": target}
        if art:
            answer["artifact"] = art
        if action == answer and rules.in_reach(s, m, o, prof["range"]):
            return True
    return False


def _act_cast(s: State, m: dict, action: dict) -> bool:
    if not rules._slot(s, "advanced", m, "expert_wizard|master_wizard"):
        return False
    sp, target = action.get("spell"), action.get("target")
    if action != {"type": "cast", "spell": sp, "target": target}:
        return False
    if rules.spell_source(s, m, sp) is None:
        return False
    card = pack(s).spells[sp]
    if rules.places_marker(card):
        # rules.marker_spaces for the one space
        h = _space(target)
        b = board(s)
        if h is None or h not in b.terrain:
            return False
        here = hex_of(m)
        return (
            geometry.distance(here, h) <= card["range"]
            and terrain(s, h) != "impassable"
            and (h == here or b.los(here, h))
        )
    # rules.spell_targets for the one target
    if card["combat"]:
        return _in_reach_of(s, m, target, other(m["seat"]), card["range"])
    if card["range"] == 0:
        return target == m["uid"]
    return _in_reach_of(s, m, target, m["seat"], card["range"])


def _act_draw_quest(s: State, m: dict, action: dict) -> bool:
    p = P(s, m["seat"])
    ravenclaw = "ravenclaw" if controls(s, m, "challenge") else ""
    if not p["active"] or not rules._slot(s, "advanced", m, "tactician|" + ravenclaw):
        return False
    q = action.get("discard")
    return action == {"type": "draw_quest", "discard": q} and q in p["active"]


def _act_draw_clash(s: State, m: dict, action: dict) -> bool:
    return (
        action == {"type": "draw_clash"}
        and len(P(s, m["seat"])["hand"]) < rules.HAND_SIZE
        and bool(rules._slot(s, "advanced", m))
    )


def _act_potion(s: State, m: dict, action: dict) -> bool:
    if m["animal"]:
        return False
    p = P(s, m["seat"])
    index, target = action.get("index"), action.get("target")
    i = _index(p["potions"], index)
    if i is None or action != {"type": "potion", "index": index, "target": target}:
        return False
    if not _first_unspent(p["potions"], i):
        return False
    card = pack(s).potions[p["potions"][i]["id"]]
    pm = "potion_mastery" if m["traits"].get("potion_mastery", -1) >= card["level"] else ""
    if not rules._slot(s, "quick", m, pm):
        return False
    if card["range"] == 0:
        return target == m["uid"]
    seat = other(m["seat"]) if rules.potion_offensive(card) else m["seat"]
    return _in_reach_of(s, m, target, seat, card["range"])


def _act_quick(s: State, m: dict, action: dict) -> bool:
    """flip, use_artifact and slytherin: one Quick action of the model."""
    if not rules._slot(s, "quick", m):
        return False
    t = action["type"]
    if t == "flip":
        here = hex_of(m)
        return any(
            action == {"type": "flip", "hex": o["hex"]} and geometry.distance(here, geometry.parse(o["hex"])) <= 1
            for o in s["overlays"]
        )
    if t == "use_artifact":
        arts = pack(s).artifacts
        return any(
            action == {"type": "use_artifact", "artifact": a["id"]}
            and arts[a["id"]]["use"]
            and not a["locked"]
            and not a["used"]
            for a in m["artifacts"]
        )
    return (
        action == {"type": "slytherin"} and has(m, "slytherin") and bool(controls(s, m)) and not s["act"]["slytherin"]
    )


def _act_dark_lord_swap(s: State, m: dict, action: dict) -> bool:
    if not has(m, "dark_lord") or m.get("dark_lord_swap_used"):
        return False
    pk = pack(s)
    p = P(s, m["seat"])
    give, take = action.get("give"), action.get("take")
    if action != {"type": "dark_lord_swap", "give": give, "take": take} or not isinstance(take, str):
        return False
    if not any(sp == give and not p["clocks"].get(sp) for sp in p["spellbook"]):
        return False
    return (
        take in pk.spells
        and take != pk.basic_spell_id
        and take not in p["spellbook"]
        and not any(take in x["spells"] for x in s["models"].values() if x["seat"] == m["seat"])
    )


def _act_herbology(s: State, m: dict, action: dict) -> bool:
    if not has(m, "herbology_expert") or m.get("herbology_used"):
        return False
    pk = pack(s)
    p = P(s, m["seat"])
    index, potion = action.get("index"), action.get("potion")
    i = _index(p["potions"], index)
    if i is None or action != {"type": "herbology", "index": index, "potion": potion} or not isinstance(potion, str):
        return False
    if not _first_unspent(p["potions"], i):
        return False
    own = p["potions"][i]["id"]
    return potion in pk.potions and potion != own and pk.potions[potion]["level"] == pk.potions[own]["level"]


_ACT_CHECKS = {
    "move": _act_move,
    "attack": _act_attack,
    "cast": _act_cast,
    "draw_quest": _act_draw_quest,
    "draw_clash": _act_draw_clash,
    "potion": _act_potion,
    "flip": _act_quick,
    "use_artifact": _act_quick,
    "slytherin": _act_quick,
    "dark_lord_swap": _act_dark_lord_swap,
    "herbology": _act_herbology,
}


# ---------------------------------------------------------------------------- other steps


def _place(s: State, st: dict, action: dict, found: list | None = None) -> bool:
    """rules.place_options for the one answer."""
    kind = st["kind"]
    if kind == "gryffindor":
        if action == {"type": "place", "model": None, "hex": None}:
            return True
        uid = action.get("model")
        m = _model(s, uid)
        if m is None or m["seat"] != st["seat"] or not has(m, "gryffindor"):
            return False
        return _move(s, m, st["n"], action, "hex", {"type": "place", "model": uid}, found)
    m = M(s, st["model"])
    if m["removed"] or m["hex"] is None:
        return False
    if kind == "move":
        return action == {"type": "place", "hex": None} or _move(s, m, st["n"], action, "hex", {"type": "place"}, found)
    if kind == "teleport":
        if action == {"type": "place", "hex": None}:
            return True
        k = action.get("hex")
        h = _space(k)
        if h is None or h not in board(s).terrain or action != {"type": "place", "hex": k}:
            return False
        return (
            0 < geometry.distance(hex_of(m), h) <= st["n"]
            and terrain(s, h) != "impassable"
            and not rules._holds_model(s, k)
        )
    if kind == "push":
        k = action.get("hex")
        h = _space(k)
        return (
            h is not None
            and action == {"type": "place", "hex": k}
            and h in rules.push_options(s, m, geometry.parse(st["source"]))
        )
    return False


def _deploy(s: State, st: dict, action: dict) -> bool:
    uid, k = action.get("model"), action.get("hex")
    h = _space(k)
    if h is None or not isinstance(uid, str) or action != {"type": "deploy", "model": uid, "hex": k}:
        return False
    m = s["models"].get(uid)
    if m is None or m["removed"] or m["seat"] != st["seat"] or m["hex"] is not None:
        return False
    return h in board(s).arrival[s["zone_half"][st["seat"]]] and not rules._holds_model(s, k)


def _activate(s: State, st: dict, action: dict) -> bool:
    uid = action.get("model")
    m = _model(s, uid)
    if m is None or m["seat"] != st["seat"]:
        return False
    if action == {"type": "activate", "model": uid}:
        return True
    return action == {"type": "activate", "model": uid, "animal": True} and has(m, "animagus") and not m["animal"]


def _open_unmarked(s: State, h: tuple[int, int]) -> bool:
    """Printed Open, no Arrival Space of either half, no overlay (``_terrain_hexes``' test)."""
    b = board(s)
    if b.terrain.get(h) != "open" or h in b.arrival[0] or h in b.arrival[1]:
        return False
    k = geometry.key(h)  # once, not once per overlay (issue 17, P1)
    for o in s["overlays"]:
        if o["hex"] == k:
            return False
    return True


def _place_challenge(s: State, st: dict, action: dict) -> bool:
    """rules._challenge_hexes for the one space: a space at the widest spacing some space allows."""
    k = action.get("hex")
    h = _space(k)
    if h is None or action != {"type": "place_challenge", "hex": k}:
        return False
    if not _open_unmarked(s, h) or board(s).at_edge(h):
        return False
    # The challenges' spaces and the least distance to them (3 when none is nearer), in one loop
    # with the distance written out: no comprehension's frame and no call per challenge (issue 17,
    # P1).
    q, r = h
    chal = []
    near = 3
    for o in s["overlays"]:
        if o["kind"] == "challenge":
            c = geometry.parse(o["hex"])
            chal.append(c)
            dq, dr = q - c[0], r - c[1]
            d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2  # ``geometry.distance(h, c)``
            if d < near:
                near = d
    if near >= 3:
        return True  # the widest spacing, which every other space is then offered at too
    # ``h`` keeps the spacing ``near`` (1 or 2: it holds no challenge); the list offers it exactly
    # when no space keeps a wider one. One pass over the board, where listing took one per
    # spacing tried (issue 17, P1).
    return not rules._challenge_space_wider_than(s, chal, near)


def _place_terrain(s: State, st: dict, action: dict) -> bool:
    k, kind = action.get("hex"), action.get("terrain")
    h = _space(k)
    return (
        h is not None
        and action == {"type": "place_terrain", "hex": k, "terrain": kind}
        and kind in ("difficult", "obscuring", "dangerous")
        and _open_unmarked(s, h)
    )


#: The steps checked by working out the action's own answer; any other lists its answers.
CHECKS = {
    "act": _act,
    "place": _place,
    "deploy": _deploy,
    "activate": _activate,
    "place_challenge": _place_challenge,
    "place_terrain": _place_terrain,
}

#: The checks that may find a move's route for ``allowed``'s ``found``.
_ROUTED = (_act, _place)
