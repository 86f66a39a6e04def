"""Exact odds of Wizard Dodgeball's rolls: hand-computed cases, and agreement with what the engine did.

The hand computations use the dice of GAME-FACTS (grey 1-6, blue 2-7): a blue die is a grey die
plus one, so blue+blue is grey+grey plus two, and the two-grey totals 2..12 come 1,2,3,4,5,6,5,4,3,2,1
times in 36."""

import random
from fractions import Fraction as F

from engines.base import CHANCE
from engines.chance import draw
from engines.wizard_dodgeball import ENGINE as E
from engines.wizard_dodgeball.engine import WizardDodgeballEngine
from engines.wizard_dodgeball.odds import throw_escape_probability
from engines.wizard_dodgeball.scenario import Table


def blue_thrower():
    """#47 Swiftwater (ATTACK blue+blue, second team, seat 1) holds active ball 1 two zones from
    #25 (DODGE grey+grey, first team, seat 0), no ball in hand."""
    return Table.start(E, wizards={47: [5, 13], 25: [5, 7]}, balls={1: {"held_by": 47}}, active={1: True}, turn=47)


def test_blue_blue_against_grey_grey_escapes_95_in_216_throws():
    """Dodging a ball: the dodge succeeds on a total at least the attack, and doubles catch.

    Escape by the total: P(G >= G' + 2) over two grey pairs = (1 - 146/1296) / 2 - 140/1296 = 435/1296.
    Doubles below the attack add sum over d of P(G' + 2 > 2d) / 36 = (36+35+30+21+10+3) / 1296 = 135/1296.
    Together 570/1296 = 95/216."""
    t = blue_thrower()
    t.act("throw", target=25)
    assert t.spec()["dice"] == [[2, 7], [2, 7]]
    assert throw_escape_probability(t.state, 47, 25, 1, 2) == F(95, 216)


def test_an_attack_of_9_or_more_is_the_strong_one_against_grey_grey():
    """Against grey+grey an attack of 8 is escaped exactly half the time (15/36 totals of 8 or more and
    3 doubles below 8); 9 leaves 10/36 + 4/36 < 1/2. So the strong attacks are blue+blue >= 9, that is
    grey+grey >= 7: 21/36 = 7/12."""
    t = blue_thrower()
    t.act("throw", target=25)
    odds = E.chance_odds(t.state, [4, 5])
    assert odds.p_outcome == F(1, 36)
    (strong,) = odds.stakes
    assert strong.p == F(7, 12) and strong.happened
    assert (strong.favours, strong.hurts) == (1, 0)
    assert not E.chance_odds(t.state, [4, 4]).stakes[0].happened  # 8: still an even chance


def test_a_dodge_against_9_on_grey_grey_escapes_7_in_18_and_catches_1_in_6():
    """Dodging: totals of 9 or more (10 of 36) dodge; doubles (6 of 36) catch whatever the total;
    (5,5) and (6,6) are both, so 14/36 = 7/18 escape, 6/36 = 1/6 catch."""
    t = blue_thrower()
    t.act("throw", target=25)
    t.roll(4, 5)
    odds = E.chance_odds(t.state, [3, 3])
    escape = next(s for s in odds.stakes if "dodges or catches" in s.label)
    catch = next(s for s in odds.stakes if "catches the ball" in s.label)
    assert (escape.p, catch.p) == (F(7, 18), F(1, 6))
    assert escape.happened and catch.happened
    assert (escape.favours, escape.hurts) == (0, 1)
    # the seat that caught was lucky by (1 - 7/18) + (1 - 1/6); the thrower's seat unlucky by as much
    assert odds.luck() == {0: F(13, 9), 1: F(-13, 9)}
    missed = E.chance_odds(t.state, [2, 5])
    assert not any(s.happened for s in missed.stakes)


