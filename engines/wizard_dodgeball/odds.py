"""Exact odds of Wizard Dodgeball's rolls (engines.odds): what each roll could decide, as fractions.

Every die is a run of six faces (dice.COLOURS: white 0-5, grey 1-6, blue 2-7, red 3-8), so a roll
of k dice has 6**k equally likely outcomes: the probabilities below count them (at most four dice,
1,296 outcomes). The meaning of each roll is the rulebook's, as rules.py and spells.py apply it; the
functions that decide a result here (``dodge_reader``, ``resist_reader``) read the same state the
engine reads, and the tests check them against what the engine recorded. RULES.md, "Odds", says
which results count as stakes and why.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any

from engines.base import IllegalAction
from engines.odds import ChanceOdds, Stake, uniform_outcome_probability

from . import dice
from .rules import CATCH_TOTALS_STICKY, FROZEN_DODGE, name
from .spells import faces, resist_roller
from .state import (
    attack_colours,
    ball_on_fire,
    cast_bonus,
    controller,
    dodge_colours,
    effect_faces,
    has_effect,
    stats,
)

HALF = Fraction(1, 2)


@cache
def outcomes(colours: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """Every equally likely outcome of rolling ``colours``, one face per die, in order."""
    return tuple(product(*(range(dice.COLOURS[c][0], dice.COLOURS[c][1] + 1) for c in colours)))


def probability(colours: tuple[str, ...], event: Callable[[tuple[int, ...]], bool]) -> Fraction:
    """The exact probability that a roll of ``colours`` satisfies ``event``."""
    rolls = outcomes(colours)
    return Fraction(sum(1 for roll in rolls if event(roll)), len(rolls))


def strong_roll(
    colours: tuple[str, ...], bonus: int, outcome: list[int], defence: Callable[[int], Fraction]
) -> tuple[Fraction, bool]:
    """For a roll that only sets a score for the other side to beat (an ATTACK, a CAST): the chance
    of a strong one, after which the defence (``defence(score)``: its chance of succeeding) is
    under an even chance, and whether ``outcome`` was one."""
    chances: dict[int, Fraction] = {}

    def strong(roll: tuple[int, ...]) -> bool:
        score = sum(roll) + bonus
        if score not in chances:
            chances[score] = defence(score)
        return chances[score] < HALF

    return probability(colours, strong), strong(tuple(outcome))


# -- throws ----------------------------------------------------------------------------------------


def dodge_reader(state: dict[str, Any], target: int, ball_id: int) -> Callable[[int, tuple[int, ...]], str]:
    """``result(attack, roll)``: "caught", "dodged" or "failed" (hit, or saved by a Shield), the DODGE
    roll's meaning for this target and ball.

    Rulebook "Dodging a ball" (RULES.md, Throwing and dodging): a dodge equal to the attack succeeds;
    with no ball in hand doubles on the two coloured DODGE dice catch (not a fireball, not through
    Shield or Butter Fingers; Sticky Fingers also catches on 3, 6, 9, 12); with a ball in hand
    triples always dodge. Same reading as rules.resolve_dodge_roll."""
    _, n_coloured, holding = dodge_colours(state, target)
    faces = effect_faces(state, target)
    catchable = not ball_on_fire(state, ball_id) and "shield" not in faces and "butter_fingers" not in faces
    sticky = "sticky_fingers" in faces

    def result(attack: int, roll: tuple[int, ...]) -> str:
        total = sum(roll)
        if holding:
            special = n_coloured == 2 and roll[0] == roll[1] == roll[2]
            return "dodged" if special or total >= attack else "failed"
        doubles = n_coloured == 2 and roll[0] == roll[1]
        if catchable and (doubles or (sticky and total in CATCH_TOTALS_STICKY)):
            return "caught"
        return "dodged" if total >= attack else "failed"

    return result


def escape_chances(state: dict[str, Any], target: int, ball_id: int) -> Callable[[int], Fraction]:
    """``escape(attack)``: the chance the target escapes an attack of that score (dodges or catches).
    A frozen target does not roll: its dodge is a fixed 5 (rulebook "Freeze"), so it escapes exactly
    when the attack is 5 or less."""
    if has_effect(state, target, "freeze"):
        return lambda attack: Fraction(1 if FROZEN_DODGE >= attack else 0)
    result = dodge_reader(state, target, ball_id)
    rolls = outcomes(tuple(dodge_colours(state, target)[0]))
    never_fails = 1 << 30  # an attack no dice reach: what escapes it escapes whatever the attack
    table = [(sum(roll), result(never_fails, roll) != "failed") for roll in rolls]
    cache: dict[int, Fraction] = {}

    def escape(attack: int) -> Fraction:
        if attack not in cache:
            cache[attack] = Fraction(sum(1 for total, sure in table if sure or total >= attack), len(table))
        return cache[attack]

    return escape


def throw_escape_probability(state: dict[str, Any], attacker: int, target: int, ball_id: int, zones: int) -> Fraction:
    """Before the ATTACK roll: the chance the target escapes the whole throw (dodges or catches)."""
    rolls = outcomes(tuple(attack_colours(state, attacker, zones)))
    escape = escape_chances(state, target, ball_id)
    return sum((escape(sum(roll)) for roll in rolls), Fraction(0)) / len(rolls)


def _attack_odds(state: dict[str, Any], step: dict[str, Any], outcome: list[int]) -> list[Stake]:
    # The attack alone decides nothing; it sets what the dodge must beat. Its stake is a strong
    # attack: one after which the target is more likely hit than not (RULES.md, Odds).
    attacker, target = step["attacker"], step["target"]
    colours = tuple(attack_colours(state, attacker, step["zones"]))
    p, happened = strong_roll(colours, 0, outcome, escape_chances(state, target, step["ball"]))
    return [
        Stake(
            label=f"{name(attacker)} rolls an attack that {name(target)} more likely fails to dodge than not",
            p=p,
            happened=happened,
            favours=controller(state, attacker),
            hurts=controller(state, target),
        )
    ]


def _dodge_odds(state: dict[str, Any], step: dict[str, Any], outcome: list[int]) -> list[Stake]:
    attacker, target, attack = step["attacker"], step["target"], step["attack"]
    colours = tuple(dodge_colours(state, target)[0])
    result = dodge_reader(state, target, step["ball"])
    got = result(attack, tuple(outcome))
    results = {r: result(attack, r) for r in outcomes(colours)}
    n = len(results)
    p_escape = Fraction(sum(1 for r in results.values() if r != "failed"), n)
    p_catch = Fraction(sum(1 for r in results.values() if r == "caught"), n)
    mine, theirs = controller(state, target), controller(state, attacker)
    stakes = [
        Stake(
            label=f"{name(target)} dodges or catches {name(attacker)}'s attack of {attack}",
            p=p_escape,
            happened=got != "failed",
            favours=mine,
            hurts=theirs,
        )
    ]
    if p_catch:
        stakes.append(
            Stake(
                label=f"{name(target)} catches the ball: {name(attacker)} is out",
                p=p_catch,
                happened=got == "caught",
                favours=mine,
                hurts=theirs,
            )
        )
    return stakes


# -- casts -----------------------------------------------------------------------------------------


def resist_reader(state: dict[str, Any], step: dict[str, Any]) -> Callable[[int, tuple[int, ...]], str]:
    """``result(score, roll)``: "resisted", "rebound" (a resist that sends the spell back) or "failed"
    (affected, or saved by a Shield), the RESIST roll's meaning for this step.

    Rulebook "Resisting" (RULES.md, Casting and resisting): a resist equal to the CAST score resists;
    doubles rebound a rebounding spell, just resist Teleport and Dispel, and are an ordinary roll for a
    shielded wizard; the caster resisting its own rebound resists on doubles. Same reading as
    spells.resolve_resist."""
    rebound_step = step["rebound"]
    doubles_count = rebound_step or not has_effect(state, resist_roller(state, step), "shield")
    on_doubles = "resisted" if rebound_step or not faces()[state["cast"]["face"]]["rebound"] else "rebound"

    def result(score: int, roll: tuple[int, ...]) -> str:
        if doubles_count and roll[0] == roll[1]:
            return on_doubles
        return "resisted" if sum(roll) >= score else "failed"

    return result


def resist_chances(state: dict[str, Any], step: dict[str, Any]) -> Callable[[int], Fraction]:
    """``resist(score)``: the chance this step's RESIST roll resists a CAST score."""
    result = resist_reader(state, step)
    rolls = outcomes(tuple(stats(resist_roller(state, step))["resist"]))
    never_fails = 1 << 30  # a score no dice reach: what resists it resists whatever the score
    table = [(sum(roll), result(never_fails, roll) != "failed") for roll in rolls]
    return lambda score: Fraction(sum(1 for total, sure in table if sure or total >= score), len(table))


