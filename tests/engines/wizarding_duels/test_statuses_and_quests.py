"""Statuses (L1422-1446; WD-S0..S5), quests (L447-507; WD-42..48) and the end (L761-763, L916; WD-94)."""

from engines.wizarding_duels import rules
from engines.wizarding_duels.scenario import E, act, build, deal, decline

from .helpers import front

OV = "original-v1"


def ov(models, **kw):
    return build(pack_id=OV, map_id="moonlit-cloister", nexus="blue", models=models, **kw)


def end_activations(s, n=6):
    for _ in range(n):
        if front(s) != "activate":
            break
        seat = E.to_move(s)[0]
        model = next(m for m in sorted(s["models"]) if s["models"][m]["seat"] == seat and not s["models"][m]["removed"])
        s = act(act(s, seat, {"type": "activate", "model": model}), seat, {"type": "end"})
    return s


def test_burning_costs_one_defense_then_one_impact_when_the_models_activation_ends():
    """WD-S0/WD-S1 (L1424-1430), ruling A-38."""
    s = build(models=[(0, "ron-weasley", "0,0", {"burning": 1}), (1, "death-eater-i", "0,5", {})])
    s = act(act(s, 0, {"type": "activate", "model": "0a"}), 0, {"type": "end"})
    assert s["models"]["0a"]["impacts"] == 1 and s["models"]["0a"]["burning"] == 0


def test_poison_two_gives_two_impacts_over_two_end_phases():
    """WD-S3 (L1436-1438), WD-74 (L744-746), ruling A-41; a derived test of spec section 3."""
    s = build(models=[(0, "ron-weasley", "0,0", {"poison": 2}), (1, "death-eater-i", "0,5", {})])
    s = end_activations(s)
    assert s["models"]["0a"]["impacts"] == 1 and s["models"]["0a"]["poison"] == 1
    s = E.apply(s, {"kind": "chance", "outcome": [0]})
    s = E.apply(E.apply(s, {"kind": "chance", "outcome": [0, 1, 2]}), {"kind": "chance", "outcome": [0, 1, 2]})
    s = end_activations(s)
    assert s["models"]["0a"]["impacts"] == 2 and s["models"]["0a"]["poison"] == 0


def test_slow_shortens_the_movement_action_until_the_end_of_the_models_activation():
    """WD-S4 (L1440-1442), ruling A-39."""
    s = build(models=[(0, "ron-weasley", "2,0", {"slow": 2}), (1, "death-eater-i", "0,6", {})], active="0a")
    from engines.wizarding_duels import geometry

    far = max(geometry.distance((2, 0), geometry.parse(a["to"])) for a in E.legal_actions(s, 0) if a["type"] == "move")
    assert far == 1
    s = act(s, 0, {"type": "end"})
    assert s["models"]["0a"]["slow"] == 0


