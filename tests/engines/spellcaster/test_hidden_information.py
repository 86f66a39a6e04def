"""Hidden information: face-down values, private draws, secret allocations; resample_hidden declares them."""

import json
import random

from .helpers import SHEET, E, act, at, deal, fresh_turn, give_spell, started
from .playouts import playout


def placed_face_down():
    st = started(2)
    at(st, 0, "C")
    fresh_turn(st, 0)
    st = act(st, 0, type="conjure", cards=1)
    st = act(st, 0, type="draw", **{"from": "fire"})
    return act(deal(st, "0-fire-5-a"), 0, type="place", spell=0, section="mass")


def test_a_face_down_card_shows_its_element_but_not_its_value_to_others_and_spectators():
    """B4, SC-R11: the element is public (the deck drawn from is seen), the value hidden."""
    st = placed_face_down()
    for viewer in (1, None):
        view = E.view(st, viewer)
        assert view["casters"][0]["display"][0]["mass"] == [
            {"id": None, "element": "fire", "value": None, "open": False}
        ]
        assert view["casters"][0]["display"][0]["total"] is None
        assert "0-fire-5-a" not in json.dumps(view)
    own = E.view(st, 0)["casters"][0]["display"][0]
    assert own["mass"][0]["value"] == 5 and own["total"] == 5


def test_others_see_only_the_sizes_of_the_face_down_pools():
    """B4: deck pools are seen as counts per element."""
    st = placed_face_down()
    view = E.view(st, 1)["casters"][0]
    assert view["pool"] is None and view["pool_sizes"] == {"fire": 9, "earth": 10, "water": 10, "air": 10}
    assert E.view(st, 0)["casters"][0]["pool"]["fire"] == sorted(st["casters"][0]["pool"]["fire"])


def test_a_drawn_card_waiting_for_a_choice_is_seen_only_by_its_drawer():
    st = started(2)
    at(st, 0, "C")
    fresh_turn(st, 0)
    st = act(st, 0, type="conjure", cards=3)
    st = deal(act(st, 0, type="draw", **{"from": "air"}), "0-air-5-a")
    assert E.view(st, 1)["casters"][0]["hand"] == [{"id": None, "element": "air", "value": None, "open": False}]
    assert E.view(st, 0)["casters"][0]["hand"][0]["value"] == 5


def test_log_lines_never_name_a_hidden_value():
    st = started(2)
    at(st, 0, "C")
    fresh_turn(st, 0)
    before = act(st, 0, type="conjure", cards=1)
    mid = act(before, 0, type="draw", **{"from": "fire"})
    event = {"kind": "chance", "outcome": [E.draw_pool(mid).index("0-fire-5-a")]}
    drawn = E.apply(mid, event)
    assert E.describe(mid, event, drawn) == "Seat 0 draws a Fire card."
    place = {"kind": "action", "seat": 0, "action": {"type": "place", "spell": 0, "section": "mass"}}
    line = E.describe(drawn, place, E.apply(drawn, place))
    assert "5" not in line and "Fire card" in line


def test_the_allocation_log_line_is_the_same_whatever_was_allocated():
    st = E.setup({}, 2)
    lines = set()
    for alloc in (
        {"life_force": 2, "will": 1, "focus": 1, "skill": 2},
        {"life_force": 0, "will": 6, "focus": 0, "skill": 0},
    ):
        event = {"kind": "action", "seat": 0, "action": dict(alloc, type="allocate")}
        lines.add(E.describe(st, event, E.apply(st, event)))
    assert len(lines) == 1


def test_a_resampled_state_looks_the_same_to_the_viewer_and_keeps_every_spell_within_skill():
    """resample_hidden: the viewer's view and the chance spec do not change; values move within elements."""
    rng = random.Random(5)
    changed = 0
    checked = 0

    def every(before, event, after):
        nonlocal changed, checked
        if after["phase"] != "play" or rng.random() > 0.04:
            return
        for viewer in [None] + list(range(after["n"])):
            other = E.resample_hidden(after, viewer, rng)
            assert E.view(other, viewer) == E.view(after, viewer)
            if viewer is None:
                assert E.chance(other) == E.chance(after)
            for c in other["casters"]:
                for sp in c["display"]:
                    if sp is not None:
                        assert sum(int(x["id"].split("-")[2]) for x in sp["motion"] + sp["mass"]) <= c["attrs"]["skill"]
            changed += other != after
            checked += 1

    for seed in range(3):
        playout(seed, n=3, bots={0: "heuristic", 1: "heuristic", 2: "random"}, max_events=1500, every=every)
    # some states hide nothing outside the pools (then resampling changes nothing), many do
    assert checked > 50 and changed > checked // 10


def test_resampling_during_allocation_redraws_the_other_seats_pending_allocations():
    st = act(E.setup({}, 2), 1, type="allocate", **SHEET)
    seen = {
        json.dumps(E.resample_hidden(st, 0, random.Random(k))["casters"][1]["alloc"], sort_keys=True) for k in range(20)
    }
    assert len(seen) > 1
    assert E.resample_hidden(st, 1, random.Random(1))["casters"][1]["alloc"] == SHEET


def test_resampling_never_changes_the_viewers_own_cards_or_mutates_its_input():
    st = placed_face_down()
    give_spell(st, 1, 0, motion=["1-water-1-a"], mass=["1-water-3-a"])
    snapshot = json.dumps(st, sort_keys=True)
    other = E.resample_hidden(st, 0, random.Random(3))
    assert json.dumps(st, sort_keys=True) == snapshot
    assert other["casters"][0] == st["casters"][0]
