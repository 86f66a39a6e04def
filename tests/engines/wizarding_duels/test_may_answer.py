"""An action's check asks ``rules.may_answer`` whether its seat is one the game waits for, instead
of listing the seats to move (issue 17, P1). At every state of random playouts of both rules
versions, the last one (the game over) included, it answers what ``seat in engine.to_move(state)``
answers for each player's seat and for a seat that is none."""

import random
from collections import Counter

import pytest

from engines.base import CHANCE
from engines.chance import draw as chance_draw
from engines.wizarding_duels import rules

from .playouts import ENGINES


@pytest.mark.parametrize("version", ["1", "2"])
def test_may_answer_is_membership_in_the_seats_to_move(version):
    engine = ENGINES[version]
    seen = Counter()
    for seed in range(3):
        rng = random.Random(seed)
        s = engine.setup({}, 2)
        while True:
            for seat in (0, 1, 2):
                ok = rules.may_answer(s, seat)
                assert ok == (seat in engine.to_move(s)), (seat, s["phase"], s["queue"][:1])
                secret = bool(s["queue"]) and s["queue"][0]["step"] in ("build", "stock", "mulligan", "neutral")
                seen[s["phase"] == "over", secret, ok] += 1
            tm = engine.to_move(s)
            if not tm:
                break
            if tm == [CHANCE]:
                ev = {"kind": "chance", "outcome": chance_draw(engine.chance(s), rng.randrange)}
            else:
                seat = tm[int(rng.random() * len(tm))]
                ev = {"kind": "action", "seat": seat, "action": engine.bot_action("random", s, seat, rng)}
            s = engine.apply(s, ev)
    for key in ((False, True, True), (False, True, False), (False, False, True), (False, False, False)):
        assert seen[key], seen
    assert seen[True, False, False] == 9, seen  # three games over, three seats each
