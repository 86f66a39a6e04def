"""Casting and resisting, and the effects of the ten league-sanctioned spells.

A cast action names a spell face (``"freeze"``, ``"speed"``, ...) and its targets, each one of
``{"wizard": jersey}``, ``{"ball": id}`` or, for Dispel, ``{"effect": id}``. The targets stand on
distinct squares forming one connected group (king adjacency) of at most MAGIC squares: the
caster's target area. The cast is resolved through the state's queue: one CAST roll (only if
some target resists), one RESIST roll per resisting target, a caster's resist for each
rebound, then the effects, then any choices they need (Teleport destinations, Butter Fingers
drops).
"""

from __future__ import annotations

from typing import Any

from engines.base import IllegalAction, quoted

from . import data, dice
from .geometry import line_of_sight
from .rules import _stands_on, name, sq
from .state import (
    _FACE_BIT,
    Budgets,
    State,
    ball,
    ball_on_fire,
    ball_square,
    cast_bonus,
    clear_line,
    court_of,
    effect_faces,
    effects_changed,
    has_effect,
    occupancy,
    spell_range,
    spend_card,
    stats,
    wizard,
    wizard_squares,
)

Square = tuple[int, int]
MARKERS_PER_SPELL = 3  # three markers of each spell per team (GAME-FACTS, Components)


#: ``data.spell_faces()``, kept on first use: a cast asks for it several times (issue 17, P1).
_FACES: dict[str, dict[str, Any]] = {}


def faces() -> dict[str, dict[str, Any]]:
    if not _FACES:
        _FACES.update(data.spell_faces())
    return _FACES


# ---------------------------------------------------------------------------
# targets


def _ref_square(state: State, ref: dict) -> Square | None:
    if "wizard" in ref:
        w = wizard(state, ref["wizard"])
        return None if w is None or w["out"] else (w["sq"][0], w["sq"][1])
    if "ball" in ref:
        b = ball(state, ref["ball"])
        return None if b is None else ball_square(state, b)
    if "effect" in ref:
        e = _effect(state, ref["effect"])
        if e is None:
            return None
        if e["wizard"] is not None:
            return _ref_square(state, {"wizard": e["wizard"]})
        return _ref_square(state, {"ball": e["ball"]})
    return None


def _effect(state: State, effect_id: Any) -> dict | None:
    for e in state["effects"]:
        if e["id"] == effect_id:
            return e
    return None


def resister_of(state: State, caster_side: int, face_id: str, ref: dict) -> int | None:
    """Who rolls RESIST against this target (None: no roll, the spell simply takes effect).

    Opponent wizards resist; a ball held by an opponent is resisted by its holder; Dispel on
    an effect the other side cast is resisted by the wizard who cast it."""
    if "wizard" in ref:
        w = wizard(state, ref["wizard"])
        return w["j"] if w["side"] != caster_side else None
    if "ball" in ref:
        b = ball(state, ref["ball"])
        if b["holder"] is not None:
            holder = wizard(state, b["holder"])
            return holder["j"] if holder["side"] != caster_side else None
        return None
    if "effect" in ref:
        e = _effect(state, ref["effect"])
        return e["caster"] if e["side"] != caster_side else None
    return None


