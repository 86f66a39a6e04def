"""Content packs: schema validation, the rulebook's fixed make-ups, and coverage of original-v1."""

import copy
import json

import pytest

from engines.wizarding_duels import content

ALL_TRAITS = set(content.schema()["$defs"]["trait"]["properties"]["id"]["enum"])


def raw(pack_id):
    return json.loads((content.PACK_DIR / f"{pack_id}.json").read_text())


@pytest.mark.parametrize("pack_id", ["rulebook-examples", "original-v1"])
def test_both_packs_validate_against_the_schema_and_the_cross_checks(pack_id):
    content.check(raw(pack_id))
    assert content.load(pack_id).id == pack_id


def test_the_starting_clash_deck_has_the_rulebooks_make_up():
    """WD-34, rulebook L405-416: seven +1, six +2, five +3, one 0 and one 2+."""
    for pack_id in content.pack_ids():
        uppers = sorted(c["upper"] for c in raw(pack_id)["clash_cards"])
        assert uppers == sorted(["1"] * 7 + ["2"] * 6 + ["3"] * 5 + ["0"] + ["2+"])


def test_a_deck_with_the_wrong_make_up_is_refused():
    data = raw("original-v1")
    data["clash_cards"][0]["upper"] = "3"
    with pytest.raises(content.PackError, match="starting deck"):
        content.check(data)


def test_an_unknown_trait_or_a_missing_x_is_refused():
    data = raw("original-v1")
    bad = copy.deepcopy(data)
    bad["characters"][0]["traits"].append({"id": "invisible"})
    with pytest.raises(content.PackError):
        content.check(bad)
    bad = copy.deepcopy(data)
    bad["characters"][4]["traits"] = [{"id": "large"}]
    with pytest.raises(content.PackError, match="needs X"):
        content.check(bad)


def test_an_unknown_effect_is_refused():
    data = raw("original-v1")
    data["spells"][0]["effects"] = [{"op": "turn_into_a_toad"}]
    with pytest.raises(content.PackError):
        content.check(data)


def test_the_rulebook_examples_pack_holds_exactly_the_named_values():
    """Spec 1.3: every value the worked examples fix."""
    p = content.load("rulebook-examples")
    by_name = {c["name"]: c for c in p.characters.values()}
    assert by_name["Harry Potter"]["mastery"] == 3
    assert by_name["Hermione Granger"]["defense"] == 2 and by_name["Hermione Granger"]["slots"] == 2
    assert {"id": "potioneer", "x": 2} in by_name["Hermione Granger"]["traits"]
    v = by_name["Lord Voldemort"]
    assert v["mastery"] == 3 and v["cunning"] == {"light": 0, "dark": 0, "neutral": 1}
    assert {"master_wizard", "adoration"} <= {t["id"] for t in v["traits"]}
    assert by_name["Nagini"]["mastery"] == 0 and by_name["Nagini"]["cunning"]["dark"] == 4
    assert by_name["Death Eater I"]["cunning"]["dark"] == 2 and by_name["Death Eater II"]["defense"] == 1
    sword = p.artifacts["sword-of-gryffindor"]["attack"]
    assert (sword["bonus"], sword["damage"]) == (3, 3)
    assert p.artifacts["crookshanks"]["restricted_to"] == ["Hermione Granger"]
    assert p.spells["protego-maxima"]["modifier"] == -5 and not p.spells["protego-maxima"]["combat"]
    assert p.spells["rictusempra"]["modifier"] == 1 and p.spells["rictusempra"]["combat"]
    assert p.spells["expecto-patronus"]["upkeep"] == 2
    assert p.spells["apparition"]["cooldown"] == 1
    assert p.spells["counter-spell"]["reaction"]
    zero = [c for c in p.clash_cards.values() if c["upper"] == "0" and c["id"] != "jinxed"]
    assert zero[0]["lower"]["effects"] == [{"op": "jinx"}]


def test_original_pack_meets_the_issue_minimums():
    p = content.load("original-v1")
    assert len(p.data["characters"]) >= 12 and len(p.affiliations) == 2
    assert len(p.data["spells"]) >= 30 and len(p.data["artifacts"]) >= 20 and len(p.data["potions"]) >= 15
    assert len(p.data["clash_cards"]) == 20 and p.data["lucky"] and p.data["jinxed"]
    assert len(p.data["maps"]) >= 2
    spells = p.data["spells"]
    assert any(s["combat"] for s in spells) and any(not s["combat"] for s in spells)
    assert any(s["upkeep"] for s in spells) and any(s["reaction"] for s in spells)
    assert {s["cooldown"] for s in spells} >= {1, 2, 3}
    arts = p.data["artifacts"]
    assert any(a["rarity"] == "legendary" for a in arts) and any(a["rarity"] == "common" for a in arts)
    assert any(a["lock"] for a in arts) and any(a["remove"] for a in arts) and any(a["attack"] for a in arts)
    assert {x["level"] for x in p.data["potions"]} == {0, 1, 2, 3}
    assert all(c["lower"] for c in p.data["clash_cards"])  # 20 lower parts
    timings = {c["lower"]["timing"] for c in p.data["clash_cards"]}
    assert timings == {"early", "late"}


