"""resample_hidden: the engine's declaration of what is hidden from a viewer.

Hidden from a viewer (spec section 4.1): another seat's clash hand and the unknown part of every
clash deck (one pool per seat, with any face-down swap card and the face-down Empowerment cards
nobody has seen, and, for other viewers, the Empowerment cards its owner knows from Leadership); another seat's quest deck contents and pre-mulligan hand (one card of each
type in total); another seat's pending secret choices (Group, Stock, mulligan); the type of a
face-down Terrain overlay placed by another seat."""

from __future__ import annotations

import copy

from . import groups
from .content import QUEST_TYPES
from .state import pack


def _shuffle(items: list, rng) -> list:
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        items[i], items[j] = items[j], items[i]
    return items


def resample(state: dict, viewer, rng) -> dict:
    s = copy.deepcopy(state)
    pk = pack(s)
    for seat in (0, 1):
        p = s["players"][seat]
        mine = viewer == seat
        # --- clash cards
        sides = []
        for cl in (s.get("clash"),):
            if cl:
                for name in ("att", "def"):
                    sd = cl.get(name)
                    if sd and sd["seat"] == seat:
                        sides.append(sd)
        pool = list(p["deck"])
        for sd in sides:
            pool += sd["emp_fixed"]
        if not mine:
            pool += p["hand"] + p["known_top"]
            for sd in sides:
                pool += sd.get("emp_known", [])
                if sd["swap"] is not None and not sd["swap_up"]:
                    pool.append(sd["swap"])
        pool = _shuffle(pool, rng)
        if not mine:
            p["hand"] = [pool.pop() for _ in range(len(p["hand"]))]
            p["known_top"] = [pool.pop() for _ in range(len(p["known_top"]))]
            for sd in sides:
                if "emp_known" in sd:
                    sd["emp_known"] = [pool.pop() for _ in range(len(sd["emp_known"]))]
                if sd["swap"] is not None and not sd["swap_up"]:
                    sd["swap"] = pool.pop()
        for sd in sides:
            sd["emp_fixed"] = [pool.pop() for _ in range(len(sd["emp_fixed"]))]
        p["deck"] = sorted(pool)
        # --- quests
        if not mine and p["group"] is not None:
            public = set(p["active"]) | set(p["scored"]) | set(p["quest_discard"])
            public_types = [pk.quests[q]["type"] for q in public]
            hidden_types = [t for t in QUEST_TYPES if t not in public_types]
            for _ in range(20):
                cards = []
                for t in hidden_types:
                    opts = sorted(q for q in pk.quests if pk.quests[q]["type"] == t)
                    cards.append(opts[int(rng.random() * len(opts))])
                deck = sorted(public) + cards
                if sum(pk.quests[q]["lightning"] for q in deck) <= groups.MAX_LIGHTNING:
                    break
            else:
                cards = list(p["quest_deck"]) + list(p["qhand"])
            cards = _shuffle(cards, rng)
            if len(cards) == len(p["quest_deck"]) + len(p["qhand"]):
                p["qhand"] = [cards.pop() for _ in range(len(p["qhand"]))]
                p["quest_deck"] = sorted(cards)
                p["group"]["quests"] = sorted(public) + sorted(p["qhand"]) + list(p["quest_deck"])
    # --- pending secret choices
    for st in s["queue"]:
        if "answers" not in st:
            continue
        for k, ans in st["answers"].items():
            seat = int(k)
            if ans is None or viewer == seat:
                continue
            if st["step"] == "build":
                st["answers"][k] = groups.random_group(pk, s["config"]["galleons"], rng)
            elif st["step"] == "stock":
                models = [m["char"] for _, m in sorted(s["models"].items()) if m["seat"] == seat]
                for _ in range(20):
                    cand = groups.random_stock(pk, models, rng)
                    try:
                        groups.check_stock(pk, models, cand, s["config"]["potion_duplicates"])
                        break
                    except Exception:
                        continue
                st["answers"][k] = cand
            elif st["step"] == "mulligan":
                hand = s["players"][seat]["qhand"]
                st["answers"][k] = {"type": "mulligan", "discard": [q for q in sorted(hand) if rng.random() < 0.5]}
    # --- face-down terrain types
    for o in s["overlays"]:
        if o["kind"] == "terrain" and not o["face_up"] and o["owner"] != viewer:
            o["what"] = ("difficult", "obscuring", "dangerous")[int(rng.random() * 3)]
    return s
