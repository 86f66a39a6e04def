"""One readable sentence per event for a match log."""

from __future__ import annotations

from typing import Any

from . import data
from .rules import name
from .state import State


def _sq(s) -> str:
    return f"({s[0]}, {s[1]})"


def _dice(roll: dict) -> str:
    if roll.get("fixed"):
        return "fixed"
    parts = " + ".join(f"{d['colour']} {d['value']}" for d in roll["dice"])
    if roll.get("bonus"):
        parts += f" {roll['bonus']:+d}"
    return parts


def _team(side: int) -> str:
    return "the first team" if side == 0 else "the second team"


def describe(engine, before: State, event: dict[str, Any], after: State) -> str:
    text = _describe(before, event, after)
    if after["winner"] is not None and before["winner"] is None:
        if after["winner"] < 0:  # version 2 unfinished (or a version 1 draw): nobody wins
            return f"{text} {after['reason']}"
        return f"{text} {_team(after['winner']).capitalize()} wins: {after['reason']}"
    b, a = before["turn"], after["turn"]
    if a is not None and (b is None or a["n"] != b["n"]) and not text.endswith("is up."):
        text = f"{text[:-1]}; {name(a['wizard'])} is up."
    return text


def _describe(before: State, event: dict[str, Any], after: State) -> str:
    if event.get("kind") == "chance":
        return _describe_chance(before, event, after)
    action = event.get("action") or {}
    atype = action.get("type")
    turn = before["turn"]
    who = name(turn["wizard"]) if turn else "?"
    if atype == "move":
        extra = f", picking up ball {action['pick_up']} on the way" if action.get("pick_up") is not None else ""
        return f"{who} moves to {_sq(action['to'])}{extra}."
    if atype == "pick_up":
        return f"{who} picks up ball {action['ball']}."
    if atype == "drop":
        return f"{who} drops a ball on {_sq(action['to'])}."
    if atype == "end_turn":
        nxt = after["turn"]
        tail = (
            f"; #{nxt['wizard']} {data.roster()[nxt['wizard']]['name']} is up"
            if nxt and after["winner"] is None
            else ""
        )
        return f"{who} ends the turn{tail}."
    if atype == "throw":
        fire = (
            " a fireball"
            if after["rolls"] and after["rolls"][0].get("fixed") and after["rolls"][0]["kind"] == "attack"
            else " a ball"
        )
        return f"{who} throws{fire} at {name(action['target'])}."
    if atype == "pass":
        return f"{who} passes to {name(action['to'])}."
    if atype == "cast":
        face = data.spell_faces()[action["spell"]]["name"]
        targets = []
        for ref in action["targets"]:
            if "wizard" in ref:
                targets.append(name(ref["wizard"]))
            elif "ball" in ref:
                targets.append(f"ball {ref['ball']}")
            else:
                targets.append(f"effect {ref['effect']}")
        return f"{who} casts {face} on {', '.join(targets)}."
    if atype == "dodge_to":
        step = before["queue"][0]
        return f"{name(step['wizard'])} steps aside to {_sq(action['to'])}; the ball lands on {_sq(step['from'])}."
    if atype == "place_ball":
        return f"Ball {before['queue'][0]['ball']} is placed on {_sq(action['to'])}."
    if atype == "return_wizard":
        return f"{name(action['wizard'])} returns to the court at {_sq(action['to'])}."
    if atype == "teleport_to":
        ref = before["queue"][0]["ref"]
        what = name(ref["wizard"]) if "wizard" in ref else f"Ball {ref['ball']}"
        return f"{what} reappears on {_sq(action['to'])}."
    return f"Seat {event.get('seat')} acts."


def _outcome(result: str | None, attacker: str, target: str) -> str:
    return {
        "caught": f"caught! {attacker} is out",
        "dodged": f"{target} steps aside",
        "dodged_in_place": f"{target} dodges but has no room to step aside",
        "shielded": f"{target} is hit but the shield holds",
        "hit": f"{target} is out",
    }.get(result or "", result or "")


def _describe_chance(before: State, event: dict, after: State) -> str:
    step = before["queue"][0]
    kind = step["step"]
    roll = after["rolls"][-1] if after["rolls"] else None
    if kind == "rolloff":
        a, b = event["outcome"]
        if a == b:
            return f"Roll-off: {a} against {b}, a tie; roll again."
        return f"Roll-off: {a} against {b}; {_team(0 if a > b else 1)} is player 1 and starts."
    if kind == "attack":
        attack = next(r for r in after["rolls"] if r["kind"] == "attack")
        text = f"{name(step['attacker'])} attacks {name(step['target'])}: {attack['total']} ({_dice(attack)})"
        if roll is not attack and roll.get("fixed"):  # frozen target: resolved at once
            return (
                f"{text} against the frozen fixed dodge of {roll['total']}: "
                f"{_outcome(roll.get('result'), name(step['attacker']), name(step['target']))}."
            )
        return text + "."
    if kind == "dodge":
        attacker, target = name(step["attacker"]), name(step["target"])
        return (
            f"{attacker} throws at {target}: {step['attack']} against a dodge of {roll['total']} "
            f"({_dice(roll)}): {_outcome(roll.get('result'), attacker, target)}."
        )
    if kind == "cast_roll":
        return f"{roll['label']}: CAST score {roll['total']} ({_dice(roll)})."
    if kind == "resist":
        text = {
            "resisted": "resists",
            "affected": "fails to resist",
            "rebound": "rolls doubles: the spell rebounds",
            "shielded": "fails, but the shield absorbs it",
        }.get(roll.get("result"), roll.get("result"))
        return f"{name(roll['who'])} resists with {roll['total']} ({_dice(roll)}) against {roll['against']}: {text}."
    return "Dice are rolled."
