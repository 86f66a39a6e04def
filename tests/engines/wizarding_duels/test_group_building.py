"""Group building (rulebook A1-A3 and B, L1454-1494; spec WD-3..WD-18): every refusal has a code."""

import copy

import pytest

from engines.base import IllegalAction
from engines.wizarding_duels import groups
from engines.wizarding_duels.content import load

PK = load("original-v1")
QUESTS = [
    "hold-the-line",
    "two-fronts",
    "relic-hunter",
    "lead-from-the-front",
    "at-the-gates",
    "onslaught",
    "advance-together",
    "hold-the-ground",
    "alchemists-gambit",
]


def group(**kw):
    g = {
        "type": "group",
        "models": ["aldous-wren", "isolde-marrow", "tobias-fenwick"],
        "leader": 0,
        "artifacts": [[], [], []],
        "spellbook": ["ember-lash", "frost-bind"],
        "quests": list(QUESTS),
    }
    g.update(kw)
    return g


def refused(g, code, budget=50):
    with pytest.raises(IllegalAction) as err:
        groups.check_group(PK, g, budget)
    assert err.value.code == code
    assert err.value.message


def test_a_plain_group_is_accepted():
    """WD-2 (L289-293): models with their artifacts, a Spellbook and a Quest deck."""
    groups.check_group(PK, group(), 50)


def test_models_and_artifacts_must_fit_the_galleon_budget():
    """WD-3, L1466-1476: models plus artifacts within the budget (50 by default); spells and potions are free."""
    cost = sum(PK.characters[m]["galleons"] for m in group()["models"])
    groups.check_group(PK, group(), cost)
    refused(group(), "over_budget", budget=cost - 1)
    refused(group(artifacts=[["wardens-blade"], [], []]), "over_budget", budget=cost + 5)


def test_every_model_shares_one_affiliation():
    """WD-4, L379 and L1474."""
    refused(group(models=["aldous-wren", "cassius-vane"], artifacts=[[], []]), "mixed_affiliation")


def test_names_are_unique_except_for_horde():
    """WD-5 (L378, L1478) and Horde (WD-T15, L1307-1309)."""
    refused(group(models=["aldous-wren", "aldous-wren"], artifacts=[[], []]), "duplicate_name")
    groups.check_group(
        PK, group(models=["lanternhold-cadet"] * 3, artifacts=[[], [], []], spellbook=["ember-lash"]), 50
    )


def test_a_group_holds_one_to_six_models_and_names_a_leader():
    """WD-6 and WD-7, L1480; ruling A-66 (at least one model)."""
    refused(group(models=[], artifacts=[]), "group_size")
    refused(group(models=["lanternhold-cadet"] * 7, artifacts=[[]] * 7, spellbook=[]), "group_size", budget=99)
    refused(group(leader=3), "bad_leader")


def test_item_slots_legendary_and_hallow_limits():
    """WD-8 (L522), WD-10 (L535-537), WD-11 (L539-543) and Master of Death (WD-T24)."""
    refused(
        group(artifacts=[["runed-dagger", "ashwood-staff", "smoke-phial"], [], []]), "too_many_artifacts", budget=99
    )
    refused(group(artifacts=[["wardens-blade", "stormglass-orb"], [], []]), "two_legendaries", budget=99)
    malvern = ["lord-malvern", "cassius-vane"]
    g = group(models=malvern, artifacts=[["cloak-of-dusk", "returning-stone"], []], spellbook=[])
    refused(g, "two_legendaries", budget=99)  # two Hallows that are both Legendary: the Legendary cap still holds
    other = group(models=["cassius-vane", "veyra"], artifacts=[["cloak-of-dusk"], []], spellbook=[])
    groups.check_group(PK, other, 99)


def test_an_artifact_limited_to_named_models_goes_only_to_them():
    """WD-9, L529."""
    groups.check_group(PK, group(artifacts=[[], [], ["ember-the-owl"]]), 50)
    refused(group(artifacts=[["ember-the-owl"], [], []]), "artifact_restricted")


