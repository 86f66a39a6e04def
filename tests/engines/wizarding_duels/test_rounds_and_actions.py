"""Rounds, activations and every action (rulebook L565-729; spec WD-65..WD-88)."""

from engines.wizarding_duels.scenario import E, act, build, deal, decline

from .helpers import front

OV = "original-v1"


def two_each(**kw):
    return build(
        models=[
            (0, "harry-potter", "0,0", {}),
            (0, "ron-weasley", "1,0", {}),
            (1, "death-eater-i", "0,6", {}),
            (1, "death-eater-ii", "1,6", {}),
        ],
        **kw,
    )


def test_players_alternate_three_activations_each_and_may_reactivate_a_model():
    """WD-70 (L613-615) and ruling A-02; WD-71: the marker goes on when the activation ends; WD-73..WD-76:
    the End Phase follows the sixth activation."""
    s = two_each(starting=1)
    seats = []
    for _ in range(6):
        seat = E.to_move(s)[0]
        seats.append(seat)
        model = next(m for m in sorted(s["models"]) if s["models"][m]["seat"] == seat)
        s = act(s, seat, {"type": "activate", "model": model})
        s = act(s, seat, {"type": "end"})
    assert seats == [1, 0, 1, 0, 1, 0]
    assert front(s) == "coin" and s["round"] == 2  # the End Phase ran and a new round began
    assert all(m["markers"] == 0 for m in s["models"].values())  # WD-76: markers cleared in 3c


def test_a_second_activation_of_the_same_model_carries_a_marker():
    """WD-72 (L625-631)."""
    s = two_each()
    s = act(act(s, 0, {"type": "activate", "model": "0a"}), 0, {"type": "end"})
    assert s["models"]["0a"]["markers"] == 1
    s = act(act(s, 1, {"type": "activate", "model": "1a"}), 1, {"type": "end"})
    s = act(s, 0, {"type": "activate", "model": "0a"})
    assert s["act"]["single"]


def test_a_round_starts_with_initiative_refills_hands_and_advances_clocks():
    """WD-66 (L583-585), WD-67 (L587-589), WD-69 (L597-611)."""
    s = two_each(spellbooks={0: ["protego-maxima"]})
    s["players"][0]["clocks"] = {"protego-maxima": 1}
    s["models"]["0a"]["spells"] = ["protego-maxima"]
    s["players"][0]["spellbook"] = []
    for _ in range(6):
        seat = E.to_move(s)[0]
        model = next(m for m in sorted(s["models"]) if s["models"][m]["seat"] == seat)
        s = act(act(s, seat, {"type": "activate", "model": model}), seat, {"type": "end"})
    assert E.chance(s)["dice"] == [[0, 1]]
    s = E.apply(s, {"kind": "chance", "outcome": [1]})
    assert s["starting"] == 1
    spec = E.chance(s)  # the Starting Player refills first, privately
    assert spec["label"] == "seat 1 clash hand" and spec["visible_to"] == [1] and spec["count"] == 3
    s = E.apply(s, {"kind": "chance", "outcome": [0, 1, 2]})
    s = E.apply(s, {"kind": "chance", "outcome": [0, 1, 2]})
    assert [len(p["hand"]) for p in s["players"]] == [3, 3]
    assert s["players"][0]["clocks"] == {} and "protego-maxima" in s["players"][0]["spellbook"]
    assert E.to_move(s) == [1] and front(s) == "activate"


def test_the_game_lasts_three_rounds_and_more_quest_points_win():
    """WD-1 (L273-277), WD-65 (L565-575), WD-77 (L761-763); a tie is a draw (ruling A-70)."""
    s = two_each()
    s["round"] = 3
    s["players"][1]["qp"] = 2
    for _ in range(6):
        seat = E.to_move(s)[0]
        model = next(m for m in sorted(s["models"]) if s["models"][m]["seat"] == seat)
        s = act(act(s, seat, {"type": "activate", "model": model}), seat, {"type": "end"})
    assert E.to_move(s) == [] and E.result(s) == {"placements": [2, 1], "scores": [0, 2], "winners": [1]}
    t = two_each()
    t["round"] = 3
    for _ in range(6):
        seat = E.to_move(t)[0]
        model = next(m for m in sorted(t["models"]) if t["models"][m]["seat"] == seat)
        t = act(act(t, seat, {"type": "activate", "model": model}), seat, {"type": "end"})
    assert E.result(t)["placements"] == [1, 1]


