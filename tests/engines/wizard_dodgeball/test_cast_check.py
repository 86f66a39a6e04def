"""A cast's targets are checked one by one (spells._Targetable, issue 17, P1) instead of being
looked up among every candidate on the court (``candidate_targets``). Over random playouts of both
versions and 2 and 4 seats, every cast the list offers, its near misses and casts legal in other
states must get the same answer both ways: the same card and targets, or the same refusal
(code and sentence)."""

import json
import random

import pytest

from engines import registry
from engines.base import IllegalAction
from engines.wizard_dodgeball import spells
from engines.wizard_dodgeball.state import wizard

from ..near_misses import near_misses
from ..test_conformance import playout


class _Listed(spells._Targetable):
    """The check as it was: a target is allowed when ``candidate_targets`` lists it."""

    def square(self, ref):
        listed = {spells._ref_key(r): s for s, r in spells.candidate_targets(self.state, self.caster, self.face_id)}
        return listed.get(spells._ref_key(ref))


def _answer(state, caster, action):
    try:
        return ("ok", spells.check_cast(state, caster, action))
    except IllegalAction as exc:
        return ("refused", exc.code, exc.message)


def _extra_targets(action):
    """Casts with a target added, swapped in turn or repeated: areas the near misses never build."""
    targets = action["targets"]
    out = [dict(action, targets=list(reversed(targets))), dict(action, targets=targets + targets[:1])]
    for kind in ("wizard", "ball", "effect"):
        for n in (1, 2, 5, 10, 12, 21, 25, 30, 36, 41, 45, 47, 58):
            out.append(dict(action, targets=targets + [{kind: n}]))
            out.append(dict(action, targets=[{kind: n}]))
    return out


@pytest.mark.parametrize("version,seats", [("1", 2), ("2", 2), ("2", 4)])
def test_the_direct_target_check_answers_as_the_candidate_list_did(version, seats, monkeypatch):
    engine = registry.get("wizard-dodgeball", version)
    states, _ = playout(engine, seats, f"wd-cast-check:{version}:{seats}", bound=1500, prefix=True)
    rng = random.Random(f"wd-cast-check:{version}:{seats}")
    seen: list[dict] = []
    compared = {"ok": 0, "refused": 0}
    codes = set()
    for state in states[::8]:
        if state["winner"] is not None or state["queue"] or state["turn"] is None:
            continue
        caster = wizard(state, state["turn"]["wizard"])
        legal = spells.enumerate_casts(state, caster)
        candidates = list(legal)
        for action in legal[:6]:
            candidates += near_misses(action)
            candidates += _extra_targets(action)
        candidates += rng.sample(seen, min(30, len(seen)))
        seen += legal[:5]
        before = json.dumps(state, sort_keys=True)
        for action in candidates:
            got = _answer(state, caster, action)
            with monkeypatch.context() as m:
                m.setattr(spells, "_Targetable", _Listed)
                want = _answer(state, caster, action)
            assert got == want, (action, state["effects"])
            compared[got[0]] += 1
            if got[0] == "refused":
                codes.add(got[1])
        assert json.dumps(state, sort_keys=True) == before
    assert compared["ok"] > 1000 and compared["refused"] > 10000, compared
    # the target rules themselves were reached, not only the checks before them
    target_rules = {"already_affected", "bad_target", "bad_target_area", "no_line_of_sight", "no_such_target"}
    target_rules |= {"not_held_by_team", "shielded_teammate", "target_in_neutral_area"}
    assert target_rules <= codes, target_rules - codes
