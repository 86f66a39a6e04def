"""Engine version 2: choices the rulebook leaves to the player that version 1 made for them
(payment colours, the route of a move) and an Empowerment card its owner already knows.
Version 1 stays registered, unchanged, so that recorded matches replay (RULES.md, "Versions")."""

import pytest

from engines import registry
from engines.base import IllegalAction
from engines.wizarding_duels.engine import WizardingDuelsEngine
from engines.wizarding_duels.scenario import E, act, build, deal, decline

from .helpers import front

OV = "original-v1"
V1 = WizardingDuelsEngine(version="1")
LAVA = [{"kind": "terrain", "hex": f"{q},1", "face_up": True, "what": "dangerous", "owner": 0} for q in range(-1, 6)]


def ov(models, **kw):
    return build(pack_id=OV, map_id="moonlit-cloister", nexus="blue", models=models, **kw)


def defender_empowers():
    """Spark Volley cast at Nyx Hollow, whose side (seat 1, 2 white and 3 black markers) is asked
    whether to empower its defence (FC-3)."""
    s = ov(
        [(0, "aldous-wren", "2,1", {}), (1, "nyx-hollow", "2,3", {})],
        spellbooks={0: ["spark-volley"]},
        pools={0: {"light": 0, "dark": 0}, 1: {"light": 2, "dark": 3}},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "spark-volley", "target": "1a"})
    return act(s, 0, {"type": "pass"}) if front(s) == "leadership" else s


def test_every_version_is_registered_and_new_matches_play_version_two_rules_as_version_three():
    assert registry.get("wizarding-duels").version == "3"
    assert registry.get("wizarding-duels", "2").version == "2"
    assert registry.get("wizarding-duels", "1").version == "1"
    assert E.setup({}, 2)["rules"] == 2
    assert registry.get("wizarding-duels", "2").setup({}, 2)["rules"] == 2
    assert "rules" not in V1.setup({}, 2)  # version 1's states stay exactly as they were recorded


def test_the_defender_names_the_colours_it_empowers_with():
    """WD-58, rulebook L1063-1065: "The defending player may use Power Markers of any color"."""
    s = defender_empowers()
    assert front(s) == "empower" and s["queue"][0]["seat"] == 1
    assert E.legal_actions(s, 1) == [{"type": "empower", "light": 0}, {"type": "empower", "light": 1}, {"type": "pass"}]
    white = act(s, 1, {"type": "empower", "light": 1})
    assert white["players"][1]["pool"] == {"light": 1, "dark": 3} and white["players"][1]["spent"] == {
        "light": 1,
        "dark": 0,
    }
    black = act(s, 1, {"type": "empower", "light": 0})
    assert black["players"][1]["pool"] == {"light": 2, "dark": 2}


def test_a_neutral_spell_is_empowered_with_any_mix_the_pool_allows():
    """WD-52 (L983-985) and ruling A-18: a Neutral spell takes markers of either colour, mixed if wanted."""
    s = ov(
        [(0, "sister-hollis", "2,1", {}), (1, "cassius-vane", "2,3", {})],
        spellbooks={0: ["stone-fist"]},
        pools={0: {"light": 2, "dark": 1}},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "stone-fist", "target": "1a"})
    # Apprentice in its own activation: 2 - 1 = 1 marker; one white or one black.
    assert [a for a in E.legal_actions(s, 0) if a["type"] == "empower"] == [
        {"type": "empower", "light": 0},
        {"type": "empower", "light": 1},
    ]
    assert act(s, 0, {"type": "empower", "light": 0})["players"][0]["pool"] == {"light": 2, "dark": 0}


