"""``rules.check_lightning`` skips a seat with no active lightning quest, told in C (issue 17, P1).
It must score exactly what the general path, ``score_quests(s, seat, lightning_only=True)`` for
each seat, scores: at every state of random playouts of both versions, with Quest decks that hold
as many lightning quests as a deck may."""

from __future__ import annotations

import pytest

from engines.treecopy import copy_tree
from engines.wizarding_duels import rules

from .playouts import random_playout, varied_configs
from .test_lightning_shortcut import lightning_group


def _general(s):
    if s["phase"] not in ("start", "activation", "end") or s.get("stats") is None:
        return
    for seat in (0, 1):
        rules.score_quests(s, seat, lightning_only=True)


@pytest.mark.parametrize("version", ["1", "2"])
def test_the_lightning_check_scores_what_scoring_each_seats_lightning_quests_scores(version):
    configs = varied_configs()[:2] + [
        {"groups": [lightning_group(k, "spellstorm"), lightning_group(50 + k, "first-foothold")]} for k in range(3)
    ]
    scored = skipped = 0
    for seed, config in enumerate(configs):
        for _engine, s, _seat, _rng in random_playout(version, f"wzd-lightning-check:{seed}", config):
            lightning = rules._lightning_quests(s["pack"])
            # The state as played (the check after the event before scored what held), and the
            # state with every lightning quest active, some of which hold.
            every = copy_tree(s)
            for p in every["players"]:
                p["active"] = sorted(lightning, reverse=p is every["players"][0])
            for state in (s, every):
                fast, general = copy_tree(state), copy_tree(state)
                rules.check_lightning(fast)
                _general(general)
                assert fast == general
                scored += fast != state
            skipped += sum(1 for p in s["players"] if not any(q in lightning for q in p["active"]))
    assert scored > 50 and skipped > 100, (scored, skipped)
