"""Random playouts shared by the Wizarding Duels tests that compare a shortcut with the rules' lists."""

from __future__ import annotations

import random

from engines.base import CHANCE
from engines.chance import draw as chance_draw
from engines.wizarding_duels import content, groups
from engines.wizarding_duels.engine import WizardingDuelsEngine

ENGINES = {"1": WizardingDuelsEngine(version="1"), "2": WizardingDuelsEngine()}


def group_with(character, galleons=50):
    """A legal random Group (the engine's own helper) that holds ``character``."""
    pk = content.load("original-v1")
    for k in range(5000):
        g = groups.random_group(pk, galleons, groups.Lcg(k))
        if character in g["models"]:
            return g
    raise AssertionError(f"no helper Group holds {character}")


def random_playout(version, seed, config, bound=5000):
    """Yield ``(engine, state, seat, rng)`` before every event of a random game (``seat`` None before
    a chance event); the game must end within ``bound`` events. A caller may draw from ``rng``
    before the next event: the bot then draws after it, the same way every time."""
    engine = ENGINES[version]
    rng = random.Random(seed)
    s = engine.setup(config, 2)
    for _ in range(bound):
        tm = engine.to_move(s)
        if not tm:
            return
        if tm == [CHANCE]:
            yield engine, s, None, rng
            ev = {"kind": "chance", "outcome": chance_draw(engine.chance(s), rng.randrange)}
        else:
            seat = tm[int(rng.random() * len(tm))]
            yield engine, s, seat, rng
            ev = {"kind": "action", "seat": seat, "action": engine.bot_action("random", s, seat, rng)}
        s = engine.apply(s, ev)
    raise AssertionError("the game did not end")


def played_events(version, seed, config, bot="random", bound=5000):
    """Yield ``(engine, state, event)`` before every event of a game ``bot`` plays on both seats
    (``state`` is the state the event applies to; the caller must not change it); the game must end
    within ``bound`` events."""
    engine = ENGINES[version]
    rng = random.Random(seed)
    s = engine.setup(config, 2)
    for _ in range(bound):
        tm = engine.to_move(s)
        if not tm:
            return
        if tm == [CHANCE]:
            ev = {"kind": "chance", "outcome": chance_draw(engine.chance(s), rng.randrange)}
        else:
            seat = tm[int(rng.random() * len(tm))]
            ev = {"kind": "action", "seat": seat, "action": engine.bot_action(bot, s, seat, rng)}
        yield engine, s, ev
        s = engine.apply(s, ev)
    raise AssertionError("the game did not end")


def varied_configs():
    """Four games of random Groups and two whose Groups hold characters with texts that random
    Groups seldom bring (the configs the shortcut tests share)."""
    return [{}] * 4 + [
        {"groups": [group_with("ashen-regent"), group_with("tobias-fenwick")]},
        {"groups": [group_with("isolde-marrow"), group_with("mira-quillfeather")]},
    ]


def states_of_varied_games(version):
    """Yield ``(seed, state)`` before every event of the games of ``varied_configs``."""
    for seed, config in enumerate(varied_configs()):
        for _engine, s, _seat, _rng in random_playout(version, seed, config):
            yield seed, s
