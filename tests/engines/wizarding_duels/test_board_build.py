"""``geometry.Board`` is built inside the first replay of a stream on its map, so it fills its
tables in as few passes as their fields allow, turning the second half without a call per space,
and ``at_edge`` stops at the first neighbour off the board (issue 17, P1). On every map and Nexus of
the packs, every table is what the construction a field at a time, over the spec, builds."""

from engines.treecopy import copy_tree
from engines.wizarding_duels import content
from engines.wizarding_duels import geometry as g


def board_field_by_field(spec, nexus):
    """The tables as ``Board.__init__`` built them before (each from the one before it)."""
    h0, h1 = spec["halves"]
    n0 = g.parse(h0["nexus"][nexus])
    n1 = g.parse(h1["nexus"][nexus])

    def turn(k):
        q, r = g.parse(k)
        return n0[0] - (q - n1[0]), n0[1] - (r - n1[1])

    terrain, zones, clash = {}, {}, []
    for k, t in h0["hexes"].items():
        terrain[g.parse(k)] = t
        zones[g.parse(k)] = [0]
    for k, t in h1["hexes"].items():
        h = turn(k)
        if h in terrain:
            if terrain[h] != t:
                clash.append(h)
            zones[h] = [0, 1]
        else:
            terrain[h] = t
            zones[h] = [1]
    arrival = [[g.parse(k) for k in h0["arrival"]], [turn(k) for k in h1["arrival"]]]
    hexes = sorted(terrain, key=lambda h: (h[1], h[0]))
    keys = {h: f"{h[0]},{h[1]}" for h in terrain}
    return {
        "terrain": terrain,
        "zones": zones,
        "clash": clash,
        "arrival": arrival,
        "hexes": hexes,
        "keys": keys,
        "terrain_by_key": {keys[h]: t for h, t in terrain.items()},
        "zones_by_key": {keys[h]: z for h, z in zones.items()},
        "rough_keys": frozenset(keys[h] for h, t in terrain.items() if t != "open"),
        "arrival_keys": [frozenset(keys[h] for h in a) for a in arrival],
        "impassable": [h for h in hexes if terrain[h] == "impassable"],
        "edge": {h: sum(n in terrain for n in g.neighbours(h)) < 6 for h in hexes},
    }


def test_every_table_of_every_board_is_what_the_field_by_field_construction_builds():
    boards = 0
    for pack_id in content.pack_ids():
        for map_id, spec in content.load(pack_id).maps.items():
            for nexus in spec["halves"][0]["nexus"]:
                if nexus not in spec["halves"][1]["nexus"]:
                    continue
                b = g.Board(spec, nexus)
                want = board_field_by_field(spec, nexus)
                for field, value in want.items():
                    got = {h: b.at_edge(h) for h in b.hexes} if field == "edge" else getattr(b, field)
                    assert got == value, (map_id, nexus, field)
                    if isinstance(value, dict):
                        assert list(got) == list(value), (map_id, nexus, field)  # the same order too
                boards += 1
    assert boards >= 3


def test_a_space_off_the_board_is_at_its_edge_as_the_neighbour_count_says():
    spec = content.load("original-v1").maps["moonlit-cloister"]
    b = g.Board(spec, sorted(spec["halves"][0]["nexus"])[0])
    lo_q = min(h[0] for h in b.hexes) - 2
    hi_q = max(h[0] for h in b.hexes) + 2
    lo_r = min(h[1] for h in b.hexes) - 2
    hi_r = max(h[1] for h in b.hexes) + 2
    for q in range(lo_q, hi_q + 1):
        for r in range(lo_r, hi_r + 1):
            assert b.at_edge((q, r)) == (len(b.board_neighbours((q, r))) < 6), (q, r)


def test_a_space_named_twice_in_a_half_takes_its_last_terrain_in_every_table():
    # The schema lets a space be written "03,1" beside "3,1"; the one pass over a half still
    # leaves the tables the field-by-field construction builds (the last name's terrain).
    spec = copy_tree(content.load("original-v1").maps["moonlit-cloister"])
    h0 = spec["halves"][0]["hexes"]
    first = next(k for k, t in h0.items() if t == "open" and not k.startswith("-"))
    q, r = first.split(",")
    h0["0" + q + "," + r] = "impassable"
    second = next(k for k, t in h0.items() if t == "impassable" and k != "0" + first)
    q, r = second.split(",")
    h0["0" + q + "," + r] = "open"
    nexus = sorted(spec["halves"][0]["nexus"])[0]
    b = g.Board(spec, nexus)
    want = board_field_by_field(spec, nexus)
    for field, value in want.items():
        got = {h: b.at_edge(h) for h in b.hexes} if field == "edge" else getattr(b, field)
        assert got == value, field
    assert g.parse(first) in b.impassable and g.parse(second) not in b.impassable