def _cast_odds(state: dict[str, Any], outcome: list[int]) -> list[Stake]:
    # Like the attack: per resisting target, a strong cast is one it more likely fails to resist.
    cast = state["cast"]
    caster = cast["caster"]
    colours = tuple(stats(caster)["cast"])
    bonus = cast_bonus(state, caster)
    stakes = []
    for i, who in enumerate(cast["resisters"]):
        if who is None:
            continue
        step = {"step": "resist", "i": i, "rebound": False}
        p, happened = strong_roll(colours, bonus, outcome, resist_chances(state, step))
        stakes.append(
            Stake(
                label=f"{name(caster)} casts so that {name(who)} more likely fails to resist than not",
                p=p,
                happened=happened,
                favours=controller(state, caster),
                hurts=controller(state, who),
            )
        )
    return stakes


def _resist_odds(state: dict[str, Any], step: dict[str, Any], outcome: list[int]) -> list[Stake]:
    cast = state["cast"]
    score = cast["score"]
    caster = cast["caster"]
    who = resist_roller(state, step)
    colours = tuple(stats(who)["resist"])
    result = resist_reader(state, step)
    results = [result(score, r) for r in outcomes(colours)]
    got = result(score, tuple(outcome))
    n = len(results)
    spell = faces()[cast["face"]]["name"]
    if step["rebound"]:
        # The caster resists its own spell coming back; the wizard that rebounded it wins if it fails.
        other = cast["resisters"][step["i"]]
        return [
            Stake(
                label=f"{name(caster)} resists its own rebounded {spell} ({score})",
                p=Fraction(sum(1 for r in results if r != "failed"), n),
                happened=got != "failed",
                favours=controller(state, caster),
                hurts=controller(state, other),
            )
        ]
    mine, theirs = controller(state, who), controller(state, caster)
    stakes = [
        Stake(
            label=f"{name(who)} resists {name(caster)}'s {spell} ({score})",
            p=Fraction(sum(1 for r in results if r != "failed"), n),
            happened=got != "failed",
            favours=mine,
            hurts=theirs,
        )
    ]
    p_rebound = Fraction(sum(1 for r in results if r == "rebound"), n)
    if p_rebound:
        stakes.append(
            Stake(
                label=f"{name(who)} rolls doubles: {spell} rebounds on {name(caster)}",
                p=p_rebound,
                happened=got == "rebound",
                favours=mine,
                hurts=theirs,
            )
        )
    return stakes


