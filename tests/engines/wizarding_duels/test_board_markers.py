"""Board markers (WD-99, rulebook L1218-1224) and a board's own Mystery rule (V-3, L725).

original-v1 places markers with two upkept spells: Cinder Sigil (a fire marker that burns opposing
models within 1 space in the End Phase) and Warden's Lantern (a guard marker: +1 Defense to friendly
models within 1 space). Both are cast at a space, and the marker stays while the spell is upkept."""

from engines.wizarding_duels import content, geometry, rules
from engines.wizarding_duels.scenario import E, act, build, deal, decline

from .helpers import front

OV = "original-v1"


def ov(models, map_id="moonlit-cloister", **kw):
    return build(pack_id=OV, map_id=map_id, nexus="blue", models=models, **kw)


def sigil(target="3,2", **kw):
    """Cassius (0a) casts Cinder Sigil at ``target``; a +1 card makes it 2 + 1 + 0 = 3: a success."""
    s = ov(
        [
            (0, "cassius-vane", "2,1", {}),
            (0, "sister-hollis", "4,1", {}),
            (1, "tobias-fenwick", "3,3", {}),
            (1, "nyx-hollow", "5,3", {}),
        ],
        spellbooks={0: ["cinder-sigil", "warden-lantern"]},
        active="0a",
        **kw,
    )
    s = act(s, 0, {"type": "cast", "spell": "cinder-sigil", "target": target})
    return decline(deal(s, ["c01-steady-hand"]))


def end_phase(s):
    s["queue"] = [{"step": "end_phase"}]
    s["starting"] = 0
    rules.run(s)
    return s


def test_a_marker_spell_is_cast_at_a_space_in_range_and_sight_but_never_at_impassable_terrain():
    """WD-99 (L1222-1224) and L1196: "No markers can be placed on Impassable Terrain"; a space
    holding a model may take one (models stand on markers)."""
    s = ov(
        [(0, "cassius-vane", "2,1", {}), (1, "tobias-fenwick", "3,3", {})],
        spellbooks={0: ["cinder-sigil"]},
        active="0a",
    )
    b = content.board(OV, "moonlit-cloister", "blue")
    assert b.terrain[(0, 2)] == "impassable" and geometry.distance((2, 1), (0, 2)) <= 4
    spaces = {a["target"] for a in E.legal_actions(s, 0) if a["type"] == "cast" and a["spell"] == "cinder-sigil"}
    assert "0,2" not in spaces
    assert {"2,1", "3,3", "3,2"} <= spaces  # its own space, a space with a model, Dangerous terrain
    assert all(geometry.distance((2, 1), geometry.parse(h)) <= 4 for h in spaces)
    assert all(b.los((2, 1), geometry.parse(h)) for h in spaces if h != "2,1")


def test_a_cast_sigil_puts_a_fire_marker_that_burns_nearby_opponents_in_the_end_phase():
    """WD-99 (L1220-1222: markers "mark the position of some Active Spell"), A-68 (L1087: the fire
    creature stays on the table damaging the opponent's models while upkept), resolved in 3a."""
    s = sigil()
    assert s["last_clash"]["success"]
    assert s["markers"] == [{"hex": "3,2", "mark": "fire", "seat": 0, "spell": "cinder-sigil", "n": 1, "radius": 1}]
    assert s["players"][0]["upkeep"][0]["space"] == "3,2"
    assert E.view(s, 1)["markers"] == s["markers"]  # markers are public
    s = end_phase(s)
    # Tobias (3,3) is next to the marker; Nyx (5,3) is three spaces away; Sister Hollis (4,1) is a friend.
    assert s["models"]["1a"]["impacts"] == 1 and s["models"]["1b"]["impacts"] == 0 and s["models"]["0b"]["impacts"] == 0


def test_the_marker_goes_when_the_upkeep_stops_or_the_caster_is_removed():
    """WD-62 (L1110-1112) and WD-63 (L1114): the spell is disabled, so its marker leaves the board."""
    s = sigil()
    rules.disable_upkeep(s, 0, "cinder-sigil")
    assert s["markers"] == [] and s["players"][0]["clocks"]["cinder-sigil"] == 2
    s = sigil()
    s["queue"].insert(0, {"step": "hit", "model": "0a", "n": 5, "by": 1, "resist": False})
    rules.run(s)
    assert s["models"]["0a"]["removed"] and s["markers"] == []


def test_models_stand_on_and_move_across_markers_and_markers_share_a_space():
    """WD-99 (L1220-1222): "A Model can be placed on the same Space as a Marker and can move freely
    on them"; "A Marker can share a Space with another Marker"."""
    s = sigil(target="3,1")
    s["markers"].append({"hex": "3,1", "mark": "guard", "seat": 1, "spell": "warden-lantern", "n": 1, "radius": 1})
    assert [x["hex"] for x in s["markers"]] == ["3,1", "3,1"]
    s["act"] = None
    s["queue"] = [{"step": "activate", "seat": 0}]
    s = act(s, 0, {"type": "activate", "model": "0b"})
    moves = {a["to"] for a in E.legal_actions(s, 0) if a["type"] == "move"}
    assert "3,1" in moves  # a space holding two markers is still free to end a move on
    assert act(s, 0, {"type": "move", "to": "3,1"})["models"]["0b"]["hex"] == "3,1"


