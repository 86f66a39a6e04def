"""An answer is taken only as the options write it (RULES.md, "Answers are typed"): a count or a
split is a JSON integer and a flag a JSON boolean. Python's ``1 == 1.0 == True`` made ``true`` and
``1.0`` pass for a danger count (a float then reached the model's Impacts) and ``1`` for a flag."""

import copy
from collections import Counter

import pytest

from engines.base import IllegalAction
from engines.wizarding_duels import legal
from engines.wizarding_duels.scenario import E, act, build

from ..near_misses import retyped
from .helpers import front
from .playouts import random_playout
from .test_version_two_choices import LAVA, defender_empowers


def refused_both_ways(s, seat, action):
    """Refused by ``validate`` and by the fold (``apply_in_place``, whose fast paths run first),
    with the same code, and the state left as it was."""
    before = copy.deepcopy(s)
    with pytest.raises(IllegalAction) as checked:
        E.validate(s, seat, action)
    with pytest.raises(IllegalAction) as folded:
        E.apply_in_place(s, {"kind": "action", "seat": seat, "action": action})
    assert checked.value.code == folded.value.code == "illegal_action"
    assert s == before


def test_a_danger_count_is_an_integer_not_true_or_a_float():
    s = build(models=[(0, "ron-weasley", "2,0", {}), (1, "death-eater-i", "0,6", {})], active="0a", overlays=LAVA)
    assert {"type": "move", "to": "3,0", "dangerous": 1} in E.legal_actions(s, 0)
    for forged in (True, 1.0):
        refused_both_ways(s, 0, {"type": "move", "to": "3,0", "dangerous": forged})
    assert type(act(s, 0, {"type": "move", "to": "3,0", "dangerous": 1})["models"]["0a"]["impacts"]) is int


def test_a_split_is_an_integer_and_a_flag_a_boolean():
    s = defender_empowers()
    assert front(s) == "empower" and {"type": "empower", "light": 1} in E.legal_actions(s, 1)
    for forged in (True, 1.0):
        refused_both_ways(s, 1, {"type": "empower", "light": forged})
    assert act(s, 1, {"type": "empower", "light": 1})["players"][1]["pool"] == {"light": 1, "dark": 3}


def test_flags_are_booleans_and_every_other_number_an_integer():
    # Along playouts, test_direct_check tries ``1`` and ``0`` for each listed flag and ``true`` and
    # ``1.0`` for each listed count, through validate; here the rule itself.
    assert legal.typed({"type": "upkeep", "keep": True, "light": 0})
    assert legal.typed({"type": "activate", "model": "0a", "animal": True})
    assert legal.typed({"type": "lower", "use": False})
    assert legal.typed({"type": "potion", "index": 0, "target": "1a"})
    assert not legal.typed({"type": "upkeep", "keep": 1})
    assert not legal.typed({"type": "lower", "use": 0})
    assert not legal.typed({"type": "potion", "index": True, "target": "1a"})
    assert not legal.typed({"type": "place", "hex": "1,1", "dangerous": 2.0})


#: Set-up steps whose answers ``groups`` checks field by field (no listed answer to be equal to).
SELF_CHECKED = ("build", "stock", "mulligan")


@pytest.mark.parametrize("seed", range(3))
def test_along_playouts_the_fold_refuses_every_listed_answer_retyped(seed):
    # The fold's fast paths run before the general check: each must refuse (or decline to the
    # general path, which refuses) what the general check refuses.
    tried = Counter()
    for engine, s, seat, rng in random_playout(E.version, seed, {}):
        if seat is None or s["queue"][0]["step"] in SELF_CHECKED:
            continue
        forged = [f for answer in engine.legal_actions(s, seat) for f in retyped(answer)]
        for f in rng.sample(forged, min(3, len(forged))) if forged else ():
            refused_both_ways(copy.deepcopy(s), seat, f)
            tried[s["queue"][0]["step"]] += 1
    assert sum(tried.values()) > 50, tried
