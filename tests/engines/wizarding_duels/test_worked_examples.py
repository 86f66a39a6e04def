"""Every worked example of the rulebook (spec section 3, EX-1..EX-21), with the rulebook-examples pack."""

import pytest

from engines.base import IllegalAction
from engines.wizarding_duels import geometry, groups, rules
from engines.wizarding_duels.content import load
from engines.wizarding_duels.scenario import E, act, build, deal, decline

PK = load("rulebook-examples")
HAND3 = ["ex-plus3-2", "ex-plus2-2", "ex-plus1-2"]


def uid_of(s, seat, cid):
    return next(
        u
        for u in s["players"][seat]["hand"] + s["players"][seat]["deck"] + s["players"][seat]["discard"]
        if s["cards"][u] == cid
    )


def step(s):
    return s["queue"][0]["step"] if s["queue"] else None


def harry(over=None, hand=HAND3):
    return build(
        models=[(0, "harry-potter", "0,0", over or {}), (1, "death-eater-i", "3,3", {})],
        spellbooks={0: ["protego-maxima"]},
        hands={0: hand},
        active="0a",
    )


def test_ex1_an_individual_clash_fails_on_the_revealed_card_and_succeeds_after_swapping_in_a_plus_three():
    """EX-1, rulebook L335-337: non-card modifiers -1; +1 revealed gives 0 (fails); the +3 from hand gives 2."""
    s = harry({"mastery": 4})  # Mastery 4 + Protego Maxima -5 = -1
    s = act(s, 0, {"type": "cast", "spell": "protego-maxima", "target": "0a"})
    s = deal(s, ["ex-plus1-3"])
    assert step(s) == "swap"
    kept = decline(s)
    assert kept["last_clash"]["net"] == 0 and not kept["last_clash"]["success"]
    swapped = act(s, 0, {"type": "swap", "card": uid_of(s, 0, "ex-plus3-2")})
    assert swapped["last_clash"]["net"] == 2 and swapped["last_clash"]["success"]
    p = swapped["players"][0]
    assert len(p["hand"]) == 2
    assert {swapped["cards"][c] for c in p["discard"]} == {"ex-plus1-3", "ex-plus3-2"}


def test_ex2_a_revealed_two_plus_adds_the_next_cards_upper_value_and_that_card_cannot_be_swapped():
    """EX-2, rulebook L418-428: 2+ then +3 contributes +5; both cards go to the discard pile."""
    s = harry(hand=[])
    s = act(s, 0, {"type": "cast", "spell": "protego-maxima", "target": "0a"})
    s = deal(s, ["ex-two-plus"])
    s = deal(s, ["ex-plus3-3"])
    s = decline(s)
    assert s["last_clash"]["att"]["total"] == 5 + 3 - 5
    assert {s["cards"][c] for c in s["players"][0]["discard"]} == {"ex-two-plus", "ex-plus3-3"}


def test_ex2_the_swap_window_offers_only_hand_cards_never_the_extra_card():
    s = harry(hand=["ex-plus1-2"])
    s = act(s, 0, {"type": "cast", "spell": "protego-maxima", "target": "0a"})
    s = deal(s, ["ex-two-plus"])
    s = deal(s, ["ex-plus3-3"])
    extra = s["clash"]["att"]["extra"][0]
    swaps = [a["card"] for a in E.legal_actions(s, 0) if a["type"] == "swap"]
    assert swaps == [uid_of(s, 0, "ex-plus1-2")] and extra not in swaps


def test_ex3_a_movement_action_reaches_one_two_or_three_spaces_but_never_four():
    """EX-3, rulebook L657-661: Ron on open ground moves up to 3 spaces."""
    s = build(models=[(0, "ron-weasley", "2,1", {}), (1, "death-eater-i", "2,8", {})], active="0a")
    dests = [geometry.parse(a["to"]) for a in E.legal_actions(s, 0) if a["type"] == "move"]
    dist = {geometry.distance((2, 1), d) for d in dests}
    assert dist == {1, 2, 3}


