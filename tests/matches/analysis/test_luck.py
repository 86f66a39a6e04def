"""Luck from stakes (engines.odds): a long shot that comes off is lucky, a sure thing that fails unlucky."""

from __future__ import annotations

from fractions import Fraction

from engines.base import CHANCE, Engine
from engines.odds import ChanceOdds, Stake
from matches.analysis.compute import analyse


class OneDieDuel(Engine):
    """Seat 0 needs a 6 on one die to win; seat 1 wins otherwise. One roll, then over."""

    name = "one-die-duel"
    title = "One die duel"

    def setup(self, config, seats):
        return {"roll": None}

    def to_move(self, state):
        return [CHANCE] if state["roll"] is None else []

    def legal_actions(self, state, seat):
        return []

    def chance(self, state):
        return {"kind": "dice", "dice": [[1, 6]]} if state["roll"] is None else None

    def chance_odds(self, state, outcome):
        six = outcome == [6]
        return ChanceOdds(
            p_outcome=Fraction(1, 6), stakes=(Stake("seat 0 rolls the six", Fraction(1, 6), six, favours=0, hurts=1),)
        )

    def apply(self, state, event):
        return {"roll": event["outcome"]}

    def result(self, state):
        return None

    def view(self, state, seat):
        return state


def test_a_six_needed_and_rolled_is_five_sixths_of_luck_for_the_roller_and_as_much_bad_luck_for_the_other():
    data = analyse(OneDieDuel(), {}, 2, [(2, "chance", {"outcome": [6]})])
    totals = {t["seat"]: Fraction(t["luck"]["exact"]) for t in data["luck"]["totals"]}
    assert totals == {0: Fraction(5, 6), 1: Fraction(-5, 6)}
    # What went each side's way against what it could expect: the roller got 1 where it expected 1/6.
    assert Fraction(data["luck"]["totals"][0]["actual"]["exact"]) == 1
    assert Fraction(data["luck"]["totals"][0]["expected"]["exact"]) == Fraction(1, 6)


def test_a_miss_of_a_long_shot_costs_the_roller_only_its_one_sixth():
    data = analyse(OneDieDuel(), {}, 2, [(2, "chance", {"outcome": [3]})])
    assert [Fraction(t["luck"]["exact"]) for t in data["luck"]["totals"]] == [Fraction(-1, 6), Fraction(1, 6)]
    assert data["luck"]["series"] == [
        {"seq": 0, "luck": [0.0, 0.0]},
        {"seq": 2, "luck": [round(-1 / 6, 6), round(1 / 6, 6)]},
    ]


def test_events_that_are_not_moves_or_chance_are_passed_over():
    data = analyse(
        OneDieDuel(), {}, 2, [(1, "match.created", {}), (2, "chance", {"outcome": [6]}), (3, "match.finished", {})]
    )
    assert [e["seq"] for e in data["chance_events"]] == [2]


def test_the_odds_fingerprint_changes_with_any_module_of_the_engines_package(tmp_path, monkeypatch):
    """Stakes read the package's rules (labels, dice): an edit there, not only in odds.py, is new odds code."""
    import importlib

    from matches.analysis import compute

    package = tmp_path / "fingerprinted_game"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text("def name(seat):\n    return f'seat {seat}'\n")
    (package / "engine.py").write_text(
        "from engines.base import Engine\n\n\nclass Game(Engine):\n"
        "    def chance_odds(self, state, outcome):\n        return None\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    game = importlib.import_module("fingerprinted_game.engine").Game
    compute._fingerprint_of.cache_clear()
    before = compute._fingerprint_of(game)
    (package / "rules.py").write_text("def name(seat):\n    return f'wizard {seat}'\n")
    compute._fingerprint_of.cache_clear()
    assert compute._fingerprint_of(game) not in (before, "nosource")
