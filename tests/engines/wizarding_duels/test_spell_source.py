"""A cast is checked and made with ``rules.spell_source`` (issue 17, P1), which reads only the named
spell's conditions, instead of the list of every castable spell. On random playouts of both rules
versions, at every activation, for every model on the board and every spell of the pack (and
names that are no spell), it answers what ``castable_spells`` answers for that spell; also on
copies of those states with the conditions the playouts rarely reach (every spell in the
Spellbook, some of them clocked, upkept or innate too, the Basic spell used, Elf, Dark Arts)."""

import copy
import random
from collections import Counter

import pytest

from engines.wizarding_duels import content, rules

from .playouts import group_with, random_playout


def listed_source(s, m, sp):
    """The source ``dict(castable_spells(s, m))`` gives ``sp`` (the last pair wins), or None."""
    out = None
    for x, src in rules.castable_spells(s, m):
        if x == sp:
            out = src
    return out


def varied(s, m, rng):
    """A copy of ``s`` and of its model ``m`` with the cast's conditions shuffled."""
    s = copy.deepcopy(s)
    m = s["models"][m["uid"]]
    p = s["players"][m["seat"]]
    spells = sorted(content.load(s["pack"]).spells)
    p["spellbook"] = sorted(rng.sample(spells, rng.randint(0, len(spells))))
    p["clocks"] = {sp: rng.randint(1, 2) for sp in rng.sample(spells, 3)}
    p["upkeep"] = [{"spell": sp} for sp in rng.sample(spells, 3)]
    m["innate"] = rng.sample(spells, 3)
    m["innate_clocks"] = {sp: 1 for sp in rng.sample(m["innate"], 1)}
    m["spells"] = m["spells"][: rng.randint(0, 1)]
    s["act"] = dict(s["act"], basic_used=rng.random() < 0.5)
    for trait in ("elf", "dark_arts"):
        if rng.random() < 0.3:
            m["traits"] = dict(m["traits"], **{trait: 1})
    return s, m


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_source_of_one_spell_is_the_one_the_list_gives_it(version):
    pk = content.load("original-v1")
    names = sorted(pk.spells) + ["no-such-spell", None, 1, ["x"]]
    seen = Counter()
    rng = random.Random(version)
    configs = [{}, {"groups": [group_with("ashen-regent"), group_with("tobias-fenwick")]}]
    for seed, config in enumerate(configs * 2):
        for _engine, s, _seat, _rng in random_playout(version, seed, config):
            if s["act"] is None:
                continue
            for m in s["models"].values():
                if m["removed"] or m["hex"] is None:
                    continue
                for sp in names:
                    src = rules.spell_source(s, m, sp)
                    assert src == listed_source(s, m, sp), (sp, m["uid"])
                    seen[src] += 1
                if rng.random() < 0.1:
                    vs, vm = varied(s, m, rng)
                    for sp in names:
                        assert rules.spell_source(vs, vm, sp) == listed_source(vs, vm, sp), (sp, m["uid"])
    assert seen["innate"] and seen["basic"] and seen["book"] and seen[None], seen
