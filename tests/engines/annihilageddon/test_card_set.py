"""The original card set: it loads, validates, has the box's physical counts and uses every
mechanic the rulebook names (issue 11, deliverable 1)."""

import copy
import json

import pytest

from engines.annihilageddon import cards
from engines.annihilageddon.cards import CARDS, CardDataError, check_card, load


def programs(card):
    """Every program a card carries."""
    out = []
    for key in ("play", "end_of_turn", "group_attack", "on_gain", "start_of_turn", "on_kill", "on_destroy_owned"):
        if key in card:
            out.append(card[key])
    if "defense" in card:
        out.append(card["defense"].get("then", []))
    if "mayhem" in card:
        out.append(card["mayhem"]["do"])
    if "on_play" in card:
        out.append(card["on_play"]["do"])
    if "activated" in card:
        out.append(card["activated"]["do"])
    return out


def ops(prog):
    for op in prog:
        yield op
        for key in ("do", "then", "else"):
            if key in op:
                yield from ops(op[key])
        for opt in op.get("options", []):
            yield from ops(opt["do"])


def all_ops(card):
    return [op for prog in programs(card) for op in ops(prog)]


def test_the_whole_set_loads_and_validates():
    assert load() == CARDS


def test_the_set_has_the_physical_counts_of_the_box():
    """AN L61-80 and issue 11: 50 starters (30 Glyph, 5 Wand, 15 Fizzle), 124 main-deck cards
    with 20 Mayhems, 16 Wild Magic, 16 Limp Wands, 12 Legends, 12 Familiars, 20 DWTs, 8 tiles,
    the Trophy and a second standee."""
    counts = {}
    for c in CARDS.values():
        counts[c["kind"]] = counts.get(c["kind"], 0) + c.get("copies", 1)
    assert counts == {
        "starter": 50,
        "main": 104,
        "mayhem": 20,
        "legend": 12,
        "familiar": 12,
        "wild_magic": 16,
        "limp_wand": 16,
        "dwt": 20,
        "tile": 8,
        "standee": 2,
    }
    assert (CARDS["glyph"]["copies"], CARDS["wand"]["copies"], CARDS["fizzle"]["copies"]) == (30, 5, 15)
    main_types = {c["type"] for c in CARDS.values() if c["kind"] == "main"}
    assert main_types == {"Wizard", "Creature", "Spell", "Treasure", "Location"}  # AN L106


def test_legends_cost_8_to_12_and_one_is_the_fixed_first_legend():
    """AN L121, L231."""
    legends = [c for c in CARDS.values() if c["kind"] == "legend"]
    assert all(8 <= c["cost"] <= 12 for c in legends)
    assert [c["id"] for c in legends if c.get("letter") == "first"] == ["grandpa-gutsmash"]


def test_familiars_cost_6_name_a_wizard_and_all_but_one_redirect():
    """AN L88, L203, L221 (one Familiar's Defense does not redirect)."""
    fams = [c for c in CARDS.values() if c["kind"] == "familiar"]
    assert all(c["cost"] == 6 and c["wizard"] for c in fams)
    assert sum(1 for c in fams if not c["defense"]["redirect"]) == 1


@pytest.mark.parametrize(
    "breakage, message",
    [
        (lambda c: c.update(play=[{"op": "teleport"}]), "unknown op"),
        (lambda c: c.update(play=[{"op": "damage", "who": "everyone", "n": 1}]), "unknown selector"),
        (lambda c: c.update(play=[{"op": "damage", "who": "it"}]), "needs"),
        (lambda c: c.update(kind="gadget"), "unknown kind"),
        (lambda c: c.update(vp="lots"), "VP"),
        (
            lambda c: c.update(
                play=[{"op": "attack", "who": "each_foe", "do": [{"op": "attack", "who": "it", "do": []}]}]
            ),
            "another Attack",
        ),
    ],
)
def test_a_broken_card_is_refused_with_a_sentence_naming_it(breakage, message):
    card = copy.deepcopy(CARDS["snot-rocket"])
    breakage(card)
    with pytest.raises(CardDataError, match=message) as err:
        check_card(card)
    assert "snot-rocket" in str(err.value)


