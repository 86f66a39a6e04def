"""The fold's fast paths for the rarer answers (engines/wizarding_duels/fast.py, issue 17, P1)
against the general path: the set-up's choices (a Group, a Stock, a map, a joining, a mulligan,
Neutral Cunning, a Horcrux pick), the Horcrux deal and the unveiling, a placement (a free move, a
teleport, a push step), a riskier move, a spell cast at a space, an Animagus activated in its
animal form, a Clash card drawn, an upkeep answer, an artifact's use, the Dark Lord's Spellbook
swap, an attack, a react window's answers and the card a side keeps.

Along random playouts of both versions, with Groups that bring the Dark Lord, the Horcrux Maker
and the Gryffindor move, and two heuristic ones (that bot attacks and reacts), every such event played and many it is not (the list's other answers,
near misses, malformed actions, the other seat, outcomes a draw refuses) must give the same state
both ways, or the same refusal with the fold's state left as it was; each of these fast paths
must take events and decline others, and take every event played that it is for."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engines.treecopy import copy_tree
from engines.wizarding_duels import content, rules

from .playouts import group_with, played_events
from .test_fold_fast_paths import _answer, _outcomes_tried, _tried, count_fast_paths

#: The fast paths these tests are for, by the name they are counted under.
RARER = (
    "build",
    "stock",
    "mulligan",
    "neutral",
    "choose_map",
    "choose_joining",
    "horcrux_pick",
    "horcrux_deal",
    "unveil",
    "place",
    "use_artifact",
    "dark_lord_swap",
    "upkeep",
    "draw_clash",
    "attack",
    "react",
    "pick",
)
_CHANCE = ("horcrux_deal", "unveil")
_ACT = ("use_artifact", "dark_lord_swap", "draw_clash", "attack")


def _games(version, label, rounds=2):
    """``(engine, state, event)`` before every event of random games of random Groups (the set-up's
    choices are made) and of Groups with the Dark Lord and Horcrux Maker against the Gryffindor
    move, played ``rounds`` times each, and of as many games the heuristic bot plays (it attacks
    and reacts)."""
    configs = [{}, {}, {"groups": [group_with("ashen-regent"), group_with("isolde-marrow")]}] * rounds
    for seed, config in enumerate(configs):
        yield from played_events(version, f"{label}:{version}:{seed}", config)
    for seed in (2, 3)[:rounds]:
        yield from played_events(version, f"wzd-rarer-h:{seed}", {}, "heuristic")


def _meant(s, ev) -> str | None:
    """The fast path ``ev`` is for, when it is one of ``RARER``."""
    st = s["queue"][0]
    if ev["kind"] == "chance":
        return st["step"] if st["step"] in _CHANCE else None
    if st["step"] == "act":
        t = ev["action"].get("type")
        if t in _ACT:
            return t
        if t == "cast" and rules.places_marker(content.load(s["pack"]).spells[ev["action"]["spell"]]):
            return "cast"  # at a space
        return "move" if t == "move" and "dangerous" in ev["action"] else None
    if st["step"] == "activate" and "animal" in ev["action"]:
        return "activate"
    return st["step"] if st["step"] in RARER else None


def _variants(s, ev) -> list:
    """The event played on states a field away that playouts seldom reach: the artifact already
    used or locked (every copy, or only the first of two), the Spellbook spell given away still
    cooling down, the swap already made, the attack's profile used this round, its target gone,
    the attacker in animal form, the reaction's spell cooling down, a pick at a Disadvantage."""
    name = _meant(s, ev)
    out = []
    if name == "use_artifact":
        a = ev["action"]["artifact"]
        for field in ("used", "locked"):
            v = copy_tree(s)
            m = v["models"][v["act"]["model"]]
            for x in m["artifacts"]:
                if x["id"] == a:
                    x[field] = True
            out.append(v)
            v = copy_tree(s)
            m = v["models"][v["act"]["model"]]
            first = next(x for x in m["artifacts"] if x["id"] == a)
            m["artifacts"].append(dict(first))
            first[field] = True
            out.append(v)  # a second copy usable: the use takes the first, as ``_act`` does
    if name == "dark_lord_swap":
        v = copy_tree(s)
        v["players"][ev["seat"]]["clocks"][ev["action"]["give"]] = 1
        out.append(v)
        v = copy_tree(s)
        v["models"][v["act"]["model"]]["dark_lord_swap_used"] = True
        out.append(v)
    if name == "attack":
        a = ev["action"]
        v = copy_tree(s)
        v["models"][v["act"]["model"]]["round"]["atk:" + a["attack"]] = True  # its profile used this round
        out.append(v)
        v = copy_tree(s)
        v["models"][a["target"]]["removed"] = True
        out.append(v)
        v = copy_tree(s)
        v["models"][v["act"]["model"]]["animal"] = True  # no artifact's attack in the animal form
        out.append(v)
    if name == "react" and ev["action"].get("type") == "react":
        v = copy_tree(s)
        v["players"][ev["seat"]]["clocks"][ev["action"]["spell"]] = 1
        out.append(v)
        v = copy_tree(s)
        v["models"][v["clash"]["target"]]["animal"] = True  # the targeted model may not cast it
        out.append(v)
    if name == "pick" and not s["queue"][0].get("worst"):
        v = copy_tree(s)
        v["queue"][0]["worst"] = True  # Disadvantage: only the lowest ranked cards may be kept
        out.append(v)
    pairs = [(v, ev) for v in out]
    if name == "attack":
        # the attacker given an artifact whose attack is once a round, and that attack made
        pk = content.load(s["pack"])
        for art in ("bone-crossbow", "nope"):
            v = copy_tree(s)
            v["models"][v["act"]["model"]]["artifacts"].append({"id": "bone-crossbow", "locked": False, "used": False})
            prof = pk.artifacts["bone-crossbow"]["attack"]["id"]
            action = {"type": "attack", "attack": prof, "target": ev["action"]["target"], "artifact": art}
            pairs.append((v, dict(ev, action=action)))
    return pairs


