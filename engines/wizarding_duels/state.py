"""Small helpers over the JSON state: lookups, traits, positions, power and the step queue."""

from __future__ import annotations

from typing import Any

from . import content, geometry

State = dict[str, Any]


#: ``content``'s memos of the packs and boards loaded (``load.cache_clear`` empties the same
#: dicts), read here with no call: the engine asks for a state's pack or board several times an
#: event (issue 17, P1). What is not in them yet, ``content`` loads or builds, as before.
_LOADED = content._LOADED
_BOARDS = content._BOARDS


def pack(s: State) -> content.Pack:
    try:
        return _LOADED[s["pack"]]
    except KeyError:
        return content.load(s["pack"])


def board(s: State) -> geometry.Board | None:
    # Both keys are in every state (``setup``): read without a method call (issue 17, P1). A
    # board is only ever kept under a chosen map and Nexus colour, so a state with none (None)
    # finds nothing kept and is told apart after the lookup, not before it on every call.
    try:
        return _BOARDS[s["pack"]][s["map"]][s["nexus"]]
    except KeyError:
        if not s["map"] or not s["nexus"]:
            return None
        return content.board(s["pack"], s["map"], s["nexus"])


def P(s: State, seat: int) -> dict:
    return s["players"][seat]


def M(s: State, uid: str) -> dict:
    return s["models"][uid]


def other(seat: int) -> int:
    return 1 - seat


def traits(m: dict) -> dict[str, int]:
    return m["traits"]


def has(m: dict, t: str) -> bool:
    return t in m["traits"]


def alive(s: State, seat: int | None = None) -> list[dict]:
    """Living models on the board (or waiting to deploy), in uid order."""
    # The kept uid lists (``LIVING``), looked up in C: no sort or filter of every model a call
    # (issue 17, P1). A seat's uids begin with its number, so seat 0's list, then seat 1's, is
    # every living uid in uid order.
    lv = living_of(s)
    get = s["models"].__getitem__
    if seat is None:
        return list(map(get, lv[0] + lv[1]))
    return list(map(get, lv[seat]))


#: ``alive``'s models, for a caller that does not rely on their order: a step that changes each
#: model by itself, reading nothing another model's change writes, where the order cannot matter
#: (the round's start and end, the cooldown, the Power Pool; issue 17, P1). With the living uids
#: kept (``LIVING``) it is ``alive`` itself, under the name that says the order is not relied on.
alive_unordered = alive


def any_alive(s: State, seat: int) -> bool:
    """``bool(alive(s, seat))`` without listing (issue 17, P1)."""
    return bool(living_of(s)[seat])


def on_board(s: State, seat: int | None = None) -> list[dict]:
    """Living models on the board, in uid order (``alive``'s, without its undeployed ones)."""
    lv = living_of(s)
    models = s["models"]
    # A loop, not a comprehension (no function and frame made each call; issue 17, P1).
    out = []
    for uid in lv[0] + lv[1] if seat is None else lv[seat]:
        m = models[uid]
        if m["hex"] is not None:
            out.append(m)
    return out


def hex_of(m: dict) -> tuple[int, int]:
    return geometry.parse(m["hex"])


def occupant(s: State, h: tuple[int, int]) -> dict | None:
    k = geometry.key(h)
    for m in on_board(s):
        if m["hex"] == k:
            return m
    return None


def overlay_at(s: State, h) -> dict | None:
    k = geometry.key(h) if not isinstance(h, str) else h
    for o in s["overlays"]:
        if o["hex"] == k:
            return o
    return None


