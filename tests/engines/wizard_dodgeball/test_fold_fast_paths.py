"""A fold's fast paths (engines/wizard_dodgeball/fast.py, issue 17, P1) against the general path.

``apply_in_place`` sends the turn's own actions to a fast path per action type, which checks and
applies the commonest cases in one pass. The copying ``apply`` never takes them (the general
path, as before). Along random and heuristic playouts of both versions, with 2 and 4 seats,
every action tried (the one played, others the list offers, their near misses, and actions
legal in other states) and every roll (the one rolled, and outcomes the dice refuse) must give the same state (the same hash) or the same refusal (code and
sentence) both ways, on a state that a fold owns and has indexed."""

import random

import pytest

from engines import registry
from engines.base import IllegalAction, canonical_json
from engines.wizard_dodgeball import fast, rules, spells
from engines.wizard_dodgeball.state import court_of, index, move_allowance, occupancy, wizard

from ..counted import Counted
from ..near_misses import near_misses
from .playouts import bot_playout


def _answer(apply, state, event):
    try:
        return ("ok", canonical_json(apply(state, event)))
    except IllegalAction as exc:
        return ("refused", exc.code, exc.message)


def _playout(engine, seats: int, key: str, bot: str, bound: int):
    """States before each event of a playout with ``bot``, and the events."""
    for state, event, _after in bot_playout(engine, seats, key, bot, bound):
        yield state, event


def _tried(engine, state, event, rng, seen):
    """Events to try on ``state``: the one played, a sample of the legal list and its near misses,
    and actions legal in earlier states."""
    seat = event.get("seat")
    out = [event]
    legal = engine.legal_actions(state, seat)
    for action in rng.sample(legal, min(4, len(legal))):
        out.append({"kind": "action", "seat": seat, "action": action})
        out += [{"kind": "action", "seat": seat, "action": a} for a in near_misses(action)]
    out += [{"kind": "action", "seat": seat, "action": a} for a in rng.sample(seen, min(12, len(seen)))]
    # the same action by another seat, and events the opening checks refuse
    out.append({"kind": "action", "seat": 1 - seat if seat in (0, 1) else 0, "action": event["action"]})
    out += [{"kind": "action", "seat": True, "action": event["action"]}, {"kind": "action", "seat": seat}]
    seen += legal[:6]
    # malformed actions, which the dispatch's one look-up of the type hands to the general path
    for bad in ("move", ["move"], None, 3, {}, {"type": ["move"]}, {"type": {}}, {"type": 3}, {"type": "fly"}):
        out.append({"kind": "action", "seat": seat, "action": bad})
    # a cast of every face that targets a wizard at every wizard: the refusals of the target's
    # own rules (already affected, shielded, out of sight) that near misses seldom reach
    for face, spec in sorted(spells.faces().items()):
        if spec["targets"] in ("wizard", "wizard_or_ball"):
            for w in state["wizards"]:
                action = {"type": "cast", "spell": face, "targets": [{"wizard": w["j"]}]}
                out.append({"kind": "action", "seat": seat, "action": action})
    # a cast of every face that targets a wizard at every pair of neighbouring wizards, and at
    # three in a row or with a wizard named twice: areas too large, not connected, or one
    # target's own refusal (the fast cast at several wizards)
    on = [w for w in state["wizards"] if not w["out"]]
    groups = [
        [a["j"], b["j"]]
        for a in on
        for b in on
        if a["j"] < b["j"] and max(abs(a["sq"][0] - b["sq"][0]), abs(a["sq"][1] - b["sq"][1])) <= 2
    ]
    groups += [g + [c["j"]] for g in groups[:3] for c in on if c["j"] not in g] + [[g[0], g[0]] for g in groups[:1]]
    for face, spec in sorted(spells.faces().items()):
        if spec["targets"] in ("wizard", "wizard_or_ball"):
            for g in groups:
                action = {"type": "cast", "spell": face, "targets": [{"wizard": j} for j in g]}
                out.append({"kind": "action", "seat": seat, "action": action})
    # a Dispel at every effect, and at one that is not there; a Teleport at every ball, and at
    # one that is not there
    for eid in [e["id"] for e in state["effects"]] + [state["next_effect"]]:
        action = {"type": "cast", "spell": "dispel", "targets": [{"effect": eid}]}
        out.append({"kind": "action", "seat": seat, "action": action})
    for bid in [b["id"] for b in state["balls"]] + [len(state["balls"]) + 1]:
        action = {"type": "cast", "spell": "teleport", "targets": [{"ball": bid}]}
        out.append({"kind": "action", "seat": seat, "action": action})
    # a drop on every square around the turn's wizard and a pick-up of every ball, whatever its
    # hands and effects allow (Sticky and Butter Fingers refuse them)
    x, y = wizard(state, state["turn"]["wizard"])["sq"]
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            out.append({"kind": "action", "seat": seat, "action": {"type": "drop", "to": [x + dx, y + dy]}})
    for b in state["balls"]:
        out.append({"kind": "action", "seat": seat, "action": {"type": "pick_up", "ball": b["id"]}})
    return out


