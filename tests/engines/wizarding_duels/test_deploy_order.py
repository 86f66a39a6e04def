"""Whose deployment comes next (WD-26, ruling A-65) is worked out from counts of each seat's
models still to deploy and already placed, in one pass over the models (issue 17, P1). Along
random playouts of both rules versions, at every state from the deployment on, it names the seat
the sorted ``alive`` lists named."""

from collections import Counter

import pytest

from engines.wizarding_duels import rules
from engines.wizarding_duels.state import alive, other

from .playouts import states_of_varied_games


def deploy_seat_by_lists(s):
    """The rule as it was written over ``alive``'s lists."""
    left = [[m for m in alive(s, seat) if m["hex"] is None] for seat in (0, 1)]
    w = s["coin_winner"]
    placed = [sum(1 for m in alive(s, seat) if m["hex"] is not None) for seat in (0, 1)]
    if not left[0] and not left[1]:
        return None
    if not left[w]:
        return other(w)
    if not left[other(w)]:
        return w
    return w if placed[w] <= placed[other(w)] else other(w)


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_next_seat_to_deploy_is_the_one_the_sorted_lists_name_at_every_state(version):
    seen = Counter()
    for seed, s in states_of_varied_games(version):
        if s["coin_winner"] is None or not s["models"]:
            continue
        expected = deploy_seat_by_lists(s)
        assert rules._deploy_seat(s) == expected, (seed, s["phase"])
        seen[s["phase"] == "deploy", expected] += 1
    # Met while both seats deploy, while only one has models left, and once all are placed.
    assert seen[True, 0] and seen[True, 1] and seen[False, None], seen
