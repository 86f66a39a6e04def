"""Version 3: a question about the cards of a hand is asked whatever the hand holds (RULES.md,
"Versions" and "Every affected player is prompted"). Whether a seat is asked is public (the
prompt, ``to_move``, the event that answers it); when it depended on the hand, everyone learnt
what the hand held: a forced discard asked nobody whose hand was copies of one card, and the
Fizzle Whisperer asked only a hand with a Fizzle. AN-R7 asks every attacked player whether or not
they hold a Defense for this very reason. Versions 1 and 2 keep their questions (their recorded
matches replay as they were played)."""

import copy

import pytest

from engines import registry
from engines.annihilageddon.interp import run
from engines.base import IllegalAction

from .helpers import E, act, choose, table

V2 = registry.get("annihilageddon", "2")
#: Seat 1's hand and deck: the same ten cards, split two ways no one else can tell apart.
MIXED = (["fizzle", "glyph", "glyph", "glyph", "wand"], ["glyph", "glyph", "glyph", "glyph", "glyph"])
GLYPHS = (["glyph"] * 5, ["fizzle", "glyph", "glyph", "glyph", "wand"])


def mind_sieve(split, engine=E):
    """Seat 0's Mind Sieve ("target foe discards 2 cards") at seat 1, whose Defense window is open."""
    hand, pool = split
    st = table(3, hands={0: ["mind-sieve"], 1: hand}, pools={1: pool})
    if engine is V2:
        st.pop("hand_questions", None)  # a version-2 table (the helpers build the newest)
    for event in (
        {"kind": "action", "seat": 0, "action": {"type": "play", "card": "mind-sieve"}},
        {"kind": "action", "seat": 0, "action": {"type": "choose", "value": 1}},
    ):
        st = engine.apply(st, event)
    return st


TAKE = {"kind": "action", "seat": 1, "action": {"type": "defend", "value": "take"}}


def test_a_forced_discard_asks_the_victim_whatever_their_hand_holds():
    mixed, glyphs = mind_sieve(MIXED), mind_sieve(GLYPHS)
    for viewer in (None, 0, 2):
        assert E.view(mixed, viewer) == E.view(glyphs, viewer)  # nobody else can tell them apart
    after = {"mixed": E.apply(mixed, TAKE), "glyphs": E.apply(glyphs, TAKE)}
    for viewer in (None, 0, 2):
        a, b = (E.view(st, viewer) for st in after.values())
        assert (
            (a["to_move"], a["prompt"])
            == (b["to_move"], b["prompt"])
            == (
                [1],
                {"seat": 1, "kind": "card", "zone": "hand", "of": 1, "filter": None, "why": "discard", "tokens": False},
            )
        )
        assert E.describe(mixed, TAKE, after["mixed"]) == E.describe(glyphs, TAKE, after["glyphs"])
    # A hand of copies of one card has one answer, asked all the same.
    st = after["glyphs"]
    assert E.legal_actions(st, 1) == [{"type": "choose", "value": "glyph"}]
    st = choose(choose(st, 1, "glyph"), 1, "glyph")
    assert st["players"][1]["hand"] == ["glyph"] * 3 and st["players"][1]["discard"] == ["glyph", "glyph"]


def test_version_2_still_discards_a_hand_of_copies_without_a_question():
    """The recorded version-2 matches have no answer there: replaying them must not ask one."""
    st = V2.apply(mind_sieve(GLYPHS, V2), TAKE)
    assert st["prompt"] is None and st["players"][1]["discard"] == ["glyph", "glyph"]
    st = V2.apply(mind_sieve(MIXED, V2), TAKE)
    assert st["prompt"]["why"] == "discard"


def whisperer_turn_starts(hand, engine=E):
    """Seat 1 ends its turn; seat 0, with the Fizzle Whisperer ("Start of turn: you may destroy a
    Fizzle from your hand"), starts its own."""
    st = table(2, active=1, hands={0: hand, 1: []}, tiles={0: "tile-fizzle-whisperer", 1: "tile-thick-skull"})
    if engine is V2:
        st.pop("hand_questions", None)  # a version-2 table (the helpers build the newest)
    end = {"kind": "action", "seat": 1, "action": {"type": "end_turn"}}
    return st, end


