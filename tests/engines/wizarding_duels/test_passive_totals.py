"""An artifact's passive bonuses (a move's points, a defence, a cast) are summed by
``rules._passive_total`` straight from the artifacts, without listing the effects first (issue 17,
P1). Along random playouts of both rules versions, for every model and every passive effect the
pack names, at every state, it is the sum over the list of the unlocked artifacts' effects."""

import copy
from collections import Counter

import pytest

from engines.wizarding_duels import rules
from engines.wizarding_duels.state import pack

from .playouts import states_of_varied_games


def listed_total(s, m, op):
    effects = []
    for a in m["artifacts"]:
        if not a["locked"]:
            effects += pack(s).artifacts[a["id"]]["passive"]
    return sum(e["n"] for e in effects if e["op"] == op)


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_models_passive_total_is_the_sum_over_its_unlocked_artifacts_listed_effects(version):
    seen = Counter()
    for seed, s in states_of_varied_games(version):
        ops = {e["op"] for a in pack(s).artifacts.values() for e in a["passive"]}
        models = list(s["models"].values())
        for m in list(models):
            if m["artifacts"] and not m["artifacts"][0]["locked"]:
                # The same model with its first artifact locked (few playouts lock one).
                locked = copy.deepcopy(m)
                locked["artifacts"][0]["locked"] = True
                models.append(locked)
        for m in models:
            for op in sorted(ops):
                want = listed_total(s, m, op)
                assert rules._passive_total(s, m, op) == want, (seed, m["uid"], op)
                seen[op, want > 0, any(a["locked"] for a in m["artifacts"])] += 1
    # Some models carried a bonus, with and without a locked artifact.
    assert any(v for (op, bonus, locked), v in seen.items() if bonus and not locked), seen
    assert any(v for (op, bonus, locked), v in seen.items() if bonus and locked), seen
