"""Random playouts shared by the Wizarding Duels tests that compare a shortcut with the rules' lists."""

from __future__ import annotations

import random

from engines.base import CHANCE
from engines.chance import draw as chance_draw
from engines.wizarding_duels import content, groups
from engines.wizarding_duels.engine import WizardingDuelsEngine

#: Version 3 plays version 2's rules (its states are version 2's; it tells less in its log), so the
#: tests that run every version run "1" and "2"; "3" is here for those that take the newest.
ENGINES = {v: WizardingDuelsEngine(version=v) for v in ("1", "2", "3")}


def group_with(character, galleons=50):
    """A legal random Group (the engine's own helper) that holds ``character``."""
    pk = content.load("original-v1")
    for k in range(5000):
        g = groups.random_group(pk, galleons, groups.Lcg(k))
        if character in g["models"]:
            return g
    raise AssertionError(f"no helper Group holds {character}")


class Turn:
    """One event of a game, seen before it applies: the engine, the ``state`` it applies to (the
    caller must not change it), the ``seat`` that moves (None before a chance event) and the game's
    ``rng``. The ``event`` is made when first asked for, so a caller may draw from ``rng`` first and
    the bot then draws after it, the same way every time. ``after`` is the state the event led to,
    set once the game has gone on past it."""

    def __init__(self, engine, state, seat, rng, bot):
        self.engine, self.state, self.seat, self.rng, self.bot = engine, state, seat, rng, bot
        self.after = None
        self._event = None

    @property
    def event(self):
        if self._event is None:
            if self.seat is None:
                outcome = chance_draw(self.engine.chance(self.state), self.rng.randrange)
                self._event = {"kind": "chance", "outcome": outcome}
            else:
                action = self.engine.bot_action(self.bot, self.state, self.seat, self.rng)
                self._event = {"kind": "action", "seat": self.seat, "action": action}
        return self._event


def turns(version, seed, config, bot="random", bound=5000):
    """Yield a ``Turn`` before every event of a game ``bot`` plays on both seats, with chance drawn
    from the same ``random.Random(seed)``; the game must end within ``bound`` events."""
    engine = ENGINES[version]
    rng = random.Random(seed)
    s = engine.setup(config, 2)
    for _ in range(bound):
        tm = engine.to_move(s)
        if not tm:
            return
        seat = None if tm == [CHANCE] else tm[int(rng.random() * len(tm))]
        turn = Turn(engine, s, seat, rng, bot)
        yield turn
        s = turn.after = engine.apply(s, turn.event)
    raise AssertionError("the game did not end")


def random_playout(version, seed, config, bound=5000):
    """Yield ``(engine, state, seat, rng)`` before every event of a random game (``Turn``)."""
    for turn in turns(version, seed, config, bound=bound):
        yield turn.engine, turn.state, turn.seat, turn.rng


def played_events(version, seed, config, bot="random", bound=5000):
    """Yield ``(engine, state, event)`` before every event of a game ``bot`` plays on both seats."""
    for turn in turns(version, seed, config, bot, bound):
        yield turn.engine, turn.state, turn.event


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
