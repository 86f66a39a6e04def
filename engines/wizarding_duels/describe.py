"""One log line per event. Never names a card hidden from spectators: hand draws, swaps,
secret choices and face-down terrain types are described by their public shape only."""

from __future__ import annotations

from engines.base import chance_visible

from .state import pack


def _who(seat) -> str:
    return f"Seat {seat}"


def _name(s, uid) -> str:
    m = s["models"].get(uid)
    return m["name"] if m else str(uid)


def describe(engine, before, event, after) -> str:
    line = _line(engine, before, event, after)
    # Consequences are public, but a hidden action's line must read the same whatever was hidden,
    # so they are told only after public events.
    if event.get("kind") == "chance":
        public = chance_visible(engine.chance(before) or {}, None)
    else:
        public = engine.redact_action(event["seat"], event["action"], None) == event["action"]
    return line + _consequences(before, after) if public else line


def _consequences(before, after) -> str:
    out = []
    lc = after.get("last_clash")
    if lc and lc != before.get("last_clash"):
        if lc["def"]:
            out.append(
                f"{_name(after, lc['att']['model'])} {lc['att']['total']} against {_name(after, lc['target'])} "
                f"{lc['def']['total']}: {'success' if lc['success'] else 'failure'}."
            )
        else:
            out.append(
                f"{_name(after, lc['att']['model'])} totals {lc['att']['total']}: {'success' if lc['success'] else 'failure'}."
            )
    for uid, m in sorted(after["models"].items()):
        was = before["models"].get(uid)
        if was and m["impacts"] > was["impacts"] and not m["removed"]:
            out.append(f"{m['name']} takes {m['impacts'] - was['impacts']} Impact(s).")
        if was and m["removed"] and not was["removed"]:
            out.append(f"{m['name']} is removed.")
    for seat in (0, 1):
        gained = after["players"][seat]["qp"] - before["players"][seat]["qp"]
        if gained:
            out.append(f"Seat {seat} scores {gained} Quest Point(s).")
    return (" " + " ".join(out)) if out else ""


def _paying(before, after, seat, a) -> str:
    """Version 2: the colours a payer chose (the pool is public, so the line may say them)."""
    if "light" not in a:
        return ""
    from . import rules  # the cost as the engine reckons it

    st = before["queue"][0]
    if st["step"] == "empower":
        cost = rules._empower_cost(before, before["clash"], st["side"])[0] or 0
    elif st["step"] == "upkeep":
        cost = pack(before).spells[st["spell"]]["upkeep"] or 0
    else:
        cost = rules.lower(before, before["clash"][st["side"]]["kept"])["cost"]
    return f", paying {a['light']} white and {cost - a['light']} black"


def _route(a) -> str:
    return f" by a route entering {a['dangerous']} Dangerous space(s)" if "dangerous" in a else ""


