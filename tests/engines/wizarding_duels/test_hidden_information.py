"""Hidden information (spec section 4.1): views, resampling, redaction and log lines leak nothing."""

import random

from engines.wizarding_duels import rules
from engines.wizarding_duels.scenario import act, build, deal

from .helpers import E, playout


def sampled_states(seed, every=7):
    out = []

    def visit(before, event, after):
        if len(out) < 400 and (
            len(out) % every == 0 or before["queue"][0]["step"] in ("build", "stock", "mulligan", "swap")
        ):
            out.append((before, event, after))
        elif len(out) < 400:
            out.append(None)

    playout(seed, visit=visit)
    return [x for x in out if x]


def test_resampling_really_redraws_what_is_hidden():
    rng = random.Random(3)
    changed = False
    for before, _, _ in sampled_states(4):
        if before["phase"] == "activation" and before["players"][1]["hand"]:
            twin = E.resample_hidden(before, 0, rng)
            changed |= twin["players"][1]["hand"] != before["players"][1]["hand"]
            assert twin["players"][0]["hand"] == before["players"][0]["hand"]
    assert changed


def test_log_lines_depend_only_on_what_spectators_may_see_of_an_action():
    for seed in (6,):
        for before, event, after in sampled_states(seed, every=1):
            if event["kind"] != "action":
                continue
            seat, action = event["seat"], event["action"]
            red = E.redact_action(seat, action, None)
            if red == action:
                continue
            line = E.describe(before, event, after)
            for other in E.legal_actions(before, seat)[:6]:
                if E.redact_action(seat, other, None) == red:
                    ev2 = {"kind": "action", "seat": seat, "action": other}
                    assert E.describe(before, ev2, E.apply(before, ev2)) == line


def test_a_secret_group_is_hidden_until_both_are_in():
    """G1/G2 (L1454-1490): simultaneous secret submission; redacted for the other seat and spectators."""
    s = E.setup({}, 2)
    g = E.legal_actions(s, 0)[0]
    s = E.apply(s, {"kind": "action", "seat": 0, "action": g})
    assert E.to_move(s) == [1]
    assert E.redact_action(0, g, 1) == {"type": "group"} and E.redact_action(0, g, None) == {"type": "group"}
    v1 = E.view(s, 1)
    assert v1["queue"][0]["answers"] == {"0": True, "1": None}
    assert v1["models"] == {}
    assert E.view(s, 0)["queue"][0]["answers"]["0"] == g


def test_the_quest_deck_stays_hidden_from_the_opponent_after_the_groups_are_revealed():
    """L1494: the quest deck is placed face down; only its size is public."""

    def visit(before, event, after):
        if after["phase"] == "stock":
            v = E.view(after, 1)
            assert "quests" not in v["players"][0]["group"] and v["players"][0]["quest_deck"] == 9
            assert E.view(after, 0)["players"][0]["group"]["quests"]
            raise StopIteration

    try:
        playout(3, visit=visit)
    except StopIteration:
        pass


def test_a_face_down_swap_is_hidden_from_the_attacker_unless_the_attacker_has_duelling():
    """FC-6 (L820), ruling A-26 (swaps are face down) and Duelling (L1266-1271)."""
    for duelling, visible in ((False, False), (True, True)):
        traits = {"duelling": 1} if duelling else {}
        s = build(
            models=[
                (0, "lord-voldemort", "0,1", {"traits": dict({"master_wizard": 1}, **traits)}),
                (1, "hermione-granger", "0,4", {}),
            ],
            spellbooks={0: ["rictusempra"]},
            hands={0: ["ex-plus2-3"], 1: ["ex-plus3-2"]},
            active="0a",
        )
        s = act(s, 0, {"type": "cast", "spell": "rictusempra", "target": "1a"})
        s = deal(deal(s, ["ex-plus1-2"]), ["ex-plus1-3"])
        assert s["queue"][0]["step"] == "swap" and s["queue"][0]["seat"] == 1
        card = s["players"][1]["hand"][0]
        s = act(s, 1, {"type": "swap", "card": card})
        seen = E.view(s, 0)["clash"]["def"]["swap"]
        assert (seen == card) is visible
        assert E.view(s, 1)["clash"]["def"]["swap"] == card


def test_empowerment_cards_are_drawn_only_when_they_turn_face_up():
    """WD-58 (L1067): nobody sees an Empowerment card before FC-9; the draw happens then, in public."""
    s = build(
        models=[(0, "lord-voldemort", "0,1", {}), (1, "hermione-granger", "0,4", {})],
        spellbooks={0: ["rictusempra"]},
        pools={0: {"light": 2, "dark": 0}, 1: {"light": 1, "dark": 0}},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "rictusempra", "target": "1a"})
    s = act(s, 0, {"type": "pass"})  # FC-2: Voldemort does not declare Dark Lord
    assert s["queue"][0]["step"] == "empower" and s["queue"][0]["seat"] == 1  # FC-3: the defender first
    s = act(s, 1, {"type": "empower", "light": 1})  # the defender names the colours it pays (L1065)
    s = act(s, 0, {"type": "empower"})
    assert s["clash"]["att"]["emp"] == 1 and s["clash"]["def"]["emp"] == 1
    assert s["players"][0]["pool"]["light"] == 1 and s["players"][1]["pool"]["light"] == 0
    s = deal(deal(s, ["ex-plus1-2"]), ["ex-plus1-3"])
    spec = E.chance(s)
    assert spec["visible_to"] == "all" and "emp" in spec["label"]
    s = deal(s, ["ex-plus3-2"])
    s = deal(s, ["ex-plus2-2"])
    lc = s["last_clash"]
    assert lc["att"]["total"] == 1 + 2 + 3 + 1 + 1 and lc["def"]["total"] == 1 + 3 + 2