def _effects(p):
    d = p.data
    out = []
    for s in d["spells"]:
        out += s["effects"]
    for a in d["artifacts"]:
        out += a["passive"] + a["use"] + (a["attack"]["effects"] if a["attack"] else [])
    for c in d["characters"]:
        for atk in c["attacks"]:
            out += atk["effects"]
    for x in d["potions"]:
        out += x["effects"]
    for c in d["clash_cards"]:
        out += c["lower"]["effects"] if c["lower"] else []
    return out


def test_original_pack_covers_every_trait_status_terrain_and_quest_type():
    """Issue deliverable 1: every trait (L1230-1420 plus Adoration), status (L1422-1446),
    terrain kind (L1176-1216) and quest type (L483-501) is used by original-v1."""
    p = content.load("original-v1")
    used_traits = {t["id"] for c in p.data["characters"] for t in c["traits"]}
    assert used_traits == ALL_TRAITS
    effects = _effects(p)
    statuses = {e["status"] for e in effects if e["op"] == "status"} | (
        {"push"} if any(e["op"] == "push" for e in effects) else set()
    )
    assert statuses == {"burning", "concealment", "poison", "slow", "push"}
    terrains = {t for m in p.data["maps"] for h in m["halves"] for t in h["hexes"].values()}
    assert terrains == set(content.geometry.TERRAINS)
    from collections import Counter

    types = Counter(q["type"] for q in p.data["quests"])
    assert set(types) == set(content.QUEST_TYPES) and min(types.values()) >= 2


def test_original_pack_places_every_kind_of_board_marker_and_uses_every_board_rule():
    """WD-99 (L1218-1224): content that puts markers on the board; V-3 (L725): a board with its own
    rule for Mystery overlays. Every kind the schema knows is used."""
    p = content.load("original-v1")
    defs = content.schema()["$defs"]
    marks = next(o for o in defs["effect"]["oneOf"] if o["properties"]["op"].get("const") == "marker")["properties"][
        "mark"
    ]["enum"]
    assert {e["mark"] for e in _effects(p) if e["op"] == "marker"} == set(marks)
    rules_known = set(defs["map"]["properties"]["special_rules"]["items"]["enum"])
    assert {r for m in p.data["maps"] for r in m.get("special_rules", [])} == rules_known


def test_a_marker_on_anything_but_a_non_combat_upkept_spell_is_refused():
    data = raw("original-v1")
    bad = copy.deepcopy(data)
    next(s for s in bad["spells"] if s["id"] == "cinder-sigil")["upkeep"] = None
    with pytest.raises(content.PackError, match="board marker"):
        content.check(bad)
    bad = copy.deepcopy(data)
    bad["potions"][0]["effects"] = [{"op": "marker", "mark": "fire", "n": 1, "radius": 1}]
    with pytest.raises(content.PackError, match="board markers"):
        content.check(bad)


def test_every_map_joining_keeps_shared_spaces_consistent_and_arrivals_open():
    for pack_id in content.pack_ids():
        for m in content.load(pack_id).data["maps"]:
            for colour in sorted(set(m["halves"][0]["nexus"]) & set(m["halves"][1]["nexus"])):
                b = content.board(pack_id, m["id"], colour)
                assert not b.clash
                assert len(b.arrival[0]) >= 6 and len(b.arrival[1]) >= 6
                assert not set(b.arrival[0]) & set(b.arrival[1])


def test_the_joined_halves_share_the_nexus_space():
    """L299-303: the two Nexus symbols of the chosen colour fall in the same space."""
    m = content.load("original-v1").maps["moonlit-cloister"]
    b = content.board("original-v1", "moonlit-cloister", "red")
    n0 = content.geometry.parse(m["halves"][0]["nexus"]["red"])
    assert b.zones[n0] == [0, 1]


def joined_boards():
    """Every board a pack's maps join into: each map on each Nexus colour its halves share."""
    for pack_id in content.pack_ids():
        for m in content.load(pack_id).data["maps"]:
            for colour in sorted(set(m["halves"][0]["nexus"]) & set(m["halves"][1]["nexus"])):
                yield content.board(pack_id, m["id"], colour)


def test_a_boards_spaces_by_name_say_what_its_spaces_by_coordinates_say():
    """The names the state writes (``geometry.key``) index the same printed terrain, Zones and
    Arrival Spaces as the coordinates, and the board's line of sight is the corner test's."""
    g = content.geometry
    for b in joined_boards():
        assert b.keys == {h: g.key(h) for h in b.terrain}
        assert b.terrain_by_key == {g.key(h): t for h, t in b.terrain.items()}
        assert b.zones_by_key == {g.key(h): z for h, z in b.zones.items()}
        assert b.rough_keys == {g.key(h) for h, t in b.terrain.items() if t != "open"}
        assert b.arrival_keys == [{g.key(h) for h in half} for half in b.arrival]
        assert b.hexes == sorted(b.terrain, key=lambda h: (h[1], h[0]))
        for a in b.hexes[::5]:
            for c in b.hexes[::3]:
                assert b.los(a, c) == g.line_of_sight(a, c, b.impassable)
                assert b.los(a, c) == g.line_of_sight(a, c, b.impassable)  # the kept answer
