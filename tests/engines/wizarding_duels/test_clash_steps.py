"""Individual and Faced Clashes step by step (rulebook L765-846, L1059-1124; spec WD-89..92, FC-1..FC-14)."""

from engines.wizarding_duels import rules
from engines.wizarding_duels.scenario import E, act, build, deal, decline

from .helpers import front

OV = "original-v1"


def ov(models, **kw):
    return build(pack_id=OV, map_id="moonlit-cloister", nexus="blue", models=models, **kw)


def run_clash(s, answers):
    seq = []
    while s["clash"] is not None or front(s) != "act":
        st = s["queue"][0]
        if E.to_move(s) == [-1]:
            spec = E.chance(s)
            seq.append(("draw", st["seat"], st["dest"]))
            s = E.apply(s, {"kind": "chance", "outcome": list(range(spec["count"]))})
            continue
        seat = E.to_move(s)[0]
        opts = E.legal_actions(s, seat)
        want = answers(st, opts)
        seq.append((st["step"], seat))
        s = act(s, seat, want if want in opts else opts[0])
    return s, seq


def test_a_faced_spell_runs_the_windows_in_the_spec_order():
    """WD-90/WD-91 (L765-830) as FC-1..FC-12 (L790-830, L1059-1071, L1116-1124, Leadership L1344-1346): reaction, Leadership (attacker's
    side first), empower (defender first), swaps (defender first), early parts (defender first)."""
    s = ov(
        [(0, "aldous-wren", "2,1", {}), (1, "lord-malvern", "3,4", {})],
        spellbooks={0: ["ember-lash"], 1: ["counter-charm"]},
        hands={0: ["c08-surge", "c12-bolster"], 1: ["c01-steady-hand", "c17-press"]},
        pools={0: {"light": 5, "dark": 0}, 1: {"light": 0, "dark": 5}},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "ember-lash", "target": "1a"})

    def yes(st, opts):
        return {
            "react": {"type": "react", "spell": "counter-charm"},
            "leadership": {"type": "peek"},
            "empower": {"type": "empower"},
        }.get(st["step"]) or next((o for o in opts if o["type"] == "swap"), opts[0])

    s, seq = run_clash(s, yes)
    assert seq == [
        ("react", 1),
        ("leadership", 0),
        ("draw", 0, "known_top"),
        ("order", 0),
        ("leadership", 1),
        ("draw", 1, "known_top"),
        ("order", 1),
        ("empower", 1),
        ("empower", 0),
        ("swap", 1),
        ("swap", 0),
        ("early", 1),
        ("early", 0),
    ]
    lc = s["last_clash"]
    # caster: swapped-in +2 (Surge) + Empowerment +1 + Mastery 3 + Master Wizard 1 + Ember Lash +1 + early +1
    assert lc["att"]["total"] == 2 + 1 + 3 + 1 + 1 + 1
    # defender: +1 (Steady Hand) + Empowerment +1 + Defense 2 + Counter-Charm 3 + early +1 - no Master Wizard
    assert lc["def"]["total"] == 1 + 1 + 2 + 3 + 1


def test_a_duelling_defender_makes_the_attacker_swap_first_and_a_duelling_attacker_sees_the_swap():
    """WD-T7 (L1266-1271) and ruling A-25."""
    s = ov(
        [(0, "cassius-vane", "2,1", {}), (1, "mira-quillfeather", "3,2", {})],
        spellbooks={0: ["frost-bind"]},
        hands={0: ["c08-surge"], 1: ["c09-drift"]},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "frost-bind", "target": "1a"})
    s = deal(deal(s, ["c02-sidestep"]), ["c03-second-wind"])
    assert front(s) == "swap" and s["queue"][0]["seat"] == 0
    s = act(s, 0, {"type": "keep_card"})
    assert s["queue"][0]["face_up"] is True


def test_an_apprentice_may_never_swap():
    """WD-T2 (L1242-1244)."""
    s = ov(
        [(0, "umbral-acolyte", "2,1", {}), (1, "tobias-fenwick", "2,3", {})], hands={0: ["c14-overflow"]}, active="0a"
    )
    s = act(s, 0, {"type": "cast", "spell": "basic-combat-spell", "target": "1a"})
    s = decline(deal(deal(s, ["c02-sidestep"]), ["c03-second-wind"]))
    assert s["last_clash"]["att"]["swap"] is None and len(s["players"][0]["hand"]) == 1