def test_a_cast_on_grey_grey_resist_and_its_rebound():
    """Resisting: a resist equal to or above the CAST score resists; doubles rebound Freeze, and the
    caster resists its own rebound on doubles or on the score. CAST 13 against grey+grey: no total
    reaches 13, so only the 6 doubles resist (1/6), every one of them a rebound. Burblepot's own
    grey+blue against 13: (6,7) or doubles on 2..6, 6 of 36."""
    t = Table.start(E, wizards={21: [5, 7], 45: [5, 11]})
    t.act("cast", spell="freeze", targets=[{"wizard": 45}])
    cast = E.chance_odds(t.state, [6, 7])
    # strong casts leave grey+grey under an even chance to resist: 9 or more, as for the attack above
    assert [(s.p, s.happened, s.favours, s.hurts) for s in cast.stakes] == [(F(7, 12), True, 0, 1)]
    t.roll(6, 7)
    resist = E.chance_odds(t.state, [2, 2])
    assert [(s.p, s.happened) for s in resist.stakes] == [(F(1, 6), True), (F(1, 6), True)]
    assert all((s.favours, s.hurts) == (1, 0) for s in resist.stakes)
    t.roll(2, 2)
    rebound = E.chance_odds(t.state, [3, 5])
    assert [(s.p, s.happened, s.favours, s.hurts) for s in rebound.stakes] == [(F(1, 6), False, 0, 1)]


def test_the_roll_off_gives_each_team_15_chances_in_36():
    """Setup: the higher grey d6 activates first; a tie (6 in 36) is rolled again and decides nothing."""
    state = E.setup({"first_player": None}, 2)
    odds = E.chance_odds(state, [5, 2])
    assert [(s.p, s.happened, s.favours) for s in odds.stakes] == [(F(5, 12), True, 0), (F(5, 12), False, 1)]
    assert odds.luck() == {0: F(7, 12), 1: F(-5, 12)}
    assert not any(s.happened for s in E.chance_odds(state, [3, 3]).stakes)


def _results(engine, games, seed):
    """Every chance event of a few autoplayed games: (state before, outcome, state after)."""
    rng = random.Random(seed)
    for g in range(games):
        state = engine.setup({"first_player": None}, 2 if g % 2 == 0 else 4)
        for _ in range(400):
            movers = engine.to_move(state)
            if not movers:
                break
            if movers == [CHANCE]:
                outcome = draw(engine.chance(state), lambda n: int(rng.random() * n))
                after = engine.apply(state, {"kind": "chance", "outcome": outcome})
                yield state, outcome, after
                state = after
            else:
                seat = movers[0]
                action = engine.bot_action("heuristic", state, seat, rng)
                state = engine.apply(state, {"kind": "action", "seat": seat, "action": action})


def test_every_stake_agrees_with_what_the_engine_recorded_in_autoplayed_games():
    """The odds re-read the rules; the engine applies them. Whatever the odds say happened must be what
    the engine's roll record says (dodged, caught, resisted, rebound, who activates first)."""
    checked = 0
    for engine in (E, WizardDodgeballEngine(version="1")):
        for before, outcome, after in _results(engine, 4, seed=19):
            odds = engine.chance_odds(before, outcome)
            assert 0 < odds.p_outcome <= 1
            step = before["queue"][0]["step"]
            result = after["rolls"][-1].get("result") if after["rolls"] else None
            for s in odds.stakes:
                assert 0 < s.p < 1
                checked += 1
                if "dodges or catches" in s.label:
                    assert s.happened == (result in ("caught", "dodged", "dodged_in_place")), (s, result)
                elif "catches the ball" in s.label:
                    assert s.happened == (result == "caught")
                elif step == "resist" and "rebounds on" in s.label:
                    assert s.happened == (result == "rebound")
                elif step == "resist":
                    assert s.happened == (result in ("resisted", "rebound")), (s, result)
                elif step == "rolloff":
                    assert s.happened == (
                        after.get("first") == (0 if "first team" in s.label else 1) and outcome[0] != outcome[1]
                    )
    assert checked > 50