def _choices_tried(state, event):
    """Beside a choice made: the same action by every other seat, malformed actions, and for a
    teleport the squares around the one chosen, every wizard's square and squares off the
    court or out of range (the fast teleport choice's, the others the general path's)."""
    seat, action = event["seat"], event["action"]
    out = [{"kind": "action", "seat": s, "action": action} for s in range(state["seats"]) if s != seat]
    out.append({"kind": "action", "seat": True, "action": action})
    for bad in ("teleport_to", None, {"type": "end_turn"}, {"to": action.get("to")}, {"type": "teleport_to"}):
        out.append({"kind": "action", "seat": seat, "action": bad})
    to = action.get("to")
    if action.get("type") == "teleport_to" and type(to) is list:
        squares = [[to[0] + dx, to[1] + dy] for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
        squares += [list(w["sq"]) for w in state["wizards"] if not w["out"]]
        squares += [[0, 1], [1, 1], [9, 17], [1, 17], [to[0], 30], "x", [to[0]], [float(to[0]), to[1]]]
        out += [{"kind": "action", "seat": seat, "action": {"type": "teleport_to", "to": s}} for s in squares]
    return out


def _other_outcomes(event):
    """Outcomes the dice refuse, beside the one rolled: a die too many or too few, a value one
    beyond a face, of another JSON type, or no list at all."""
    rolled = event["outcome"]
    out = [rolled[:-1], rolled + [rolled[-1]], [v + 6 for v in rolled], [v - 6 for v in rolled], None, "x", 3]
    out += [[float(v) for v in rolled], [True] * len(rolled), [str(v) for v in rolled]]
    return [{"kind": "chance", "outcome": o} for o in out]


CASES = [("1", 2, "random"), ("2", 2, "random"), ("2", 4, "random"), ("2", 2, "heuristic"), ("2", 4, "heuristic")]


@pytest.mark.parametrize("version,seats,bot", CASES)
def test_every_fast_path_answers_as_the_general_path(version, seats, bot):
    engine = registry.get("wizard-dodgeball", version)
    rng = random.Random(f"wd-fast:{version}:{seats}:{bot}")
    seen: list[dict] = []
    answers = {"ok": 0, "refused": 0}
    codes: set[str] = set()
    applied_types: set[str] = set()
    rolls: set[str] = set()
    games = 3 if bot == "heuristic" else 1
    for g in range(games):
        for n, (state, event) in enumerate(_playout(engine, seats, f"wd-fast:{version}:{seats}:{bot}:{g}", bot, 2500)):
            if event["kind"] == "chance":
                rolls.add(state["queue"][0]["step"])
                tried = [event] + (_other_outcomes(event) if n % 3 == 0 else [])
            elif state["queue"]:
                tried = [event] + (_choices_tried(state, event) if n % 2 == 0 else [])
            else:
                tried = _tried(engine, state, event, rng, seen) if n % 5 == 0 else [event]
            for ev in tried:
                want = _answer(engine.apply, state, ev)
                got = _answer(engine.apply_in_place, engine.owned_copy(state), ev)
                assert got == want, ev
                answers[want[0]] += 1
                if want[0] == "refused":
                    codes.add(want[1])
                elif ev["kind"] == "chance":
                    applied_types.add("chance")
                elif isinstance(ev["action"], dict):
                    applied_types.add(ev["action"]["type"])
    assert answers["ok"] > 500 and answers["refused"] > 2000, answers
    # every fast path applied actions, and refusals from deep in the rules were compared too
    assert set(fast.FAST_PATHS) | {"chance"} <= applied_types, applied_types
    assert {"cast_roll", "resist", "attack", "dodge"} <= rolls, rolls
    wanted = {"not_your_turn", "out_of_reach", "bad_square", "bad_drop_square", "not_adjacent", "no_actions_left"}
    wanted |= {"no_line_of_sight", "spell_not_charged", "no_such_target", "bad_chance_outcome"}
    if bot == "random":
        wanted |= {"frozen", "shielded_teammate", "target_in_neutral_area", "sticky_fingers", "butter_fingers"}
        wanted |= {"already_affected", "cast_from_neutral_area", "bad_teleport_square"}
        assert "teleport_to" in applied_types, applied_types  # the fast teleport choice's
    assert wanted <= codes, wanted - codes


def test_the_fast_cast_takes_most_casts_itself(monkeypatch):
    """The cast fast path must not decline the casts it is for (it would still be right, only
    slow): over a random playout, most legal casts at one wizard, and every Dispel at one
    effect and Teleport at one ball, are applied by it."""
    engine = registry.get("wizard-dodgeball")
    others = others_declined = 0
    counted = Counted(fast.cast_at_one_wizard)
    monkeypatch.setitem(fast.FAST_PATHS, "cast", counted)
    for state, event in _playout(engine, 2, "wd-fast:cast", "random", 2500):
        action = event.get("action")
        if event["kind"] == "action" and action["type"] == "cast" and list(action["targets"][0]) == ["wizard"]:
            if len(action["targets"]) == 1:
                engine.apply_in_place(engine.owned_copy(state), event)
        elif (
            event["kind"] == "action"
            and action["type"] == "cast"
            and len(action["targets"]) == 1
            and (action["spell"] == "dispel" or (action["spell"] == "teleport" and "ball" in action["targets"][0]))
        ):
            before = counted.declined
            engine.apply_in_place(engine.owned_copy(state), event)
            others += 1
            others_declined += counted.declined - before
            counted.declined = before
    assert counted.taken > 200 and counted.declined < counted.taken // 10, (counted.taken, counted.declined)
    assert others > 10 and others_declined == 0, (others, others_declined)


def test_the_fast_cast_at_several_wizards_takes_every_legal_one(monkeypatch):
    """``fast.cast_at_wizards`` must not decline a legal cast at several wizards (it would still
    be right, only slow): over random playouts, every one played is applied by it."""
    engine = registry.get("wizard-dodgeball")
    counted = Counted(fast.cast_at_wizards)
    monkeypatch.setattr(fast, "cast_at_wizards", counted)
    for g in range(2):
        for state, event in _playout(engine, 2, f"wd-fast:casts:{g}", "random", 2500):
            action = event.get("action")
            if event["kind"] == "action" and action["type"] == "cast" and len(action["targets"]) > 1:
                if all(list(ref) == ["wizard"] for ref in action["targets"]):
                    engine.apply_in_place(engine.owned_copy(state), event)
    assert counted.taken > 30 and counted.declined == 0, (counted.taken, counted.declined)


def test_the_fast_moves_search_answers_as_reachable():
    """``fast._reaches`` (the fast move's search when no straight path is free) against
    ``rules.reachable``: for the turn's wizard of states along a random playout, every free
    square of its half within its MOVE is reached by one exactly when by the other, walls of
    wizards and balls included."""
    engine = registry.get("wizard-dodgeball")
    asked = reached = unreached = 0
    for n, (state, _event) in enumerate(_playout(engine, 2, "wd-fast:reach", "random", 1500)):
        if n % 7 or state["queue"] or state["turn"] is None:
            continue
        folded = engine.owned_copy(state)
        index(folded)
        ix = folded["budgets"]
        w = ix.by_j[folded["turn"]["wizard"]]
        j, (x0, y0) = w["j"], w["sq"]
        allowance = move_allowance(folded, j)
        c = ix.court
        lo, hi = c.half_rows[w["side"]]
        want = rules.reachable(folded, j, set(ix.occ))
        for gx in range(1, c.width + 1):
            for gy in range(lo, hi + 1):
                goal = (gx, gy)
                if goal in ix.occ or goal == (x0, y0) or max(abs(gx - x0), abs(gy - y0)) > allowance:
                    continue
                got = fast._reaches(c, ix.occ, (x0, y0), goal, allowance, lo, hi)
                assert got == (goal in want), (goal, state)
                asked += 1
                reached += got
                unreached += not got
    assert asked > 2000 and reached > 1000 and unreached > 20, (asked, reached, unreached)


def _placement_scan(state, around):
    """``rules.placement_squares`` as it was: every ring, the nearest first, found by scanning
    the court's squares."""
    c = court_of(state)
    occ = occupancy(state)
    for radius in range(1, max(c.width, c.length) + 1):
        ring = [s for s in c.squares if max(abs(s[0] - around[0]), abs(s[1] - around[1])) == radius and s not in occ]
        if ring:
            return ring
    return []


def test_placement_squares_read_from_the_neighbours_are_the_courts_scan():
    """``rules.placement_squares`` (the nearest ring read from ``Court.neighbours`` when one of
    them is empty) against the scan of the court it replaced: the same squares in the same order,
    around every square of the court, along a random playout and on a crowded court where a
    square's neighbours are all taken."""
    engine = registry.get("wizard-dodgeball")
    asked = farther = 0
    for n, (state, _event) in enumerate(_playout(engine, 2, "wd-fast:placement", "random", 600)):
        if n % 25:
            continue
        for around in court_of(state).squares:
            want = _placement_scan(state, around)
            assert rules.placement_squares(state, around) == want, (around, state)
            asked += 1
            farther += max(max(abs(s[0] - around[0]), abs(s[1] - around[1])) for s in want) > 1
    # a crowded corner: the wizards of both sides around (1, 1), so the ring of radius 1 is full
    state = engine.setup(engine.validate_config({}, 2), 2)
    for w, square in zip(state["wizards"], [(1, 2), (2, 1), (2, 2), (3, 1), (3, 2)]):
        w["sq"] = list(square)
    for b in state["balls"]:
        b["sq"], b["holder"] = None, None
    for around in [(1, 1), (1, 2), (2, 1), (3, 3)]:
        want = _placement_scan(state, around)
        assert rules.placement_squares(state, around) == want, around
        farther += max(max(abs(s[0] - around[0]), abs(s[1] - around[1])) for s in want) > 1
    assert asked > 1000 and farther, (asked, farther)