def test_a_set_with_the_wrong_count_is_refused(tmp_path):
    for name in cards.FILES:
        (tmp_path / f"{name}.json").write_text((cards.CARD_DIR / f"{name}.json").read_text())
    data = json.loads((tmp_path / "main.json").read_text())
    data[0]["copies"] += 1
    (tmp_path / "main.json").write_text(json.dumps(data))
    with pytest.raises(CardDataError, match="105 main cards, the box has 104"):
        load(tmp_path)


def cards_where(pred):
    return sorted(cid for cid, c in CARDS.items() if pred(c))


def uses_op(name, **fields):
    return lambda c: any(op["op"] == name and all(op.get(k) == v for k, v in fields.items()) for op in all_ops(c))


def has_selector(sel):
    return lambda c: any(
        op.get("who") == sel
        or op.get("count_sel") == sel
        or (isinstance(op.get("cond"), dict) and sel in json.dumps(op["cond"]))
        for op in all_ops(c)
    )


# Each mechanic the rulebook (and issue 11) names, and the test that finds a card using it.
MECHANICS = {
    "Attack (AN L209)": uses_op("attack"),
    "Defense (AN L209)": lambda c: "defense" in c,
    "Unavoidable Attack (AN L209)": uses_op("attack", unavoidable=True),
    "Ongoing (AN L245-251)": lambda c: c["kind"] == "main" and "ongoing" in c["icons"],
    "Ongoing start-of-turn trigger (AN L249)": lambda c: "ongoing" in c["icons"] and "start_of_turn" in c,
    "Ongoing on-play trigger (AN L249, L282)": lambda c: "ongoing" in c["icons"] and "on_play" in c,
    "Mayhem Attack (AN L320)": lambda c: c["kind"] == "mayhem" and c["mayhem"]["attack"],
    "Mayhem non-Attack (AN L320)": lambda c: c["kind"] == "mayhem" and not c["mayhem"]["attack"],
    "interactive Attack, passing (AN L209, L320)": uses_op("attack", interactive=True),
    "destroy (AN L259-263)": uses_op("destroy"),
    "destroy from the Line-Up (AN L259)": uses_op("destroy", **{"from": "lineup"}),
    "destroy the top of a deck (AN L273-275)": uses_op("destroy", **{"from": "deck_top"}),
    "gain a Limp Wand (AN L308-310)": uses_op("gain", **{"from": "limp_wand"}),
    "gain the top of the main deck (AN L269, L326)": uses_op("gain", **{"from": "main_top"}),
    "gain a card of a given cost from the Line-Up (AN L265-267)": uses_op("gain", **{"from": "lineup"}),
    "heal, up to 25 (AN L352)": uses_op("heal"),
    "healing doubled (AN L376)": lambda c: c.get("static", {}).get("heal_multiplier") == 2,
    "target foe (AN L211, L354)": has_selector("target_foe"),
    "target player (AN L354, L406)": has_selector("target_player"),
    "weaker (AN L215)": has_selector("weaker_foes"),
    "weakest (AN L213)": has_selector("weakest_foe"),
    "stronger (AN L215)": has_selector("stronger_foes"),
    "strongest (AN L213)": has_selector("strongest_foe"),
    "player(s) ties (AN L219)": has_selector("strongest_players"),
    "left (AN L217)": has_selector("left"),
    "right (AN L217)": has_selector("right"),
    "left and right (AN L217)": has_selector("left_and_right"),
    "VP formula (AN L193)": lambda c: isinstance(c.get("vp"), dict) and "per" in c["vp"],
    "set VP, one copy worth 0 (AN L360)": lambda c: isinstance(c.get("vp"), dict) and "set" in c["vp"],
    "Familiar redirect (AN L221-227)": lambda c: c["kind"] == "familiar" and c["defense"]["redirect"],
    "non-redirecting Familiar (AN L221)": lambda c: c["kind"] == "familiar" and not c["defense"]["redirect"],
    "decline to participate (AN L324)": lambda c: c.get("static", {}).get("may_decline_mayhem"),
    "pay HP (AN L390, L420)": lambda c: "activated" in c and c["activated"]["pay_hp"] > 0,
    "Wild Magic plays a foe's top card (AN L292-302)": uses_op("play_top"),
    "DWT respawn HP (AN L336)": lambda c: "respawn_hp" in c,
    "DWT damage to the killer (AN L416)": has_selector("killer"),
    "DWT extra Wand damage (AN L412)": lambda c: "wand_extra" in c.get("static", {}),
    "DWT: no Defense against Mayhems (AN L366)": lambda c: "no_mayhem_defense" in c.get("static", {}),
    "counts as a Dead Wizard Token (AN L374, L380)": lambda c: "counts_as_dwt" in c.get("static", {}),
    "DWT swap (AN L398)": uses_op("swap_dwt"),
    "must put into hand (AN L356)": uses_op("search_top"),
    "reveal 5 across a reshuffle (AN L386)": uses_op("reveal_sort"),
    "cost 5 or more test (AN L368)": lambda c: "cost5" in json.dumps(c),
    "damage per card in a discard pile (AN L225, L400)": lambda c: '"count": "discard"' in json.dumps(c),
    "output scales with Ongoing you control (AN L378)": lambda c: "ongoing_count" in json.dumps(c),
    "end-of-turn text (AN L384)": lambda c: c["kind"] == "main" and "end_of_turn" in c,
    "Legend Group Attack (AN L233)": lambda c: c["kind"] == "legend" and "group_attack" in c,
    "standee triggered by destroying your cards (AN L358)": lambda c: (
        c["kind"] == "standee" and "on_destroy_owned" in c
    ),
    "a card grants the standee (AN L358)": uses_op("grant_standee"),
    "2+ different Wizards/Creatures (AN L422)": lambda c: "played_distinct" in json.dumps(c),
    "a foe plays a Mayhem through a card (AN L346)": uses_op("play_mayhem"),
    "pass one card to two neighbours (AN L388)": uses_op("pass", dir="both"),
    "pay HP again and again (AN L390)": uses_op("pay_repeat"),
    "your own Attacks target you (AN L392)": uses_op("grant", static="self_target"),
    "tokens back into the stack (AN L394)": uses_op("return_dwt"),
    "deny a foe the good effect (AN L396)": uses_op("attack", deny=True),
    "discard a token (AN L402)": uses_op("discard", or_token=True),
    "hidden pick shown after Defense (AN L408)": uses_op("give"),
    "choose one of two tokens for a kill (AN L370)": uses_op("damage", fatality=True),
    "a Legend's Group Attack against yourself (AN L414)": uses_op("legend_attack_self"),
    "end-of-game VP modifier token (AN L338)": lambda c: c["kind"] == "dwt" and c["vp"] < -3,
    "Ongoing token (AN L338)": lambda c: c["kind"] == "dwt" and "ongoing" in c["icons"],
    "return an Ongoing card to its owner's discard (AN L247)": uses_op("return_ongoing"),
}


@pytest.mark.parametrize("mechanic", sorted(MECHANICS))
def test_every_mechanic_the_rulebook_names_is_used_by_some_card(mechanic):
    assert cards_where(MECHANICS[mechanic]), f"no card uses {mechanic}"


def test_texts_are_our_own_and_not_obscene():
    words = ("fuck", "shit", "boner", "anus", "bitch")
    for c in CARDS.values():
        assert not any(w in c["text"].lower() for w in words), c["id"]