#: The state's keys that are derived: each a pure function of the rest of the state, kept so the
#: engine need not work it out again (``Engine.derived_keys``; the goldens and the verifier's
#: comparison of a stored state leave them out, and ``view`` shows none of them).
#:
#: ``board_key``: ``board_key(s)``, one text naming the board (pack, map, Nexus) and what of its
#: overlays can change a space's terrain or what a model controls, rewritten by every write to
#: any of them (``board_changed``). The board's memos (route searches and their terrain, the
#: quests' tables) are kept by it, where each use built and hashed a tuple of every overlay's
#: fields (issue 17, P1); its hash Python works out once per text. A state saved without it
#: (before it was kept) is read through ``board_key_of``.
#:
#: ``living``: ``living(s)``, each seat's living models' uids (not ``removed``, deployed or not) in
#: uid order, ``[[seat 0's], [seat 1's]]``. Only a Group's installing adds models and only
#: ``remove_model`` removes one; both rewrite it (``living_changed``). ``alive``, ``on_board`` and
#: ``any_alive`` read it, where each call sorted and filtered every model (issue 17, P1). A state
#: saved without it is read through ``living_of``.
#:
#: ``spaces``: ``spaces(s)``, each seat's living models on the board by space, ``[{space: uid},
#: {space: uid}]`` (a space holds one model). Every write of a model's space goes through
#: ``set_space``, which moves the model's entry; a state made otherwise (a scenario) is rewritten
#: whole (``spaces_changed``). "Is a model on this space" and the quest conditions that count a
#: seat's models on some spaces read it, where each walked every model (issue 17, P1). A state
#: saved without it is read through ``spaces_of``.
BOARD_KEY = "board_key"
LIVING = "living"
SPACES = "spaces"
DERIVED_KEYS = (BOARD_KEY, LIVING, SPACES)


def board_key(s: State) -> str:
    """The pack, map and Nexus, then the overlays in their order: each one's space, kind and face,
    with its identity only when face up. A face-down overlay's identity is hidden from the other
    seat (``view``) and changes no terrain (``terrain``), so it is left out: the key holds nothing
    a seat may not see, and a bot's guess at the identity (``hidden``) does not change it."""
    # The parts in a loop, not a generator (a frame, resumed once per overlay; issue 17, P1).
    parts = []
    for o in s["overlays"]:
        parts.append(f"{o['hex']}|{o['kind']}|+{o['what']}" if o["face_up"] else f"{o['hex']}|{o['kind']}|-")
    return f"{s['pack']}/{s['map']}/{s['nexus']}:" + ";".join(parts)


def board_changed(s: State) -> None:
    """Rewrite ``s[BOARD_KEY]`` after a write to the map, the Nexus or the overlays: every such
    writer calls it (``test_derived_keys.py`` holds the key to ``board_key`` along playouts)."""
    s[BOARD_KEY] = board_key(s)


def overlay_placed(s: State) -> None:
    """``board_changed`` after a face-down overlay was put at the end of the overlays (a set-up
    placement): ``board_key`` of the overlays before it with the new one's part joined at the end,
    where the whole key was written again from every overlay (issue 17, P1). A state without the
    key (saved before it was kept) gets the whole key."""
    k = s.get(BOARD_KEY)
    if k is None:
        board_changed(s)
        return
    overlays = s["overlays"]
    o = overlays[-1]
    part = f"{o['hex']}|{o['kind']}|-"  # ``board_key``'s part of a face-down overlay
    s[BOARD_KEY] = f"{k};{part}" if len(overlays) > 1 else k + part


def board_key_of(s: State) -> str:
    """``s[BOARD_KEY]``, or worked out for a state saved without it."""
    k = s.get(BOARD_KEY)
    return k if k is not None else board_key(s)


def living(s: State) -> list[list[str]]:
    """Each seat's living models' uids (``removed`` false), in uid order."""
    out: list[list[str]] = [[], []]
    models = s["models"]
    for uid in sorted(models):
        m = models[uid]
        if not m["removed"]:
            out[m["seat"]].append(uid)
    return out


def living_changed(s: State) -> None:
    """Rewrite ``s[LIVING]`` after models are added or one is removed: every such writer calls it
    (``test_derived_keys.py`` holds the key to ``living`` along playouts)."""
    s[LIVING] = living(s)