def test_ex4_harry_casts_protego_maxima_by_swapping_in_a_plus_three():
    """EX-4, rulebook L798-813 (WD-51, WD-35 and A-23: no lower parts in an Individual Clash): 1+3-5 = -1 fails; 3+3-5 = +1 casts; the spell is assigned and clocked."""
    s = harry()
    s = act(s, 0, {"type": "cast", "spell": "protego-maxima", "target": "0a"})
    assert s["models"]["0a"]["spells"] == ["protego-maxima"]
    s = deal(s, ["ex-plus1-3"])
    s = act(s, 0, {"type": "swap", "card": uid_of(s, 0, "ex-plus3-2")})
    assert s["last_clash"]["net"] == 1 and s["last_clash"]["success"]
    assert s["players"][0]["clocks"]["protego-maxima"] == PK.spells["protego-maxima"]["cooldown"]
    assert "protego-maxima" not in s["players"][0]["spellbook"]
    assert len(s["players"][0]["hand"]) == 2
    assert step(s) == "act"  # no lower-part window in an Individual Clash


def voldemort_vs_hermione(config=None):
    s = build(
        models=[(0, "hermione-granger", "0,1", {}), (1, "lord-voldemort", "0,5", {})],
        spellbooks={1: ["rictusempra"]},
        starting=1,
        active="1a",
        config=config,
    )
    s["players"][0]["spent"] = {"light": 2, "dark": 0}
    return s


@pytest.mark.parametrize("casting_bonus, att, net", [(True, 7, 2), (False, 6, 1)])
def test_ex5_voldemort_casts_rictusempra_at_hermione_and_lower_parts_resolve_defender_first(casting_bonus, att, net):
    """EX-5, rulebook L850-874, Master Wizard (WD-T25) and ruling A-01: 2+3+1+1 = 7 against 3+2 = 5."""
    s = voldemort_vs_hermione({"master_wizard_casting_bonus": casting_bonus})
    s = act(s, 1, {"type": "cast", "spell": "rictusempra", "target": "0a"})
    s = act(s, 1, {"type": "pass"})  # FC-2: no Dark Lord declaration
    s = deal(s, ["ex-plus2-move"])
    s = deal(s, ["ex-plus3-regain"])
    assert step(s) == "late" and s["queue"][0]["seat"] == 0  # the defender's lower part comes first
    assert s["models"]["0a"]["impacts"] == 1
    assert s["players"][1]["clocks"]["rictusempra"] == PK.spells["rictusempra"]["cooldown"]
    s = act(s, 0, {"type": "lower", "use": True})
    assert s["players"][0]["pool"]["light"] == 2 and s["players"][0]["spent"]["light"] == 0
    assert step(s) == "late" and s["queue"][0]["seat"] == 1
    s = act(s, 1, {"type": "lower", "use": True})
    assert step(s) == "place"
    s = act(s, 1, {"type": "place", "hex": "1,5"})
    assert s["models"]["1a"]["hex"] == "1,5"
    assert (s["last_clash"]["att"]["total"], s["last_clash"]["def"]["total"], s["last_clash"]["net"]) == (att, 5, net)


def test_ex6_advantage_sources_add_up_and_net_against_disadvantage():
    """EX-6, rulebook L834-838 (WD-92; Magical Mastery WD-T23): two Advantage(1) make Advantage(2) (3 cards); Adv 2 + Dis 1 leave Adv 1."""
    s = build(
        models=[
            (0, "harry-potter", "0,0", {"traits": {"magical_mastery": 1}, "next_adv": 1}),
            (1, "death-eater-i", "0,3", {}),
        ],
        spellbooks={0: ["rictusempra"]},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "rictusempra", "target": "1a"})
    assert E.chance(s)["count"] == 3
    s = build(
        models=[
            (0, "harry-potter", "0,0", {"traits": {"magical_mastery": 1}, "next_adv": 1}),
            (1, "death-eater-i", "0,3", {"traits": {"magical_immunity": 1}}),
        ],
        spellbooks={0: ["rictusempra"]},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "rictusempra", "target": "1a"})
    assert E.chance(s)["count"] == 2
    s = deal(s, ["ex-plus1-2", "ex-plus3-2"])
    assert {a["card"] for a in E.legal_actions(s, 0)} == set(s["clash"]["att"]["revealed"])  # Advantage: any card


