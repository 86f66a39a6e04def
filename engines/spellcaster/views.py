"""What each seat sees, and the log lines. Neither ever names a value hidden from the reader.

Hidden (B4 of the spec, SC-R3, SC-R11): another seat's pending allocation; the value of a closed
card (face-down on a display, drawn and not yet shown, or on its way back to the decks); the
contents of the face-down pools (their sizes per element are public). A card id names its value,
so a closed card is shown to others as its element alone.
"""

from __future__ import annotations

from typing import Any

from . import board as B
from .engine import (
    ap_now,
    card_name,
    element_of,
    free_pairs,
    obligations,
    ref,
    spell_total,
    unref,
    value_of,
)


def card_view(card: dict[str, Any], visible: bool) -> dict[str, Any]:
    if card["open"] or visible:
        cid = card["id"]
        return {"id": cid, "element": element_of(cid), "value": value_of(cid), "open": card["open"]}
    return {"id": None, "element": element_of(card["id"]), "value": None, "open": False}


def spell_view(owner: int, slot: int, sp: dict[str, Any] | None, visible: bool) -> dict[str, Any] | None:
    if sp is None:
        return None
    return {
        "spell": ref(owner, slot),
        "state": sp["state"],
        "motion": [card_view(c, visible) for c in sp["motion"]],
        "mass": [card_view(c, visible) for c in sp["mass"]],
        "tokens": list(sp["tokens"]),
        "lock": sp["lock"],
        "launch_point": sp["launch_point"],
        "point": sp["point"],
        "familiar": sp["familiar"],
        "controller": sp["controller"],
        "last_controller": sp["last_controller"],
        "total": spell_total(sp) if visible else None,
    }