def test_a_move_may_pass_through_models_but_not_end_on_one():
    """WD-78 (L663): models may move through others and may not end in an occupied space."""
    s = build(
        models=[(0, "ron-weasley", "0,0", {}), (1, "death-eater-i", "1,0", {}), (1, "death-eater-ii", "2,0", {})],
        active="0a",
    )
    dests = {a["to"] for a in E.legal_actions(s, 0) if a["type"] == "move"}
    assert "1,0" not in dests and "2,0" not in dests and "3,0" in dests


def test_difficult_costs_two_dangerous_hurts_and_scout_and_fly_ignore_terrain():
    """WD-98 (L1176-1216), Scout (WD-T35), Fly (WD-T12, A-35), ruling A-32."""
    walls = [
        {"kind": "terrain", "hex": f"{q},1", "face_up": True, "what": "difficult", "owner": 0} for q in range(-1, 6)
    ]
    s = build(models=[(0, "ron-weasley", "2,0", {}), (1, "death-eater-i", "0,6", {})], active="0a", overlays=walls)
    dests = {a["to"] for a in E.legal_actions(s, 0) if a["type"] == "move"}
    assert "2,1" in dests and "2,2" in dests and "2,3" not in dests  # 2 + 1 = 3 points
    s = build(
        models=[(0, "ron-weasley", "2,0", {"traits": {"scout": 1}}), (1, "death-eater-i", "0,6", {})],
        active="0a",
        overlays=walls,
    )
    assert "2,3" in {a["to"] for a in E.legal_actions(s, 0) if a["type"] == "move"}
    lava = [
        {"kind": "terrain", "hex": f"{q},1", "face_up": True, "what": "dangerous", "owner": 0} for q in range(-1, 6)
    ]
    s = build(models=[(0, "ron-weasley", "2,0", {}), (1, "death-eater-i", "0,6", {})], active="0a", overlays=lava)
    s = act(s, 0, {"type": "move", "to": "2,2"})
    assert s["models"]["0a"]["impacts"] == 1
    s = build(
        models=[(0, "ron-weasley", "2,0", {"traits": {"fly": 1}}), (1, "death-eater-i", "0,6", {})],
        active="0a",
        overlays=lava,
    )
    s = act(s, 0, {"type": "move", "to": "2,2"})
    assert s["models"]["0a"]["impacts"] == 0


def test_a_face_down_terrain_overlay_has_no_effect():
    """WD-86 (L713-725): a Mystery-side overlay has no effect."""
    lava = [
        {"kind": "terrain", "hex": f"{q},1", "face_up": False, "what": "dangerous", "owner": 0} for q in range(-1, 6)
    ]
    s = build(models=[(0, "ron-weasley", "2,0", {}), (1, "death-eater-i", "0,6", {})], active="0a", overlays=lava)
    assert act(s, 0, {"type": "move", "to": "2,2"})["models"]["0a"]["impacts"] == 0


def test_impassable_cannot_be_crossed_and_blocks_attacks_without_sight():
    """WD-98 (L1194-1198), WD-80, WD-95 (L894-900) and WD-32: an attack needs range and line of sight."""
    s = build(
        pack_id=OV,
        map_id="moonlit-cloister",
        nexus="blue",
        models=[(0, "tobias-fenwick", "0,1", {}), (1, "veyra", "0,3", {}), (1, "cassius-vane", "3,3", {})],
        artifacts={"0a": ["bone-crossbow"]},
        active="0a",
    )
    assert "0,2" not in {a["to"] for a in E.legal_actions(s, 0) if a["type"] == "move"}
    targets = {a["target"] for a in E.legal_actions(s, 0) if a["type"] == "attack"}
    assert "1a" not in targets and "1b" in targets
    s = act(s, 0, {"type": "attack", "attack": "bone-crossbow", "target": "1b", "artifact": "bone-crossbow"})
    s = decline(deal(deal(s, ["c01-steady-hand"]), ["c02-sidestep"]))
    assert not any(a["type"] == "attack" for a in E.legal_actions(s, 0))