def spaces(s: State) -> list[dict[str, str]]:
    """Each seat's living models on the board (``removed`` false, a space) by space."""
    out: list[dict[str, str]] = [{}, {}]
    for uid, m in s["models"].items():
        if m["hex"] is not None and not m["removed"]:
            out[m["seat"]][m["hex"]] = uid
    return out


def spaces_changed(s: State) -> None:
    """Rewrite ``s[SPACES]`` after models were placed other than by ``set_space``."""
    s[SPACES] = spaces(s)


def spaces_of(s: State) -> list[dict[str, str]]:
    """``s[SPACES]``, or worked out for a state saved without it (and for a view)."""
    sp = s.get(SPACES)
    return sp if sp is not None else spaces(s)


def set_space(s: State, m: dict, k: str | None) -> None:
    """Put living model ``m`` on space ``k`` (None: off the board), with its entry in ``spaces``."""
    sp = s.get(SPACES)
    if sp is not None:
        mine = sp[m["seat"]]
        if m["hex"] is not None:
            del mine[m["hex"]]
        if k is not None:
            mine[k] = m["uid"]
    m["hex"] = k


def living_of(s: State) -> list[list[str]]:
    """``s[LIVING]``, or worked out for a state saved without it (and for a view, which shows no
    derived key)."""
    lv = s.get(LIVING)
    return lv if lv is not None else living(s)


#: Board-specific rules for Mystery overlays (V-3, L725), named in a map's ``special_rules``.
#: ``mystery_difficult``: a space holding an overlay on its Mystery side is Difficult terrain.
MYSTERY_TERRAIN = {"mystery_difficult": "difficult"}


def terrain(s: State, h) -> str | None:
    """Effective terrain: a face-up Terrain overlay's type, else the printed terrain (L1514-1535);
    on a board with a Mystery rule (V-3, L725) a face-down overlay's space takes that rule's terrain."""
    b = board(s)
    t = b.terrain.get(h)
    if t is None:
        return None
    # ``overlay_at(s, h)``, with the space's name the board keeps (a board space has one): route
    # searches ask this of many spaces (issue 17, P1).
    k = b.keys[h]
    for o in s["overlays"]:
        if o["hex"] == k:
            break
    else:
        return t
    if o["face_up"]:
        return o["what"] if o["kind"] == "terrain" else t
    for rule in pack(s).maps[s["map"]].get("special_rules", ()):
        if rule in MYSTERY_TERRAIN:
            return MYSTERY_TERRAIN[rule]
    return t


def controls(s: State, m: dict, kind: str | None = None) -> dict | None:
    """The face-up overlay in this model's space, if any (L1174, ruling A-49)."""
    if m["hex"] is None or m["removed"]:
        return None
    o = overlay_at(s, m["hex"])
    if o and o["face_up"] and (kind is None or o["kind"] == kind):
        return o
    return None


def in_zone(s: State, m: dict, seat: int) -> bool:
    """Is the model in ``seat``'s Zone (the half that seat chose)?"""
    return m["hex"] is not None and board(s).in_zone(hex_of(m), s["zone_half"][seat])


def capacity(m: dict) -> int:
    """Impacts a model can carry: 4, or X for Large X / Small X (L902-906, L1340-1342, L1402-1404)."""
    t = m["traits"]
    if "large" in t:
        return t["large"]
    if "small" in t:
        return t["small"]
    return 4


def pool_total(p: dict) -> int:
    return p["pool"]["light"] + p["pool"]["dark"]


def can_pay(p: dict, n: int, colour: str) -> bool:
    if n <= 0:
        return True
    if colour in ("light", "dark"):
        return p["pool"][colour] >= n
    return pool_total(p) >= n


def rules_version(s: State) -> int:
    """Which rules a state plays: 1 (engine version 1, kept for replay) or 2 (RULES.md, "Versions")."""
    return s.get("rules", 1)