def candidate_targets(
    state: State, caster: dict, face_id: str, squares=None, only: set | None = None
) -> list[tuple[Square, dict]]:
    """Every single target this caster could put in the area for this face, with its square
    (restricted to the refs in ``only``, as ``(kind, id)`` keys, when given)."""
    face = faces()[face_id]
    c = court_of(state)
    here = (caster["sq"][0], caster["sq"][1])
    rng = spell_range(state, caster["j"])
    if squares is None:
        squares = wizard_squares(state)
    side = caster["side"]
    sight_cache: dict[Square, bool] = {}

    def visible(s: Square) -> bool:
        if s == here:
            return True
        if s not in sight_cache:
            sight_cache[s] = (
                not c.is_neutral(s)
                and max(abs(s[0] - here[0]), abs(s[1] - here[1])) <= rng
                and line_of_sight(here, s, squares)
            )
        return sight_cache[s]

    out: list[tuple[Square, dict]] = []
    kind = face["targets"]
    if kind in ("wizard", "wizard_or_ball"):
        for w in state["wizards"]:
            if w["out"] or (only is not None and ("wizard", w["j"]) not in only):
                continue
            s = (w["sq"][0], w["sq"][1])
            if not visible(s):
                continue
            wf = effect_faces(state, w["j"])
            if face_id in wf:
                continue  # a wizard bears at most one marker of a spell
            if w["side"] == side and "shield" in wf:
                continue  # shielded: cannot be buffed by teammates
            out.append((s, {"wizard": w["j"]}))
    if kind in ("wizard_or_ball", "held_ball"):
        for b in state["balls"]:
            if only is not None and ("ball", b["id"]) not in only:
                continue
            s = ball_square(state, b)
            if s is None or not visible(s):
                continue
            if kind == "held_ball":
                if b["holder"] is None or wizard(state, b["holder"])["side"] != side:
                    continue
                if ball_on_fire(state, b["id"]):
                    continue
            out.append((s, {"ball": b["id"]}))
    if kind == "effect":
        for e in state["effects"]:
            if only is not None and ("effect", e["id"]) not in only:
                continue
            s = _ref_square(state, {"wizard": e["wizard"]} if e["wizard"] is not None else {"ball": e["ball"]})
            if s is not None and visible(s):
                out.append((s, {"effect": e["id"]}))
    return out


def area_size(state: State, caster: dict, face_id: str) -> int:
    face = faces()[face_id]
    if face["targets"] == "effect":
        return 1  # Dispel cancels one spell effect
    size = stats(caster["j"])["magic"]
    if face["marker"]:
        side, card = caster["side"], face["card"]
        in_use = 0  # a loop, not sum over a generator: this runs for every cast (issue 17, P1)
        for e in state["effects"]:
            if e["side"] == side and e["card"] == card:
                in_use += 1
        size = min(size, MARKERS_PER_SPELL - in_use)
    return size


def _connected(squares: list[Square]) -> bool:
    if not squares:
        return False
    seen = {squares[0]}
    stack = [squares[0]]
    rest = set(squares[1:])
    while stack:
        s = stack.pop()
        for o in list(rest):
            if max(abs(o[0] - s[0]), abs(o[1] - s[1])) == 1:
                rest.discard(o)
                seen.add(o)
                stack.append(o)
    return not rest


def card_for(state: State, side: int, face_id: str) -> str:
    face = faces().get(face_id)
    if face is None:
        raise IllegalAction(f"There is no spell called {quoted(face_id, otherwise='that')}.", code="unknown_spell")
    if face["card"] not in state["cards"][side]:
        raise IllegalAction(f"{face['name']} is not on this team's spell list.", code="spell_not_in_list")
    return face["card"]


def caster_reads(state: State, caster: dict, face_id: str) -> tuple[bool, int, int]:
    """(has_effect(Freeze), area_size, spell_range) of a caster casting a face, from one pass
    over the effects where each of the three made a pass of its own (issue 17, P1)."""
    face = faces()[face_id]
    j, side, card = caster["j"], caster["side"], face["card"]
    frozen = boost = drain = False
    in_use = 0
    for e in state["effects"]:
        if e["wizard"] == j:
            f = e["face"]
            if f == "freeze":
                frozen = True
            elif f == "magic_boost":
                boost = True
            elif f == "magic_drain":
                drain = True
        if e["card"] == card and e["side"] == side:
            in_use += 1
    if face["targets"] == "effect":
        size = 1  # Dispel cancels one spell effect
    else:
        size = stats(j)["magic"]
        if face["marker"]:
            size = min(size, MARKERS_PER_SPELL - in_use)
    rng = court_of(state).length
    if boost:
        rng += 4
    if drain:
        rng -= 4
    return frozen, size, rng