@pytest.mark.parametrize(
    "pair, keep",
    [
        (["ex-two-plus", "ex-plus3-2"], {"ex-plus3-2"}),
        (["ex-plus3-2", "ex-plus2-2"], {"ex-plus2-2"}),
        (["ex-plus1-2", "ex-zero-jinx"], {"ex-zero-jinx"}),
        (["ex-plus2-2", "ex-plus2-move"], {"ex-plus2-2", "ex-plus2-move"}),
    ],
)
def test_ex7_disadvantage_keeps_the_weakest_card_in_the_ranking_and_ties_are_the_owners_choice(pair, keep):
    """EX-7, rulebook L842-846 and ruling A-09: 2+ > +3 > +2 > +1 > 0."""
    s = build(
        models=[(0, "harry-potter", "0,0", {}), (1, "death-eater-i", "0,3", {"traits": {"magical_immunity": 1}})],
        spellbooks={0: ["rictusempra"]},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "rictusempra", "target": "1a"})
    s = deal(s, pair)
    if len(keep) == 1:
        assert s["clash"]["att"]["kept"] is not None and s["cards"][s["clash"]["att"]["kept"]] in keep
    else:
        assert {s["cards"][a["card"]] for a in E.legal_actions(s, 0)} == keep


def ron_vs_de2():
    return build(
        models=[(0, "ron-weasley", "0,2", {}), (1, "death-eater-ii", "0,3", {})],
        artifacts={"0a": ["sword-of-gryffindor"]},
        active="0a",
    )