def test_a_guard_marker_adds_to_the_defense_of_friendly_models_near_it():
    """WD-99 with an authored effect (A-68): Warden's Lantern, +1 Defense within 1 space."""
    s = ov([(0, "cassius-vane", "2,1", {}), (1, "tobias-fenwick", "3,3", {})], spellbooks={1: ["warden-lantern"]})
    c = {
        "def": {"model": "1a", "seat": 1, "kept": None, "extra": [], "emp_cards": [], "swap": None},
        "att": {"model": "0a", "seat": 0},
        "what": "attack",
        "prof": {"type": "magical"},
        "react": 0,
    }
    c["def"]["early"] = 0
    before = rules.defense_total(s, c)
    s["markers"] = [{"hex": "3,2", "mark": "guard", "seat": 1, "spell": "warden-lantern", "n": 1, "radius": 1}]
    assert rules.defense_total(s, c) == before + 1
    s["markers"][0]["seat"] = 0  # the opponent's lantern does not guard Tobias
    assert rules.defense_total(s, c) == before


def test_a_neutral_marker_spells_upkeep_is_paid_in_the_colours_its_owner_names():
    """WD-61 (L1104: upkeep markers are of the colour that would empower the spell) with A-18
    (a Neutral spell takes either colour, mixed if wanted)."""
    s = ov(
        [(0, "cassius-vane", "2,1", {}), (1, "tobias-fenwick", "3,4", {})],
        spellbooks={0: ["warden-lantern"]},
        pools={0: {"light": 1, "dark": 1}},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "warden-lantern", "target": "2,1"})
    s = act(s, 0, {"type": "pass"}) if front(s) == "empower" else s
    s = decline(deal(s, ["c01-steady-hand"]))
    assert s["markers"][0]["mark"] == "guard"
    s["queue"][0:0] = rules._upkeep_steps(s, [0], "start")
    assert E.legal_actions(s, 0) == [
        {"type": "upkeep", "keep": True, "light": 0},
        {"type": "upkeep", "keep": True, "light": 1},
        {"type": "upkeep", "keep": False},
    ]
    kept = act(s, 0, {"type": "upkeep", "keep": True, "light": 1})
    assert kept["players"][0]["upkeep"][0]["markers"] == {"light": 1, "dark": 0} and kept["markers"]


def test_a_board_with_a_mystery_rule_makes_face_down_overlays_difficult_terrain():
    """V-3, rulebook L725 ("Some Game Boards have special rules for Mystery Overlays"): on Mistveil
    Crossing a space holding a Mystery-side overlay costs 2 to enter; elsewhere it has no effect (L720)."""
    pk = content.load(OV)
    assert pk.maps["mistveil-crossing"]["special_rules"] == ["mystery_difficult"]
    fog = [{"kind": "terrain", "hex": "2,1", "face_up": False, "what": "dangerous", "owner": 1}]
    models = [(0, "cassius-vane", "2,0", {}), (1, "tobias-fenwick", "3,5", {})]
    misty = ov(models, map_id="mistveil-crossing", overlays=fog, active="0a")
    plain = build(pack_id=OV, map_id="ember-quarry", nexus="blue", models=models, overlays=fog, active="0a")
    assert rules.terrain(misty, (2, 1)) == "difficult" and rules.terrain(plain, (2, 1)) == "open"
    one_step = {(2, 1)}  # with 1 movement point the fogged space cannot be entered; with 2 it can
    assert one_step <= set(rules.destinations(plain, plain["models"]["0a"], 1))
    assert not one_step & set(rules.destinations(misty, misty["models"]["0a"], 1))
    assert one_step <= set(rules.destinations(misty, misty["models"]["0a"], 2))
    # Turned face up, the overlay is its own terrain again (here Dangerous), whatever the board says.
    misty["overlays"][0]["face_up"] = True
    assert rules.terrain(misty, (2, 1)) == "dangerous"


def test_the_heuristic_bot_lays_a_fire_marker_next_to_an_enemy_when_it_has_nothing_to_hit():
    """Bots (issue deliverable 5): with its Basic Combat Spell spent this activation (L683), Cassius
    has nothing to hit Tobias with, so the bot casts Cinder Sigil where the fire reaches him."""
    import random

    s = ov(
        [(0, "cassius-vane", "2,1", {}), (1, "tobias-fenwick", "3,3", {})],
        spellbooks={0: ["cinder-sigil"]},
        active="0a",
    )
    s["act"]["basic_used"] = True
    a = E.bot_action("heuristic", s, 0, random.Random(1))
    assert a["type"] == "cast" and a["spell"] == "cinder-sigil"
    assert geometry.distance(geometry.parse(a["target"]), (3, 3)) <= 1