def check_cast(state: State, caster: dict, action: dict) -> tuple[str, list[dict]]:
    face_id = action.get("spell")
    if not isinstance(face_id, str):
        raise IllegalAction("Name the spell to cast.", code="unknown_spell")
    card_id = card_for(state, caster["side"], face_id)
    if state["turn"]["actions"] <= 0:
        raise IllegalAction("This wizard has no actions left this turn.", code="no_actions_left")
    frozen, size, rng = caster_reads(state, caster, face_id)
    if frozen:
        raise IllegalAction(f"{name(caster['j'])} is frozen and cannot cast.", code="frozen")
    if not state["cards"][caster["side"]][card_id]["charged"]:
        raise IllegalAction(
            f"{faces()[face_id]['name']} is not charged: it recharges at the end of its caster's next turn.",
            code="spell_not_charged",
        )
    c = court_of(state)
    if c.is_neutral((caster["sq"][0], caster["sq"][1])):
        raise IllegalAction("The Neutral Area is magic free: no casting from it.", code="cast_from_neutral_area")
    targets = action.get("targets")
    if not isinstance(targets, list) or not targets:
        raise IllegalAction("A spell needs at least one target.", code="no_targets")
    if len(targets) > size:
        code = "too_many_targets"
        raise IllegalAction(
            f"{name(caster['j'])} can target an area of at most {size} square(s) with this spell.", code=code
        )
    for ref in targets:
        if type(ref) is dict and len(ref) == 1:  # as an action's JSON gives it: its one item unpacked
            ((key, value),) = ref.items()
            if (key == "wizard" or key == "ball" or key == "effect") and type(value) is int:
                continue
        if (
            not isinstance(ref, dict)
            or len(ref) != 1
            or next(iter(ref)) not in ("wizard", "ball", "effect")
            or type(next(iter(ref.values()))) is not int
        ):
            raise IllegalAction("Each target is {'wizard': n}, {'ball': n} or {'effect': n}.", code="bad_target")
    chosen: list[Square] = []
    norm: list[dict] = []
    targetable = _Targetable(state, caster, face_id)
    targetable.rng = rng
    for ref in targets:
        s = targetable.square(ref)
        if s is None:
            raise IllegalAction(_why_not(state, caster, face_id, ref), code=_why_not_code(state, caster, face_id, ref))
        chosen.append(s)
        norm.append(dict(ref))
    if len(chosen) > 1:  # one square is its own connected area (most casts name one target)
        if len(set(chosen)) != len(chosen):
            raise IllegalAction("Each target must stand on its own square of the target area.", code="bad_target_area")
        if not _connected(chosen):
            raise IllegalAction("The target area must be a group of adjacent squares.", code="bad_target_area")
    return card_id, norm


class _Targetable:
    """Whether one target is among ``candidate_targets`` (and its square), asked of that target
    alone: a cast names a few targets, and listing every candidate on the court to look them up
    was most of a cast's cost (issue 17, P1). The same tests in the same order as there."""

    def __init__(self, state: State, caster: dict, face_id: str):
        self.state = state
        self.caster = caster
        self.face_id = face_id
        self.kind = faces()[face_id]["targets"]
        self.side = caster["side"]
        self.caster_j = caster["j"]
        self.here = (caster["sq"][0], caster["sq"][1])
        self.rng: int | None = None  # spell_range, once asked for
        self.blockers: list | None = None  # the wizards' squares, once asked for

    def visible(self, s: Square) -> bool:
        here = self.here
        if s == here:
            return True
        state = self.state
        if court_of(state).is_neutral(s):
            return False
        rng = self.rng
        if rng is None:
            rng = self.rng = spell_range(state, self.caster_j)
        if not (-rng <= s[0] - here[0] <= rng and -rng <= s[1] - here[1] <= rng):
            return False  # beyond the range in king distance (a chain: no abs and max per target)
        if type(ix := state["budgets"]) is Budgets:
            return clear_line(court_of(state), ix.occ, here, s)  # a fold's index (state.Budgets)
        # The wizards on the court block, their [x, y] squares read straight from the state, once
        # for all of the cast's targets (nothing changes while a cast is checked).
        blockers = self.blockers
        if blockers is None:
            blockers = self.blockers = [w["sq"] for w in state["wizards"] if not w["out"]]
        return line_of_sight(here, s, blockers)

    def square(self, ref: dict) -> Square | None:
        """The target's square when ``ref`` (one well-formed key, an int) is a candidate; else None."""
        state = self.state
        kind = self.kind
        ((key, value),) = ref.items()
        if key == "wizard":
            if kind != "wizard" and kind != "wizard_or_ball":
                return None
            w = wizard(state, value)
            if w is None or w["out"]:
                return None
            s = (w["sq"][0], w["sq"][1])
            if not self.visible(s):
                return None
            face_id = self.face_id
            shielded = False
            for e in state["effects"]:
                if e["wizard"] == value:
                    if e["face"] == face_id:
                        return None  # a wizard bears at most one marker of a spell
                    if e["face"] == "shield":
                        shielded = True
            if shielded and w["side"] == self.side:
                return None  # shielded: cannot be buffed by teammates
            return s
        if key == "ball":
            if kind != "wizard_or_ball" and kind != "held_ball":
                return None
            b = ball(state, value)
            if b is None:
                return None
            s = ball_square(state, b)
            if s is None or not self.visible(s):
                return None
            if kind == "held_ball":
                if b["holder"] is None or wizard(state, b["holder"])["side"] != self.side:
                    return None
                if ball_on_fire(state, b["id"]):
                    return None
            return s
        if key == "effect":
            if kind != "effect":
                return None
            e = _effect(state, value)
            if e is None:
                return None
            s = _ref_square(state, {"wizard": e["wizard"]} if e["wizard"] is not None else {"ball": e["ball"]})
            if s is None or not self.visible(s):
                return None
            return s
        return None


