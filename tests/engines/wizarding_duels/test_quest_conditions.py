"""The quest conditions (scored at the round's end and, for lightning quests, after every event)
read the models once per seat (``rules._QuestLook``, issue 17 P1) instead of through the state's
helpers per model, each compiled once per quest (``rules.quest_test``). On random playouts of both
rules versions, at every state, every quest of the pack holds for a seat exactly when the helpers'
reading says it does, both through ``condition_holds`` and through the compiled test; and the
lightning check after each event scores what ``score_quests`` scores for the two seats."""

import copy
from collections import Counter

import pytest

from engines.wizarding_duels import content, geometry, rules
from engines.wizarding_duels.state import board, controls, hex_of, in_zone, on_board, terrain

from .playouts import group_with, random_playout


def read_by_helpers(s, seat, cond):
    """The condition read model by model through the state's helpers, in uid order."""
    if "all" in cond:
        return all(read_by_helpers(s, seat, c) for c in cond["all"])
    if "any" in cond:
        return any(read_by_helpers(s, seat, c) for c in cond["any"])
    mine, foe, st = on_board(s, seat), 1 - seat, s["stats"]
    checks = []
    if "challenges" in cond:
        held = [m for m in mine if controls(s, m, "challenge")]
        zone = {"enemy": foe, "own": seat}.get(cond.get("zone"))
        held = [m for m in held if zone is None or in_zone(s, m, zone)]
        checks.append(len(held) >= cond["challenges"])
    if "challenge_kinds" in cond:
        kinds = {controls(s, m, "challenge")["what"] for m in mine if controls(s, m, "challenge")}
        checks.append(len(kinds & set(cond["challenge_kinds"])) >= cond.get("min", 1))
    if "leader" in cond:
        lead = next((m for m in mine if m["leader"]), None)
        if lead is None:
            checks.append(False)
        elif cond["leader"] == "enemy_zone":
            checks.append(in_zone(s, lead, foe))
        elif cond["leader"] == "challenge":
            checks.append(controls(s, lead, "challenge") is not None)
    if "arrival_spaces" in cond:
        arr = {geometry.key(h) for h in board(s).arrival[s["zone_half"][foe]]}
        checks.append(sum(1 for m in mine if m["hex"] in arr) >= cond["arrival_spaces"])
    if "models_in_enemy_zone" in cond:
        checks.append(sum(1 for m in mine if in_zone(s, m, foe)) >= cond["models_in_enemy_zone"])
    if "models_alive" in cond:
        checks.append(len(mine) >= cond["models_alive"])
    if "terrain" in cond:
        checks.append(sum(1 for m in mine if terrain(s, hex_of(m)) not in ("open", None)) >= cond["terrain"])
    for key, counter in (
        ("impacts_made", "impacts"),
        ("removed_this_round", "removed"),
        ("spells_cast", "spells"),
        ("potions_used", "potions"),
    ):
        if key in cond:
            checks.append(st[counter][seat] >= cond[key])
    return all(checks)


def lightning_by_score_quests(s):
    """What ``check_lightning`` does, the way it did it before issue 17's compiled tests."""
    if s["phase"] not in ("start", "activation", "end") or s.get("stats") is None:
        return
    first = s["act"] and s["models"][s["act"]["model"]]["seat"]
    first = first if isinstance(first, int) else (s["starting"] or 0)
    for seat in (first, 1 - first):
        rules.score_quests(s, seat, lightning_only=True)


def play_and_compare(version, seed, config, seen):
    quests = None
    for _engine, s, _seat, _rng in random_playout(version, seed, config):
        quests = quests or content.load(s["pack"]).quests
        if s.get("stats") is not None and s.get("map") and s["phase"] != "over":
            for seat in (0, 1):
                for q, card in sorted(quests.items()):
                    holds = rules.condition_holds(s, seat, card["condition"])
                    assert holds == read_by_helpers(s, seat, card["condition"]), (q, seat)
                    assert rules.quest_test(s["pack"], q)(s, seat, rules._QuestLook(s, seat)) == holds, (q, seat)
                    if not rules._reads_look(card["condition"]):
                        # The lightning check gives such a test no look at all.
                        assert rules.quest_test(s["pack"], q)(s, seat, None) == holds, (q, seat)
                    seen[q, holds] += 1
        # Every quest active as a lightning one (a state the playouts rarely reach) and as dealt.
        for lightning in (False, True):
            a = copy.deepcopy(s)
            if lightning:
                for p in a["players"]:
                    p["active"] = sorted(rules._lightning_quests(a["pack"]), reverse=p is a["players"][0])
            b = copy.deepcopy(a)
            before = copy.deepcopy(a)
            rules.check_lightning(a)
            lightning_by_score_quests(b)
            assert a == b
            if lightning:
                seen["lightning scored", a["players"] != before["players"]] += 1


@pytest.mark.parametrize("version", ["1", "2"])
def test_every_quest_condition_reads_the_models_as_the_state_helpers_do(version):
    seen = Counter()
    for seed in range(3):
        play_and_compare(version, seed, {}, seen)
    play_and_compare(version, 100, {"groups": [group_with("ashen-regent"), group_with("tobias-fenwick")]}, seen)
    # The conditions on models were met both holding and not.
    for q in ("first-foothold", "crowned-victor", "hold-the-ground"):
        assert seen[q, True] > 0 and seen[q, False] > 0, (q, seen)
    assert seen["lightning scored", True] > 0 and seen["lightning scored", False] > 0, seen
