"""Traits (rulebook L1230-1420; spec WD-T1..WD-T39) not already covered by the clash and example tests."""

from engines.wizarding_duels import geometry, rules
from engines.wizarding_duels.scenario import E, act, build, deal, decline

from .helpers import front

OV = "original-v1"


def ov(models, **kw):
    return build(pack_id=OV, map_id="moonlit-cloister", nexus="blue", models=models, **kw)


def far(s, uid="0a"):
    here = geometry.parse(s["models"][uid]["hex"])
    return max(geometry.distance(here, geometry.parse(a["to"])) for a in E.legal_actions(s, 0) if a["type"] == "move")


def test_animal_form_moves_four_defends_plus_one_and_cannot_cast_or_drink():
    """WD-T1 (L1238-1240), ruling A-12."""
    s = ov([(0, "mira-quillfeather", "2,1", {"traits": {"animagus": 1}}), (1, "cassius-vane", "2,6", {})])
    s["players"][0]["potions"] = [{"id": "minor-salve", "spent": False}]
    assert {"type": "activate", "model": "0a", "animal": True} in E.legal_actions(s, 0)
    s = act(s, 0, {"type": "activate", "model": "0a", "animal": True})
    kinds = {a["type"] for a in E.legal_actions(s, 0)}
    assert "cast" not in kinds and "potion" not in kinds
    assert far(s) == 4
    s2 = build(
        models=[(0, "ron-weasley", "0,2", {}), (1, "death-eater-ii", "0,3", {"animal": True})],
        artifacts={"0a": ["sword-of-gryffindor"]},
        active="0a",
    )
    s2 = act(
        s2, 0, {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"}
    )
    s2 = deal(deal(s2, ["ex-plus1-2"]), ["ex-plus1-3"])
    assert (s2["clash"] or s2["last_clash"])["def"]["total"] == 1 + 1 + 1


def test_fast_and_lightning_fast_add_to_the_movement_action():
    """WD-T11 (L1285-1287) and WD-T21 (L1348-1350)."""
    s = build(models=[(0, "ron-weasley", "2,1", {"traits": {"fast": 1}}), (1, "death-eater-i", "0,7", {})], active="0a")
    assert far(s) == 4
    s = build(
        models=[(0, "ron-weasley", "2,1", {"traits": {"lightning_fast": 1}}), (1, "death-eater-i", "0,7", {})],
        active="0a",
    )
    assert far(s) == 5


def test_chosen_one_has_advantage_on_defense_and_plus_one_against_the_nemesis():
    """WD-T4 (L1250-1254)."""
    s = build(
        models=[(0, "lord-voldemort", "0,1", {"traits": {}}), (1, "harry-potter", "0,4", {})],
        spellbooks={0: ["rictusempra"]},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "rictusempra", "target": "1a"})
    s = deal(s, ["ex-plus1-2"])
    assert E.chance(s)["count"] == 2  # Harry's defense reveals two and keeps one
    s = deal(s, ["ex-plus1-3", "ex-zero-jinx"])
    s = act(
        s, 1, {"type": "keep", "card": next(c for c in s["clash"]["def"]["revealed"] if s["cards"][c] == "ex-plus1-3")}
    )
    s = decline(s)
    assert s["last_clash"]["def"]["total"] == 1 + 2 + 1