def _ref_key(ref: dict) -> tuple:
    ((k, v),) = ref.items()
    return (k, v)


def _why_not_code(state: State, caster: dict, face_id: str, ref: dict) -> str:
    return _why_not(state, caster, face_id, ref, code=True)


def _why_not(state: State, caster: dict, face_id: str, ref: dict, code: bool = False) -> str:
    face = faces()[face_id]
    kind = face["targets"]
    key = next(iter(ref))
    valid_keys = {
        "wizard": ("wizard", "wizard_or_ball"),
        "ball": ("wizard_or_ball", "held_ball"),
        "effect": ("effect",),
    }
    if key not in valid_keys or kind not in valid_keys[key]:
        return "bad_target" if code else f"{face['name']} cannot target a {key}."
    s = _ref_square(state, ref)
    if s is None:
        return "no_such_target" if code else "There is no such target on the court."
    c = court_of(state)
    here = (caster["sq"][0], caster["sq"][1])
    if c.is_neutral(s):
        return "target_in_neutral_area" if code else "Spells cannot be cast on anything in the Neutral Area."
    if max(abs(s[0] - here[0]), abs(s[1] - here[1])) > spell_range(state, caster["j"]):
        return "out_of_range" if code else "That target is beyond this wizard's magical range."
    squares = wizard_squares(state)
    if s != here and not line_of_sight(here, s, squares):
        return "no_line_of_sight" if code else "The caster has no line of sight to that target."
    if key == "wizard":
        w = wizard(state, ref["wizard"])
        if has_effect(state, w["j"], face_id):
            return "already_affected" if code else f"{name(w['j'])} already bears {face['name']}."
        if w["side"] == caster["side"] and has_effect(state, w["j"], "shield"):
            return "shielded_teammate" if code else "A shielded wizard cannot be buffed by teammates."
    if key == "ball" and kind == "held_ball":
        b = ball(state, ref["ball"])
        if ball_on_fire(state, b["id"]):
            return "already_affected" if code else "That ball is already ablaze."
        return "not_held_by_team" if code else "Fireball is cast on a ball held by the caster's side."
    return "bad_target" if code else "That target is not allowed for this spell."


