"""The spaces offered for a challenge or a terrain placement (``rules._challenge_hexes``,
``rules._terrain_hexes``) leave out the spaces holding an overlay by a set of those spaces, not by
asking ``overlay_at`` of every space (issue 17, P1). Along random playouts of both rules versions,
at every state with a board, each lists what the per-space ``overlay_at`` test lists, in order."""

from collections import Counter

import pytest

from engines.wizarding_duels import geometry, legal, rules
from engines.wizarding_duels.state import board, overlay_at

from .playouts import random_playout, states_of_varied_games


def challenge_hexes_by_overlay_at(s):
    b = board(s)
    arrivals = set(b.arrival[0]) | set(b.arrival[1])
    chal = [geometry.parse(o["hex"]) for o in s["overlays"] if o["kind"] == "challenge"]
    base = [
        h
        for h in b.hexes
        if b.terrain[h] == "open" and h not in arrivals and not b.at_edge(h) and overlay_at(s, h) is None
    ]
    for spacing in (3, 2, 1):
        ok = [h for h in base if all(geometry.distance(h, c) >= spacing for c in chal)]
        if ok:
            return ok
    return []


def terrain_hexes_by_overlay_at(s):
    b = board(s)
    arrivals = set(b.arrival[0]) | set(b.arrival[1])
    return [h for h in b.hexes if b.terrain[h] == "open" and h not in arrivals and overlay_at(s, h) is None]


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_placement_spaces_are_those_the_per_space_overlay_test_lists(version):
    seen = Counter()
    for seed, s in states_of_varied_games(version):
        if board(s) is None:
            continue
        assert rules._challenge_hexes(s) == challenge_hexes_by_overlay_at(s), seed
        assert rules._terrain_hexes(s) == terrain_hexes_by_overlay_at(s), seed
        seen[s["queue"][0]["step"] if s["queue"] else None, len(s["overlays"]) > 0] += 1
    # Asked while challenges and terrain were being placed, with overlays already down.
    assert seen["place_challenge", True] and seen["place_terrain", True], seen


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_direct_challenge_check_accepts_every_space_the_list_offers_and_no_other(version):
    """``legal``'s check of one challenge placement, which tells a closer spacing by one pass for a
    wider one, against the listed spaces, for every space of the board (issue 17, P1)."""
    seen = Counter()
    for seed in range(12):
        for _engine, s, seat, _rng in random_playout(version, seed, {}):
            st = s["queue"][0] if s["queue"] else None
            if seat is None or st is None or st["step"] != "place_challenge":
                continue
            listed = set(rules._challenge_hexes(s))
            chal = [geometry.parse(o["hex"]) for o in s["overlays"] if o["kind"] == "challenge"]
            for h in board(s).hexes:
                ok = legal.allowed(s, st, seat, {"type": "place_challenge", "hex": geometry.key(h)})
                assert ok is (h in listed), (seed, h)
                near = min([geometry.distance(h, c) for c in chal], default=3)
                seen[min(near, 3), ok] += 1
    # Spaces at a closer spacing were both offered (no wider one left) and refused (one left).
    assert seen[2, True] and seen[2, False] and seen[3, True], seen
