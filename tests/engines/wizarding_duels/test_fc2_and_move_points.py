"""FC-2 finds the Leadership models in one pass for both sides, and a move's points read the
traits in place and add the artifacts' passive effects only for a model that has artifacts
(issue 17, P1). At every FC-2 step, and for every model at every state, of random playouts of
both versions (Groups with Leadership, Fast, Lightning Fast and an Animagus among them), each
does exactly what the code before it did."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.treecopy import copy_tree
from engines.wizarding_duels import geometry, rules
from engines.wizarding_duels.state import has, hex_of, pack, push_new

from .playouts import group_with, random_playout, varied_configs


def fc2_before(s, st):
    """``rules._h_fc2`` as it was: the models looked through once per side."""
    c = s["clash"]
    steps = []
    for name in ("att", "def"):
        side = c.get(name)
        if not side:
            continue
        me = s["models"][side["model"]]
        seat = side["seat"]
        leader = None
        if me["hex"]:
            here = hex_of(me)
            for m in s["models"].values():
                if (
                    "leadership" in m["traits"]
                    and m["seat"] == seat
                    and not m["removed"]
                    and m["hex"] is not None
                    and not m["round"].get("leadership")
                    and geometry.distance(hex_of(m), here) <= 2
                    and (leader is None or m["uid"] < leader["uid"])
                ):
                    leader = m
        p = s["players"][seat]
        if leader and not p["known_top"] and len(p["deck"]) - rules._reserved(s, side["seat"]) > 0:
            steps.append({"step": "leadership", "seat": side["seat"], "model": leader["uid"]})
    models = s["models"]
    for name in ("att", "def"):
        side = c.get(name)
        if side:
            m = models[side["model"]]
            if "dark_lord" in m["traits"] and not m.get("dark_lord_used"):
                steps.append({"step": "dark_lord", "seat": side["seat"], "side": name})
    if steps:
        push_new(s, steps)


def move_points_before(s, m):
    """``rules.move_points`` as it was."""
    base = pack(s).params["animagus"]["move"] if m["animal"] else 3
    base += 1 if has(m, "fast") else 0
    base += 2 if has(m, "lightning_fast") else 0
    base += rules._passive_total(s, m, "move")
    return max(0, base - m["slow"])


@pytest.mark.parametrize("version", ["1", "2"])
def test_fc2_and_a_moves_points_are_what_the_code_before_them_gave(version, monkeypatch):
    seen = Counter()
    fc2 = rules._STEPS["fc2"]

    def compared(s, st):
        before = copy_tree(s)
        fc2_before(before, st)
        fc2(s, st)
        assert s == before
        for step in s["queue"]:
            if step["step"] in ("leadership", "dark_lord"):
                seen[step["step"]] += 1
        seen["fc2"] += 1

    monkeypatch.setitem(rules._STEPS, "fc2", compared)
    configs = varied_configs()[:2] + [
        {"groups": [group_with("aldous-wren"), group_with("lord-malvern")]},
        {"groups": [group_with("veyra"), group_with("mira-quillfeather")]},
    ]
    for seed, config in enumerate(configs):
        for _engine, s, _seat, _rng in random_playout(version, f"wzd-fc2-move:{seed}", config):
            for m in s["models"].values():
                assert rules.move_points(s, m) == move_points_before(s, m), m["uid"]
                seen["fast" if has(m, "fast") or has(m, "lightning_fast") else "plain", bool(m["artifacts"])] += 1
                seen["animal"] += m["animal"]
    assert seen["fc2"] > 20 and seen["leadership"] > 0, seen
    assert seen["fast", False] > 0 and seen["plain", True] > 0 and seen["animal"] > 0, seen
