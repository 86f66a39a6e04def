"""Rulings of spec section 5.2 that no other test pins down (each cites its A-nn and passage)."""

from engines.wizarding_duels import rules
from engines.wizarding_duels.scenario import E, act, build, deal

from .helpers import front

OV = "original-v1"


def ov(models, **kw):
    return build(pack_id=OV, map_id="moonlit-cloister", nexus="blue", models=models, **kw)


def test_an_empowerment_two_plus_counts_two_and_draws_nothing_more():
    """A-06 (L1067-1069 vs L420) and A-05: both sides may empower, the defender first."""
    s = build(
        models=[(0, "harry-potter", "0,1", {}), (1, "hermione-granger", "0,4", {})],
        spellbooks={0: ["rictusempra"]},
        pools={0: {"light": 1, "dark": 0}},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "rictusempra", "target": "1a"})
    s = act(s, 0, {"type": "empower"})
    s = deal(deal(s, ["ex-plus1-2"]), ["ex-plus1-3"])
    s = deal(s, ["ex-two-plus"])
    assert s["last_clash"]["att"]["total"] == 1 + 2 + 3 + 1 and s["last_clash"]["att"]["extra"] == []


def test_cards_are_drawn_one_pool_at_a_time_and_a_refill_mid_reveal_keeps_the_cards_in_play():
    """A-13 (L341-343): Advantage 2 with one card left reveals it, refills from the discard, then reveals more."""
    s = build(
        models=[
            (0, "harry-potter", "0,1", {"traits": {"magical_mastery": 1}, "next_adv": 1}),
            (1, "death-eater-i", "0,4", {}),
        ],
        spellbooks={0: ["rictusempra"]},
        active="0a",
    )
    p = s["players"][0]
    p["discard"], p["deck"] = p["deck"][1:], p["deck"][:1]
    s = act(s, 0, {"type": "cast", "spell": "rictusempra", "target": "1a"})
    assert E.chance(s)["pool"] == 1 and E.chance(s)["count"] == 1
    first = s["players"][0]["deck"][0]
    s = E.apply(s, {"kind": "chance", "outcome": [0]})
    assert E.chance(s)["pool"] == 19 and E.chance(s)["count"] == 2
    assert first in s["clash"]["att"]["revealed"] and first not in s["players"][0]["deck"]
    assert s["players"][1]["refill_due"]


def test_a_refill_in_the_start_phase_refills_the_opponents_pool_at_the_end_of_that_step():
    """A-15 (L345, L1055)."""
    s = build(models=[(0, "harry-potter", "0,0", {}), (1, "death-eater-i", "0,6", {})])
    p = s["players"][0]
    p["discard"], p["deck"] = list(p["deck"]), []
    s["players"][1]["spent"] = {"light": 0, "dark": 2}
    s["queue"] = [{"step": "start_refill"}]
    s["starting"] = 0
    rules.run(s)
    s = E.apply(s, {"kind": "chance", "outcome": [0, 1, 2]})
    s = E.apply(s, {"kind": "chance", "outcome": [0, 1, 2]})
    assert s["players"][1]["pool"]["dark"] == 2 and s["players"][0]["discard"] == []


def test_an_added_jinxed_card_joins_the_unknown_pool_and_forgets_a_known_top():
    """A-21 (L438-441, L946)."""
    s = build(models=[(0, "harry-potter", "0,0", {}), (1, "death-eater-i", "0,6", {})])
    p = s["players"][0]
    p["known_top"] = p["deck"][:2]
    p["deck"] = p["deck"][2:]
    rules._add_card(s, 0, "jinxed")
    assert p["known_top"] == [] and len(p["deck"]) == 21 and any(s["cards"][c] == "jinxed" for c in p["deck"])


def test_burning_never_stacks_and_a_weaker_slow_leaves_the_stronger():
    """A-40 (L1424-1426)."""
    s = build(models=[(0, "ron-weasley", "0,0", {"burning": 1, "slow": 2}), (1, "nagini", "0,1", {})])
    effects = [{"op": "status", "status": "burning", "x": 1}, {"op": "status", "status": "slow", "x": 1}]
    s["queue"].insert(
        0,
        {
            "step": "apply_effects",
            "effects": effects,
            "src": "1a",
            "tgt": "0a",
            "seat": 1,
            "x": 0,
            "upkeep": False,
            "spell": None,
            "source_hex": "0,1",
        },
    )
    rules.run(s)
    assert (s["models"]["0a"]["burning"], s["models"]["0a"]["slow"]) == (1, 2)