def test_a_spell_of_one_colour_is_paid_in_that_colour_with_no_choice():
    """L1063-1064: the caster "must use Power Markers of the color indicated by the Spell"."""
    s = ov(
        [(0, "aldous-wren", "2,1", {}), (1, "nyx-hollow", "2,3", {})],
        spellbooks={0: ["spark-volley"]},
        pools={0: {"light": 2, "dark": 2}},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "spark-volley", "target": "1a"})
    s = act(s, 0, {"type": "pass"}) if front(s) == "leadership" else s
    assert front(s) == "empower" and s["queue"][0]["seat"] == 0  # the defender had nothing to pay with
    assert E.legal_actions(s, 0) == [{"type": "empower"}, {"type": "pass"}]


def test_a_lower_part_costing_any_colour_is_paid_as_its_owner_says():
    """WD-57 (L1035), ruling A-24: a lower part's cost in markers of any colour."""
    s = ov(
        [(0, "cassius-vane", "2,1", {}), (1, "tobias-fenwick", "2,3", {})],
        pools={0: {"light": 1, "dark": 1}},
        hands={0: ["c08-surge", "c09-drift", "c10-recall"]},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "basic-combat-spell", "target": "1a"})
    s = deal(deal(s, ["c01-steady-hand"]), ["c02-sidestep"])
    s = act(s, 0, {"type": "keep_card"})
    assert front(s) == "early" and s["queue"][0]["seat"] == 0
    assert E.legal_actions(s, 0) == [
        {"type": "lower", "use": True, "light": 0},
        {"type": "lower", "use": True, "light": 1},
        {"type": "lower", "use": False},
    ]
    assert act(s, 0, {"type": "lower", "use": True, "light": 1})["players"][0]["pool"] == {"light": 0, "dark": 1}


# The upkeep of a Neutral spell, paid in the colours its owner names: test_board_markers.py
# (Warden's Lantern is original-v1's Neutral upkept spell).


def test_version_one_still_pays_from_the_larger_heap_with_no_choice():
    s = build(
        models=[(0, "harry-potter", "0,1", {}), (1, "hermione-granger", "0,4", {})],
        spellbooks={0: ["rictusempra"]},
        pools={1: {"light": 1, "dark": 2}},
        active="0a",
        rules_version=1,
    )
    s = V1.apply(s, {"kind": "action", "seat": 0, "action": {"type": "cast", "spell": "rictusempra", "target": "1a"}})
    assert V1.legal_actions(s, 1) == [{"type": "empower"}, {"type": "pass"}]
    s = V1.apply(s, {"kind": "action", "seat": 1, "action": {"type": "empower"}})
    assert s["players"][1]["pool"] == {"light": 1, "dark": 1}


def test_the_mover_may_take_a_riskier_route_through_more_dangerous_spaces():
    """WD-78, rulebook L653-667 (the model moves space by space, as the player wishes) and L1214-1216
    with ruling A-32: each Dangerous space entered gives 1 Impact, so the route decides how many."""
    s = build(models=[(0, "ron-weasley", "2,0", {}), (1, "death-eater-i", "0,6", {})], active="0a", overlays=LAVA)
    moves = [a for a in E.legal_actions(s, 0) if a["type"] == "move" and a["to"] == "2,2"]
    # 2,0 -> 2,1 -> 2,2 enters one Dangerous space; 2,0 -> 1,1 -> 2,1 -> 2,2 enters two, within 3 points.
    assert moves == [{"type": "move", "to": "2,2"}, {"type": "move", "to": "2,2", "dangerous": 2}]
    assert act(s, 0, moves[0])["models"]["0a"]["impacts"] == 1
    assert act(s, 0, moves[1])["models"]["0a"]["impacts"] == 2
    # A space reachable without danger may also be reached through it.
    assert {"type": "move", "to": "3,0", "dangerous": 1} in E.legal_actions(s, 0)
    assert act(s, 0, {"type": "move", "to": "3,0", "dangerous": 1})["models"]["0a"]["impacts"] == 1