def enumerate_casts(state: State, caster: dict) -> list[dict]:
    """Every legal cast action for the active wizard (target areas as connected groups)."""
    side = caster["side"]
    c = court_of(state)
    if has_effect(state, caster["j"], "freeze") or c.is_neutral((caster["sq"][0], caster["sq"][1])):
        return []
    out: list[dict] = []
    squares = wizard_squares(state)
    for card_id in data.SPELL_ORDER:
        card = state["cards"][side].get(card_id)
        if card is None or not card["charged"]:
            continue
        for face in data.spell_cards()[card_id]["faces"]:
            fid = face["id"]
            cands = candidate_targets(state, caster, fid, squares)
            if not cands:
                continue
            size = area_size(state, caster, fid)
            if size <= 0:
                continue
            by_square: dict[Square, list[dict]] = {}
            for s, ref in cands:
                by_square.setdefault(s, []).append(ref)
            keys = sorted(by_square, key=lambda s: (s[1], s[0]))
            for group in _connected_groups(keys, size):
                for combo in _products([by_square[s] for s in group]):
                    out.append({"type": "cast", "spell": fid, "targets": combo})
    return out


def _connected_groups(keys: list[Square], size: int) -> list[list[Square]]:
    """All connected groups of up to ``size`` squares among ``keys``, each once, in a fixed order."""
    index = {s: i for i, s in enumerate(keys)}
    nbrs = {s: [o for o in keys if o != s and max(abs(o[0] - s[0]), abs(o[1] - s[1])) == 1] for s in keys}
    found: dict[tuple[int, ...], None] = {}
    level = [(i,) for i in range(len(keys))]
    for group in level:
        found[group] = None
    for _ in range(size - 1):
        nxt = []
        for group in level:
            members = set(group)
            for i in group:
                for o in nbrs[keys[i]]:
                    j = index[o]
                    if j in members:
                        continue
                    g = tuple(sorted(members | {j}))
                    if g not in found:
                        found[g] = None
                        nxt.append(g)
        level = nxt
    return [[keys[i] for i in g] for g in found]


def _products(options: list[list[dict]]) -> list[list[dict]]:
    out: list[list[dict]] = [[]]
    for opts in options:
        out = [prev + [o] for prev in out for o in opts]
    return out


# ---------------------------------------------------------------------------
# resolution


def do_cast(state: State, caster: dict, action: dict) -> None:
    card_id, targets = check_cast(state, caster, action)
    face_id = action["spell"]
    side = caster["side"]
    state["turn"]["actions"] -= 1
    spend_card(state, side, card_id, caster["j"], state["turn"]["n"])
    state["rolls"] = []
    # The resisters, the outcomes and the resist steps in one loop over the targets.
    resisters = []
    outcomes = []
    steps: list[dict] = []
    for i, ref in enumerate(targets):
        r = resister_of(state, side, face_id, ref)
        resisters.append(r)
        if r is None:
            outcomes.append("auto")
        else:
            outcomes.append("pending")
            steps.append({"step": "resist", "i": i, "rebound": False})
    state["cast"] = {
        "face": face_id,
        "card": card_id,
        "caster": caster["j"],
        "side": side,
        "targets": targets,
        "resisters": resisters,
        "score": None,
        "outcomes": outcomes,
        "rebound": False,
    }
    if steps:
        steps.insert(0, {"step": "cast_roll"})
    steps.append({"step": "cast_apply"})
    state["queue"][0:0] = steps


def cast_spec(state: State) -> dict:
    cast = state["cast"]
    colours = list(stats(cast["caster"])["cast"])
    bonus = cast_bonus(state, cast["caster"])
    face = faces()[cast["face"]]
    extra = f" {bonus:+d}" if bonus else ""
    return dice.spec(colours, f"{name(cast['caster'])} casts {face['name']}: {'+'.join(colours)}{extra}")


def resolve_cast_roll(state: State, outcome: list[int]) -> None:
    cast = state["cast"]
    caster = cast["caster"]
    st = stats(caster)  # read once for the dice and the name (rules.name; issue 17, P1)
    colours = st["cast"]  # only read
    bonus = cast_bonus(state, caster)
    total = sum(outcome) + bonus
    cast = dict(cast, score=total)
    state["cast"] = cast
    state["rolls"].append(
        {
            "who": caster,
            "kind": "cast",
            "label": f"#{caster} {st['name']} casts {(_FACES or faces())[cast['face']]['name']}",
            "dice": [{"colour": c, "value": v} for c, v in zip(colours, outcome)],
            "bonus": bonus,
            "total": total,
            "fixed": False,
        }
    )


def resist_roller(state: State, step: dict) -> int:
    cast = state["cast"]
    return cast["caster"] if step["rebound"] else cast["resisters"][step["i"]]


