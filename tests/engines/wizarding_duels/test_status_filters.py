"""The end of a round and a disabled upkeep filter a model's Concealment and wards only when it
has some (issue 17, P1). At every such step of random playouts of both versions (Groups whose
spells conceal and ward among them), the state after it is what the code before it left."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.treecopy import copy_tree
from engines.wizarding_duels import rules
from engines.wizarding_duels.state import alive_unordered

from .playouts import random_playout, varied_configs


def end_statuses_before(s, st):
    for m in alive_unordered(s):
        m["conceal"] = [c for c in m["conceal"] if c.get("upkeep")]
        m["ward"] = [w for w in m["ward"] if w.get("upkeep")]


def disable_upkeep_before(s, seat, spell):
    """``rules.disable_upkeep`` as it was (its statuses filtered for every model)."""
    p = s["players"][seat]
    u = next((u for u in p["upkeep"] if u["spell"] == spell), None)
    if u is None:
        return
    p["upkeep"].remove(u)
    for c in ("light", "dark"):
        p["spent"][c] += u["markers"][c]
    if s.get("markers"):
        s["markers"] = [x for x in s["markers"] if x["spell"] != spell or x["seat"] != seat]
    for m in s["models"].values():
        m["ward"] = [w for w in m["ward"] if w.get("src") != spell or w.get("seat") != seat]
        m["conceal"] = [w for w in m["conceal"] if w.get("src") != spell or w.get("seat") != seat]
    p["clocks"][spell] = rules.pack(s).spells[spell]["cooldown"]
    if p["clocks"][spell] <= 0:
        del p["clocks"][spell]
        rules._return_spell(s, seat, spell)


@pytest.mark.parametrize("version", ["1", "2"])
def test_statuses_filtered_only_where_there_are_some_leave_what_filtering_every_model_left(version, monkeypatch):
    seen = Counter()
    end_statuses = rules._STEPS["end_statuses"]
    disable = rules.disable_upkeep

    def compared_end(s, st):
        before = copy_tree(s)
        end_statuses_before(before, st)
        seen["statuses", any(m["conceal"] or m["ward"] for m in s["models"].values())] += 1
        end_statuses(s, st)
        assert s == before

    def compared_disable(s, seat, spell):
        before = copy_tree(s)
        disable_upkeep_before(before, seat, spell)
        seen["disable", any(m["conceal"] or m["ward"] for m in s["models"].values())] += 1
        disable(s, seat, spell)
        assert s == before

    monkeypatch.setitem(rules._STEPS, "end_statuses", compared_end)
    monkeypatch.setattr(rules, "disable_upkeep", compared_disable)
    for seed, config in enumerate(varied_configs() * 2):
        for _ in random_playout(version, f"wzd-status-filters:{seed}", config):
            pass
    assert seen["statuses", False] > 0 and seen["statuses", True] > 0, seen
    assert seen["disable", False] + seen["disable", True] > 0, seen
