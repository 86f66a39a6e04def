"""The heuristic bot: builds Mass-heavy spells, launches them and steers them into opponents.

It reads only what its own seat may see: its own cards, open cards, the board and public counts.
A closed card of another seat is assumed to be worth 2 (the average of a suit is 2).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import board as B
from .engine import (
    SECTIONS,
    element_of,
    legal_slots,
    locks_of,
    slot_fits,
    spell_at,
    unref,
    value_of,
)

ALLOCATION = {"type": "allocate", "life_force": 2, "will": 2, "focus": 0, "skill": 2}
UNKNOWN_VALUE = 2


@cache
def distance(a: str, b: str) -> int:
    """Steps between two points along any paths."""
    seen, frontier, d = {a}, [a], 0
    while frontier:
        if b in frontier:
            return d
        d += 1
        nxt = []
        for p in frontier:
            for q in B.adjacent(p):
                if q not in seen:
                    seen.add(q)
                    nxt.append(q)
        frontier = nxt
    return 99


def _enemies(state: dict[str, Any], seat: int) -> list[int]:
    return [s for s in range(state["n"]) if s != seat and state["alive"][s]]


def _value(card: dict[str, Any], seat: int, owner: int) -> int:
    return value_of(card["id"]) if card["open"] or owner == seat else UNKNOWN_VALUE


def _damage_at(state: dict[str, Any], seat: int, r: str, point: str) -> int:
    owner, _ = unref(r)
    sp = spell_at(state, r)
    live = B.active(point)
    return sum(_value(c, seat, owner) for c in sp["mass"] if element_of(c["id"]) in live)


def _hit_score(state: dict[str, Any], seat: int, r: str, point: str) -> float:
    """What striking ``point`` is worth to ``seat``: damage to enemies, minus twice its own."""
    score = 0.0
    for s in range(state["n"]):
        if state["alive"][s] and state["casters"][s]["point"] == point:
            dmg = _damage_at(state, seat, r, point)
            score += -2.0 * dmg - 1 if s == seat else dmg + 0.5
    return score


def _nearest_enemy(state: dict[str, Any], seat: int, point: str) -> int:
    return min((distance(point, state["casters"][s]["point"]) for s in _enemies(state, seat)), default=0)


def best_step(state: dict[str, Any], seat: int, top: dict[str, Any]) -> str:
    """The first step of the best route over the Motion cards still to be played."""
    r = top["spell"]
    sp = spell_at(state, r)
    motion = [element_of(c["id"]) for c in sp["motion"]]
    values = [value_of(c["id"]) for c in sp["motion"]]
    memo: dict[tuple, float] = {}

    def rest(point: str, card: int, left: int) -> float:
        key = (point, card, left)
        if key in memo:
            return memo[key]
        while left == 0:
            card += 1
            if card > top["last"]:
                memo[key] = -0.1 * _nearest_enemy(state, seat, point)
                return memo[key]
            left = values[card]
        options = B.along(point, motion[card])
        if not options:
            memo[key] = -0.1 * _nearest_enemy(state, seat, point)
            return memo[key]
        memo[key] = max(_after(q, card, left - 1) for q in options)
        return memo[key]

    def _after(q: str, card: int, left: int) -> float:
        hit = any(state["alive"][s] and state["casters"][s]["point"] == q for s in range(state["n"]))
        if hit:
            return _hit_score(state, seat, r, q)
        return rest(q, card, left)

    options = B.along(sp["point"], motion[top["card"]])
    scored = [(_after(q, top["card"], top["left"] - 1), q) for q in options]
    return max(scored)[1]


def _keep_score(state: dict[str, Any], seat: int, cid: str, slot: int, section: str) -> float:
    c = state["casters"][seat]
    sp = c["display"][slot]
    v, e = value_of(cid), element_of(cid)
    enemy_points = [state["casters"][s]["point"] for s in _enemies(state, seat)]
    if section == "motion":
        if sp is not None and sp["motion"]:
            return -1.0 + 0.1 * v
        # one Motion card, of an element active where the caster stands, with a few steps
        return 6.0 + (2.0 if e in B.active(c["point"]) else 0.0) + min(v, 3) * 0.5
    # Mass counts where the enemies are likely to stand; everything counts a little.
    hits = sum(1 for p in enemy_points if e in B.active(p))
    return v * (1.0 + hits) + (0.5 if sp is not None else 0.0)


def heuristic_action(engine, state: dict[str, Any], seat: int, rng) -> dict[str, Any]:
    legal = engine.legal_actions(state, seat)
    if len(legal) == 1:
        return legal[0]
    if state["phase"] == "allocate":
        return ALLOCATION
    c = state["casters"][seat]
    if state["stack"]:
        top = state["stack"][-1]
        p = top["p"]
        if p == "draw":

            def src_score(a):
                src = a["from"]
                if src in B.ELEMENTS:
                    return 2.5 + rng.random()
                fits = legal_slots(state, seat, src)
                return (value_of(src) + 1 if fits else 0) + rng.random()

            return max(legal, key=src_score)
        if p == "keep":
            if legal[0]["type"] == "keep_none":
                return legal[0]
            return max(
                legal, key=lambda a: _keep_score(state, seat, c["hand"][a["card"]]["id"], a["spell"], a["section"])
            )
        if p == "place":
            places = [a for a in legal if a["type"] == "place"]
            cid = c["hand"][0]["id"]
            if not places:
                return {"type": "return_up"}
            best = max(places, key=lambda a: _keep_score(state, seat, cid, a["spell"], a["section"]))
            if _keep_score(state, seat, cid, best["spell"], best["section"]) < 1.0:
                return {"type": "return_up"}
            return best
        if p == "launch":
            best, best_mass = None, 0
            for a in legal:
                if a["type"] != "launch":
                    continue
                sp = spell_at(state, a["spell"])
                mass = sum(value_of(x["id"]) for x in sp["mass"])
                _, slot = unref(a["spell"])
                room = any(slot_fits(state, seat, slot, sec, f"{seat}-fire-1-a") for sec in SECTIONS)
                if mass >= 3 or (mass >= 1 and not room) or len(sp["mass"]) >= 3:
                    if mass > best_mass:
                        best, best_mass = a, mass
            return best or {"type": "no_launch"}
        if p == "contest":
            con = state["contest"]
            if con["stage"] == "offer":
                # Contest only with a clear lead in unused tokens: a lost contest costs the token.
                theirs = state["casters"][con["caster"]]["tokens"]
                return {"type": "will", "place": c["tokens"] - 1 >= theirs + 3}
            return legal[0]
        if p == "steps":
            return {"type": "step", "to": best_step(state, seat, top)}
        if p == "return":
            cards = top["cards"]
            up = [i for i, card in enumerate(cards) if value_of(card["id"]) >= 3]
            return {"type": "return", "up": up}
        if p == "wild_pick":
            picks = [a for a in legal if a["type"] == "wild_pick"]

            def wild_score(a):
                sp = spell_at(state, a["spell"])
                mine = distance(sp["point"], c["point"])
                theirs = _nearest_enemy(state, seat, sp["point"])
                return mine - theirs

            best = max(picks, key=wild_score) if picks else None
            return best if best is not None else {"type": "wild_pass"}
        if p == "wild_next":
            return legal[int(rng.random() * len(legal))]
        return legal[int(rng.random() * len(legal))]
    # -- a turn of its own --
    kinds = {}
    for a in legal:
        kinds.setdefault(a["type"], []).append(a)
    t = state["turn"]
    if "control" in kinds and t["left"] <= len(kinds["control"]):
        return kinds["control"][0]  # keep every launched spell under control rather than let it go wild
    if "conjure" in kinds and not t["first_done"]:
        wounded = c["life"] <= len(c["squares"]) // 3
        if wounded and "rest" in kinds and len(B.active(c["point"])) >= 3:
            return {"type": "rest"}
        return {"type": "conjure", "cards": 3}
    if "free_launch" in kinds:
        return kinds["free_launch"][0]
    if "control" in kinds:
        return kinds["control"][0]
    for a in kinds.get("abandon", []):
        if a["spell"] not in t["controlled"]:
            return a  # it cannot be controlled this turn: let it go rather than stall
    for r in locks_of(state, seat):
        if r in t["handled"]:
            continue
        cont = {"type": "continue", "spell": r}
        if cont in legal:
            return cont
        return {"type": "withdraw", "spell": r}
    if "capture" in kinds and c["tokens"] >= 3:
        return kinds["capture"][0]
    if "move" in kinds:
        # toward the centre (more elements to conjure from) but not onto a familiar
        here = c["point"]
        hostile = {
            sp["point"]
            for o in state["casters"]
            for sp in o["display"]
            if sp is not None and sp["state"] in ("launched", "wild")
        }
        target = "C"
        if here != target:
            moves = [a for a in kinds["move"] if a["to"] not in hostile]
            if moves:
                best = min(moves, key=lambda a: (distance(a["to"], target), a["to"]))
                if distance(best["to"], target) < distance(here, target):
                    return best
    if "end_turn" in kinds:
        return kinds["end_turn"][0]
    return legal[int(rng.random() * len(legal))]
