"""The step queue of a fold (issue 17, P1).

``state.push_new`` puts the steps a rule has just made into the queue as they are, where
``push_front`` puts copies: a step the queue shared with another part of the state (another
queue entry, the clash, a list kept for later) would carry a write to one (``_prepare_draw``
trims a draw's ``n`` in place) into the other. Along whole games folded in place, of both
versions and both bots, every step in the queue must be held by the queue alone, and the fold
must reach the copying ``apply``'s state at every event."""

from __future__ import annotations

from collections import Counter

import pytest

from engines.base import canonical_json
from engines.wizarding_duels import rules, state

from .playouts import played_events, varied_configs


def _times_held(s) -> Counter:
    """How many times each dict and list of ``s`` is reached from it, by ``id``."""
    held: Counter = Counter()
    todo = [s]
    while todo:
        x = todo.pop()
        if type(x) is dict or type(x) is list:
            held[id(x)] += 1
            if held[id(x)] == 1:
                todo.extend(x.values() if type(x) is dict else x)
    return held


@pytest.mark.parametrize("version", ["1", "2"])
@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_every_queued_step_is_held_by_the_queue_alone_along_folded_games(version, bot, monkeypatch):
    pushed = Counter()
    real = state.push_new

    def counting(s, steps):
        pushed["steps"] += len(steps)
        return real(s, steps)

    # ``rules`` and ``fast`` import the function by name: count it where they call it.
    monkeypatch.setattr(rules, "push_new", counting)
    from engines.wizarding_duels import fast

    monkeypatch.setattr(fast, "push_new", counting)
    for seed, config in enumerate(varied_configs()):
        folded = None
        for engine, s, ev in played_events(version, f"wzd-queue:{version}:{bot}:{seed}", config, bot):
            if folded is None:
                folded = engine.owned_copy(s)
            assert canonical_json(folded) == canonical_json(s)
            held = _times_held(folded)
            for st in folded["queue"]:
                assert held[id(st)] == 1, (st, ev)
            folded = engine.apply_in_place(folded, ev)
    assert pushed["steps"] > 1000  # the games went through clashes, moves and activations
