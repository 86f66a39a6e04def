"""Helpers to set up positions and drive a game by hand (tests, tutorials, tabletop entry).

``Table`` wraps the engine and a state: ``act(...)`` applies an action for whoever must act,
``roll(...)`` applies a chance outcome; each checks with the engine exactly as a match would.
``arrange`` returns a copy of a state with wizards and balls moved to given squares, for
setting up a rule's situation directly.
"""

from __future__ import annotations

from typing import Any

from engines.base import CHANCE

from .state import State, copy_state


def arrange(
    state: State,
    wizards: dict[int, Any] | None = None,
    balls: dict[int, Any] | None = None,
    active: dict[int, bool] | None = None,
    effects: list[dict] | None = None,
    turn: int | None = None,
    actions: int | None = None,
) -> State:
    """A copy of ``state`` with wizards placed (``jersey: [c, r]`` or ``None`` for eliminated)
    and balls placed (``id: [c, r]`` loose, or ``id: {"held_by": jersey}``); ``effects`` are
    ``{"face", "card", "side", "caster", "wizard" | "ball"}`` records to add; ``turn`` hands the
    turn to that wizard (with ``actions`` action points, default 2)."""
    new = copy_state(state)
    if turn is not None:
        w = next(w for w in new["wizards"] if w["j"] == turn)
        n = new["turn"]["n"] if new["turn"] is not None else 1
        new["turn"] = {
            "n": n,
            "side": w["side"],
            "wizard": turn,
            "actions": 2 if actions is None else actions,
            "seat": new["controllers"][w["side"]][w["slot"]],
        }
        new["next_slot"][w["side"]] = w["slot"]
    elif actions is not None:
        new["turn"]["actions"] = actions
    for j, where in (wizards or {}).items():
        w = next(w for w in new["wizards"] if w["j"] == j)
        if where is None:
            w["out"], w["sq"], w["ball"] = True, None, None
        else:
            w["out"], w["sq"] = False, [where[0], where[1]]
    for bid, where in (balls or {}).items():
        b = next(b for b in new["balls"] if b["id"] == bid)
        if b["holder"] is not None:
            holder = next(w for w in new["wizards"] if w["j"] == b["holder"])
            holder["ball"] = None
        if isinstance(where, dict):
            holder = next(w for w in new["wizards"] if w["j"] == where["held_by"])
            b["sq"], b["holder"] = None, holder["j"]
            holder["ball"] = bid
        else:
            b["sq"], b["holder"] = [where[0], where[1]], None
    for bid, flag in (active or {}).items():
        next(b for b in new["balls"] if b["id"] == bid)["active"] = flag
    for eff in effects or []:
        record = {
            "id": new["next_effect"],
            "face": eff["face"],
            "card": eff.get("card", eff["face"]),
            "side": eff["side"],
            "caster": eff["caster"],
            "wizard": eff.get("wizard"),
            "ball": eff.get("ball"),
        }
        new["next_effect"] += 1
        new["effects"].append(record)
    seen: dict[tuple, str] = {}
    things = [(w["sq"], f"#{w['j']}") for w in new["wizards"] if not w["out"]]
    things += [(b["sq"], f"ball {b['id']}") for b in new["balls"] if b["sq"] is not None]
    for where, what in things:
        key = (where[0], where[1])
        if key in seen:
            raise ValueError(f"arrange: {what} and {seen[key]} would share square {list(key)}")
        seen[key] = what
    return new


class Table:
    """A game driven by hand: every step goes through ``engine.apply``."""

    @classmethod
    def start(cls, engine, config: dict | None = None, seats: int = 2, **arrangement) -> Table:
        """A new game (first team to move unless the config says otherwise), then ``arrange``."""
        cfg = {"first_player": 0}
        cfg.update(config or {})
        return cls(engine, arrange(engine.setup(cfg, seats), **arrangement))

    def __init__(self, engine, state: State):
        self.engine = engine
        self.state = state
        self.events: list[dict] = []
        self.log: list[str] = []

    def _apply(self, event: dict) -> State:
        before = self.state
        after = self.engine.apply(before, event)
        self.log.append(self.engine.describe(before, event, after))
        self.events.append(event)
        self.state = after
        return after

    def seat(self) -> int:
        movers = self.engine.to_move(self.state)
        assert movers and movers != [CHANCE], f"no seat to act now: {movers}"
        return movers[0]

    def act(self, action_type: str, seat: int | None = None, **fields) -> State:
        action = {"type": action_type, **fields}
        return self._apply({"kind": "action", "seat": self.seat() if seat is None else seat, "action": action})

    def roll(self, *values: int) -> State:
        return self._apply({"kind": "chance", "outcome": list(values)})

    def spec(self) -> dict | None:
        return self.engine.chance(self.state)

    def legal(self, seat: int | None = None) -> list[dict]:
        return self.engine.legal_actions(self.state, self.seat() if seat is None else seat)

    def wizard(self, jersey: int) -> dict:
        return next(w for w in self.state["wizards"] if w["j"] == jersey)

    def ball(self, bid: int) -> dict:
        return next(b for b in self.state["balls"] if b["id"] == bid)

    def turn_wizard(self) -> int:
        return self.state["turn"]["wizard"]