# -- the roll-off ----------------------------------------------------------------------------------


def _rolloff_odds(state: dict[str, Any], outcome: list[int]) -> list[Stake]:
    # Setup step 2: the higher grey die is player 1; a tie is rolled again (decides nothing).
    a, b = outcome
    p = probability(("grey", "grey"), lambda r: r[0] > r[1])  # 15/36, the same for either team
    stakes = []
    for side, won in ((0, a > b), (1, b > a)):
        team = "first team" if side == 0 else "second team"
        for seat in state["sides"][side]:
            stakes.append(
                Stake(label=f"The {team} wins the roll-off and activates first", p=p, happened=won, favours=seat)
            )
    return stakes


def chance_odds(engine: Any, state: dict[str, Any], outcome: Any) -> ChanceOdds:
    spec = engine.chance(state)
    if spec is None:
        raise IllegalAction("No dice are due now.", code="no_chance_due")
    step = state["queue"][0]
    kind = step["step"]
    if kind == "rolloff":
        stakes = _rolloff_odds(state, outcome)
    elif kind == "attack":
        stakes = _attack_odds(state, step, outcome)
    elif kind == "dodge":
        stakes = _dodge_odds(state, step, outcome)
    elif kind == "cast_roll":
        stakes = _cast_odds(state, outcome)
    else:
        stakes = _resist_odds(state, step, outcome)
    # A result that was certain or impossible decided nothing: it is not a stake.
    return ChanceOdds(p_outcome=uniform_outcome_probability(spec), stakes=tuple(s for s in stakes if 0 < s.p < 1))
