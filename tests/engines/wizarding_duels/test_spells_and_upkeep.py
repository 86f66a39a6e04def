"""The spell lifecycle: assignment, clocks, upkeep and disabling (rulebook L989-1114; WD-53..WD-63)."""

from engines.wizarding_duels import rules
from engines.wizarding_duels.scenario import E, act, build, deal, decline

from .helpers import front


def patronus(pool=None):
    s = build(
        models=[(0, "harry-potter", "0,0", {}), (0, "ron-weasley", "1,0", {}), (1, "death-eater-i", "0,6", {})],
        spellbooks={0: ["expecto-patronus"]},
        pools={0: pool or {"light": 4, "dark": 0}},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "expecto-patronus", "target": "0b"})
    s = act(s, 0, {"type": "pass"}) if front(s) == "empower" else s
    return decline(deal(s, ["ex-plus3-2"]))


def test_a_successful_upkeep_spell_takes_no_clock_and_its_effect_stays():
    """WD-54 step 6 and WD-60 (L1083-1095), ruling A-16: no payment at the cast."""
    s = patronus()
    p = s["players"][0]
    assert s["last_clash"]["success"] and "expecto-patronus" not in p["clocks"]
    assert p["upkeep"][0]["spell"] == "expecto-patronus" and not p["upkeep"][0]["paid"]
    assert s["models"]["0b"]["ward"] and p["pool"]["light"] == 4
    assert s["models"]["0a"]["spells"] == ["expecto-patronus"]
    assert not any(a.get("spell") == "expecto-patronus" for a in E.legal_actions(s, 0))


def test_at_the_start_phase_a_kept_spell_is_paid_once_and_a_dropped_one_is_disabled_with_its_clock():
    """WD-61/62 (L1097-1114), WD-68 (L591-595), ruling A-17."""
    s = patronus()
    keep = rules._upkeep_steps(s, [0], "start")
    assert keep == [{"step": "upkeep", "seat": 0, "spell": "expecto-patronus"}]
    s["queue"][0:0] = keep
    assert E.legal_actions(s, 0) == [{"type": "upkeep", "keep": True}, {"type": "upkeep", "keep": False}]
    kept = act(s, 0, {"type": "upkeep", "keep": True})
    assert kept["players"][0]["upkeep"][0]["markers"] == {"light": 2, "dark": 0}
    dropped = act(s, 0, {"type": "upkeep", "keep": False})
    p = dropped["players"][0]
    assert p["upkeep"] == [] and p["clocks"]["expecto-patronus"] == 2 and not dropped["models"]["0b"]["ward"]
    rules._h_cooldown(dropped, {})
    assert dropped["players"][0]["clocks"] == {"expecto-patronus": 1}


def test_a_spell_that_cannot_be_paid_must_be_dropped():
    """WD-62 (L1110-1114)."""
    s = patronus(pool={"light": 1, "dark": 0})
    s["queue"][0:0] = rules._upkeep_steps(s, [0], "start")
    assert E.legal_actions(s, 0) == [{"type": "upkeep", "keep": False}]
    rules.run(s)  # a window with a single option closes by itself
    assert s["players"][0]["upkeep"] == [] and s["players"][0]["clocks"]["expecto-patronus"] == 2


def test_a_spell_disabled_at_the_start_with_cooldown_one_is_free_again_after_the_same_1d():
    """Ruling A-17, a derived test of spec section 3."""
    s = build(models=[(0, "harry-potter", "0,0", {"spells": ["apparition"]}), (1, "death-eater-i", "0,6", {})])
    s["players"][0]["upkeep"] = [
        {"spell": "apparition", "caster": "0a", "target": "0a", "markers": {"light": 0, "dark": 0}, "paid": False}
    ]
    rules.disable_upkeep(s, 0, "apparition")
    assert s["players"][0]["clocks"] == {"apparition": 1}
    rules._h_cooldown(s, {})
    assert "apparition" in s["players"][0]["spellbook"] and s["models"]["0a"]["spells"] == []


def test_a_removed_caster_disables_its_upkept_spells_and_returns_its_spells_with_clocks():
    """WD-63 (L912-914, L1114) and WD-94."""
    s = patronus()
    s["players"][0]["upkeep"][0]["markers"] = {"light": 2, "dark": 0}
    s["players"][0]["upkeep"][0]["paid"] = True
    s["models"]["0a"]["impacts"] = 4
    s["queue"].insert(0, {"step": "hit", "model": "0a", "n": 1, "by": 1, "resist": False})
    rules.run(s)
    p = s["players"][0]
    assert s["models"]["0a"]["removed"] and p["upkeep"] == [] and p["spent"]["light"] >= 2
    assert p["clocks"]["expecto-patronus"] == 2 and "expecto-patronus" in p["spellbook"]
    assert not s["models"]["0b"]["ward"]


def test_a_failed_cast_still_takes_its_clock():
    """WD-59 (L601-605): success or failure, the clock goes on."""
    s = build(
        models=[(0, "harry-potter", "0,0", {}), (1, "death-eater-i", "0,6", {})],
        spellbooks={0: ["protego-maxima"]},
        active="0a",
    )
    s = act(s, 0, {"type": "cast", "spell": "protego-maxima", "target": "0a"})
    s = deal(s, ["ex-plus1-2"])
    assert not s["last_clash"]["success"] and s["players"][0]["clocks"]["protego-maxima"] == 2


def test_an_upkeep_checkpoint_comes_before_a_power_refill():
    """WD-61 (L1097-1108) and FC-14: the unpaid upkeep is asked before the pool refills."""
    s = patronus(pool={"light": 2, "dark": 0})
    s["players"][0]["refill_due"] = True
    s["players"][0]["spent"] = {"light": 3, "dark": 0}
    s["queue"].insert(0, {"step": "power_refills"})
    rules.run(s)
    assert front(s) == "upkeep"
    s = act(s, 0, {"type": "upkeep", "keep": True})
    assert s["players"][0]["pool"]["light"] == 3 and s["players"][0]["upkeep"][0]["markers"]["light"] == 2