def test_the_fizzle_whisperer_asks_at_every_start_of_turn_whether_or_not_the_hand_holds_a_fizzle():
    before_with, end = whisperer_turn_starts(["fizzle", "glyph", "glyph", "glyph", "wand"])
    before_without, _ = whisperer_turn_starts(["glyph", "glyph", "glyph", "glyph", "wand"])
    # The same ten cards in hand and deck: only the split differs.
    before_without["players"][0]["pool"] = sorted(["fizzle"] + before_with["players"][0]["pool"][1:])
    assert sorted(before_with["players"][0]["pool"] + before_with["players"][0]["hand"]) == sorted(
        before_without["players"][0]["pool"] + before_without["players"][0]["hand"]
    )
    assert E.view(before_with, 1) == E.view(before_without, 1)
    with_fizzle, without = E.apply(before_with, end), E.apply(before_without, end)
    for viewer in (None, 1):
        a, b = E.view(with_fizzle, viewer), E.view(without, viewer)
        assert (
            (a["to_move"], a["prompt"])
            == (b["to_move"], b["prompt"])
            == (
                [0],
                {
                    "seat": 0,
                    "kind": "card",
                    "zone": "hand",
                    "of": 0,
                    "filter": {"name": "fizzle"},
                    "optional": True,
                    "why": "destroy",
                },
            )
        )
    assert E.prompt_options(with_fizzle, 0) == ["fizzle", "none"]
    assert E.prompt_options(without, 0) == ["none"]
    # "none" reads the same whether it was a choice or all there was.
    say = {"kind": "action", "seat": 0, "action": {"type": "choose", "value": "none"}}
    lines = {E.describe(st, say, E.apply(st, say)) for st in (with_fizzle, without)}
    assert lines == {"Seat 0 destroys nothing."}
    kept = E.apply(without, say)
    assert kept["prompt"] is None and kept["players"][0]["hand"] == without["players"][0]["hand"]
    gone = choose(with_fizzle, 0, "fizzle")
    assert "fizzle" not in gone["players"][0]["hand"] and gone["destroyed"][-1] == "fizzle"


def test_version_2_still_asks_the_fizzle_whisperer_only_with_a_fizzle_in_hand():
    st, end = whisperer_turn_starts(["glyph", "glyph", "glyph", "glyph", "wand"], V2)
    assert V2.apply(st, end)["prompt"] is None
    st, end = whisperer_turn_starts(["fizzle", "glyph", "glyph", "glyph", "wand"], V2)
    assert V2.apply(st, end)["prompt"]["filter"] == {"name": "fizzle"}


def discard_a_spell(hand):
    """A mandatory "discard a Spell" (no card has one yet; the effect language allows it)."""
    st = table(2, hands={0: hand})
    st["stack"].append(
        {
            "prog": [{"op": "discard", "who": "you", "n": 1, "filter": {"type": "Spell"}}],
            "pc": 0,
            "env": {"you": 0},
            "work": {},
        }
    )
    run(st)
    return st


def test_a_mandatory_typed_discard_with_nothing_to_match_is_asked_and_answered_none():
    st = discard_a_spell(["glyph", "wand"])
    assert st["prompt"]["why"] == "discard" and E.prompt_options(st, 0) == ["none"]
    said = {"kind": "action", "seat": 0, "action": {"type": "choose", "value": "none"}}
    after = E.apply(st, said)
    assert after["players"][0]["hand"] == ["glyph", "wand"] and after["players"][0]["discard"] == []
    assert E.describe(st, said, after) == "Seat 0 discards nothing."


def test_none_is_refused_when_the_hand_holds_a_card_the_mandatory_question_asks_for():
    st = discard_a_spell(["glyph", "mind-sieve"])
    assert E.prompt_options(st, 0) == ["mind-sieve"]
    frozen = copy.deepcopy(st)
    with pytest.raises(IllegalAction) as refused:
        act(st, 0, type="choose", value="none")
    assert refused.value.code == "bad_choice"
    assert st == frozen