def test_a_route_or_a_payment_the_engine_did_not_offer_is_refused():
    """The chosen route and colours are answers from legal_actions: a safer route than any there is,
    a split the pool cannot pay, or a free-colour payment with no split named, is refused."""
    s = build(models=[(0, "ron-weasley", "2,0", {}), (1, "death-eater-i", "0,6", {})], active="0a", overlays=LAVA)
    for forged in ({"type": "move", "to": "2,2", "dangerous": 0}, {"type": "move", "to": "2,2", "dangerous": 4}):
        with pytest.raises(IllegalAction) as refused:
            act(s, 0, forged)
        assert refused.value.code == "illegal_action"
    s = defender_empowers()
    assert front(s) == "empower" and s["queue"][0]["seat"] == 1
    for forged in ({"type": "empower"}, {"type": "empower", "light": 3}, {"type": "empower", "light": -1}):
        with pytest.raises(IllegalAction) as refused:
            act(s, 1, forged)
        assert refused.value.code == "illegal_action"


def test_a_flier_has_no_riskier_route_and_version_one_offers_only_the_safest():
    """WD-T12 (A-35): Fly ignores Dangerous terrain, so every route is as safe."""
    s = build(
        models=[(0, "ron-weasley", "2,0", {"traits": {"fly": 1}}), (1, "death-eater-i", "0,6", {})],
        active="0a",
        overlays=LAVA,
    )
    assert not any("dangerous" in a for a in E.legal_actions(s, 0))
    s = build(
        models=[(0, "ron-weasley", "2,0", {}), (1, "death-eater-i", "0,6", {})],
        active="0a",
        overlays=LAVA,
        rules_version=1,
    )
    assert not any("dangerous" in a for a in V1.legal_actions(s, 0))


def test_an_empowerment_card_its_owner_saw_with_leadership_is_known_to_the_owner_only():
    """WD-T20 (L1344-1346) with WD-58 (L1065-1067): the Empowerment card is the top card of the deck,
    placed face down; an owner who looked at the top three knows it, the opponent does not."""
    s = ov(
        [(0, "aldous-wren", "2,1", {}), (1, "nyx-hollow", "2,3", {})],
        spellbooks={0: ["spark-volley"]},
        pools={0: {"light": 2, "dark": 0}},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "spark-volley", "target": "1a"})
    s = act(s, 0, {"type": "peek"})
    s = deal(s, ["c14-overflow", "c01-steady-hand", "c19-fumble"])
    top = list(s["players"][0]["known_top"])
    s = act(s, 0, {"type": "order", "cards": top})
    assert front(s) == "empower" and s["queue"][0]["seat"] == 0
    s = act(s, 0, {"type": "empower"})
    side = s["clash"]["att"]
    assert side["emp_known"] == [top[0]] and side["emp_fixed"] == []
    # The reveal that followed took the next known card, with no chance step.
    assert side["revealed"] == [top[1]] and s["players"][0]["known_top"] == top[2:]
    assert E.view(s, 0)["clash"]["att"]["emp_known"] == [top[0]]
    assert E.view(s, 1)["clash"]["att"]["emp_known"] == 1 and E.view(s, None)["clash"]["att"]["emp_known"] == 1
    # It counts at FC-9 with no draw, and only its upper value.
    s = decline(deal(s, ["c02-sidestep"]))
    assert s["last_clash"]["att"]["emp_cards"] == [top[0]]


def test_streams_recorded_under_version_one_replay_to_the_same_states():
    """Two bot games recorded with the engine as it was before version 2 (data/v1_streams.json: the
    events, and digests of the final state and of the log a stored match would hold) replay exactly
    under version 1: re-verification compares both."""
    import hashlib
    import json
    from pathlib import Path

    engine = registry.get("wizarding-duels", "1")
    for game in json.loads((Path(__file__).parent / "data" / "v1_streams.json").read_text()):
        s = engine.setup({}, 2)
        log = []
        for ev in game["events"]:
            after = engine.apply(s, ev)
            log.append(engine.describe(s, ev, after))
            s = after
        assert engine.to_move(s) == [] and engine.result(s) == game["result"]
        assert hashlib.sha256(json.dumps(log).encode()).hexdigest() == game["log_sha256"]
        # The engine's derived keys (``Engine.derived_keys``) are left out, as the verifier leaves
        # them out of a stored state: the digests were recorded before the engine kept any.
        game_state = {k: v for k, v in s.items() if k not in engine.derived_keys}
        assert engine.derived_keys and len(game_state) < len(s)
        assert hashlib.sha256(json.dumps(game_state, sort_keys=True).encode()).hexdigest() == game["final_state_sha256"]


