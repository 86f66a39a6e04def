"""``alive``, ``alive_unordered`` and ``on_board`` list a seat's models by loops, and
``legal._first_unspent`` looks for an earlier copy of a potion by a loop, not by comprehensions
and generators (issue 17, P1). At every state of random playouts of both versions they give what
the comprehensions gave: the same models in the same order, the same answer for every potion."""

from __future__ import annotations

import pytest

from engines.treecopy import copy_tree
from engines.wizarding_duels import legal
from engines.wizarding_duels.state import alive, alive_unordered, living_changed, on_board, spaces_changed

from .playouts import random_playout, varied_configs


def _by_comprehensions(s, seat):
    models = s["models"]
    ordered = [models[uid] for uid in sorted(models)]
    return (
        [m for m in ordered if not m["removed"] and m["seat"] == seat],
        [m for m in models.values() if not m["removed"] and m["seat"] == seat],
        [m for m in ordered if not m["removed"] and m["seat"] == seat and m["hex"] is not None],
    )


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_model_lists_and_the_potion_check_are_what_the_comprehensions_gave(version):
    potions_checked = removed_seen = 0
    for seed, config in enumerate(varied_configs()):
        for k, (_engine, s, _seat, _rng) in enumerate(random_playout(version, f"wzd-model-lists:{seed}", config)):
            states = [s]
            if k % 10 == 0 and s["models"]:
                # A model removed (as ``remove_model`` leaves it, the derived ``living`` rewritten),
                # which random games seldom reach.
                gone = copy_tree(s)
                m = gone["models"][sorted(gone["models"])[k % len(gone["models"])]]
                m["removed"], m["hex"] = True, None
                living_changed(gone)
                spaces_changed(gone)
                states.append(gone)
            for state in states:
                for seat in (0, 1):
                    want = _by_comprehensions(state, seat)
                    got = (alive(state, seat), alive_unordered(state, seat), on_board(state, seat))
                    for i, (w, g) in enumerate(zip(want, got)):
                        if i == 1:  # ``alive_unordered`` promises the models, in no order
                            w, g = sorted(w, key=id), sorted(g, key=id)
                        assert [id(m) for m in g] == [id(m) for m in w]
                removed_seen += any(m["removed"] for m in state["models"].values())
            for seat in (0, 1):
                potions = s["players"][seat]["potions"]
                for i, pot in enumerate(potions):
                    before = not pot["spent"] and not any(not x["spent"] and x["id"] == pot["id"] for x in potions[:i])
                    assert legal._first_unspent(potions, i) == before
                    potions_checked += 1
    assert potions_checked > 1000 and removed_seen > 0
