"""The in-place fold stores no list or dict of an event (so it no longer copies each action or roll,
issue 17, P1): checked after every event of random playouts of both versions."""

import pytest

from engines import registry

from ..near_misses import assert_fold_keeps_no_event_container
from ..test_conformance import playout


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_in_place_fold_keeps_no_container_of_an_event(version):
    engine = registry.get("wizard-dodgeball", version)
    _, events = playout(engine, 2, f"wd-no-event-container:{version}", bound=3000, prefix=True)
    assert_fold_keeps_no_event_container(engine, 2, events)
