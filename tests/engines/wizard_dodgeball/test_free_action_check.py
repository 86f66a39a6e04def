"""settle asks after most events whether a wizard out of actions may still drop or pick up a
ball (a free action). It now looks only at the neighbouring squares (issue 17, P1): over random
playouts of both versions it must answer as the occupancy-based check did, for every wizard on
the court, with and without a ball."""

import pytest

from engines import registry
from engines.wizard_dodgeball.rules import free_action_available
from engines.wizard_dodgeball.state import court_of, effect_faces, occupancy

from ..test_conformance import playout


def _by_occupancy(state, w):
    # The check as it was: the whole court's occupancy, then the neighbours.
    occ = occupancy(state)
    c = court_of(state)
    here = (w["sq"][0], w["sq"][1])
    faces = effect_faces(state, w["j"])
    if w["ball"] is not None:
        if "sticky_fingers" in faces:
            return False
        return any(n not in occ for n in c.neighbours(here))
    if "butter_fingers" in faces:
        return False
    return any(occ.get(n, ("w",))[0] == "b" for n in c.neighbours(here))


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_free_action_check_answers_as_the_occupancy_check_did(version):
    engine = registry.get("wizard-dodgeball", version)
    states, _ = playout(engine, 2, f"wd-free-action:{version}", bound=3000, prefix=True)
    answers = {True: 0, False: 0}
    holding = 0
    for state in states:
        for w in state["wizards"]:
            if w["out"]:
                continue
            want = _by_occupancy(state, w)
            assert free_action_available(state, w) == want, (w, state["balls"])
            answers[want] += 1
            holding += w["ball"] is not None
    assert answers[True] > 1000 and answers[False] > 1000 and holding > 1000


@pytest.mark.parametrize("free", [0, 1, 2, 3])
def test_a_wizard_holding_a_ball_in_a_corner_may_drop_it_only_with_a_neighbouring_square_free(free):
    # Random playouts never hem a ball carrier in on every side: the corner (1, 1) has three
    # neighbours, filled here by two wizards and a loose ball, then opened one by one.
    engine = registry.get("wizard-dodgeball")
    state = engine.setup(engine.validate_config({}, 2), 2)
    carrier, *others = state["wizards"][:3]
    carrier["sq"], carrier["ball"] = [1, 1], 1
    state["balls"][0].update(sq=None, holder=carrier["j"])
    fillers = [others[0], others[1], state["balls"][1]]
    for thing, square in zip(fillers[free:], ([2, 1], [1, 2], [2, 2])[free:], strict=True):
        thing["sq"] = square
    assert free_action_available(state, carrier) is (free > 0)
    assert _by_occupancy(state, carrier) is (free > 0)