def free_colour(colour: str) -> bool:
    """A cost the payer may pay in either colour (a Neutral spell A-18, a defender L1065, a lower part 'any')."""
    return colour not in ("light", "dark")


def pay_splits(p: dict, n: int, colour: str) -> list[int]:
    """How many white markers a payment of ``n`` in a free colour may take: every split the pool allows."""
    if n <= 0 or not free_colour(colour):
        return []
    lo, hi = max(0, n - p["pool"]["dark"]), min(n, p["pool"]["light"])
    return list(range(lo, hi + 1))


def pay(p: dict, n: int, colour: str, dest: dict | None = None, light: int | None = None) -> dict:
    """Take ``n`` markers from the pool and put them in the Spent zone, or on ``dest`` (an upkept
    spell). For a free colour the payer says how many are white (``light``, version 2); without
    it the larger heap pays first (version 1's ruling). Returns what was paid."""
    paid = {"light": 0, "dark": 0}
    for i in range(max(0, n)):
        if colour in ("light", "dark"):
            c = colour
        elif light is not None:
            c = "light" if i < light else "dark"
        else:
            c = "light" if p["pool"]["light"] >= p["pool"]["dark"] else "dark"
        p["pool"][c] -= 1
        paid[c] += 1
    target = dest if dest is not None else p["spent"]
    for c in ("light", "dark"):
        target[c] += paid[c]
    return paid


def regain(p: dict, n: int) -> None:
    """Move up to ``n`` markers from Spent back to the pool (the larger heap first)."""
    for _ in range(n):
        if p["spent"]["light"] + p["spent"]["dark"] == 0:
            return
        c = "light" if p["spent"]["light"] >= p["spent"]["dark"] else "dark"
        p["spent"][c] -= 1
        p["pool"][c] += 1


#: Each Clash card kind's upper number as ``card_value`` reads it (a 2+ counts 2), by pack: a
#: clash's total reads two to four cards (issue 17, P1).
_CARD_VALUES = content.PerPack(
    lambda pack_id: {
        kind: 2 if c["upper"] == "2+" else int(c["upper"]) for kind, c in content.load(pack_id).clash_cards.items()
    }
)


def card_value(s: State, uid: str | None) -> int:
    """The upper number of a card (a 2+ counts 2; a blank from an empty deck counts 0)."""
    if uid is None or uid.startswith("blank"):
        return 0
    return _CARD_VALUES[s["pack"]][s["cards"][uid]]


def is_two_plus(s: State, uid: str | None) -> bool:
    return uid is not None and not uid.startswith("blank") and pack(s).clash_cards[s["cards"][uid]]["upper"] == "2+"


def rank(s: State, uid: str) -> int:
    """Ruling A-09: 2+ > +3 > +2 > +1 > 0 (Lucky ranks as 2+, Jinxed as 0)."""
    return 4 if is_two_plus(s, uid) else card_value(s, uid)


#: Each Clash card kind's lower part, by pack: every faced clash asks it of its four lower-part
#: windows (issue 17, P1).
_LOWERS = content.PerPack(lambda pack_id: {kind: c["lower"] for kind, c in content.load(pack_id).clash_cards.items()})


def lower(s: State, uid: str | None) -> dict | None:
    if uid is None or uid.startswith("blank"):
        return None
    return _LOWERS[s["pack"]][s["cards"][uid]]


def push_front(s: State, *steps: dict) -> None:
    # A copy of each step, made in C (no comprehension's frame; issue 17, P1).
    s["queue"][0:0] = map(dict, steps)


def push_new(s: State, steps: list[dict]) -> None:
    """``push_front`` for steps the caller has just made and holds nowhere else (dict displays,
    ``open_clash``'s list): they go into the queue as they are, with no copy (issue 17, P1)."""
    s["queue"][0:0] = steps
