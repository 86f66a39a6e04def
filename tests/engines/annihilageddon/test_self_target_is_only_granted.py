"""The mirror Mayhem's ``self_target`` is only ever granted for a turn (``temp``), never set by a
card's static text, so apply_in_place's play of an Attack and ``interp.targets`` ask ``static``
for it only when ``temp`` holds a grant (issue 17, P1: a call per Attack). At states of random
playouts of every version, with every card that has a text of its own controlled by each seat
and with the grant given to each seat, that shortcut must answer what ``static`` answers."""

import pytest

from engines import registry
from engines.annihilageddon.interp import STATIC_ZONES, static

from ..test_conformance import playout
from .test_static import _variants


def test_no_card_text_sets_self_target():
    assert "self_target" not in STATIC_ZONES


@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_self_target_asked_only_with_a_grant_answers_what_static_answers(version):
    engine = registry.get("annihilageddon", version)
    seats = 3
    states, _ = playout(engine, seats, f"an-self-target:{version}", bound=600, prefix=True)
    granted = 0
    for st in states[::15]:
        variants = list(_variants(st, seats))
        for seat in range(seats):
            mirrored = {**st, "temp": {**st["temp"], str(seat): {"self_target": True}}}
            variants.append(mirrored)
        for v in variants:
            for seat in range(seats):
                full = static(v, seat, "self_target")
                granted += bool(full)
                assert bool(v["temp"] and static(v, seat, "self_target")) == bool(full), seat
    assert granted > 40
