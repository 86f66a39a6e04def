"""A cast reads what it needs of the caster's effects in one pass (spells.caster_reads, issue 17,
P1) where ``has_effect`` (Freeze), ``area_size`` and ``spell_range`` each made a pass of their own.
Along random playouts of both versions, with 2 and 4 seats, for every wizard on the court as the
caster and every spell face, the one pass must give the three answers."""

import pytest

from engines import registry
from engines.wizard_dodgeball import spells
from engines.wizard_dodgeball.state import court_of, has_effect, spell_range, stats

from ..test_conformance import playout


@pytest.mark.parametrize("version,seats", [("1", 2), ("2", 2), ("2", 4)])
def test_one_pass_gives_freeze_the_area_and_the_range(version, seats):
    engine = registry.get("wizard-dodgeball", version)
    states, _ = playout(engine, seats, f"wd-caster-reads:{version}:{seats}", bound=3000, prefix=True)
    met = {"frozen": 0, "markers_bound": 0, "range_changed": 0, "dispel": 0}
    for state in states[::3]:
        for caster in state["wizards"]:
            if caster["out"]:
                continue
            for face_id in spells.faces():
                want = (
                    has_effect(state, caster["j"], "freeze"),
                    spells.area_size(state, caster, face_id),
                    spell_range(state, caster["j"]),
                )
                assert spells.caster_reads(state, caster, face_id) == want, (caster, face_id, state["effects"])
                met["frozen"] += want[0]
                met["markers_bound"] += want[1] < stats(caster["j"])["magic"] and face_id != "dispel"
                met["range_changed"] += want[2] != court_of(state).length
                met["dispel"] += face_id == "dispel"
    # each effect the pass reads was met, not only its absence
    assert all(met.values()), met