def test_ex8_ron_hits_death_eater_ii_with_the_sword_for_three_impacts_and_the_jinx_crosses_to_rons_deck():
    """EX-8, rulebook L920-946 (WD-80, WD-96 profile fields): 1+3 = 4 against 0+1 = 1; 3 Impacts (the Damage, not the net); DE II stays."""
    s = ron_vs_de2()
    assert s["players"][0]["hand"] == [] and s["players"][1]["hand"] == []
    s = act(
        s, 0, {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"}
    )
    s = deal(s, ["ex-plus1-move"])
    s = deal(s, ["ex-zero-jinx"])
    assert s["models"]["1a"]["impacts"] == 3 and not s["models"]["1a"]["removed"]
    assert (s["clash"]["att"]["total"], s["clash"]["def"]["total"], s["clash"]["net"]) == (4, 1, 3)
    assert step(s) == "late" and s["queue"][0]["seat"] == 1
    deck_before = len(s["players"][0]["deck"])
    s = act(s, 1, {"type": "lower", "use": True})
    assert len(s["players"][0]["deck"]) == deck_before + 1
    assert any(s["cards"][c] == "jinxed" for c in s["players"][0]["deck"])
    assert step(s) == "late" and s["queue"][0]["seat"] == 0


def test_ex9_the_spellbook_holds_at_most_the_groups_total_mastery():
    """EX-9, rulebook L998-1006 (Death Eater I and II are two cards, A-48): Voldemort 3 + Nagini 0 + DE I 2 + DE II 2 = 7 spells; 8 is refused."""
    spells = sorted(s for s in PK.spells if s != PK.basic_spell_id)
    g = {
        "type": "group",
        "models": ["lord-voldemort", "nagini", "death-eater-i", "death-eater-ii"],
        "leader": 0,
        "artifacts": [[], [], [], []],
        "spellbook": spells[:7],
        "quests": [],
    }
    groups.check_roster(PK, g, 50)
    g["spellbook"] = spells[:8]
    with pytest.raises(IllegalAction) as err:
        groups.check_roster(PK, g, 50)
    assert err.value.code == "spellbook_too_big"


@pytest.mark.parametrize("white, pool", [(0, {"light": 0, "dark": 12}), (1, {"light": 1, "dark": 11})])
def test_ex10_the_power_pool_counts_cunning_and_adoration(white, pool):
    """EX-10, rulebook L1047-1049, rulings A-47 and A-64 (12 markers of a colour is fine: no token caps)."""
    s = build(
        models=[
            (1, "nagini", "0,5", {}),
            (1, "death-eater-i", "1,5", {}),
            (1, "death-eater-ii", "2,5", {}),
            (1, "lord-voldemort", "3,5", {}),
            (0, "harry-potter", "0,0", {}),
        ]
    )
    s["players"][1]["neutral_light"] = white
    rules._h_generate_pool(s, {})
    assert s["players"][1]["pool"] == pool


def test_ex11_clocks_drop_in_1d_and_a_spell_at_zero_returns_to_the_spellbook():
    """EX-11, rulebook L1075-1081."""
    s = build(
        models=[
            (0, "harry-potter", "0,0", {"spells": ["protego-maxima", "apparition"]}),
            (1, "death-eater-i", "0,5", {}),
        ]
    )
    s["players"][0]["clocks"] = {"protego-maxima": 2, "apparition": 1}
    rules._h_cooldown(s, {})
    p = s["players"][0]
    assert p["clocks"] == {"protego-maxima": 1}
    assert "apparition" in p["spellbook"] and s["models"]["0a"]["spells"] == ["protego-maxima"]


def test_ex12_upkeep_markers_stay_on_the_spell_through_a_power_refill():
    """EX-12, rulebook L1108: keep Expecto Patronus (2 markers on it); a later refill returns everything else."""
    s = build(
        models=[(0, "harry-potter", "0,0", {"spells": ["expecto-patronus"]}), (1, "death-eater-i", "0,5", {})],
        pools={0: {"light": 5, "dark": 0}},
    )
    p = s["players"][0]
    p["upkeep"] = [
        {"spell": "expecto-patronus", "caster": "0a", "target": "0a", "markers": {"light": 0, "dark": 0}, "paid": False}
    ]
    rules._upkeep_answer(s, 0, "expecto-patronus", True)
    assert p["upkeep"][0]["markers"] == {"light": 2, "dark": 0} and p["pool"]["light"] == 3
    p["spent"] = {"light": 1, "dark": 0}
    p["pool"]["light"] = 2
    assert rules._upkeep_steps(s, [0], checkpoint="refill") == []  # already paid: nothing more
    p["refill_due"] = True
    s["queue"] = [{"step": "power_refills"}, {"step": "activate", "seat": 0}]
    rules.run(s)
    assert p["pool"]["light"] == 3 and p["upkeep"][0]["markers"] == {"light": 2, "dark": 0}


def counter_setup():
    return build(
        models=[(0, "hermione-granger", "0,1", {}), (1, "lord-voldemort", "0,5", {})],
        spellbooks={0: ["counter-spell"], 1: ["rictusempra"]},
        starting=1,
        active="1a",
    )


def test_ex13_counter_spell_adds_three_in_the_reaction_window_only():
    """EX-13, rulebook L1120 (WD-64) and ruling A-60."""
    s = counter_setup()
    s = act(s, 1, {"type": "cast", "spell": "rictusempra", "target": "0a"})
    assert step(s) == "react" and {"type": "react", "spell": "counter-spell"} in E.legal_actions(s, 0)
    reacted = act(act(s, 0, {"type": "react", "spell": "counter-spell"}), 1, {"type": "pass"})
    reacted = deal(deal(reacted, ["ex-plus1-2"]), ["ex-plus1-3"])
    assert reacted["last_clash"]["def"]["total"] == 1 + 2 + 3
    passed = act(act(s, 0, {"type": "pass"}), 1, {"type": "pass"})
    passed = deal(deal(passed, ["ex-plus1-2"]), ["ex-plus1-3"])
    assert passed["last_clash"]["def"]["total"] == 1 + 2
    assert "counter-spell" in passed["players"][0]["spellbook"]


@pytest.mark.parametrize(
    "stock, ok",
    [
        (["level-0-potion"] * 6, True),
        (["level-0-potion"] * 5 + ["level-1-potion"], True),
        (["level-0-potion"] * 5 + ["level-2-potion"], True),
        (["level-0-potion"] * 5 + ["level-3-potion"], False),
        (["level-0-potion"] * 4 + ["level-1-potion"] * 2, False),
        (["level-0-potion"] * 7, False),
    ],
)
def test_ex14_potioneer_two_allows_one_potion_up_to_level_two(stock, ok):
    """EX-14, rulebook L1392 (Potioneer X, WD-T31) and L1126-1138."""
    action = {"type": "potions", "potions": stock}
    if ok:
        groups.check_stock(PK, ["hermione-granger", "ron-weasley"], action)
    else:
        with pytest.raises(IllegalAction):
            groups.check_stock(PK, ["hermione-granger", "ron-weasley"], action)


def hit(s, uid, n):
    s["queue"].insert(0, {"step": "hit", "model": uid, "n": n, "by": None, "resist": False})
    rules.run(s)
    return s


@pytest.mark.parametrize("trait, x", [("large", 7), ("small", 2)])
def test_ex15_ex16_large_and_small_carry_x_impacts_and_go_on_the_next(trait, x):
    """EX-15 (L1340-1342, WD-T19) and EX-16 (L1402-1404, WD-T34)."""
    s = build(
        models=[
            (0, "ron-weasley", "0,0", {"traits": {trait: x}}),
            (0, "harry-potter", "1,0", {}),
            (1, "death-eater-i", "0,5", {}),
        ]
    )
    hit(s, "0a", x)
    assert not s["models"]["0a"]["removed"] and s["models"]["0a"]["impacts"] == x
    hit(s, "0a", 1)
    assert s["models"]["0a"]["removed"]


def test_ex17_a_stronger_poison_replaces_the_weaker_and_never_adds():
    """EX-17, rulebook L1426 (WD-S0)."""
    s = build(models=[(0, "ron-weasley", "0,0", {"poison": 1}), (1, "nagini", "0,1", {})])
    s["queue"].insert(
        0,
        {
            "step": "apply_effects",
            "effects": [{"op": "status", "status": "poison", "x": 2}],
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
    assert s["models"]["0a"]["poison"] == 2


def test_ex18_the_fifth_impact_removes_a_model_and_its_spells_return_with_their_clocks():
    """EX-18, rulebook L906 and L908-916 (WD-93, WD-94)."""
    s = build(
        models=[
            (0, "harry-potter", "0,0", {"impacts": 4, "spells": ["protego-maxima"]}),
            (0, "ron-weasley", "1,0", {}),
            (1, "death-eater-i", "0,5", {}),
        ]
    )
    s["players"][0]["clocks"] = {"protego-maxima": 2}
    hit(s, "0a", 1)
    assert s["models"]["0a"]["removed"] and s["models"]["0a"]["hex"] is None
    assert "protego-maxima" in s["players"][0]["spellbook"] and s["players"][0]["clocks"] == {"protego-maxima": 2}


def test_ex19_a_model_with_an_activation_marker_takes_one_action_plus_free_actions():
    """EX-19, rulebook L625-631 (WD-72; Elite Fighter WD-T9)."""
    s = build(
        models=[(0, "ron-weasley", "0,2", {"markers": 1}), (1, "death-eater-ii", "0,3", {})],
        artifacts={"0a": ["sword-of-gryffindor"]},
        active="0a",
    )
    kinds = {a["type"] for a in E.legal_actions(s, 0)}
    assert {"move", "attack"} <= kinds
    s = act(s, 0, {"type": "move", "to": "1,2"})
    assert {a["type"] for a in E.legal_actions(s, 0)} == {"end"}
    # with Elite Fighter the attack stays available as a Free action
    s = build(
        models=[
            (0, "ron-weasley", "0,2", {"markers": 1, "traits": {"elite_fighter": 1}}),
            (1, "death-eater-ii", "0,3", {}),
        ],
        artifacts={"0a": ["sword-of-gryffindor"]},
        active="0a",
    )
    s = act(s, 0, {"type": "move", "to": "1,2"})
    assert "attack" in {a["type"] for a in E.legal_actions(s, 0)}


def test_ex20_crookshanks_goes_only_to_hermione_and_item_slots_cap_artifacts():
    """EX-20, rulebook L391, L529, L1484."""
    g = {
        "type": "group",
        "models": ["hermione-granger", "ron-weasley"],
        "leader": 0,
        "artifacts": [["crookshanks"], []],
        "spellbook": [],
        "quests": [],
    }
    groups.check_roster(PK, g, 50)
    g["artifacts"] = [[], ["crookshanks"]]
    with pytest.raises(IllegalAction) as err:
        groups.check_roster(PK, g, 50)
    assert err.value.code == "artifact_restricted"
    g["artifacts"] = [["crookshanks", "sword-of-gryffindor", "horcrux-locket"], []]
    with pytest.raises(IllegalAction) as err:
        groups.check_roster(PK, g, 50)
    assert err.value.code == "too_many_artifacts"


def test_ex21_range_is_hex_distance_and_a_range_zero_potion_targets_only_its_user():
    """EX-21, rulebook L315-319."""
    s = build(
        models=[(0, "hermione-granger", "0,1", {}), (0, "ron-weasley", "1,1", {}), (1, "death-eater-i", "0,2", {})],
        active="0a",
    )
    s["players"][0]["potions"] = [{"id": "level-0-potion", "spent": False}]
    targets = {a["target"] for a in E.legal_actions(s, 0) if a["type"] == "potion"}
    assert targets == {"0a"}
    assert rules.in_reach(s, s["models"]["0a"], s["models"]["1a"], 1)