def test_physical_resistance_counts_only_against_physical_attacks():
    """WD-T28 (L1384-1386)."""
    s = build(
        models=[(0, "ron-weasley", "0,2", {}), (1, "death-eater-ii", "0,3", {"traits": {"physical_resistance": 2}})],
        artifacts={"0a": ["sword-of-gryffindor"]},
        active="0a",
    )
    s = act(
        s, 0, {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"}
    )
    s = deal(deal(s, ["ex-plus1-2"]), ["ex-plus1-3"])
    assert (s["clash"] or s["last_clash"])["def"]["total"] == 1 + 1 + 2


def test_elf_holds_one_spell_empowers_free_with_two_cards_and_counts_only_the_modifier():
    """WD-T8 (L1273-1281), ruling A-53."""
    s = ov(
        [(0, "pell-the-helper", "2,1", {}), (1, "cassius-vane", "2,3", {})],
        spellbooks={0: ["lightning-dart", "void-lance"]},
        active="0a",
    )
    spells = {a["spell"] for a in E.legal_actions(s, 0) if a["type"] == "cast"}
    assert spells == {"lightning-dart"}  # no Basic Combat Spell, no Unforgivable
    s = act(s, 0, {"type": "cast", "spell": "lightning-dart", "target": "1a"})
    assert front(s) == "empower" and s["queue"][0]["seat"] == 0
    s = act(s, 0, {"type": "empower"})
    assert s["clash"]["att"]["emp"] == 2 and s["players"][0]["pool"] == {"light": 0, "dark": 0}
    s = deal(deal(s, ["c02-sidestep"]), ["c03-second-wind"])
    s = deal(s, ["c08-surge", "c09-drift"])
    assert (s["clash"] or s["last_clash"])["att"]["total"] == 1 + 2 + 2 + 2  # card, two Empowerment cards, modifier +2


def test_apprentice_and_supreme_mugwump_lower_the_casters_empower_cost():
    """WD-T2 (L1242-1244), WD-T37 (L1414-1416), ruling A-20."""
    s = ov(
        [(0, "sister-hollis", "2,1", {}), (1, "cassius-vane", "2,3", {})],
        spellbooks={0: ["stone-fist"]},
        pools={0: {"light": 1, "dark": 0}},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "stone-fist", "target": "1a"})
    # a Neutral spell: 2 - 1 = 1 marker, of the colour the caster names
    assert front(s) == "empower" and {"type": "empower", "light": 1} in E.legal_actions(s, 0)
    s = act(s, 0, {"type": "empower", "light": 1})
    assert s["players"][0]["pool"]["light"] == 0


def test_professor_gives_nearby_apprentices_advantage_when_casting():
    """WD-T29 (L1380-1382), ruling A-52."""
    s = ov(
        [(0, "lanternhold-cadet", "2,1", {}), (0, "aldous-wren", "3,1", {}), (1, "cassius-vane", "2,4", {})],
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "basic-combat-spell", "target": "1a"})
    if front(s) == "leadership":
        s = act(s, 0, {"type": "pass"})
    assert E.chance(s)["count"] == 2


def test_instinctive_casting_advances_one_assigned_clock_an_extra_step():
    """WD-T18 (L1335-1338)."""
    s = ov([(0, "sister-hollis", "2,1", {"spells": ["stone-fist", "frost-bind"]}), (1, "cassius-vane", "2,4", {})])
    s["players"][0]["clocks"] = {"stone-fist": 2, "frost-bind": 3}
    s["queue"] = [{"step": "instinctive_setup"}]
    rules.run(s)
    assert E.legal_actions(s, 0) == [
        {"type": "instinctive", "spell": "frost-bind"},
        {"type": "instinctive", "spell": "stone-fist"},
    ]
    s = act(s, 0, {"type": "instinctive", "spell": "stone-fist"})
    assert s["players"][0]["clocks"] == {"frost-bind": 2} and "stone-fist" in s["players"][0]["spellbook"]


def test_tactician_draws_a_quest_as_a_free_action_and_ravenclaw_needs_a_challenge():
    """WD-T38 (L1418-1420), WD-T32 (L1394-1396); "turn" means round (A-03)."""
    s = ov([(0, "sister-hollis", "2,1", {}), (1, "cassius-vane", "2,6", {})], active="0a")
    s["players"][0]["active"] = ["iron-grip", "siege"]
    s["players"][0]["quest_deck"] = ["onslaught", "spellstorm"]
    s = act(s, 0, {"type": "draw_quest", "discard": "iron-grip"})
    s = E.apply(s, {"kind": "chance", "outcome": [0]})
    assert s["act"]["left"]["advanced"] == 0
    s = act(s, 0, {"type": "draw_quest", "discard": "siege"})
    assert s["models"]["0a"]["round"]["tactician"]
    ovs = [{"kind": "challenge", "hex": "2,2", "face_up": True, "what": "cup", "owner": 0}]
    r = ov([(0, "aldous-wren", "2,1", {"markers": 1}), (1, "cassius-vane", "2,6", {})], active="0a", overlays=ovs)
    r["players"][0]["active"] = ["iron-grip"]
    r = act(r, 0, {"type": "move", "to": "2,2"})
    assert any(a["type"] == "draw_quest" for a in E.legal_actions(r, 0))  # free, while on the challenge