def test_face_down_terrain_types_are_hidden_from_the_other_seat_until_the_unveil():
    """WD-22 (L1529-1535, ruling A-30)."""
    seen = {}

    def visit(before, event, after):
        if event["kind"] == "action" and event["action"]["type"] == "place_terrain" and "hidden" not in seen:
            o = after["overlays"][-1]
            seen["hidden"] = E.view(after, 1 - event["seat"])["overlays"][-1]["what"]
            seen["own"] = E.view(after, event["seat"])["overlays"][-1]["what"]
            seen["real"] = o["what"]
            assert E.redact_action(event["seat"], event["action"], 1 - event["seat"])["terrain"] is None

    playout(11, visit=visit)
    assert seen["hidden"] is None and seen["own"] == seen["real"]


def test_the_initial_quest_hand_is_private_until_both_mulligans_are_in():
    """Ruling A-63; rulebook L503-507."""
    found = {}

    def visit(before, event, after):
        if after["queue"] and after["queue"][0]["step"] == "mulligan" and "v" not in found:
            found["v"] = E.view(after, 1)
            found["s"] = after

    playout(12, visit=visit)
    assert found["v"]["players"][0]["qhand"] == 3 and len(found["s"]["players"][0]["qhand"]) == 3
    spec_seen = [st for st in found["s"]["queue"] if st["step"] == "draw"]
    assert not spec_seen or all(st["vis"] == "all" for st in spec_seen)


def test_hand_draws_are_private_and_reveals_public():
    s = build(models=[(0, "ron-weasley", "0,1", {}), (1, "death-eater-i", "0,4", {})], active="0a")
    s = act(s, 0, {"type": "draw_clash"})
    assert E.chance(s)["visible_to"] == [0]
    assert rules.chance_spec(s)["pool"] == 20


def neutral_answers(seeds=range(40)):
    """(before, event, after) of every Neutral Cunning answer in random playouts, until a game has had
    one answer held while the other seat still chose."""
    found = []

    def visit(before, event, after):
        if event["kind"] == "action" and event["action"].get("type") == "neutral":
            found.append((before, event, after))

    for seed in seeds:
        playout(seed, visit=visit)
        if any(after["queue"][0]["step"] == "neutral" for _, _, after in found):
            return found
    raise AssertionError("no playout had both seats choosing Neutral Cunning")


def test_a_neutral_cunning_choice_is_hidden_until_both_are_in():
    """WD-27 (L1045), as RULES.md rules it: both seats choose in secret; neither the event nor its log
    line tells the first choice while the other seat still chooses."""
    held = 0
    for before, event, after in neutral_answers():
        seat, action = event["seat"], event["action"]
        if after["queue"][0]["step"] != "neutral":
            continue
        held += 1
        other = 1 - seat
        assert E.view(after, other)["queue"][0]["answers"][str(seat)] is True
        assert E.redact_action(seat, action, other) == {"type": "neutral"}
        assert E.redact_action(seat, action, None) == {"type": "neutral"}
        assert E.redact_action(seat, action, seat) == action
        lines = set()
        for choice in E.legal_actions(before, seat):
            ev = {"kind": "action", "seat": seat, "action": choice}
            lines.add(E.describe(before, ev, E.apply(before, ev)))
        assert lines == {f"Seat {seat} chooses how to take Neutral Cunning."}
    assert held


def test_both_neutral_cunning_choices_are_public_once_both_are_in():
    shown = 0
    for before, event, after in neutral_answers():
        if after["queue"][0]["step"] == "neutral":
            continue
        answers = {**before["queue"][0]["answers"], str(event["seat"]): event["action"]}
        for x, answer in answers.items():
            for viewer in (None, 0, 1):
                assert E.view(after, viewer)["players"][int(x)]["neutral_light"] == answer["light"]
        shown += 1
    assert shown


def test_version_three_plays_version_twos_states_and_only_its_neutral_log_line_differs():
    # Version 3 exists for the line alone (RULES.md "Versions"): version 2 keeps the line its
    # matches recorded, which the verifier compares, and every state and other line stay the same.
    from engines.wizarding_duels.engine import WizardingDuelsEngine

    v2 = WizardingDuelsEngine(version="2")
    differed = 0
    for before, event, after in neutral_answers() + sampled_states(6, every=1):
        assert v2.apply(before, event) == after
        line, old = E.describe(before, event, after), v2.describe(before, event, after)
        if event["kind"] == "action" and event["action"].get("type") == "neutral":
            assert old == f"Seat {event['seat']} takes {event['action']['light']} Neutral Cunning as white."
            assert line == f"Seat {event['seat']} chooses how to take Neutral Cunning."
            differed += 1
        else:
            assert line == old
    assert differed