def _line(engine, before, event, after) -> str:
    if event.get("kind") == "chance":
        st = before["queue"][0] if before["queue"] else {}
        name = st.get("step")
        if name == "coin":
            v = event["outcome"][0]
            return (
                f"Coin ({st['purpose']}): seat {v} wins."
                if st["purpose"] == "setup"
                else f"Coin: seat {v} is the Starting Player."
            )
        if name == "unveil":
            return (
                "The overlays are unveiled: " + ", ".join(f"{o['what']} at {o['hex']}" for o in after["overlays"]) + "."
            )
        if name == "horcrux_deal":
            return "Horcruxes are dealt at random."
        if name == "draw":
            n = len(event["outcome"])
            if st["pile"] == "quest":
                if st["vis"] == "all":
                    return f"{_who(st['seat'])} draws {n} quest(s) into the Active Quest Zone."
                return f"{_who(st['seat'])} draws {n} quest card(s)."
            if st["vis"] == "all":
                return f"{_who(st['seat'])} reveals {n} clash card(s) ({st['dest']})."
            return f"{_who(st['seat'])} draws {n} clash card(s)."
        return "A random outcome."
    seat, a = event["seat"], event["action"]
    t = a.get("type")
    if t == "group":
        return f"{_who(seat)} submits a Group."
    if t == "potions":
        return f"{_who(seat)} chooses a potion Stock."
    if t == "mulligan":
        return f"{_who(seat)} decides on a mulligan."
    if t == "swap":
        return f"{_who(seat)} swaps the revealed card for one from hand."
    if t == "keep_card":
        return f"{_who(seat)} keeps the revealed card."
    if t == "place_terrain":
        return f"{_who(seat)} places a Terrain overlay, Mystery side up, at {a['hex']}."
    if t == "place_challenge":
        return f"{_who(seat)} places a Challenge overlay, Mystery side up, at {a['hex']}."
    if t == "choose_map":
        return f"{_who(seat)} chooses the map {pack(before).maps[a['map']]['name']}."
    if t == "choose_joining":
        return f"{_who(seat)} joins the halves on the {a['nexus']} Nexus and takes half {a['half']}."
    if t == "deploy":
        return f"{_who(seat)} deploys {_name(before, a['model'])} at {a['hex']}."
    if t == "neutral":
        # Simultaneous (WD-27): from version 3 the line never tells the number, or a seat still
        # choosing would read it here; once both are in, each seat's choice and the pool it made
        # are in the view. Earlier versions keep the line their matches recorded (the verifier
        # compares every stored log line).
        if engine.secret_neutral:
            return f"{_who(seat)} chooses how to take Neutral Cunning."
        return f"{_who(seat)} takes {a['light']} Neutral Cunning as white."
    if t == "horcrux":
        return f"{_who(seat)} picks {len(a['models'])} model(s) for Horcruxes."
    if t == "upkeep":
        return f"{_who(seat)} {'keeps' if a['keep'] else 'drops'} {before['queue'][0]['spell']}{_paying(before, after, seat, a)}."
    if t == "activate":
        return f"{_who(seat)} activates {_name(before, a['model'])}{' in Animal Form' if a.get('animal') else ''}."
    if t == "end":
        return f"{_who(seat)} ends the activation."
    if t == "move":
        return f"{_name(before, before['act']['model'])} moves to {a['to']}{_route(a)}."
    if t == "attack":
        return f"{_name(before, before['act']['model'])} attacks {_name(before, a['target'])} with {a['attack']}."
    if t == "cast":
        where = f"on {_name(before, a['target'])}" if a["target"] in before["models"] else f"at space {a['target']}"
        return f"{_name(before, before['act']['model'])} casts {pack(before).spells[a['spell']]['name']} {where}."
    if t == "draw_quest":
        return f"{_who(seat)} discards the quest {a['discard']} and draws another."
    if t == "draw_clash":
        return f"{_who(seat)} draws a clash card."
    if t == "potion":
        pid = before["players"][seat]["potions"][a["index"]]["id"]
        return f"{_name(before, before['act']['model'])} uses {pack(before).potions[pid]['name']} on {_name(before, a['target'])}."
    if t == "flip":
        return f"{_name(before, before['act']['model'])} flips the overlay at {a['hex']}."
    if t == "use_artifact":
        return f"{_name(before, before['act']['model'])} uses {pack(before).artifacts[a['artifact']]['name']}."
    if t == "slytherin":
        return f"{_name(before, before['act']['model'])} prepares (Slytherin)."
    if t == "react":
        return f"{_who(seat)} reacts with {pack(before).spells[a['spell']]['name']}."
    if t == "empower":
        return f"{_who(seat)} empowers{_paying(before, after, seat, a)} (a card goes face down)."
    if t == "pass":
        return f"{_who(seat)} passes."
    if t == "keep":
        return f"{_who(seat)} keeps one revealed card."
    if t == "lower":
        return (
            f"{_who(seat)} {'uses' if a['use'] else 'ignores'} the card's lower part{_paying(before, after, seat, a)}."
        )
    if t == "resist":
        return f"{_who(seat)} discards {len(a['discard'])} card(s) to resist."
    if t == "instinctive":
        return f"{_who(seat)} advances {a['spell']} one more step (Instinctive Casting)."
    if t == "horcrux_lose":
        return f"{_who(seat)} gives up a Horcrux instead of the model."
    if t == "peek":
        return f"{_who(seat)} uses Leadership to look at the top of the Clash deck."
    if t == "order":
        return f"{_who(seat)} puts the cards back in an order of their choice."
    if t == "dark_lord":
        return f"{_who(seat)} declares Dark Lord for this clash."
    if t == "dark_lord_swap":
        return f"{_who(seat)} swaps the Spellbook spell {a['give']} for {a['take']} (Dark Lord)."
    if t == "herbology":
        return f"{_who(seat)} swaps a potion for {pack(before).potions[a['potion']]['name']} (Herbology Expert)."
    if t == "place":
        if a.get("hex") is None:
            return f"{_who(seat)} stays put."
        uid = a.get("model") or before["queue"][0].get("model")
        return f"{_name(before, uid)} moves to {a['hex']}{_route(a)}."
    return f"{_who(seat)} acts."