def test_cast_spell_limits_mastery_dark_arts_muggles_and_the_basic_spell():
    """WD-81 (L675-677, L1008-1014), WD-50 (L965-971), WD-T5 (L1256-1258), WD-T26, WD-82 (L679-683), A-54."""
    s = build(
        models=[(0, "ron-weasley", "0,0", {}), (0, "nagini", "1,0", {}), (1, "death-eater-i", "0,3", {})],
        spellbooks={0: ["rictusempra", "crucio", "protego-maxima"]},
        active="0a",
    )
    spells = {a["spell"] for a in E.legal_actions(s, 0) if a["type"] == "cast"}
    assert spells == {"rictusempra", "protego-maxima", "basic-combat-spell"}  # no Unforgivable without Dark Arts
    s = act(s, 0, {"type": "cast", "spell": "basic-combat-spell", "target": "1a"})
    s = decline(deal(deal(s, ["ex-plus1-2"]), ["ex-plus1-3"]))
    assert s["models"]["0a"]["spells"] == []  # never assigned
    s = build(
        models=[(0, "ron-weasley", "0,0", {"spells": ["apparition"]}), (1, "death-eater-i", "0,3", {})],
        spellbooks={0: ["rictusempra"]},
        active="0a",
    )
    assert {a["spell"] for a in E.legal_actions(s, 0) if a["type"] == "cast"} == {
        "basic-combat-spell"
    }  # Mastery 1 is full
    s = build(
        models=[(0, "nagini", "0,0", {}), (1, "death-eater-i", "0,3", {})], spellbooks={0: ["rictusempra"]}, active="0a"
    )
    assert not any(a["type"] == "cast" for a in E.legal_actions(s, 0))


def test_expert_wizard_casts_a_second_time_as_a_free_action_once_per_round():
    """WD-T10 (L1289-1291) and WD-87."""
    s = build(
        models=[(0, "harry-potter", "0,0", {"traits": {"expert_wizard": 1}}), (1, "death-eater-i", "0,3", {})],
        spellbooks={0: ["rictusempra"]},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "rictusempra", "target": "1a"})
    s = decline(deal(deal(s, ["ex-plus1-2"]), ["ex-plus1-3"]))
    assert {a["spell"] for a in E.legal_actions(s, 0) if a["type"] == "cast"} == {"basic-combat-spell"}
    s = act(s, 0, {"type": "cast", "spell": "basic-combat-spell", "target": "1a"})
    s = decline(deal(deal(s, ["ex-plus1-4"]), ["ex-plus1-5"]))
    assert s["models"]["0a"]["round"]["expert_wizard"] is True
    assert not any(a["type"] == "cast" for a in E.legal_actions(s, 0))


def test_draw_clash_needs_a_short_hand_and_draw_quest_swaps_an_active_quest():
    """WD-84 (L695-697) and WD-83 (L687-693)."""
    s = build(
        models=[(0, "ron-weasley", "0,0", {}), (1, "death-eater-i", "0,3", {})],
        hands={0: ["ex-plus1-2"] * 1},
        active="0a",
    )
    assert {"type": "draw_clash"} in E.legal_actions(s, 0)
    full = build(
        models=[(0, "ron-weasley", "0,0", {}), (1, "death-eater-i", "0,3", {})],
        hands={0: ["ex-plus1-2", "ex-plus1-3", "ex-plus1-4"]},
        active="0a",
    )
    assert {"type": "draw_clash"} not in E.legal_actions(full, 0)
    s = act(s, 0, {"type": "draw_clash"})
    assert E.chance(s)["visible_to"] == [0]
    q = build(
        pack_id=OV,
        map_id="moonlit-cloister",
        nexus="blue",
        models=[(0, "aldous-wren", "2,1", {}), (1, "cassius-vane", "3,5", {})],
        active="0a",
    )
    q["players"][0]["active"] = ["iron-grip"]
    q["players"][0]["quest_deck"] = ["siege"]
    q = act(q, 0, {"type": "draw_quest", "discard": "iron-grip"})
    assert E.chance(q) == {"kind": "draw", "pool": 1, "count": 1, "visible_to": "all", "label": "seat 0 quest draw"}
    q = E.apply(q, {"kind": "chance", "outcome": [0]})
    assert q["players"][0]["active"] == ["siege"] and q["players"][0]["quest_discard"] == ["iron-grip"]