def test_a_horcrux_maker_takes_no_horcrux_artifact():
    """WD-T16, L1311-1328."""
    g = group(models=["ashen-regent", "cassius-vane"], artifacts=[["tarnished-locket"], []], spellbook=[])
    refused(g, "horcrux_maker_horcrux")


def test_patriarch_artifacts_cost_three_galleons_less():
    """WD-T27."""
    g = group(models=["lord-malvern"], artifacts=[["runed-dagger", "ashwood-staff"]], spellbook=[])
    groups.check_group(PK, g, 12)  # 10 + 2 + 3 - 3
    refused(g, "over_budget", budget=11)


def test_the_spellbook_size_and_no_duplicate_names():
    """WD-14 (L989-1006) and ruling A-56."""
    mastery = 3 + 2 + 1
    spells = sorted(s for s in PK.spells if s != PK.basic_spell_id)
    groups.check_group(PK, group(spellbook=spells[:mastery]), 50)
    refused(group(spellbook=spells[: mastery + 1]), "spellbook_too_big")
    refused(group(spellbook=["ember-lash", "ember-lash"]), "duplicate_spell")
    refused(group(spellbook=["basic-combat-spell"]), "unknown_spell")


def test_the_quest_deck_is_nine_cards_one_per_type_with_at_most_four_lightning():
    """WD-16, L477-501."""
    refused(group(quests=QUESTS[:8]), "quest_deck_size")
    refused(group(quests=QUESTS[:8] + ["hold-the-line"]), "quest_types")
    lightning = [
        "first-foothold",
        "two-fronts",
        "relic-hunter",
        "crowned-victor",
        "at-the-gates",
        "first-blood",
        "advance-together",
        "hold-the-ground",
        "spellstorm",
    ]
    refused(group(quests=lightning), "too_many_lightning")


def test_a_stock_is_six_level_zero_potions_with_one_higher_per_potioneer():
    """WD-17/18, L1126-1138 and Potioneer (L1388-1392)."""
    zero = "minor-salve"
    models = ["tobias-fenwick", "aldous-wren"]
    groups.check_stock(PK, models, {"type": "potions", "potions": [zero] * 5 + ["toxic-vial"]})
    with pytest.raises(IllegalAction):
        groups.check_stock(PK, models, {"type": "potions", "potions": [zero] * 5 + ["phoenix-tear"]})
    with pytest.raises(IllegalAction):
        groups.check_stock(PK, ["aldous-wren"], {"type": "potions", "potions": [zero] * 5 + ["firebomb"]})
    with pytest.raises(IllegalAction) as err:
        groups.check_stock(
            PK, models, {"type": "potions", "potions": ["minor-salve", "flash-powder"] * 3}, duplicates=False
        )
    groups.check_stock(PK, models, {"type": "potions", "potions": [zero] * 6})
    with pytest.raises(IllegalAction) as err:
        groups.check_stock(PK, models, {"type": "potions", "potions": [zero] * 6}, duplicates=False)
    assert err.value.code == "duplicate_potion"


def test_a_refused_group_leaves_the_match_state_untouched():
    from .helpers import E

    s = E.setup({}, 2)
    before = copy.deepcopy(s)
    with pytest.raises(IllegalAction) as err:
        E.apply(
            s,
            {"kind": "action", "seat": 0, "action": group(models=["aldous-wren", "cassius-vane"], artifacts=[[], []])},
        )
    assert err.value.code == "mixed_affiliation" and s == before


def test_malformed_artifact_lists_are_refused_with_a_code_not_an_error():
    """Every refusal has a code: an artifact that is not an id (an object, a list) is bad input."""
    refused(group(artifacts=[[{}], [], []]), "bad_group")
    refused(group(artifacts=[[["x"]], [], []]), "bad_group")
    refused(group(quests=[[]] * 9), "quest_deck_size")