def test_swapping_away_a_revealed_two_plus_discards_its_extra_and_a_two_plus_from_hand_draws_one():
    """WD-36 (L418-428) with rulings A-07 and A-08."""
    s = build(
        models=[(0, "harry-potter", "0,0", {}), (1, "death-eater-i", "3,3", {})],
        spellbooks={0: ["protego-maxima"]},
        hands={0: ["ex-plus3-2"]},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "protego-maxima", "target": "0a"})
    s = deal(deal(s, ["ex-two-plus"]), ["ex-plus3-3"])
    s = act(s, 0, {"type": "swap", "card": s["players"][0]["hand"][0]})
    assert s["last_clash"]["att"]["total"] == 3 + 3 - 5
    assert sorted(s["cards"][c] for c in s["players"][0]["discard"]) == ["ex-plus3-2", "ex-plus3-3", "ex-two-plus"]
    s = build(
        models=[(0, "harry-potter", "0,0", {}), (1, "death-eater-i", "3,3", {})],
        spellbooks={0: ["protego-maxima"]},
        hands={0: ["ex-two-plus"]},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "protego-maxima", "target": "0a"})
    s = deal(s, ["ex-plus1-3"])
    s = act(s, 0, {"type": "swap", "card": s["players"][0]["hand"][0]})
    assert E.chance(s)["label"] == "seat 0 clash extra"
    s = deal(s, ["ex-two-plus"] if False else ["ex-plus2-2"])
    assert s["last_clash"]["att"]["total"] == 2 + 2 + 3 - 5