def test_slytherin_on_an_overlay_spends_its_quick_action_for_advantage_on_its_next_test():
    """WD-T36 (L1410-1412), ruling A-49."""
    ovs = [{"kind": "challenge", "hex": "2,2", "face_up": True, "what": "cup", "owner": 0}]
    s = ov([(0, "cassius-vane", "2,2", {}), (1, "aldous-wren", "2,4", {"traits": {}})], active="0a", overlays=ovs)
    s = act(s, 0, {"type": "slytherin"})
    s = act(s, 0, {"type": "cast", "spell": "basic-combat-spell", "target": "1a"})
    assert E.chance(s)["count"] == 2


def test_dark_lord_swaps_a_spellbook_spell_once_per_game():
    """WD-T6 (a) (L1262), ruling A-11."""
    s = ov([(0, "ashen-regent", "2,1", {}), (1, "aldous-wren", "2,6", {})], spellbooks={0: ["venom-hex"]}, active="0a")
    swap = {"type": "dark_lord_swap", "give": "venom-hex", "take": "void-lance"}
    assert swap in E.legal_actions(s, 0)
    s = act(s, 0, swap)
    assert s["players"][0]["spellbook"] == ["void-lance"]
    assert not any(a["type"] == "dark_lord_swap" for a in E.legal_actions(s, 0))


def test_herbology_expert_swaps_an_unspent_potion_for_one_of_the_same_level_once_per_game():
    """WD-T14 (L1303-1305), ruling A-71."""
    s = ov([(0, "tobias-fenwick", "2,1", {}), (1, "cassius-vane", "2,6", {})], active="0a")
    s["players"][0]["potions"] = [{"id": "minor-salve", "spent": False}]
    options = [a for a in E.legal_actions(s, 0) if a["type"] == "herbology"]
    assert {a["potion"] for a in options} == {
        "flash-powder",
        "shadow-draught",
        "sting-flask",
        "quick-tonic",
        "ironbark-tonic",
    }
    s = act(s, 0, {"type": "herbology", "index": 0, "potion": "sting-flask"})
    assert s["players"][0]["potions"] == [{"id": "sting-flask", "spent": False}]
    assert not any(a["type"] == "herbology" for a in E.legal_actions(s, 0))


def test_a_lock_disables_an_artifact_until_the_next_refresh_and_remove_takes_it_away():
    """WD-12 (L545-547), WD-13 (L525), WD-69 (L611)."""
    s = ov(
        [(0, "tobias-fenwick", "2,1", {"impacts": 2}), (1, "cassius-vane", "2,3", {})],
        artifacts={"0a": ["lantern-of-embers", "healers-satchel"]},
        active="0a",
    )
    s = act(s, 0, {"type": "use_artifact", "artifact": "healers-satchel"})
    assert s["models"]["0a"]["impacts"] == 0 and [a["id"] for a in s["models"]["0a"]["artifacts"]] == [
        "lantern-of-embers"
    ]
    s = act(s, 0, {"type": "attack", "attack": "lantern-of-embers", "target": "1a", "artifact": "lantern-of-embers"})
    s = decline(deal(deal(s, ["c02-sidestep"]), ["c03-second-wind"]))
    assert s["models"]["0a"]["artifacts"][0]["locked"]
    rules._h_cooldown(s, {})
    assert not s["models"]["0a"]["artifacts"][0]["locked"]
