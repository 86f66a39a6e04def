"""The in-place fold stores no list or dict of an event (so it no longer copies each action,
issue 17, P1): checked after every event of random playouts of 2 to 4 seats."""

import pytest

from engines import registry

from ..near_misses import assert_fold_keeps_no_event_container
from ..test_conformance import playout


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_in_place_fold_keeps_no_container_of_an_event(seats):
    engine = registry.get("spellcaster")
    _, events = playout(engine, seats, f"sc-no-event-container:{seats}", bound=1500, prefix=True)
    assert_fold_keeps_no_event_container(engine, seats, events)