def test_concealment_defends_only_against_a_model_that_is_not_adjacent():
    """WD-S2 (L1432-1434), ruling A-37: it ends in the End Phase of the round."""

    def defense(att_hex):
        s = build(
            models=[
                (0, "ron-weasley", att_hex, {}),
                (1, "death-eater-ii", "0,3", {"conceal": [{"x": 2, "src": None, "seat": 1}]}),
            ],
            artifacts={"0a": ["sword-of-gryffindor"]},
            spellbooks={0: []},
            active="0a",
        )
        s = (
            act(s, 0, {"type": "cast", "spell": "basic-combat-spell", "target": "1a"})
            if att_hex != "0,2"
            else act(
                s,
                0,
                {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"},
            )
        )
        s = deal(deal(s, ["ex-plus1-2"]), ["ex-plus1-3"])
        return (s["clash"] or s["last_clash"])["def"]["total"]

    assert defense("0,2") == 1 + 1
    assert defense("0,0") == 1 + 1 + 2


def test_push_moves_the_target_straight_away_and_stops_at_a_model():
    """WD-S5 (L1444-1446), WD-79 (L663-665), rulings A-33/A-34."""
    s = build(
        models=[
            (0, "lord-voldemort", "0,0", {"traits": {}}),
            (1, "death-eater-i", "0,2", {}),
            (1, "death-eater-ii", "0,5", {}),
        ],
        spellbooks={0: ["imperio"]},
        active="0a",
    )
    s["models"]["0a"]["traits"] = {"dark_arts": 1}
    s = act(s, 0, {"type": "cast", "spell": "imperio", "target": "1a"})
    s = decline(deal(deal(s, ["ex-plus3-2"]), ["ex-plus1-3"]))
    assert front(s) == "place" and s["queue"][0]["kind"] == "push"
    from engines.wizarding_duels import geometry

    for a in E.legal_actions(s, 0):
        assert geometry.distance(geometry.parse(a["hex"]), (0, 0)) == 3
    s = act(s, 0, {"type": "place", "hex": "0,3"})
    opts = [a["hex"] for a in E.legal_actions(s, 0)]
    assert "0,4" in opts and "0,5" not in opts


def test_a_quest_scores_in_the_end_phase_when_its_condition_holds():
    """WD-43, WD-75 (L461, L748-752) and WD-97 (L1142-1174): standing on a challenge controls it."""
    ovs = [{"kind": "challenge", "hex": "2,2", "face_up": True, "what": "cup", "owner": 0}]
    s = ov([(0, "aldous-wren", "2,2", {}), (1, "cassius-vane", "3,6", {})], overlays=ovs)
    s["players"][0]["active"] = ["hold-the-line", "two-fronts"]
    s = end_activations(s)
    p = s["players"][0]
    assert p["qp"] == 1 and p["scored"] == ["hold-the-line"] and p["active"] == ["two-fronts"]


def test_a_hidden_challenge_counts_for_nothing():
    """WD-86 and ruling A-49."""
    ovs = [{"kind": "challenge", "hex": "2,2", "face_up": False, "what": "cup", "owner": 0}]
    s = ov([(0, "aldous-wren", "2,2", {}), (1, "cassius-vane", "3,6", {})], overlays=ovs)
    assert not rules.condition_holds(s, 0, {"challenges": 1})


def test_a_lightning_quest_scores_the_moment_its_condition_holds():
    """WD-44 (L452, L465), ruling A-61."""
    s = ov(
        [(0, "mira-quillfeather", "2,1", {}), (1, "cassius-vane", "2,3", {})],
        spellbooks={0: ["spark-volley"]},
        active="0a",
    )
    s["players"][0]["active"] = ["first-blood", "onslaught"]
    s = act(s, 0, {"type": "cast", "spell": "spark-volley", "target": "1a"})
    s = deal(deal(s, ["c14-overflow"]), ["c19-fumble"])
    assert s["models"]["1a"]["impacts"] == 2
    assert s["players"][0]["qp"] == 1 and s["players"][0]["scored"] == ["first-blood"]  # before the clash even ends
    assert s["clash"] is not None


def test_active_quests_are_refilled_to_three_at_the_start_of_later_rounds():
    """WD-45 (L473), ruling A-04."""
    s = ov([(0, "aldous-wren", "2,1", {}), (1, "cassius-vane", "3,6", {})])
    s["players"][0]["active"] = ["iron-grip"]
    s["players"][0]["quest_deck"] = ["siege", "onslaught", "spellstorm"]
    s = end_activations(s)
    spec = E.chance(s)
    assert spec["label"] == "seat 0 quest draw" and spec["count"] == 2 and spec["visible_to"] == "all"


def test_the_quest_discard_is_reshuffled_when_the_deck_runs_out():
    """WD-46 (L475), ruling A-62."""
    s = ov([(0, "aldous-wren", "2,1", {}), (1, "cassius-vane", "3,6", {})], active="0a")
    s["players"][0]["active"] = ["iron-grip"]
    s["players"][0]["quest_discard"] = ["siege"]
    s = act(s, 0, {"type": "draw_quest", "discard": "iron-grip"})
    assert E.chance(s)["pool"] == 2 and s["players"][0]["quest_discard"] == []


def test_losing_the_last_model_ends_the_game_after_one_end_phase_and_quest_points_still_decide():
    """WD-94 (L916), rulings A-42/A-43; a derived test of spec section 3."""
    s = build(
        models=[(0, "ron-weasley", "0,2", {}), (1, "death-eater-ii", "0,3", {"impacts": 4})],
        artifacts={"0a": ["sword-of-gryffindor"]},
        active="0a",
    )
    s["players"][1]["qp"] = 3
    s = act(
        s, 0, {"type": "attack", "attack": "sword-of-gryffindor", "target": "1a", "artifact": "sword-of-gryffindor"}
    )
    s = decline(deal(deal(s, ["ex-plus3-2"]), ["ex-plus1-4"]))
    assert s["game_over"] and s["models"]["1a"]["removed"]
    assert E.legal_actions(s, 0) == [{"type": "end"}]
    s = act(s, 0, {"type": "end"})
    assert E.to_move(s) == [] and E.result(s)["winners"] == [1]
