"""Bots.

``random``: a uniformly random legal action, except that it builds a random legal Group and
Stock with the group-building helper (so random games see every kind of model). Games always
end: three rounds of six activations, each activation a finite number of actions.

``heuristic``: builds a random Group, then plays greedily: it empowers and reacts when it can,
keeps the best card, swaps in better hand cards, attacks or casts at the most damaged enemy it
can reach, else lays a fire marker (Cinder Sigil) where it reaches an enemy, otherwise walks to
the nearest free challenge (or the enemy's Arrival Spaces), and uses potions and lower parts that help.
"""

from __future__ import annotations

from engines.base import IllegalAction

from . import geometry, groups, rules
from .state import M, P, board, card_value, controls, hex_of, is_two_plus, on_board, other, pack


def _build(engine, state, seat, rng):
    st = state["queue"][0]
    pk = pack(state)
    if st["step"] == "build":
        return groups.random_group(pk, state["config"]["galleons"], rng)
    models = engine._models_of(state, seat)
    for _ in range(20):
        cand = groups.random_stock(pk, models, rng)
        if engine._stock_ok(state, seat, cand):
            return cand
    return {"type": "potions", "potions": [sorted(p for p in pk.potions if pk.potions[p]["level"] == 0)[0]] * 6}


def random_action(engine, state, seat, rng):
    if state["queue"] and state["queue"][0]["step"] in ("build", "stock"):
        return _build(engine, state, seat, rng)
    actions = engine.legal_actions(state, seat)
    if not actions:
        raise IllegalAction("This seat has no legal action.", code="no_legal_action")
    return actions[int(rng.random() * len(actions))]


def _value(state, uid) -> float:
    return 2.5 if is_two_plus(state, uid) else card_value(state, uid)


def _wants(state, seat) -> set[str]:
    """The condition keys of this seat's active quests."""
    pk = pack(state)
    out: set[str] = set()

    def walk(c):
        for k, v in c.items():
            if k in ("all", "any"):
                for x in v:
                    walk(x)
            else:
                out.add(k)

    for q in P(state, seat)["active"]:
        walk(pk.quests[q]["condition"])
    return out


def _goals(state, seat, mover=None) -> list[tuple[int, int]]:
    taken = {m["hex"] for m in on_board(state, seat) if mover is None or m["uid"] != mover}
    b = board(state)
    goals = [geometry.parse(o["hex"]) for o in state["overlays"] if o["kind"] == "challenge" and o["hex"] not in taken]
    wants = _wants(state, seat)
    enemy = state["zone_half"][other(seat)]
    if wants & {"arrival_spaces"}:
        goals += [h for h in b.arrival[enemy] if geometry.key(h) not in taken]
    if wants & {"models_in_enemy_zone"} or (wants & {"leader"} and mover and M(state, mover)["leader"]):
        goals += [
            h
            for h in b.hexes
            if b.in_zone(h, enemy)
            and not b.in_zone(h, 1 - enemy)
            and geometry.key(h) not in taken
            and b.terrain[h] != "impassable"
        ]
    if wants & {"terrain"}:
        goals += [h for h in b.hexes if b.terrain[h] in ("difficult", "obscuring") and geometry.key(h) not in taken]
    if not goals:
        goals = [h for h in b.arrival[enemy] if geometry.key(h) not in taken]
    return goals


def _goal_distance(state, seat, h, mover=None) -> int:
    goals = _goals(state, seat, mover)
    return min((geometry.distance(h, g) for g in goals), default=0)


