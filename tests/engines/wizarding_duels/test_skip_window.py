"""A placement window ("move" or "teleport") closes at once when "stay" is its only answer; the
step machine asks ``rules.place_somewhere`` instead of listing every destination (issue 17, P1).
On random playouts of both rules versions, every time it is asked it says what the listed
answers say: there is a space to go to exactly when the list holds two answers or more."""

from collections import Counter

import pytest

from engines.base import canonical_json
from engines.treecopy import copy_tree
from engines.wizarding_duels import content, rules

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
        # playouts rarely leave a model nowhere to go), and one reaching past the whole board
        # (a teleport that far looks through the board's spaces, not the ring of its reach).
        for n in sorted({st["n"], 0, 1, 2, 4, 30}):
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


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_window_closed_without_two_answers_lists_only_a_pass_that_writes_nothing(version, monkeypatch):
    """The swap, Empowerment and lower-part windows that ``_two_options`` finds short of two
    answers close with no list and no answer (``rules.run``, ``rules._PASS_ALONE``; issue 17, P1):
    there the list holds one answer, and ``decide`` given it leaves the state as taking the window
    off the queue does."""
    seen = Counter()
    two = rules._two_options

    def compared(s, st):
        answer = two(s, st)
        if st["step"] in rules._PASS_ALONE and not answer:
            opts = rules.options(s, st)
            assert len(opts) == 1, (st, opts)
            answered = copy_tree(s)
            decide_st = answered["queue"].pop(0)
            rules.decide(answered, st["seat"], opts[0], popped=decide_st)
            closed = copy_tree(s)
            closed["queue"].pop(0)
            assert canonical_json(closed) == canonical_json(answered), st
            seen[st["step"]] += 1
        return answer

    monkeypatch.setattr(rules, "_two_options", compared)
    for seed in range(6):
        play(version, seed, {})
    play(version, 100, {"groups": [group_with("ashen-regent"), group_with("tobias-fenwick")]})
    play(version, 101, {"groups": [group_with("isolde-marrow"), group_with("mira-quillfeather")]})
    for step in rules._PASS_ALONE:
        assert seen[step] > 0, (step, seen)


def react_variants(s, seat):
    """The state, and copies where the seat's spellbook or the clash's target holds each reaction
    spell of the pack, on its clock or off it, with the target's room for spells full or not (the
    playouts seldom deal reactions)."""
    yield s
    for spell in sorted(sp for sp, card in content.load(s["pack"]).spells.items() if card["reaction"]):
        for clocked in (False, True):
            for where in ("spellbook", "innate"):
                for full in (False, True):
                    v = copy_tree(s)
                    p, tgt = v["players"][seat], v["models"][v["clash"]["target"]]
                    if where == "spellbook":
                        p["spellbook"].append(spell)
                        if clocked:
                            p["clocks"][spell] = 2
                    else:
                        tgt["innate"].append(spell)
                        if clocked:
                            tgt["innate_clocks"][spell] = 2
                    if full:
                        tgt["spells"] = ["x"] * tgt["mastery"]
                    yield v


@pytest.mark.parametrize("version", ["1", "2"])
def test_a_react_window_offers_a_reaction_exactly_when_its_list_holds_more_than_the_pass(version):
    """``rules._some_reaction`` (the step machine closes a react window without listing it when it
    says no) against ``options``' list, for a react window of either seat at every state of varied
    games where a clash is open, and with reaction spells dealt (``react_variants``)."""
    from .playouts import states_of_varied_games

    seen = Counter()
    for _seed, s in states_of_varied_games(version):
        if not s.get("clash"):
            continue
        for seat in (0, 1):
            st = {"step": "react", "seat": seat}
            for v in react_variants(s, seat):
                listed = len(rules.options(v, st)) > 1
                assert rules._some_reaction(v, st) is listed
                seen[listed] += 1
    assert seen[True] > 100 and seen[False] > 100, seen
