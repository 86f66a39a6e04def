"""An answer is taken only as legal_actions writes it (RULES.md, "Answers are typed"): its numbers
are JSON integers and a Will answer's ``place`` a JSON boolean. Python's ``0 == 0.0 == False``
let ``false`` or ``0.0`` stand for a point of an allocation, and ``true`` for a conjure of one."""

import copy
from collections import Counter

import pytest

from engines.base import IllegalAction

from ..near_misses import retyped
from .helpers import E, act, started
from .playouts import playout


def refused_both_ways(st, seat, action):
    before = copy.deepcopy(st)
    with pytest.raises(IllegalAction) as checked:
        E.validate(st, seat, action)
    with pytest.raises(IllegalAction) as folded:
        E.apply_in_place(copy.deepcopy(st), {"kind": "action", "seat": seat, "action": action})
    assert checked.value.code == folded.value.code == "bad_action"
    assert st == before


def test_an_allocation_of_false_or_a_float_is_refused_and_one_of_integers_taken():
    st = E.setup({}, 2)
    sheet = {"life_force": 2, "will": 2, "focus": 0, "skill": 2}
    assert dict(sheet, type="allocate") in E.legal_actions(st, 0)
    for forged in ({"focus": False}, {"focus": 0.0}, {"will": 2.0}):
        refused_both_ways(st, 0, dict(sheet, type="allocate", **forged))
    act(st, 0, type="allocate", **sheet)


def test_a_conjure_of_true_cards_is_refused():
    st = started()
    seat = st["turn"]["seat"]
    assert {"type": "conjure", "cards": 1} in E.legal_actions(st, seat)
    refused_both_ways(st, seat, {"type": "conjure", "cards": True})
    refused_both_ways(st, seat, {"type": "conjure", "cards": 1.0})


#: Every answer type whose fields hold a number or a flag (the others name points, decks and spells
#: by strings, which no number equals).
NUMBERED = {"allocate", "conjure", "keep", "place", "return", "will", "contest", "wild_next"}


def test_along_playouts_every_listed_answer_retyped_is_refused():
    tried = Counter()

    def every(before, event, after):
        if event["kind"] != "action":
            return
        seat = event["seat"]
        for answer in E.legal_actions(before, seat)[:20]:
            for forged in retyped(answer):
                refused_both_ways(before, seat, forged)
                tried[answer["type"]] += 1

    for seed, seats in ((1, 2), (2, 3), (3, 4)):
        playout(seed, n=seats, max_events=600, every=every)
    # Each check that compares a number or a flag met its retyped answers (a return's list item by item).
    assert set(tried) == NUMBERED, tried