def resist_spec(state: State, step: dict) -> dict:
    who = resist_roller(state, step)
    colours = list(stats(who)["resist"])
    what = "the rebound" if step["rebound"] else faces()[state["cast"]["face"]]["name"]
    return dice.spec(colours, f"{name(who)} resists {what} ({state['cast']['score']}): {'+'.join(colours)}")


def _use_shield(state: State, jersey: int) -> bool:
    if has_effect(state, jersey, "shield"):
        state["effects"] = [e for e in state["effects"] if not (e["wizard"] == jersey and e["face"] == "shield")]
        effects_changed(state)
        return True
    return False


def resolve_resist(state: State, step: dict, outcome: list[int]) -> None:
    cast = state["cast"]
    who = cast["caster"] if step["rebound"] else cast["resisters"][step["i"]]  # resist_roller
    st = stats(who)  # read once for the dice and the name (rules.name; issue 17, P1)
    colours = st["resist"]  # only read
    total = sum(outcome)
    doubles = outcome[0] == outcome[1]
    face = (_FACES or faces())[cast["face"]]
    record = {
        "who": who,
        "kind": "rebound_resist" if step["rebound"] else "resist",
        "label": f"#{who} {st['name']} resists",
        "dice": [{"colour": c, "value": v} for c, v in zip(colours, outcome)],
        "total": total,
        "against": cast["score"],
        "doubles": doubles,
        "fixed": False,
    }
    outcomes = list(cast["outcomes"])
    i = step["i"]
    if step["rebound"]:
        # the caster resists its own rebounded spell; doubles mean it is resisted
        if doubles or total >= cast["score"]:
            record["result"] = "resisted"
        elif _use_shield(state, who):
            record["result"] = "shielded"
        else:
            record["result"] = "affected"
            state["cast"] = dict(cast, rebound=True)
        state["rolls"].append(record)
        return
    shielded = False
    for e in state["effects"]:  # has_effect, inline
        if e["wizard"] == who and e["face"] == "shield":
            shielded = True
            break
    if doubles and not shielded:
        if face["rebound"]:
            record["result"] = "rebound"
            outcomes[i] = "rebounded"
            state["queue"].insert(0, {"step": "resist", "i": i, "rebound": True})
        else:
            record["result"] = "resisted"  # doubles always resist Teleport and Dispel
            outcomes[i] = "resisted"
    elif total >= cast["score"]:
        record["result"] = "resisted"
        outcomes[i] = "resisted"
    elif shielded:  # _use_shield: nothing has changed the effects since they were read
        state["effects"] = [e for e in state["effects"] if not (e["wizard"] == who and e["face"] == "shield")]
        effects_changed(state)
        record["result"] = "shielded"
        outcomes[i] = "resisted"
    else:
        record["result"] = "affected"
        outcomes[i] = "affected"
    state["rolls"].append(record)
    state["cast"] = dict(state["cast"], outcomes=outcomes)


def _add_effect(state: State, cast: dict, wizard_j: int | None, ball_id: int | None) -> None:
    eid = state["next_effect"]
    state["next_effect"] = eid + 1
    state["effects"].append(
        {
            "id": eid,
            "face": cast["face"],
            "card": cast["card"],
            "side": cast["side"],
            "caster": cast["caster"],
            "wizard": wizard_j,
            "ball": ball_id,
        }
    )
    # effects_changed, for the one effect added: a fold's index takes its bit (issue 17, P1)
    if type(ix := state["budgets"]) is Budgets and wizard_j is not None and (bit := _FACE_BIT.get(cast["face"])):
        ix.bits[wizard_j] = ix.bits.get(wizard_j, 0) | bit


