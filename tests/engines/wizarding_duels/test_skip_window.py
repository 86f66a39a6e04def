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