def test_hide_and_unveil_reach_only_the_own_or_an_adjacent_space():
    """WD-86 (L713-725), rulings A-27 and A-31 (an overlay is one space)."""
    ovs = [
        {"kind": "challenge", "hex": "1,0", "face_up": True, "what": "cup", "owner": 0},
        {"kind": "challenge", "hex": "3,0", "face_up": True, "what": "orb", "owner": 1},
    ]
    s = build(models=[(0, "ron-weasley", "0,0", {}), (1, "death-eater-i", "0,5", {})], active="0a", overlays=ovs)
    assert [a["hex"] for a in E.legal_actions(s, 0) if a["type"] == "flip"] == ["1,0"]
    s = act(s, 0, {"type": "flip", "hex": "1,0"})
    assert not s["overlays"][0]["face_up"]


def test_a_potion_on_a_friend_applies_at_once_and_on_an_enemy_needs_a_faced_clash():
    """WD-85 (L703-711), ruling A-58 (no empower): +1 per Potioneer level (WD-T31) for the user; the potion is spent either way;
    Potion Mastery (WD-T30, L1388-1390) makes the second one a Free action."""
    s = build(
        pack_id=OV,
        map_id="moonlit-cloister",
        nexus="blue",
        models=[(0, "tobias-fenwick", "2,1", {"impacts": 3}), (1, "cassius-vane", "3,1", {})],
        active="0a",
    )
    s["players"][0]["potions"] = [{"id": "minor-salve", "spent": False}, {"id": "sting-flask", "spent": False}]
    s = act(s, 0, {"type": "potion", "index": 0, "target": "0a"})
    assert s["models"]["0a"]["impacts"] == 0 and s["players"][0]["potions"][0]["spent"]  # 1 + X (Potioneer 2)
    s = act(s, 0, {"type": "potion", "index": 1, "target": "1a"})  # Potion Mastery 1 makes this one free
    s = deal(deal(s, ["c01-steady-hand"]), ["c02-sidestep"])
    s = decline(s)
    lc = s["last_clash"]
    assert lc["what"] == "potion" and lc["att"]["total"] == 1 + 2 and lc["def"]["total"] == 1 + 1
    assert s["models"]["1a"]["impacts"] == 1


def test_an_innate_spell_is_cast_from_the_model_and_takes_its_clock_there():
    """Innate Knowledge (L397, WD-40) and ruling A-55: never assigned, clocked on the model; a
    Spellbook copy of the same spell is not offered twice."""
    s = build(
        pack_id=OV,
        map_id="moonlit-cloister",
        nexus="blue",
        models=[(0, "isolde-marrow", "2,1", {}), (1, "cassius-vane", "2,3", {})],
        spellbooks={0: ["ember-lash"]},
        active="0a",
    )
    casts = [a for a in E.legal_actions(s, 0) if a["type"] == "cast" and a["spell"] == "ember-lash"]
    assert casts == [{"type": "cast", "spell": "ember-lash", "target": "1a"}]
    s = decline(act(s, 0, casts[0]))  # an Apprentice's Empower costs 0 here; it passes
    s = decline(deal(deal(s, ["c02-sidestep"]), ["c19-fumble"]))
    assert s["models"]["0a"]["innate_clocks"] == {"ember-lash": 1} and s["models"]["0a"]["spells"] == []
    assert "ember-lash" in s["players"][0]["spellbook"]