def test_each_clash_total_is_given_line_by_line_and_the_lines_add_up():
    """EX-5, rulebook L850-874 (with ruling A-01): Voldemort 2 + 3 + 1 + 1 = 7 against Hermione 3 + 2 = 5;
    version 2 keeps each side's lines beside its total (spec section 7: the clash total line by line)."""
    s = build(
        models=[(0, "hermione-granger", "0,1", {}), (1, "lord-voldemort", "0,5", {})],
        spellbooks={1: ["rictusempra"]},
        starting=1,
        active="1a",
    )
    s = act(s, 1, {"type": "cast", "spell": "rictusempra", "target": "0a"})
    s = act(s, 1, {"type": "pass"})  # FC-2: no Dark Lord declaration
    s = deal(deal(s, ["ex-plus2-move"]), ["ex-plus3-regain"])
    att, dfn = s["clash"]["att"], s["clash"]["def"]
    assert att["lines"] == [["Card", 2], ["Mastery", 3], ["Rictusempra modifier", 1], ["Master Wizard", 1]]
    assert dfn["lines"] == [["Card", 3], ["Defense", 2]]
    assert sum(n for _, n in att["lines"]) == att["total"] == 7 and sum(n for _, n in dfn["lines"]) == dfn["total"] == 5


def test_a_defense_below_zero_gets_a_line_that_brings_it_to_zero():
    """Ruling A-72 (L818, L1430): a Defense total is never below 0; the lines still add up to it."""
    s = build(
        models=[(0, "death-eater-ii", "0,1", {"burning": 1}), (1, "lord-voldemort", "0,5", {})],
        spellbooks={1: ["rictusempra"]},
        starting=1,
        active="1a",
    )
    s["models"]["0a"]["defense"] = 0
    s = act(s, 1, {"type": "cast", "spell": "rictusempra", "target": "0a"})
    s = act(s, 1, {"type": "pass"})
    s = deal(deal(s, ["ex-plus2-move"]), ["ex-zero-jinx"])
    dfn = s["clash"]["def"]
    assert dfn["lines"] == [["Card", 0], ["Defense", 0], ["Burning", -1], ["Defense is never below 0", 1]]
    assert dfn["total"] == 0


def test_a_swapped_card_shows_face_up_to_everyone_once_turned():
    """FC-7 (L820-822): the face-down swap card is turned face up before the action is resolved."""
    s = build(
        models=[(0, "hermione-granger", "0,1", {}), (1, "lord-voldemort", "0,5", {})],
        spellbooks={1: ["rictusempra"]},
        starting=1,
        active="1a",
        hands={0: ["ex-plus3-2"], 1: ["ex-plus1-3"]},
    )
    s = act(s, 1, {"type": "cast", "spell": "rictusempra", "target": "0a"})
    s = act(s, 1, {"type": "pass"})
    s = deal(deal(s, ["ex-plus2-move"]), ["ex-plus1-2"])
    assert front(s) == "swap" and s["queue"][0]["seat"] == 0
    card = s["players"][0]["hand"][0]
    s = act(s, 0, {"type": "swap", "card": card})
    assert E.view(s, 1)["clash"]["def"]["swap"] == "face-down"
    s = act(s, 1, {"type": "keep_card"})
    assert s["clash"]["def"]["kept"] == card and E.view(s, 1)["clash"]["def"]["swap"] == card