@pytest.mark.parametrize(
    "rounds",
    # Half the games in the suite's run (half its minute); all of them in a ``slow`` run.
    [pytest.param(1, id="sample"), pytest.param(2, id="every", marks=pytest.mark.slow)],
)
@pytest.mark.parametrize("version", ["1", "2"])
def test_every_rarer_fast_path_answers_as_the_general_path(version, rounds, monkeypatch):
    counted = count_fast_paths(monkeypatch)
    rng = random.Random(f"wzd-rarer:{version}")
    seen: list = []
    answers: Counter = Counter()
    for engine, s, ev in _games(version, "wzd-rarer", rounds):
        name = _meant(s, ev)
        if name is None:
            tried = [ev]
        elif ev["kind"] == "chance":
            tried = [ev] + _outcomes_tried(ev)
        else:
            tried = [ev] + _tried(engine, s, ev, rng, seen)
        for state, e in [(s, e) for e in tried] + _variants(s, ev):
            want, got = _answer(engine, state, e)
            assert got == want, e
            answers[want[0] if want[0] == "ok" else want[1]] += 1
    for name in RARER:
        assert counted[name].taken > 0 and counted[name].declined > 0, name
    assert counted["cast"].taken > 0 and counted["activate"].taken > 0
    if version == "2":
        assert counted["move"].taken > 0
    assert {"not_your_turn", "bad_action", "illegal_action", "bad_chance_outcome"} <= set(answers), answers


def test_the_rarer_fast_paths_take_every_event_they_are_for(monkeypatch):
    """Every such answer played goes its fast path: the Gryffindor move (a model of the seat's
    choosing) and version 1's riskier moves (which it does not offer) are the general path's."""
    counted = count_fast_paths(monkeypatch)
    played: Counter = Counter()
    for engine, s, ev in _games("2", "wzd-rarer-taken"):
        name = _meant(s, ev)
        st = s["queue"][0]
        if name is not None and not (name == "place" and st["kind"] == "gryffindor"):
            played[name] += 1
        engine.apply_in_place(engine.owned_copy(s), ev)
    for name in RARER:
        assert played[name] > 0, name
        assert counted[name].taken == played[name], (name, counted[name].taken, played[name])
