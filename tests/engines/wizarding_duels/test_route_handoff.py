"""A move's safest route is searched for once per event (issue 17, P1): the check
(``legal.allowed``) hands the number of Dangerous spaces it found to ``rules.decide``, which made
the move by asking ``safest_to`` again. On recorded random playouts of both rules versions, the
number handed on is ``safest_to``'s, it is handed on only for a move by the safest route, and every
event applied with it leaves the state the general path (no handoff) leaves."""

import copy
from collections import Counter

import pytest

from engines.wizarding_duels import geometry, legal, rules

from .playouts import group_with, played_events

CONFIGS = [
    ({}, 0),
    ({}, 1),
    ({}, 2),
    # A Gryffindor move and the pushes, moves and teleports of spells come from these Groups.
    ("ashen", 100),
    ("isolde", 101),
]


def config_of(which):
    if which == "ashen":
        return {"groups": [group_with("ashen-regent"), group_with("tobias-fenwick")]}
    if which == "isolde":
        return {"groups": [group_with("isolde-marrow"), group_with("mira-quillfeather")]}
    return which


def safest_by_the_rules(s, st, action):
    """What ``safest_to`` says of the move ``action`` answers to ``st``, or None when the action
    is no move by the safest route."""
    if "dangerous" in action:
        return None
    if st["step"] == "act" and action.get("type") == "move":
        m = s["models"][s["act"]["model"]]
        return rules.safest_to(s, m, rules.move_points(s, m), geometry.parse(action["to"]))
    if st["step"] == "place" and st["kind"] in ("move", "gryffindor") and action.get("hex") is not None:
        m = s["models"][action.get("model") or st["model"]]
        return rules.safest_to(s, m, st["n"], geometry.parse(action["hex"]))
    return None


def events_of(version, seed, config):
    """Yield ``(engine, state, event)`` for every event of a random game."""
    return played_events(version, seed, config)


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_check_hands_on_what_safest_to_says_and_only_for_a_move_by_the_safest_route(version):
    seen = Counter()
    for which, seed in CONFIGS:
        for _engine, s, ev in events_of(version, seed, config_of(which)):
            if ev["kind"] != "action" or s["queue"][0]["step"] in ("build", "stock", "mulligan"):
                continue
            st, action = s["queue"][0], ev["action"]
            found = []
            assert legal.allowed(s, st, ev["seat"], action, found)
            expected = safest_by_the_rules(s, st, action)
            assert found == ([] if expected is None else [expected]), (st, action)
            seen[(st["step"], "handed" if found else "not handed")] += 1
            seen["dangerous"] += bool(found and found[0])
    assert seen[("act", "handed")] > 50 and seen[("place", "handed")] > 0
    assert seen[("act", "not handed")] > 50
    assert seen["dangerous"] > 0  # some safest routes still enter a Dangerous space


@pytest.mark.parametrize("version", ["1", "2"])
def test_every_event_applied_with_the_handed_route_leaves_the_state_the_general_path_leaves(version, monkeypatch):
    moves = 0
    for which, seed in CONFIGS:
        for engine, s, ev in events_of(version, seed, config_of(which)):
            # The copying apply: the fold's fast move (fast.py) finds its route itself, so only
            # the general path hands one on.
            with_handoff = engine.apply(copy.deepcopy(s), ev)
            with monkeypatch.context() as m:
                m.setattr(legal, "_ROUTED", ())  # no check hands a route on: decide asks safest_to
                general = engine.apply(copy.deepcopy(s), ev)
            assert with_handoff == general, ev
            moves += ev["kind"] == "action" and ev["action"].get("type") in ("move", "place")
    assert moves > 50