def heuristic_action(engine, state, seat, rng):
    st = state["queue"][0]
    name = st["step"]
    if name == "build":
        # Bodies hold challenges: of a few random Groups, take the one with the most models.
        pk = pack(state)
        cands = [groups.random_group(pk, state["config"]["galleons"], rng) for _ in range(12)]
        return max(cands, key=lambda g: (len(g["models"]), sum(pk.characters[m]["galleons"] for m in g["models"])))
    if name == "stock":
        return _build(engine, state, seat, rng)
    actions = engine.legal_actions(state, seat)
    if not actions:
        raise IllegalAction("This seat has no legal action.", code="no_legal_action")
    if len(actions) == 1:
        return actions[0]

    def first(pred):
        return next((a for a in actions if pred(a)), None)

    if name == "mulligan":
        pk = pack(state)
        hard = [q for q in P(state, seat)["qhand"] if pk.quests[q]["points"] >= 3]
        return {"type": "mulligan", "discard": sorted(hard)}
    if name == "place_challenge":
        b = board(state)
        mine = b.arrival[state["zone_half"][seat]]
        return min(actions, key=lambda a: (min(geometry.distance(geometry.parse(a["hex"]), h) for h in mine), a["hex"]))
    if name in ("react", "empower"):
        return first(lambda a: a["type"] in ("react", "empower")) or actions[0]
    if name == "upkeep":
        return first(lambda a: a["keep"]) or actions[0]
    if name in ("early", "late"):
        return first(lambda a: a["use"]) or actions[0]
    if name in ("pick", "brave_pick"):
        return max(actions, key=lambda a: (_value(state, a["card"]), a["card"]))
    if name == "swap":
        kept = state["clash"][st["side"]]["kept"]
        best = max((a for a in actions if a["type"] == "swap"), key=lambda a: _value(state, a["card"]), default=None)
        if best and _value(state, best["card"]) > _value(state, kept) + 0.5:
            return best
        return {"type": "keep_card"}
    if name == "resist":
        return max(actions, key=lambda a: len(a["discard"]))
    if name == "place":
        moves = [a for a in actions if a.get("hex")]
        if st["kind"] == "push" or not moves:
            return actions[0]
        uid = st.get("model")
        return min(
            moves,
            key=lambda a: (_goal_distance(state, seat, geometry.parse(a["hex"]), a.get("model") or uid), a["hex"]),
        )
    if name == "activate":

        def score(a):
            m = M(state, a["model"])
            return (
                m["markers"] == 0,
                -_goal_distance(state, seat, hex_of(m), m["uid"]) if not controls(state, m, "challenge") else -99,
                a.get("animal", False),
                a["model"],
            )

        return max(actions, key=score)
    if name == "act":
        return _act(state, seat, actions)
    return actions[int(rng.random() * len(actions))]


def _act(state, seat, actions):
    pk = pack(state)
    m = M(state, state["act"]["model"])
    # 1. hit the enemy that is closest to removal
    hits = [a for a in actions if a["type"] == "attack" or (a["type"] == "cast" and pk.spells[a["spell"]]["combat"])]
    if hits:

        def dmg(a):
            if a["type"] == "attack":
                prof = next(p for p, _ in rules.attack_profiles(state, m) if p["id"] == a["attack"])
                return prof["damage"] + prof["bonus"]
            sp = pk.spells[a["spell"]]
            return (
                sum(e.get("n", 1) for e in sp["effects"] if e["op"] in ("impacts", "status", "push"))
                + m["mastery"]
                + sp["modifier"]
            )

        return max(
            hits, key=lambda a: (M(state, a["target"])["impacts"], dmg(a), a["type"], a.get("spell", ""), a["target"])
        )

    # 1b. nothing to hit: a fire marker where it reaches the most enemies (it burns them each End Phase)
    def burned(a):
        e = next(e for e in pk.spells[a["spell"]]["effects"] if e["op"] == "marker")
        return sum(
            geometry.distance(geometry.parse(a["target"]), hex_of(o)) <= e["radius"]
            for o in on_board(state, other(seat))
        )

    fires = [
        a
        for a in actions
        if a["type"] == "cast"
        and rules.places_marker(pk.spells[a["spell"]])
        and any(e["op"] == "marker" and e["mark"] == "fire" for e in pk.spells[a["spell"]]["effects"])
    ]
    if fires:
        best = max(fires, key=lambda a: (burned(a), a["target"]))
        if burned(best) >= 1:
            return best
    # 2. heal a damaged model
    p = P(state, seat)
    if m["impacts"] >= 2:
        heal = next(
            (
                a
                for a in actions
                if a["type"] == "potion"
                and a["target"] == m["uid"]
                and any(e["op"] == "heal" for e in pk.potions[p["potions"][a["index"]]["id"]]["effects"])
            ),
            None,
        )
        if heal:
            return heal
    # 3. offensive potions
    pot = next((a for a in actions if a["type"] == "potion" and M(state, a["target"])["seat"] != seat), None)
    if pot:
        return pot
    # 4. walk to a goal
    if not controls(state, m, "challenge"):
        moves = [a for a in actions if a["type"] == "move"]
        here = _goal_distance(state, seat, hex_of(m), m["uid"])
        if moves:
            best = min(moves, key=lambda a: (_goal_distance(state, seat, geometry.parse(a["to"]), m["uid"]), a["to"]))
            if _goal_distance(state, seat, geometry.parse(best["to"]), m["uid"]) < here:
                return best
    # 5. unveil a face-down challenge we could hold; hide one an enemy holds
    mine = {x["hex"] for x in on_board(state, seat)}
    theirs = {x["hex"] for x in on_board(state, other(seat))}
    for a in actions:
        if a["type"] != "flip":
            continue
        o = next(o for o in state["overlays"] if o["hex"] == a["hex"])
        if o["kind"] == "challenge" and not o["face_up"] and o["hex"] in mine:
            return a
        if o["face_up"] and o["hex"] in theirs:
            return a
    # 6. fill the hand
    draw = next((a for a in actions if a["type"] == "draw_clash"), None)
    if draw:
        return draw
    return {"type": "end"}
