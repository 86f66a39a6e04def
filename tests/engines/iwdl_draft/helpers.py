"""Shared helpers for the IWDL Draft tests: stacked shuffles, applying actions, refusals."""

from __future__ import annotations

import copy

import pytest

from engines.base import IllegalAction
from engines.iwdl_draft import ENGINE as E
from engines.wizard_dodgeball import data

ROSTER = data.roster()
ORDER = sorted(ROSTER)  # the unshuffled deck: jerseys ascending

# The rulebook's worked example ("Example Gameplay", "Spell Lists"): player 1's team has
# MAGIC 13 and player 2's MAGIC 11.
P1 = [21, 58, 41, 25, 36]
P2 = [45, 30, 47, 10, 12]


def stacked(top: list[int]) -> list[int]:
    """A shuffle outcome whose deck starts with ``top`` (in that order), the rest ascending."""
    rest = [j for j in ORDER if j not in top]
    return [ORDER.index(j) for j in list(top) + rest]


def start(fmt: str = "schoolyard", top: list[int] | None = None, seats: int | None = None, **config):
    """A draft of ``fmt`` right after its shuffle (the deck stacked with ``top`` first)."""
    seats = seats or (4 if fmt == "tournament" else 2)
    state = E.setup({"format": fmt, **config}, seats)
    return E.apply(state, {"kind": "chance", "outcome": stacked(top or [])})


def act(state, seat: int, action: dict):
    return E.apply(state, {"kind": "action", "seat": seat, "action": action})


def pick(state, seat: int, jersey: int):
    return act(state, seat, {"type": "pick", "wizard": jersey})


def refused(state, seat: int, action: dict, code: str) -> str:
    """Assert the action is refused with ``code`` and the state is untouched; return the sentence."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as info:
        act(state, seat, action)
    assert info.value.code == code, info.value.message
    assert state == before
    return info.value.message


def run_auto(state, until=lambda s: False):
    """Let the clock act for whoever is to move until ``until(state)`` or the draft ends."""
    while E.to_move(state) and not until(state):
        seat = E.to_move(state)[0]
        state = act(state, seat, E.auto_action(state, seat))
    return state


def building(state):
    return run_auto(state, until=lambda s: s["phase"] == "building")


def basic_with(team0: list[int], team1: list[int]):
    """A basic draft dealt so that seat 0 gets ``team0`` and seat 1 ``team1`` (cards alternate)."""
    top = [j for pair in zip(team0, team1) for j in pair]
    return start("basic", top)
