"""A placement window ("move" or "teleport") closes at once when "stay" is its only answer; the
step machine asks ``rules.place_somewhere`` instead of listing every destination (issue 17, P1).
On random playouts of both rules versions, every time it is asked it says what the listed
answers say: there is a space to go to exactly when the list holds two answers or more."""

from collections import Counter

import pytest

from engines.wizarding_duels import rules

from .playouts import group_with, random_playout


def play(version, seed, config):
    for _ in random_playout(version, seed, config):
        pass


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_placement_has_somewhere_to_go_exactly_when_its_listed_answers_are_two_or_more(version, monkeypatch):
    seen = Counter()
    shortcut = rules.place_somewhere

    def compared(s, st, m):
        # The window as it came and with shorter and longer reaches, down to none at all (the
        # playouts rarely leave a model nowhere to go).
        for n in sorted({st["n"], 0, 1, 2, 4}):
            window = dict(st, n=n)
            answer = shortcut(s, window, m)
            assert answer == (len(rules.place_options(s, window)) >= 2), window
            seen[st["kind"], answer] += 1
        return shortcut(s, st, m)

    monkeypatch.setattr(rules, "place_somewhere", compared)
    for seed in range(6):
        play(version, seed, {})
    play(version, 100, {"groups": [group_with("ashen-regent"), group_with("tobias-fenwick")]})
    play(version, 101, {"groups": [group_with("isolde-marrow"), group_with("mira-quillfeather")]})
    # Both kinds and both answers were met.
    assert all(seen[kind, answer] > 0 for kind in ("move", "teleport") for answer in (True, False)), seen


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_window_is_told_to_have_two_answers_exactly_when_it_lists_two_or_more(version, monkeypatch):
    """The other skipped windows: ``rules._two_options`` says "two or more" without listing the
    answers, and the step machine lists them only when it does not (issue 17, P1). Where it
    answers, it says what the list says; elsewhere it says False, and the list decides."""
    seen = Counter()
    shortcut = rules._two_options
    told = {"leadership", "dark_lord", "order", "swap", "empower", "early", "late"}

    def compared(s, st):
        answer = shortcut(s, st)
        listed = len(rules.options(s, st)) >= 2
        if st["step"] in told:
            assert answer == listed, st
        else:
            assert answer is False, st
        seen[st["step"], answer] += 1
        return answer

    monkeypatch.setattr(rules, "_two_options", compared)
    for seed in range(6):
        play(version, seed, {})
    play(version, 100, {"groups": [group_with("ashen-regent"), group_with("tobias-fenwick")]})
    play(version, 101, {"groups": [group_with("isolde-marrow"), group_with("mira-quillfeather")]})
    # The windows it tells apart were met with two answers or more and with fewer.
    for step in ("swap", "empower", "early", "late"):
        assert seen[step, True] > 0 and seen[step, False] > 0, (step, seen)
    for step in ("leadership", "dark_lord", "order"):
        assert seen[step, True] > 0, (step, seen)