def test_a_hufflepuff_starting_the_round_on_a_challenge_has_advantage_on_its_next_test():
    """A-50 (L1330-1332, WD-T17)."""
    ovs = [{"kind": "challenge", "hex": "2,2", "face_up": True, "what": "cup", "owner": 0}]
    s = ov([(0, "tobias-fenwick", "2,2", {}), (1, "cassius-vane", "2,4", {})], overlays=ovs)
    s["queue"] = [{"step": "round_start"}]
    s["round"] = 1
    rules.run(s)
    assert s["models"]["0a"]["round"]["huff"]
    s = E.apply(s, {"kind": "chance", "outcome": [0]})
    s = E.apply(E.apply(s, {"kind": "chance", "outcome": [0, 1, 2]}), {"kind": "chance", "outcome": [0, 1, 2]})
    s = act(s, 0, {"type": "activate", "model": "0a"})
    s = act(s, 0, {"type": "cast", "spell": "basic-combat-spell", "target": "1a"})
    assert E.chance(s)["count"] == 2


def test_non_combat_spells_never_target_opponents_and_combat_spells_never_friends():
    """A-67 (L979, L515-517)."""
    s = build(
        models=[(0, "harry-potter", "0,0", {}), (0, "ron-weasley", "0,1", {}), (1, "death-eater-i", "1,0", {})],
        spellbooks={0: ["rictusempra", "expecto-patronus"]},
        active="0a",
    )
    casts = E.legal_actions(s, 0)
    assert {a["target"] for a in casts if a.get("spell") == "rictusempra"} == {"1a"}
    assert {a["target"] for a in casts if a.get("spell") == "expecto-patronus"} == {"0a", "0b"}


def test_an_upkept_aura_burns_nearby_opponents_in_the_end_phase():
    """A-68 (L1087, L744-746): whatever the spell says, in 3a."""
    s = ov([(0, "ashen-regent", "2,1", {}), (1, "aldous-wren", "2,2", {}), (1, "cassius-vane", "4,4", {})])
    s["players"][0]["upkeep"] = [
        {"spell": "ember-sentinel", "caster": "0a", "target": "0a", "markers": {"light": 0, "dark": 2}, "paid": True}
    ]
    s["queue"] = [{"step": "end_phase"}]
    s["starting"] = 0
    rules.run(s)
    assert s["models"]["1a"]["impacts"] == 1 and s["models"]["1b"]["impacts"] == 0


def test_a_removed_model_loses_its_artifacts_and_statuses():
    """A-69 (L908-914)."""
    s = build(
        models=[
            (0, "ron-weasley", "0,0", {"impacts": 4, "poison": 2, "burning": 1}),
            (0, "harry-potter", "1,0", {}),
            (1, "death-eater-i", "0,5", {}),
        ],
        artifacts={"0a": ["sword-of-gryffindor"]},
    )
    s["queue"].insert(0, {"step": "hit", "model": "0a", "n": 1, "by": 1, "resist": False})
    rules.run(s)
    m = s["models"]["0a"]
    assert m["removed"] and m["artifacts"] == [] and (m["poison"], m["burning"]) == (0, 0)
    assert s["stats"]["removed"][1] == 1


def test_a_draw_from_a_lower_part_never_takes_the_hand_above_three():
    """A-59 (L695-697, L589)."""
    s = ov(
        [(0, "cassius-vane", "2,1", {}), (1, "tobias-fenwick", "2,3", {})],
        pools={0: {"light": 0, "dark": 2}},
        hands={0: ["c08-surge", "c09-drift", "c10-recall"]},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "basic-combat-spell", "target": "1a"})
    s = deal(deal(s, ["c05-focus"]), ["c02-sidestep"])
    s = act(s, 0, {"type": "keep_card"})
    assert front(s) == "late" and s["queue"][0]["seat"] == 1
    s = act(s, 1, {"type": "lower", "use": False})
    assert front(s) == "late" and s["queue"][0]["seat"] == 0
    s = act(s, 0, {"type": "lower", "use": True, "light": 0})
    assert len(s["players"][0]["hand"]) == 3 and E.to_move(s) == [0] and front(s) == "act"
