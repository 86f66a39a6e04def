"""A route search's terrain (``rules._step_rules``' ``terrain_of``) is filled, once per board,
overlay set and mover kind, from the overlays' fields in one pass, not by ``terrain`` asked of each
overlaid space (issue 17, P1). From a fresh memo at every state of random playouts of both
versions, on every map (the Mystery one among them), with overlays face down, flipped and stacked
on one space, it gives every space of the board and every space next to it what ``terrain`` gives."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.treecopy import copy_tree
from engines.wizarding_duels import geometry, rules
from engines.wizarding_duels.state import board, board_changed, terrain

from .playouts import random_playout


def _check(s, seen):
    b = board(s)
    spaces = set(b.terrain)
    for h in list(spaces):
        spaces.update(geometry.neighbours(h))
    rules._step_memo.cache_clear()
    for m in s["models"].values():
        terrain_of = rules._step_rules(s, m)[0]
        for h in spaces:
            assert terrain_of(h) == terrain(s, h), h
    for o in s["overlays"]:
        seen[o["kind"], o["face_up"], s["map"]] += 1


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_route_searchs_terrain_is_what_terrain_gives_every_space(version):
    seen = Counter()
    for seed in range(6):
        for k, (_engine, s, _seat, _rng) in enumerate(random_playout(version, f"wzd-route-terrain:{seed}", {})):
            if not s.get("map") or not s["overlays"] or k % 7:
                continue
            _check(s, seen)
            # The same state with every overlay turned over, and with a second overlay stacked
            # under the first one's space (``terrain`` reads the first).
            turned = copy_tree(s)
            for o in turned["overlays"]:
                o["face_up"] = not o["face_up"]
            board_changed(turned)  # as every writer of the overlays does
            _check(turned, seen)
            stacked = copy_tree(s)
            stacked["overlays"].append(dict(stacked["overlays"][0], kind="terrain", face_up=True, what="dangerous"))
            board_changed(stacked)
            _check(stacked, seen)
    rules._step_memo.cache_clear()
    assert seen["terrain", False, "mistveil-crossing"] > 0 and seen["challenge", False, "mistveil-crossing"] > 0, seen
    assert seen["terrain", True, "ember-quarry"] + seen["terrain", True, "moonlit-cloister"] > 0, seen