def test_an_empty_deck_is_refilled_from_the_discard_and_the_opponent_refills_its_pool_after_the_action():
    """WD-38 and WD-39 (L341-345), WD-56 (L1053-1055), FC-14."""
    s = build(
        models=[(0, "ron-weasley", "0,2", {}), (1, "death-eater-ii", "0,3", {})],
        artifacts={"0a": ["sword-of-gryffindor"]},
        active="0a",
    )
    p0 = s["players"][0]
    p0["discard"], p0["deck"] = p0["deck"][1:], p0["deck"][:1]
    s["players"][1]["spent"] = {"light": 0, "dark": 3}
    s["players"][1]["pool"] = {"light": 0, "dark": 0}
    s = act(
        s, 0, {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"}
    )
    s = deal(s, [s["cards"][s["players"][0]["deck"][0]]])
    s = deal(s, ["ex-plus1-2"])
    s = decline(s)
    assert s["players"][1]["pool"]["dark"] == 0  # not yet: the first draw did not need a refill
    s = act(s, 0, {"type": "end"})
    t = build(
        models=[(0, "ron-weasley", "0,2", {}), (1, "death-eater-ii", "0,3", {})],
        artifacts={"0a": ["sword-of-gryffindor"]},
        active="0a",
    )
    p0 = t["players"][0]
    p0["discard"], p0["deck"] = list(p0["deck"]), []
    t["players"][1]["spent"] = {"light": 0, "dark": 3}
    t = act(
        t, 0, {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"}
    )
    assert E.chance(t)["pool"] == 20 and t["players"][0]["discard"] == []
    t = deal(deal(t, ["ex-plus1-2"]), ["ex-plus1-3"])
    t = decline(t)
    assert t["players"][1]["pool"]["dark"] == 3 and t["players"][1]["spent"]["dark"] == 0


def test_with_deck_and_discard_both_empty_a_missing_card_counts_as_zero():
    """Ruling A-14."""
    s = build(
        models=[(0, "harry-potter", "0,0", {"mastery": 9}), (1, "death-eater-i", "3,3", {})],
        spellbooks={0: ["protego-maxima"]},
        active="0a",
    )
    s["players"][0]["deck"] = []
    s = act(s, 0, {"type": "cast", "spell": "protego-maxima", "target": "0a"})
    assert s["last_clash"]["att"]["total"] == 9 - 5 and s["players"][0]["discard"] == []


def test_a_defense_total_never_drops_below_zero():
    """Ruling A-72 (L818, L1430)."""
    s = build(
        models=[(0, "ron-weasley", "0,2", {}), (1, "death-eater-ii", "0,3", {"defense": 0, "burning": 1})],
        artifacts={"0a": ["sword-of-gryffindor"]},
        active="0a",
    )
    s = act(
        s, 0, {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"}
    )
    s = deal(deal(s, ["ex-plus1-2"]), ["ex-zero-jinx"])
    assert s["clash"]["def"]["total"] == 0 and s["clash"]["net"] == 4


def test_lucky_and_jinxed_cards_leave_the_game_once_they_count():
    """WD-37 (L430-445) and ruling A-22."""
    s = build(
        models=[(0, "harry-potter", "0,0", {}), (1, "death-eater-i", "3,3", {})],
        spellbooks={0: ["protego-maxima"]},
        active="0a",
    )
    rules._add_card(s, 0, "lucky")
    s = act(s, 0, {"type": "cast", "spell": "protego-maxima", "target": "0a"})
    s = deal(s, ["lucky"])
    s = deal(s, ["ex-plus2-2"])
    assert s["last_clash"]["att"]["total"] == 2 + 2 + 3 - 5
    lucky = [c for c in s["cards"] if s["cards"][c] == "lucky"][0]
    assert lucky in s["players"][0]["gone"] and lucky not in s["players"][0]["discard"]


def test_magical_immunity_imposes_disadvantage_and_hufflepuff_ignores_it():
    """WD-T22 (L1356-1358) and WD-T17 (L1330-1332), ruling A-10."""

    def reveal_count(traits):
        s = build(
            models=[
                (0, "harry-potter", "0,0", {"traits": traits}),
                (1, "death-eater-i", "0,3", {"traits": {"magical_immunity": 1}}),
            ],
            spellbooks={0: ["rictusempra"]},
            active="0a",
        )
        s = act(s, 0, {"type": "cast", "spell": "rictusempra", "target": "1a"})
        return E.chance(s)["count"], s["clash"]["att"]["adv"]

    assert reveal_count({}) == (2, -1)
    assert reveal_count({"hufflepuff": 1}) == (1, 0)


def test_resistance_discards_hand_cards_to_cut_impacts_one_each():
    """WD-T33 (L1398-1400), ruling A-44."""
    s = build(
        models=[(0, "ron-weasley", "0,2", {}), (1, "death-eater-ii", "0,3", {"traits": {"resistance": 2}})],
        artifacts={"0a": ["sword-of-gryffindor"]},
        hands={1: ["ex-plus1-2", "ex-plus1-3"]},
        active="0a",
    )
    s = act(
        s, 0, {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"}
    )
    s = deal(deal(s, ["ex-plus3-2"]), ["ex-plus1-4"])
    s = act(s, 1, {"type": "keep_card"})
    assert front(s) == "resist"
    assert max(len(a["discard"]) for a in E.legal_actions(s, 1)) == 2
    s = act(s, 1, {"type": "resist", "discard": sorted(s["players"][1]["hand"])})
    assert s["models"]["1a"]["impacts"] == 1


def test_brave_survives_on_four_impacts_with_three_or_more_and_falls_otherwise():
    """WD-T3 (L1246-1248), ruling A-45."""

    def brave(card):
        s = build(
            models=[
                (0, "ron-weasley", "0,2", {}),
                (1, "death-eater-ii", "0,3", {"impacts": 3, "traits": {"brave": 1}}),
                (1, "death-eater-i", "3,3", {}),
            ],
            artifacts={"0a": ["sword-of-gryffindor"]},
            active="0a",
        )
        s = act(
            s, 0, {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"}
        )
        s = deal(deal(s, ["ex-plus3-2"]), ["ex-plus1-4"])
        assert E.chance(s)["visible_to"] == "all"
        return deal(s, [card])

    stays = brave("ex-plus2-2")  # 2 + Defense 1 = 3
    assert not stays["models"]["1a"]["removed"] and stays["models"]["1a"]["impacts"] == 4
    falls = brave("ex-plus1-2")
    assert falls["models"]["1a"]["removed"]


def test_horcrux_maker_clears_its_impacts_and_loses_a_horcrux_instead_of_being_removed():
    """WD-T16 in play (L1319-1328), ruling A-46: Nagini counts and goes instead."""
    s = build(
        models=[(0, "ron-weasley", "0,2", {}), (1, "lord-voldemort", "0,3", {"impacts": 4}), (1, "nagini", "3,3", {})],
        artifacts={"0a": ["sword-of-gryffindor"]},
        active="0a",
    )
    s["models"]["1a"]["horcruxes"] = [{"kind": "model", "model": "1b"}]
    s = act(
        s, 0, {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"}
    )
    s = act(s, 1, {"type": "pass"})  # FC-2: Voldemort does not declare Dark Lord
    s = decline(deal(deal(s, ["ex-plus3-2"]), ["ex-plus1-4"]))
    assert not s["models"]["1a"]["removed"] and s["models"]["1a"]["impacts"] == 0
    assert s["models"]["1b"]["removed"]


def test_the_horcrux_makers_owner_picks_which_horcrux_goes():
    """Ruling A-46: with several Horcruxes standing, the owner chooses."""
    s = build(
        models=[
            (0, "ron-weasley", "0,2", {}),
            (1, "lord-voldemort", "0,3", {"impacts": 4}),
            (1, "nagini", "3,3", {}),
            (1, "death-eater-i", "4,3", {}),
        ],
        artifacts={"0a": ["sword-of-gryffindor"], "1c": ["horcrux-locket"]},
        active="0a",
    )
    s["models"]["1a"]["horcruxes"] = [
        {"kind": "model", "model": "1b"},
        {"kind": "artifact", "model": "1c", "id": "horcrux-locket"},
    ]
    s = act(
        s, 0, {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"}
    )
    s = act(s, 1, {"type": "pass"})
    s = deal(deal(s, ["ex-plus3-2"]), ["ex-plus1-4"])
    assert front(s) == "horcrux_lose" and len(E.legal_actions(s, 1)) == 2
    s = act(s, 1, {"type": "horcrux_lose", "index": 1})
    assert not s["models"]["1b"]["removed"] and s["models"]["1c"]["artifacts"] == []
    assert s["models"]["1a"]["impacts"] == 0 and not s["models"]["1a"]["removed"]


def test_gryffindor_may_move_when_a_friendly_model_is_removed():
    """WD-T13 (L1299-1301), ruling A-12 (N = 2 in the pack)."""
    s = build(
        models=[
            (0, "ron-weasley", "0,2", {}),
            (1, "death-eater-ii", "0,3", {"impacts": 4}),
            (1, "death-eater-i", "3,5", {"traits": {"gryffindor": 1}}),
        ],
        artifacts={"0a": ["sword-of-gryffindor"]},
        active="0a",
    )
    s = act(
        s, 0, {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"}
    )
    s = deal(deal(s, ["ex-plus3-2"]), ["ex-plus1-4"])
    assert front(s) == "place" and s["queue"][0]["kind"] == "gryffindor"
    dests = [a for a in E.legal_actions(s, 1) if a["hex"]]
    assert dests and all(a["model"] == "1b" for a in dests)
    s = act(s, 1, dests[0])
    assert s["models"]["1b"]["hex"] == dests[0]["hex"]


def test_dark_lord_counts_the_revealed_card_as_three_and_ignores_advantage():
    """WD-T6 (b) (L1262-1264), ruling A-11."""
    s = build(
        models=[(0, "lord-voldemort", "0,1", {}), (1, "hermione-granger", "0,4", {"traits": {"magical_immunity": 2}})],
        spellbooks={0: ["rictusempra"]},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "rictusempra", "target": "1a"})
    s = act(s, 0, {"type": "dark_lord"})
    assert E.chance(s)["count"] == 1  # the Disadvantage 2 is ignored
    s = decline(deal(deal(s, ["ex-zero-jinx"]), ["ex-plus1-3"]))
    assert s["last_clash"]["att"]["total"] == 3 + 3 + 1 + 1
    assert s["models"]["0a"]["dark_lord_used"]


def test_leadership_shows_the_top_cards_to_their_owner_only_and_they_come_out_in_the_chosen_order():
    """WD-T20 (L1344-1346), ruling A-51; spec section 4.3 point 4."""
    s = ov([(0, "aldous-wren", "2,1", {}), (1, "cassius-vane", "3,4", {})], active="0a")
    s = act(s, 0, {"type": "cast", "spell": "basic-combat-spell", "target": "1a"})
    s = act(s, 0, {"type": "peek"})
    assert E.chance(s)["visible_to"] == [0] and E.chance(s)["count"] == 3
    s = deal(s, ["c14-overflow", "c01-steady-hand", "c19-fumble"])
    top = s["players"][0]["known_top"]
    assert E.view(s, 1)["players"][0]["known_top"] == 3 and E.view(s, 0)["players"][0]["known_top"] == top
    order = [top[1], top[0], top[2]]
    s = act(s, 0, {"type": "order", "cards": order})
    assert E.chance(s)["label"] == "seat 1 clash reveal"  # the attacker's reveal needed no chance
    assert s["clash"]["att"]["kept"] == order[0]


def test_of_two_leaders_in_reach_the_first_by_uid_peeks_and_one_that_peeked_this_round_does_not():
    """WD-T20 (L1344-1346), ruling A-51: the Leadership window names the first model of the seat
    (uid order) within 2 spaces of its side's model that has not peeked this round."""
    models = [
        (0, "cassius-vane", "2,1", {}),
        (0, "lord-malvern", "2,2", {}),
        (0, "aldous-wren", "3,1", {}),
        (1, "tobias-fenwick", "3,3", {}),
    ]
    cast = {"type": "cast", "spell": "basic-combat-spell", "target": "1a"}
    s = act(ov(models, active="0a"), 0, cast)
    assert s["queue"][0] == {"step": "leadership", "seat": 0, "model": "0b"}
    peeked = ov(models, active="0a")
    peeked["models"]["0b"]["round"]["leadership"] = True
    s = act(peeked, 0, cast)
    assert s["queue"][0] == {"step": "leadership", "seat": 0, "model": "0c"}
    # Out of reach (3 spaces from the caster), the other leader is not asked either.
    far = ov([*models[:2], (0, "aldous-wren", "5,1", {}), models[3]], active="0a")
    far["models"]["0b"]["round"]["leadership"] = True
    assert front(act(far, 0, cast)) != "leadership"
