"""Small helpers over the JSON state: lookups, traits, positions, power and the step queue."""

from __future__ import annotations

from typing import Any

from . import content, geometry

State = dict[str, Any]


def pack(s: State) -> content.Pack:
    return content.load(s["pack"])


def board(s: State) -> geometry.Board | None:
    if not s.get("map") or not s.get("nexus"):
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
    out = [m for _, m in sorted(s["models"].items()) if not m["removed"]]
    return [m for m in out if seat is None or m["seat"] == seat]


def on_board(s: State, seat: int | None = None) -> list[dict]:
    return [m for m in alive(s, seat) if m["hex"] is not None]


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


def terrain(s: State, h) -> str | None:
    """Effective terrain: a face-up Terrain overlay's type, else the printed terrain (L1514-1535)."""
    b = board(s)
    t = b.terrain.get(h)
    if t is None:
        return None
    o = overlay_at(s, h)
    if o and o["kind"] == "terrain" and o["face_up"]:
        return o["what"]
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


def pay(p: dict, n: int, colour: str, dest: dict | None = None) -> dict:
    """Take ``n`` markers from the pool (ruling: for a free colour the larger heap pays first)
    and put them in the Spent zone, or on ``dest`` (an upkept spell). Returns what was paid."""
    paid = {"light": 0, "dark": 0}
    for _ in range(max(0, n)):
        if colour in ("light", "dark"):
            c = colour
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


def card_value(s: State, uid: str | None) -> int:
    """The upper number of a card (a 2+ counts 2; a blank from an empty deck counts 0)."""
    if uid is None or uid.startswith("blank"):
        return 0
    upper = pack(s).clash_cards[s["cards"][uid]]["upper"]
    return 2 if upper == "2+" else int(upper)


def is_two_plus(s: State, uid: str | None) -> bool:
    return uid is not None and not uid.startswith("blank") and pack(s).clash_cards[s["cards"][uid]]["upper"] == "2+"


def rank(s: State, uid: str) -> int:
    """Ruling A-09: 2+ > +3 > +2 > +1 > 0 (Lucky ranks as 2+, Jinxed as 0)."""
    return 4 if is_two_plus(s, uid) else card_value(s, uid)


def lower(s: State, uid: str | None) -> dict | None:
    if uid is None or uid.startswith("blank"):
        return None
    return pack(s).clash_cards[s["cards"][uid]]["lower"]


def push_front(s: State, *steps: dict) -> None:
    s["queue"][0:0] = [dict(x) for x in steps]
