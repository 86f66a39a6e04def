"""The in-place fold stores no list or dict of an event (so it no longer copies each action or
draw, issue 17, P1): checked after every event of random playouts of every version at 2, 3 and 5
seats, prompts and secret defences included."""

import pytest

from engines import registry

from ..near_misses import assert_fold_keeps_no_event_container
from ..test_conformance import playout


@pytest.mark.parametrize("seats", [2, 3, 5])
@pytest.mark.parametrize("version", ["1", "2", "3"])
def test_the_in_place_fold_keeps_no_container_of_an_event(version, seats):
    engine = registry.get("annihilageddon", version)
    _, events = playout(engine, seats, f"an-no-event-container:{version}:{seats}", bound=1500, prefix=True)
    kinds = {e["action"]["type"] for e in events if e["kind"] == "action"}
    # The answers the rules store must be among what was folded, not only plays and buys.
    assert {"play", "buy", "choose", "end_turn"} <= kinds
    if version != "1":
        assert "defend" in kinds
    assert_fold_keeps_no_event_container(engine, seats, events)
