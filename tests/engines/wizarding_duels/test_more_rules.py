"""Numbered rules not covered elsewhere: leader quests, public Spellbook and pool, default actions,
the nine-quest cap, empower colours and lower-part costs."""

from engines.wizarding_duels import rules
from engines.wizarding_duels.content import load
from engines.wizarding_duels.scenario import E, act, build, deal
from engines.wizarding_duels.state import set_space

OV = "original-v1"


def ov(models, **kw):
    return build(pack_id=OV, map_id="moonlit-cloister", nexus="blue", models=models, **kw)


def test_the_leader_is_what_leaders_missions_look_at():
    """WD-7 (L1480): the Leader matters only to quests (Leader's Missions)."""
    ovs = [{"kind": "challenge", "hex": "2,2", "face_up": True, "what": "cup", "owner": 0}]
    s = ov(
        [(0, "aldous-wren", "2,1", {}), (0, "isolde-marrow", "2,2", {}), (1, "cassius-vane", "3,6", {})], overlays=ovs
    )
    assert s["models"]["0a"]["leader"] and not rules.condition_holds(s, 0, {"leader": "challenge"})
    set_space(s, s["models"]["0a"], None)  # as every writer of a model's space does
    set_space(s, s["models"]["0b"], "2,1")
    set_space(s, s["models"]["0a"], "2,2")
    assert rules.condition_holds(s, 0, {"leader": "challenge"})


def test_the_spellbook_clocks_and_power_pool_are_public():
    """WD-15 (L993-995) and WD-55 (L1029-1035, L1051)."""
    s = ov(
        [(0, "aldous-wren", "2,1", {}), (1, "cassius-vane", "3,6", {})],
        spellbooks={0: ["ember-lash"]},
        pools={0: {"light": 3, "dark": 1}},
    )
    s["players"][0]["spent"] = {"light": 1, "dark": 0}
    v = E.view(s, 1)
    assert v["players"][0]["spellbook"] == ["ember-lash"]
    assert v["players"][0]["pool"] == {"light": 3, "dark": 1} and v["players"][0]["spent"] == {"light": 1, "dark": 0}
    assert E.view(s, None)["players"][0]["pool"] == {"light": 3, "dark": 1}


def test_a_model_has_one_move_one_advanced_and_one_quick_action_unless_its_card_says_otherwise():
    """WD-41 (L621) and WD-71 (L617-623)."""
    s = ov([(0, "aldous-wren", "2,1", {}), (1, "cassius-vane", "3,6", {})], active="0a")
    assert s["act"]["left"] == {"move": 1, "advanced": 1, "quick": 1}
    s = act(s, 0, {"type": "move", "to": "2,2"})
    assert not any(a["type"] == "move" for a in E.legal_actions(s, 0))
    s = ov(
        [
            (0, "aldous-wren", "2,1", {"actions": {"move": 2, "advanced": 1, "quick": 1}}),
            (1, "cassius-vane", "3,6", {}),
        ],
        active="0a",
    )
    s = act(s, 0, {"type": "move", "to": "2,2"})
    assert any(a["type"] == "move" for a in E.legal_actions(s, 0))


def test_no_player_completes_more_than_nine_quests():
    """WD-48 (L497)."""
    s = ov([(0, "aldous-wren", "2,1", {}), (1, "cassius-vane", "3,6", {})])
    p = s["players"][0]
    p["scored"] = [f"done-{i}" for i in range(9)]
    p["active"] = ["hold-the-ground"]
    set_space(s, s["models"]["0a"], "2,3")  # printed Obscuring terrain: the condition holds
    assert rules.condition_holds(s, 0, {"terrain": 1})
    rules.score_quests(s, 0, lightning_only=False)
    assert p["qp"] == 0 and p["active"] == ["hold-the-ground"]


def test_the_caster_empowers_in_the_spells_colour_and_the_defender_in_any():
    """WD-52 (L981-987), WD-58 (L1059-1071), rulings A-18 and A-19."""
    s = ov(
        [(0, "aldous-wren", "2,1", {}), (1, "nyx-hollow", "2,3", {})],
        spellbooks={0: ["spark-volley"]},
        pools={0: {"light": 0, "dark": 3}, 1: {"light": 0, "dark": 1}},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "spark-volley", "target": "1a"})
    s = act(s, 0, {"type": "pass"})  # Leadership
    assert s["queue"][0] == {"step": "empower", "seat": 1, "side": "def"}
    assert E.legal_actions(s, 1) == [{"type": "empower", "light": 0}, {"type": "pass"}]
    s = act(s, 1, {"type": "empower", "light": 0})  # a light spell, empowered against with a dark marker
    assert s["players"][1]["pool"] == {"light": 0, "dark": 0} and s["clash"]["def"]["emp"] == 1
    # three dark markers cannot pay the caster's light cost: the window closed by itself
    assert E.chance(s)["label"] == "seat 0 clash reveal" and s["clash"]["att"]["emp"] == 0


def test_a_lower_part_with_a_cost_needs_the_markers():
    """WD-57 (L1035) and ruling A-24."""

    def early_window(pool):
        s = ov([(0, "cassius-vane", "2,1", {}), (1, "tobias-fenwick", "2,3", {})], pools={0: pool}, active="0a")
        s = act(s, 0, {"type": "cast", "spell": "basic-combat-spell", "target": "1a"})
        s = deal(deal(s, ["c01-steady-hand"]), ["c02-sidestep"])
        return s["queue"][0]["step"] == "early" and s["queue"][0]["seat"] == 0

    assert early_window({"light": 0, "dark": 1})
    assert not early_window({"light": 0, "dark": 0})


def test_every_spell_card_carries_the_rulebooks_fields():
    """WD-49 (L952-963) and WD-96 (L882-892), enforced by the pack schema."""
    pk = load(OV)
    for sp in pk.data["spells"]:
        assert {"name", "range", "modifier", "empower", "upkeep", "combat", "effects", "cooldown"} <= set(sp)
    for a in pk.data["artifacts"]:
        if a["attack"]:
            assert {"name", "type", "bonus", "damage", "range"} <= set(a["attack"])
