"""A fold's fast paths (engines/wizarding_duels/fast.py, issue 17, P1) against the general path.

``apply_in_place`` sends the commonest events (an activation, a move, the end of an activation,
a deployment, a swap window's answer, a potion, a flip, a Challenge or Terrain placed, a coin, a Clash
or Quest draw) to a fast path that checks and applies them in one pass. The copying ``apply`` never takes them. Along random and heuristic
playouts of both versions, every event tried (the one played, others the list offers, their near
misses, the same action by the other seat, malformed actions, moves and deployments to spaces all
around, outcomes a draw refuses) must give the same state both ways, or the same refusal (code
and sentence) with the fold's state left as it was."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engines.base import CHANCE, IllegalAction, check_action_numbers
from engines.treecopy import copy_tree
from engines.wizarding_duels import content, fast, geometry, rules
from engines.wizarding_duels.state import board

from ..counted import Counted
from ..near_misses import near_misses
from ..state_bytes import state_bytes
from .playouts import played_events, turns, varied_configs
from .test_lightning_shortcut import lightning_group


def _playout(version, seed, config, bot):
    """``(engine, state, event)`` before every event of a game played by ``bot``."""
    return played_events(version, f"wzd-fast:{version}:{seed}:{bot}", config, bot)


def _answer(engine, state, event):
    """The general path's answer and the fold's, each as ("ok", state) or ("refused", code,
    sentence); a refused fold must have left its state as it was."""
    try:
        want = ("ok", state_bytes(engine.apply(state, event)))
    except IllegalAction as exc:
        want = ("refused", exc.code, exc.message)
    owned = engine.owned_copy(state)
    try:
        got = ("ok", state_bytes(engine.apply_in_place(owned, event)))
    except IllegalAction as exc:
        got = ("refused", exc.code, exc.message)
        assert state_bytes(owned) == state_bytes(state), ("a refusal wrote into the state", event)
    return want, got


def _spaces_around(s, k, reach=2):
    """Every board space within ``reach`` of ``k`` (occupied, impassable, the model's own), a space
    off the board, and ``k`` written in ways no list writes it."""
    h = geometry.parse(k)
    b = board(s)
    out = [geometry.key(x) for x in b.hexes if geometry.distance(x, h) <= reach]
    out += ["99,99", f"{h[0]}, {h[1]}", f"0{h[0]},{h[1]}", f"{h[0]},{h[1]},0", f"{h[0]}", "x,y", ""]
    return out


_MALFORMED = (None, "end", 3, ["move"], {}, {"type": ["move"]}, {"type": {}}, {"type": 3}, {"type": "fly"})


def _tried(engine, s, ev, rng, seen):
    """Actions to try beside the one played, at a step with a fast path."""
    seat, action = ev["seat"], ev["action"]
    st = s["queue"][0]
    legal = engine.legal_actions(s, seat)
    actions = [action] + rng.sample(legal, min(5, len(legal)))
    actions += near_misses(action) + [m for a in actions[1:3] for m in near_misses(a)]
    actions += rng.sample(seen, min(10, len(seen))) + list(_MALFORMED)
    seen += [a for a in legal[:4] if isinstance(a, dict)]
    m = s["models"].get(s["act"]["model"]) if st["step"] == "act" and s.get("act") else None
    if m is not None and m["hex"] is not None:
        actions += [{"type": "move", "to": k} for k in _spaces_around(s, m["hex"])]
        actions += [{"type": "end", "x": 1}, {"type": "move"}, {"type": "move", "to": m["hex"], "dangerous": 0}]
        # casts of a few spells at every model: out of range or sight, a friend for a combat
        # spell, a removed model, a spell the caster may not cast now
        p = s["players"][m["seat"]]
        pk = content.load(s["pack"])
        spells = sorted(set(m["innate"]) | set(p["spellbook"][:2]) | {pk.basic_spell_id})[:4]
        # and every spell of the caster's that places a marker (cast at a space, never a model)
        markers = [sp for sp in m["innate"] + p["spellbook"] if rules.places_marker(pk.spells[sp])]
        spells += markers
        for sp in spells:
            actions += [{"type": "cast", "spell": sp, "target": uid} for uid in sorted(s["models"])]
        # those cast at spaces all around (in reach and sight or not, impassable, occupied)
        for sp in markers + [pk.basic_spell_id]:
            actions += [{"type": "cast", "spell": sp, "target": k} for k in _spaces_around(s, m["hex"], reach=3)]
        actions += [{"type": "draw_clash"}, {"type": "draw_clash", "x": 1}]
        # attacks of every profile (its own, an artifact's, another model's) at every model
        arts = [a["id"] for x in s["models"].values() for a in x["artifacts"] if pk.artifacts[a["id"]]["attack"]]
        profiles = sorted({a["id"] for x in s["models"].values() for a in x["attacks"]})
        for uid in sorted(s["models"]):
            actions += [{"type": "attack", "attack": a, "target": uid} for a in profiles + ["nope"]]
            actions += [
                {"type": "attack", "attack": pk.artifacts[a]["attack"]["id"], "target": uid, "artifact": x}
                for a in arts[:3]
                for x in (a, None, "", "nope")
            ]
        # potions at every position (spent ones, a second copy, out of the list, True for 1) at
        # every model: out of range or sight, a friend for a thrown one, oneself for a drunk one
        for i in list(range(-1, len(p["potions"]) + 1)) + [True, "0"]:
            actions += [{"type": "potion", "index": i, "target": uid} for uid in sorted(s["models"])[::2]]
        actions += [{"type": "potion", "index": 0}, {"type": "potion", "index": 0, "target": m["uid"], "x": 1}]
        # flips of every space around (an overlay there or not, out of reach) and of every overlay
        actions += [{"type": "flip", "hex": k} for k in _spaces_around(s, m["hex"])]
        actions += [{"type": "flip", "hex": o["hex"]} for o in s["overlays"]] + [{"type": "flip"}]
        # quests drawn for one of either seat's active ones, or one nobody holds
        actions += [{"type": "draw_quest", "discard": q} for x in s["players"] for q in x["active"] + ["nope"]]
        # every artifact of every model used, and riskier moves to the spaces around
        actions += [{"type": "use_artifact", "artifact": a["id"]} for x in s["models"].values() for a in x["artifacts"]]
        actions += [{"type": "use_artifact", "artifact": "nope"}, {"type": "use_artifact"}]
        actions += [
            {"type": "move", "to": k, "dangerous": d} for k in _spaces_around(s, m["hex"])[::3] for d in (0, 1, 2, True)
        ]
        # a Dark Lord's Spellbook swaps: each spell of the book given for a few others (held, the
        # basic one, unknown)
        book = p["spellbook"] if "dark_lord" in m["traits"] else []
        takes = sorted(pk.spells)[::7] + [pk.basic_spell_id, "nope"] + book[:1] + m["spells"][:1]
        actions += [{"type": "dark_lord_swap", "give": g, "take": t} for g in book + ["nope"] for t in takes]
    if st["step"] in ("activate", "deploy"):
        b = board(s)
        arrival = [geometry.key(h) for half in b.arrival for h in half] if b else []
        for uid in sorted(s["models"]) + ["nobody"]:
            actions += [{"type": "activate", "model": uid}, {"type": "activate", "model": uid, "animal": True}]
            actions += [{"type": "activate", "model": uid, "animal": a} for a in (1, False, None)]
            actions += [{"type": "deploy", "model": uid, "hex": k} for k in arrival[:: 1 if uid == "nobody" else 3]]
    if st["step"] in ("empower", "early", "late", "dark_lord", "leadership"):
        actions += [{"type": "pass", "x": 1}, {"type": "lower", "use": 0}, {"type": "lower", "use": True}]
        actions += [{"type": "lower"}, {"type": "peek"}, {"type": "dark_lord"}, {"type": "empower"}]
    if st["step"] in ("place_challenge", "place_terrain"):
        # every space of the board (open or not, overlaid, at the edge, too near a challenge) and
        # a few written in ways no list writes them, with each terrain and the other step's type
        spaces = [geometry.key(h) for h in board(s).hexes] + ["99,99", "0, 0", "x", ""]
        for k in spaces[::2] if st["step"] == "place_challenge" else spaces[::5]:
            actions += [
                {"type": "place_challenge", "hex": k},
                {"type": "place_terrain", "hex": k, "terrain": "difficult"},
            ]
        actions += [{"type": "place_terrain", "hex": spaces[0], "terrain": x} for x in ("open", "dangerous", None)]
        actions += [{"type": "place_challenge"}, {"type": "place_challenge", "hex": spaces[0], "x": 1}]
    if st["step"] == "order":
        known = s["players"][seat]["known_top"]
        actions += [
            {"type": "order", "cards": c} for c in ([known[0]] * len(known), sorted(known), known[1:] + ["0-00"])
        ]
    if st["step"] == "place":
        k = s["models"][st["model"]]["hex"] if st.get("model") else None
        spaces = _spaces_around(s, k, reach=st["n"] + 1) if k else ["0,0"]
        actions += [{"type": "place", "hex": x} for x in spaces] + [{"type": "place", "hex": None}]
        actions += [{"type": "place", "hex": x, "dangerous": d} for x in spaces[::2] for d in (0, 1, 2, True)]
        actions += [{"type": "place", "hex": None, "model": None}, {"type": "place"}, {"type": "place", "to": k}]
    if st["step"] in ("choose_map", "choose_joining"):
        pk = content.load(s["pack"])
        actions += [{"type": "choose_map", "map": x} for x in sorted(pk.maps) + ["nope"]]
        for c in ("green", "red", "blue", "purple", "nope"):
            actions += [{"type": "choose_joining", "nexus": c, "half": h} for h in (0, 1, 2, -1, True, None)]
    if st["step"] == "horcrux_pick":
        c = st["candidates"]
        actions += [{"type": "horcrux", "models": x} for x in (c, c[::-1], c[:1] * 2, c + ["nope"], [], None, "x")]
        actions += [{"type": "horcrux", "models": c[: st["limit"] + 1]}, {"type": "horcrux"}]
    if st["step"] == "pick":
        c = s["clash"]
        cards = [x for side in ("att", "def") if c.get(side) for x in c[side]["revealed"]] + ["nope"]
        actions += [{"type": "keep", "card": x} for x in cards] + [{"type": "keep"}, {"type": "keep", "card": None}]
    if st["step"] == "react":
        spells = sorted({sp for x in s["players"] for sp in x["spellbook"]})
        spells += sorted({sp for x in s["models"].values() for sp in x["innate"]}) + ["nope"]
        actions += [{"type": "react", "spell": sp} for sp in spells] + [{"type": "react"}, {"type": "pass", "x": 1}]
    if st["step"] == "upkeep":
        for keep in (True, False, 1, 0, None, "yes"):
            actions += [{"type": "upkeep", "keep": keep, "light": k} for k in (-1, 0, 1, 2, 3, True)]
            actions += [{"type": "upkeep", "keep": keep}, {"type": "upkeep", "keep": keep, "x": 1}]
        actions += [{"type": "upkeep"}, {"type": "keep", "keep": True}]
    if st["step"] == "neutral":
        actions += [{"type": "neutral", "light": k} for k in (-1, 0, 1, 2, 3, 4, 9, True, None, "1")]
    if st["step"] == "mulligan":
        hand = sorted(s["players"][seat]["qhand"])
        actions += [{"type": "mulligan", "discard": x} for x in (hand, hand[::-1], hand[:1] * 2, hand + ["nope"])]
    if st["step"] == "swap":
        cards = [c for p in s["players"] for c in p["hand"]] + ["0-00", "nope"]
        actions += [{"type": "swap", "card": c} for c in cards] + [{"type": "keep_card", "card": None}]
    # The platform refuses a fraction in an action before any engine sees it (check_action_numbers).
    out = [{"kind": "action", "seat": seat, "action": a} for a in actions if _whole(a)]
    out += [{"kind": "action", "seat": 1 - seat, "action": action}, {"kind": "action", "seat": True, "action": action}]
    # the seat's number as a float: the fold's ``is`` test of the seat leaves it to the general path
    out += [{"kind": "action", "seat": float(seat), "action": action}]
    out += [{"kind": "action", "seat": CHANCE, "action": action}, {"kind": "action", "seat": seat}]
    out += [{"kind": "action", "seat": seat, "action": action, "x": 1}, {"kind": "chance", "outcome": [0]}]
    return out


def _whole(action) -> bool:
    try:
        check_action_numbers(action)
    except IllegalAction:
        return False
    return True


def _outcomes_tried(ev):
    """Outcomes a draw refuses (or, by chance, accepts), beside the one drawn."""
    o = ev["outcome"]
    out = [o[:-1], o + [0], o + [o[-1]], [v + 1 for v in o], [v - 1 for v in o], [v + 60 for v in o], [-1] + o[1:]]
    out += [[o[0]] * len(o), o + [max(o) + 1], o + [max(o) + 1, max(o) + 2]]
    out += [[float(v) for v in o], [True] * len(o), [str(v) for v in o], tuple(o), None, "x", 0, {}]
    events = [{"kind": "chance", "outcome": x} for x in out]
    return events + [
        {"kind": "chance"},
        {"kind": "chance", "outcome": o, "x": 1},
        {"kind": "action", "seat": 0, "action": {"type": "end"}},
    ]


def _variants(s, ev, n):
    """The event played, on states a few fields away from the one it was played on, that
    playouts seldom reach: the game over in the middle of an activation, the swapping side's
    model an Apprentice (who may not swap), a Dark Lord's side with an Advantage."""
    st = s["queue"][0]
    if ev["kind"] != "action" or n % 2:
        return []
    out = []
    if st["step"] == "act":
        v = copy_tree(s)
        v["game_over"] = True
        out.append((v, ev))
    if st["step"] == "swap":
        v = copy_tree(s)
        v["models"][v["clash"][st["side"]]["model"]]["traits"]["apprentice"] = 1
        out.append((v, ev))
    if st["step"] == "dark_lord":
        v = copy_tree(s)
        v["clash"][st["side"]]["adv"] = 2  # which the Dark Lord's ability sets aside
        out.append((v, dict(ev, action={"type": "dark_lord"})))
    return out


CASES = [("1", "random"), ("2", "random"), ("2", "heuristic")]


def count_fast_paths(monkeypatch) -> dict:
    """Every fast path (decisions, act answers, chance steps) wrapped to count what it takes."""
    counted = {}
    for table in (fast.FAST_PATHS, fast.ACT_FAST, fast.CHANCE_FAST, fast.SECRET_FAST):
        for name, path in list(table.items()):
            counted[name] = Counted(path)
            monkeypatch.setitem(table, name, counted[name])
    return counted


#: Where along the playouts the near misses are tried: at every other one of the events the full sweep
#: tries them at in the suite's run (``[sample]``, half its minute), at all of them in a ``slow`` run
#: (``[every]``, ``bash scripts/test -m slow``).
STRIDES = [pytest.param(2, id="sample"), pytest.param(1, id="every", marks=pytest.mark.slow)]


@pytest.mark.parametrize("stride", STRIDES)
@pytest.mark.parametrize("version,bot", CASES)
def test_every_fast_path_answers_as_the_general_path(version, bot, stride, monkeypatch):
    counted = count_fast_paths(monkeypatch)
    rng = random.Random(f"wzd-fast:{version}:{bot}")
    seen: list = []
    answers: Counter = Counter()
    # a plain game, and two whose Groups bring the Animagus form, the Gryffindor move and the rest
    configs = varied_configs()[3:] if bot == "random" else [{}]
    for seed, config in enumerate(configs):
        for n, (engine, s, ev) in enumerate(_playout(version, seed, config, bot)):
            st = s["queue"][0]
            if ev["kind"] == "chance":
                tried = [ev] + (_outcomes_tried(ev) if st["step"] in fast.CHANCE_FAST and n % (2 * stride) == 0 else [])
            elif (st["step"] in fast.FAST_PATHS or st["step"] in fast.SECRET_FAST) and (
                n % (4 * stride) == 0 or (st["step"] not in ("act", "activate", "deploy") and n % stride == 0)
            ):
                tried = [ev] + _tried(engine, s, ev, rng, seen)
            else:
                tried = [ev]
            for state, e in [(s, e) for e in tried] + _variants(s, ev, n):
                want, got = _answer(engine, state, e)
                assert got == want, e
                answers[want[0] if want[0] == "ok" else want[1]] += 1
    # Every fast path applied events and declined others, and the general path's refusals met
    # each of the codes the opening checks and the rules give.
    # (The clash windows' fast paths are met where a playout's Groups bring the abilities.)
    for name, c in counted.items():
        if name in (
            "act",
            "activate",
            "deploy",
            "swap",
            "draw",
            "move",
            "end",
            "draw_quest",
            "cast",
            "late",
            "potion",
            "coin",
        ):
            assert c.taken > 0 and c.declined > 0, name
        elif name not in RARER:  # each taken in test_rarer_fast_paths.py
            assert c.taken > 0 or c.declined == 0, name  # whatever was met, some was taken
    assert answers["ok"] > 500, answers
    assert {"not_your_turn", "bad_action", "illegal_action", "bad_chance_outcome"} <= set(answers), answers


def test_the_fast_paths_take_the_events_they_are_for(monkeypatch):
    """A fast path that declined its own events would still be right, only slow: along a random
    playout every activation (the Animagus form too), move (version 2's riskier routes too), cast
    (at a space too), end, deployment, swap answer, card draw and set-up answer played is applied
    by its fast path (the Gryffindor move goes the general way), and so is every answer of an
    Empowerment or lower-part window, paid or not."""
    counted = count_fast_paths(monkeypatch)
    played: Counter = Counter()
    for seed in (7, 8):
        for engine, s, ev in _playout("2", seed, {}, "random"):
            st = s["queue"][0]
            a = ev.get("action")
            if ev["kind"] == "chance":
                if st["step"] in fast.CHANCE_FAST:
                    played[st["step"]] += 1
            elif st["step"] == "act":
                if a["type"] in fast.ACT_FAST:
                    played[a["type"]] += 1
            elif st["step"] == "place":
                played["place"] += st["kind"] != "gryffindor"
            elif st["step"] in fast.FAST_PATHS or st["step"] in fast.SECRET_FAST:
                played[st["step"]] += 1
            engine.apply_in_place(engine.owned_copy(s), ev)
    for name in set(counted) - {"act"}:  # the act step's dispatch, counted by type
        # (the rarer answers' paths are held to what they take in test_rarer_fast_paths.py)
        assert played[name] > 0 or name in RARER, name
        assert counted[name].taken == played[name], (name, counted[name].taken, played[name])


#: Fast paths a random playout may not meet in two games (test_rarer_fast_paths.py meets each).
RARER = frozenset(
    {
        "use_artifact",
        "dark_lord_swap",
        "place",
        "horcrux_pick",
        "horcrux_deal",
        "upkeep",
        "draw_clash",
        "attack",
        "react",
        "pick",
    }
)


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_whole_fold_reaches_the_copying_states_and_leaves_its_events_as_they_were(version):
    """A fast path may not hand the state a list or dict of the event's (a later event would
    change the caller's event through it): whole games folded in place reach the copying
    ``apply``'s state at every event (the lightning quests scored too), and every event is still
    equal to a copy made before."""
    # and games whose Quest decks hold every lightning quest they may, scored after events
    lightning = [
        {"groups": [lightning_group(k, "spellstorm"), lightning_group(50 + k, "first-foothold")]} for k in range(6)
    ]
    for seed, config in enumerate(varied_configs() * 4 + lightning):
        folded = None
        events, copies = [], []
        for engine, s, ev in _playout(version, 50 + seed, config, "random"):
            if folded is None:
                folded = engine.owned_copy(s)
            assert state_bytes(folded) == state_bytes(s)
            events.append(ev)
            copies.append(copy_tree(ev))
            folded = engine.apply_in_place(folded, ev)
        assert events == copies


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_game_is_over_exactly_when_no_step_is_queued(version):
    """The fold tells ``may_answer``'s first two checks (the game is not over, a step is queued)
    by the queue alone (issue 17, P1), which holds because only the round's end ends a game and it
    leaves no step queued (``rules._h_end_round``): along playouts every state before the last has
    a step queued and is not over, and the last is over with none. Events after the end are
    refused by the fold as by the general path."""
    for seed, config in enumerate(varied_configs()[:4]):
        last = None
        for turn in turns(version, f"wzd-over:{version}:{seed}", config):
            assert turn.state["queue"] and turn.state["phase"] != "over"
            last = turn
        final = last.after
        assert final["phase"] == "over" and final["queue"] == []
        for ev in (
            {"kind": "action", "seat": 0, "action": {"type": "end"}},
            {"kind": "action", "seat": 1, "action": {"type": "activate", "model": "1a"}},
            {"kind": "chance", "outcome": [0]},
        ):
            want, got = _answer(last.engine, final, ev)
            assert got == want and want[0] == "refused", (ev, want, got)


@pytest.mark.parametrize("version", ["1", "2"])
def test_no_event_puts_a_new_list_in_the_queues_place(version):
    """A fold reads the state's queue list once for its whole stream (issue 17, P1): only the
    setup's ``rules.start`` puts a list there, and every event after it, the fast paths' and the
    general path's, the game's end too, writes into that one."""
    for seed, config in enumerate(varied_configs()[:3]):
        folded = None
        for engine, s, ev in _playout(version, 70 + seed, config, "random"):
            if folded is None:
                folded = engine.owned_copy(s)
                queue = folded["queue"]
            folded = engine.apply_in_place(folded, ev)
            assert folded["queue"] is queue, ev
            if ev["kind"] == "action":
                # the same answer by the general path, into a copy holding the same queue list
                general = engine.owned_copy(s)
                kept = general["queue"]
                general = engine._apply(general, ev, owned=True)
                assert general["queue"] is kept, ev
        assert folded["phase"] == "over" and folded["queue"] == []
