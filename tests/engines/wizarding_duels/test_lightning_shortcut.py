"""The lightning quests are checked only after an event that may change what the check reads
(issue 17, P1; ``rules.QUIET_STEPS``): the check after the event before left no active lightning
quest that holds, and a quiet event changes nothing it reads. On random playouts of both rules
versions, with Quest decks holding as many lightning quests as a deck may, the full check after
every event scores nothing more than the engine scored, at every state."""

from collections import Counter

import pytest

from engines.treecopy import copy_tree
from engines.wizarding_duels import content, fast, groups, rules

from .playouts import turns

FULL_CHECK = rules.check_lightning  # the engine's calls to it are counted below


def lightning_group(seed: int, left_out: str) -> dict:
    """A random Group whose Quest deck holds every lightning quest of the pack but ``left_out``
    (a deck holds at most four; each takes its type's place)."""
    pk = content.load("original-v1")
    g = groups.random_group(pk, 50, groups.Lcg(seed))
    by_type = {pk.quests[q]["type"]: q for q in g["quests"]}
    for q, card in sorted(pk.quests.items()):
        if card["lightning"] and q != left_out:
            by_type[card["type"]] = q
        elif not card["lightning"] and card["type"] == pk.quests[left_out]["type"]:
            by_type[card["type"]] = q
    g["quests"] = [by_type[pk.quests[q]["type"]] for q in g["quests"]]
    groups.check_group(pk, g, 50)
    return g


def play(version: str, seed: int, config: dict, seen: Counter) -> None:
    """A random game; after every event the full check must find nothing left to score."""
    last = None
    for turn in turns(version, seed, config):
        if last and not judged(*last, seen):
            return
        turn.event  # noqa: B018 - the bot chooses before the count is taken, as the engine applies
        last = turn, seen["checks"]
    judged(*last, seen)


def judged(turn, checks: int, seen: Counter) -> bool:
    """Whether the full check on the state ``turn``'s event led to scores nothing the engine left;
    counts whether the engine checked (``checks`` was the count before the event applied)."""
    s = turn.after
    full = copy_tree(s)
    FULL_CHECK(full)
    if full != s:
        seen["missed"] += 1
        return False
    lightning = rules._lightning_quests(s["pack"])
    if s["phase"] in ("start", "activation", "end") and any(q in lightning for p in s["players"] for q in p["active"]):
        seen["skipped with a lightning quest active" if seen["checks"] == checks else "checked"] += 1
    return True


def playouts(monkeypatch) -> Counter:
    seen = Counter()

    def counted(s):
        seen["checks"] += 1
        FULL_CHECK(s)

    monkeypatch.setattr(rules, "check_lightning", counted)
    for version in ("1", "2"):
        for seed in range(4):
            config = {"groups": [lightning_group(seed, "spellstorm"), lightning_group(50 + seed, "first-foothold")]}
            play(version, seed, config, seen)
        play(version, 9, {}, seen)
    return seen


def test_the_check_after_quiet_events_only_scores_what_the_check_after_every_event_scores(monkeypatch):
    seen = playouts(monkeypatch)
    assert seen["missed"] == 0, seen
    # The shortcut was taken, and the full check found something to score after other events.
    assert seen["skipped with a lightning quest active"] > 500, seen
    assert seen["checked"] > 100, seen


@pytest.mark.parametrize(
    "table, name",
    [
        ("QUIET_STEPS", "total"),  # spells cast
        ("QUIET_ACTS", "move"),
        ("quiet_chance", "draw"),  # a quest drawn into the active ones
        ("_spell_counted", "total"),  # a total that counted a spell cast
    ],
)
def test_the_playouts_catch_a_step_wrongly_taken_for_quiet(monkeypatch, table, name):
    """Each of these steps, alone in an event, changes what the check reads: taken for quiet, a
    quest that holds after it goes unscored (until a later check), and the playouts see that.
    (A free move, a flip or a potion taken for quiet is not seen here: in these playouts none of
    them made a lightning quest hold, and no lightning quest of the pack counts potions.)"""
    if table == "quiet_chance":
        monkeypatch.setattr(rules, "quiet_chance", lambda st: True)
    elif table == "_spell_counted":
        monkeypatch.setattr(rules, "_spell_counted", lambda c: False)
    else:
        monkeypatch.setattr(rules, table, getattr(rules, table) | {name})
    assert playouts(monkeypatch)["missed"] > 0


def fold_playouts(monkeypatch) -> Counter:
    """The games of ``playouts`` folded in place (``apply_in_place``, whose fast paths check one
    seat's quests after a move or a quest draw, ``rules.check_lightning_of``); after every event
    the full check must find nothing left to score."""
    seen = Counter()
    one_seat = rules.check_lightning_of

    def counted(s, seat, drawn=None):
        before = [len(p["scored"]) for p in s["players"]]
        one_seat(s, seat, drawn)
        kind = "a move" if drawn is None else "a draw"
        seen["one seat checked after " + kind] += 1
        if [len(p["scored"]) for p in s["players"]] != before:
            seen["one seat scored after " + kind] += 1

    monkeypatch.setattr(fast, "_check_lightning_of", counted)
    for version in ("1", "2"):
        for seed in range(4):
            config = {"groups": [lightning_group(seed, "spellstorm"), lightning_group(50 + seed, "first-foothold")]}
            fold = None
            for turn in turns(version, seed, config):
                if fold is None:
                    fold = turn.engine.owned_copy(turn.state)
                fold = turn.engine.apply_in_place(fold, copy_tree(turn.event))
                full = copy_tree(fold)
                FULL_CHECK(full)
                if full != fold:
                    seen["missed"] += 1
                    break
    return seen


def test_the_folds_one_seat_checks_only_score_what_the_check_of_both_seats_scores(monkeypatch):
    seen = fold_playouts(monkeypatch)
    assert seen["missed"] == 0, seen
    assert seen["one seat scored after a move"] > 0 and seen["one seat scored after a draw"] > 0, seen


@pytest.mark.parametrize("wrong", ["no check", "the other seat"])
def test_the_fold_playouts_catch_a_one_seat_check_of_the_wrong_quests(monkeypatch, wrong):
    right = rules.check_lightning_of
    if wrong == "no check":
        monkeypatch.setattr(rules, "check_lightning_of", lambda s, seat, drawn=None: None)
    else:
        monkeypatch.setattr(rules, "check_lightning_of", lambda s, seat, drawn=None: right(s, 1 - seat, drawn))
    assert fold_playouts(monkeypatch)["missed"] > 0