def build_view(engine, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    over = state["phase"] == "over"
    revealed = state["phase"] != "allocate"
    casters = []
    for s, c in enumerate(state["casters"]):
        mine = seat == s or over
        tokens_on = sum(sp["tokens"].count(s) for o in state["casters"] for sp in o["display"] if sp is not None)
        casters.append(
            {
                "seat": s,
                "alive": state["alive"][s],
                "point": c["point"],
                "allocated": c["alloc"] is not None,
                "allocation": c["alloc"] if (revealed or seat == s) else None,
                "attributes": c["attrs"],
                "squares": list(c["squares"]),
                "life": c["life"],
                "action_points": ap_now(c) if revealed else None,
                "tokens": c["tokens"],
                "tokens_on_spells": tokens_on,
                "tokens_discarded": c["discarded"],
                "free_pairs": free_pairs(state, s) if revealed else None,
                "pool_sizes": {e: len(c["pool"][e]) for e in B.ELEMENTS},
                "pool": {e: list(c["pool"][e]) for e in B.ELEMENTS} if mine else None,
                "face_up": {e: list(c["up"][e]) for e in B.ELEMENTS},
                "hand": [card_view(card, mine) for card in c["hand"]],
                "display": [spell_view(s, i, sp, mine) for i, sp in enumerate(c["display"])],
                "removed": len(c["removed"]),
            }
        )
    t = state["turn"]
    turn = None
    if t is not None:
        turn = {
            k: t[k]
            for k in ("seat", "ap", "left", "conjured", "rested", "moved", "first_done", "handled", "controlled")
        }
        turn["obligations"] = obligations(state, t["seat"])
    prompt = None
    if state["stack"]:
        top = state["stack"][-1]
        prompt = {k: v for k, v in top.items() if k != "cards"}
        if "cards" in top:
            prompt["cards"] = [card_view(c, seat == top["seat"] or over) for c in top["cards"]]
    b = B.board()
    return {
        "game": engine.name,
        "phase": state["phase"],
        "round": state["round"],
        "max_rounds": state["max_rounds"],
        "first": state["first"],
        "viewer": seat,
        "seats": state["n"],
        "board": {"points": b["points"], "paths": b["paths"], "colours": b["colours"], "corners": b["corners"]},
        "life_chart": state["chart"],
        "casters": casters,
        "turn": turn,
        "prompt": prompt,
        "contest": state["contest"],
        "wild": state["wild"],
        "last": _public_last(state["last"]),
        "to_move": engine.to_move(state),
        "chance": engine.chance(state),
        "legal_actions": engine.legal_actions(state, seat) if seat is not None else [],
        "result": engine.result(state),
    }


def _public_last(last: dict[str, Any] | None) -> dict[str, Any] | None:
    # Everything recorded in "last" is public by construction: kept cards go face up, impacts
    # reveal the Mass, returns name only the cards turned face up and the elements of the rest.
    return None if last is None else dict(last)


def _spell_label(r: str) -> str:
    owner, slot = unref(r)
    return f"seat {owner}'s spell {slot + 1}"


def _impact_line(last: dict[str, Any]) -> str:
    struck = ", ".join(f"seat {s}" for s in last["struck"])
    mass = ", ".join(card_name(c) for c in last["mass"]) or "no Mass"
    return (
        f" It strikes {struck} at {last['point']} for {last['damage']} (Mass: {mass}; active there: "
        f"{', '.join(B.active(last['point']))})."
    )


def _retirements(before: dict[str, Any], after: dict[str, Any]) -> str:
    out = ""
    for s in range(after["n"]):
        if before["alive"][s] and not after["alive"][s]:
            out += f" Seat {s} is exhausted and withdraws to the library."
    if after["phase"] == "over" and before["phase"] != "over":
        if after["end"] == "round_limit":
            out += " The round limit is reached: the casters rank by Life Force left."
        else:
            winners = [s for s in range(after["n"]) if after["alive"][s]]
            if winners:
                out += f" Seat {winners[0]} is the last caster standing and wins."
    return out


def _new_last(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any] | None:
    return after["last"] if after["last"] != before["last"] else None


def describe(before: dict[str, Any], event: dict[str, Any], after: dict[str, Any]) -> str:
    if not isinstance(event, dict):
        return "Unknown event."
    last = _new_last(before, after)
    tail = _retirements(before, after)
    if event.get("kind") == "chance":
        if before["phase"] == "first":
            return f"Seat {after['first']} goes first."
        top = before["stack"][-1] if before["stack"] else {}
        if top.get("p") == "deal":
            return f"Seat {top['seat']} draws a {top['element'].capitalize()} card."
        if last and last["kind"] == "capture":
            verdict = "captures it" if last["captured"] else "fails and takes the token back"
            return (
                f"Seat {last['seat']} rolls {last['roll']} + {last['tokens']} unused tokens = {last['total']} "
                f"to capture {_spell_label(last['spell'])}: {verdict}."
            )
        if last and last["kind"] == "contest":
            bands = {
                "win_discard": "the caster wins; the opponent's token leaves play",
                "win_return": "the caster wins; the opponent takes the token back",
                "broken": "the spell is broken",
                "locked": "they are locked",
            }
            return (
                f"Contest of Wills over {_spell_label(last['spell'])}: seat {last['caster']} rolls "
                f"{last['rolls'][0]} + {last['tokens'][0]} = {last['totals'][0]}, seat {last['opponent']} rolls "
                f"{last['rolls'][1]} + {last['tokens'][1]} = {last['totals'][1]} (margin {last['margin']}): "
                f"{bands[last['band']]}.{tail}"
            )
        return "A random outcome."
    seat = event.get("seat")
    action = event.get("action") or {}
    kind = action.get("type")
    if kind == "allocate":
        line = f"Seat {seat} has allocated its attribute points."
        if after["phase"] != "allocate":
            line += " Every sheet is revealed."
        return line
    if kind == "conjure":
        return f"Seat {seat} conjures, drawing {action['cards']} card{'s' if action['cards'] > 1 else ''}."
    if kind == "draw":
        src = action["from"]
        if src in B.ELEMENTS:
            return f"Seat {seat} draws from the {src.capitalize()} deck."
        return f"Seat {seat} takes the face-up {card_name(src)}."
    if kind in ("keep", "keep_none"):
        if last and last["kind"] == "keep":
            back = ", ".join(e.capitalize() for e in last["returned"])
            kept = (
                f"keeps {card_name(last['kept'])} face up in spell {action['spell'] + 1} ({action['section']})"
                if last["kept"]
                else "keeps nothing (no card fits)"
            )
            return f"Seat {seat} {kept}" + (f"; back face down: {back}." if back else ".")
        return f"Seat {seat} keeps a card."
    if kind == "place":
        top = before["stack"][-1]
        card = before["casters"][top["seat"]]["hand"][0]
        what = card_name(card["id"]) if card["open"] else f"a {element_of(card['id']).capitalize()} card"
        return f"Seat {seat} places {what} face down in spell {action['spell'] + 1} ({action['section']})."
    if kind == "return_up":
        top = before["stack"][-1]
        card = before["casters"][top["seat"]]["hand"][0]
        return f"Seat {seat} returns {card_name(card['id'])} face up to the deck."
    if kind == "launch":
        return f"Seat {seat} launches {_spell_label(action['spell'])} and places a Will token."
    if kind == "no_launch":
        return f"Seat {seat} does not launch."
    if kind == "will":
        return f"Seat {seat} {'places a Will token to contest' if action['place'] else 'does not contest'} the spell."
    if kind == "contest":
        return f"Seat {seat} resolves the Contest of Wills with seat {action['with']} next."
    if kind in ("step", "move"):
        who = f"Seat {seat} moves" + (" the familiar" if kind == "step" else "")
        line = f"{who} to {action['to']}."
        if last and last["kind"] == "impact":
            line += _impact_line(last)
        return line + tail
    if kind == "return":
        if last and last["kind"] == "return":
            up = ", ".join(card_name(c) for c in last["up"])
            down = ", ".join(e.capitalize() for e in last["down"])
            return f"Seat {seat} returns the cards: face up {up or 'none'}; face down {down or 'none'}."
        return f"Seat {seat} returns the cards."
    if kind == "rest":
        healed = last["healed"] if last and last["kind"] == "rest" else 0
        return f"Seat {seat} rests and recovers {healed} square{'s' if healed != 1 else ''}."
    if kind in ("continue", "withdraw", "control", "abandon", "capture", "free_launch"):
        verbs = {
            "continue": "continues the Contest of Wills over",
            "withdraw": "withdraws from the contest over",
            "control": "controls",
            "abandon": "abandons (it goes wild)",
            "capture": "tries to capture",
            "free_launch": "launches, uncontested,",
        }
        return f"Seat {seat} {verbs[kind]} {_spell_label(action['spell'])}." + tail
    if kind == "end_turn":
        return f"Seat {seat} ends the turn." + tail
    if kind == "wild_pick":
        return f"Seat {seat} picks {_spell_label(action['spell'])} to move (wild)."
    if kind == "wild_pass":
        return f"Seat {seat} passes and moves no more wild spells this round."
    if kind == "wild_next":
        return f"Seat {seat} selects seat {action['seat']} to pick next."
    return f"Seat {seat} acts."