def _apply_to_wizard(state: State, cast: dict, jersey: int, follow: list[dict]) -> None:
    w = ix.by_j.get(jersey) if type(ix := state["budgets"]) is Budgets else wizard(state, jersey)
    if w is None or w["out"]:
        return
    face = cast["face"]
    for e in state["effects"]:  # has_effect, inline (issue 17, P1)
        if e["wizard"] == jersey and e["face"] == face:
            return
    _add_effect(state, cast, jersey, None)
    turn = state["turn"]
    if turn is not None and turn["wizard"] == jersey:
        if face == "speed":
            turn["actions"] += 1
        elif face == "slow":
            turn["actions"] = max(0, turn["actions"] - 1)
    if face == "butter_fingers" and w["ball"] is not None:
        b = ball(state, w["ball"])
        w["ball"] = None
        b["holder"] = None
        follow.append(
            {
                "step": "place_ball",
                "ball": b["id"],
                "around": list(w["sq"]),
                "wizard": jersey,
                "reason": "butter_fingers",
            }
        )


def apply_cast(state: State) -> None:
    cast = state["cast"]
    face = cast["face"]
    follow: list[dict] = []
    for ref, outcome in zip(cast["targets"], cast["outcomes"]):
        if outcome not in ("auto", "affected"):
            continue
        if face == "teleport":
            follow.append({"step": "teleport", "ref": dict(ref)})
        elif face == "dispel":
            state["effects"] = [e for e in state["effects"] if e["id"] != ref["effect"]]
            effects_changed(state)
        elif face == "fireball":
            b = ball(state, ref["ball"])
            if b["holder"] is not None and not ball_on_fire(state, b["id"]):
                _add_effect(state, cast, None, b["id"])
        else:
            _apply_to_wizard(state, cast, ref["wizard"], follow)
    if cast["rebound"]:
        _apply_to_wizard(state, cast, cast["caster"], follow)
    state["queue"][0:0] = follow
    if not any(step["step"] == "teleport" for step in state["queue"]):
        state["cast"] = None


def _teleport_check(state: State, step: dict, occ=None):
    """The test a teleported target's square must pass, with what it reads computed once.
    ``occ`` holds the occupied squares among those to be asked about (default: the court's)."""
    cast = state["cast"]
    caster = wizard(state, cast["caster"])
    c = court_of(state)
    if occ is None:
        occ = occupancy(state)
    here = (caster["sq"][0], caster["sq"][1]) if not caster["out"] else None
    rng = spell_range(state, cast["caster"])
    ref = step["ref"]
    side = None
    if "wizard" in ref:
        side = wizard(state, ref["wizard"])["side"]

    def ok(s: Square) -> bool:
        if s in occ:
            return False
        if here is not None and max(abs(s[0] - here[0]), abs(s[1] - here[1])) > rng:
            return False
        return side is None or c.in_half(side, s)

    return c, ok


def teleport_options(state: State, step: dict) -> list[Square]:
    c, ok = _teleport_check(state, step)
    return [s for s in c.squares if ok(s)]


def choose_teleport(state: State, step: dict, action: dict) -> None:
    to = sq(action.get("to"))
    # The one square asked about, not every square listed; nor the court's occupancy for it.
    c, ok = _teleport_check(state, step, (to,) if _stands_on(state, to) else ())
    if not (c.in_bounds(to) and ok(to)):
        raise IllegalAction(
            "A teleported target reappears on an empty in-bounds square within magical range "
            "(a wizard on its own side of the Neutral Area).",
            code="bad_teleport_square",
        )
    ref = step["ref"]
    if "wizard" in ref:
        w = wizard(state, ref["wizard"])
        if type(ix := state["budgets"]) is Budgets and not w["out"]:
            # A fold's index follows the wizard (state.Budgets).
            occ = ix.occ
            occ[to] = occ.pop((w["sq"][0], w["sq"][1]))
        w["sq"] = [to[0], to[1]]  # a held ball travels with its wizard
    else:
        b = ball(state, ref["ball"])
        if type(ix := state["budgets"]) is Budgets:
            occ = ix.occ  # it follows the ball, loose or held until now
            if b["sq"] is not None:
                del occ[(b["sq"][0], b["sq"][1])]
            occ[to] = ("b", b["id"])
        if b["holder"] is not None:
            holder = wizard(state, b["holder"])
            holder["ball"] = None
            b["holder"] = None
        b["sq"] = [to[0], to[1]]


def finish_teleports(state: State) -> None:
    if state["cast"] is not None and not any(s["step"] == "teleport" for s in state["queue"]):
        state["cast"] = None
