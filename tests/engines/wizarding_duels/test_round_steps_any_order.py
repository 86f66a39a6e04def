"""The round's start and end, the cooldown, the end of statuses and the Power Pool change each
living model by itself, so they take the models in the state's order instead of sorting them
(``state.alive_unordered``, issue 17, P1). Along playouts of both versions, games where those
steps take the models sorted (``alive``'s order) or in reverse order must reach the same state
at every event."""

from __future__ import annotations

import pytest

from engines.base import canonical_json
from engines.wizarding_duels import rules
from engines.wizarding_duels.state import alive

from .playouts import played_events, varied_configs


def _reversed(s, seat=None):
    return alive(s, seat)[::-1]


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_steps_that_take_models_unsorted_give_the_sorted_orders_state(version, monkeypatch):
    events = 0
    for seed, config in enumerate(varied_configs()[2:]):
        games = []
        for order in (None, alive, _reversed):
            if order is not None:
                monkeypatch.setattr(rules, "alive_unordered", order)
            states = []
            for _engine, s, _ev in played_events(version, f"wzd-any-order:{seed}", config):
                states.append(canonical_json(s))
            games.append(states)
            monkeypatch.undo()
        assert games[0] == games[1] == games[2]
        events += len(games[0])
    assert events > 500
