"""A deck that runs short of a draw (AN L243, L521): the old deck is taken whole, the discard pile
shuffled into a new deck, and the rest of the draw is due. While it is, the old deck's cards lie
on the deck's top (``top``) on their way to the hand: at a table they are in the drawer's hand,
so only the drawer sees them; the others see how many (RULES.md, "A deck that runs short"). Hand
and deck together are public, so naming the deck's cards would name the hand's."""

import copy
import random

from engines import registry
from engines.base import CHANCE

from .helpers import E, act, step_chance, table


def short_draw_mid_turn():
    """Seat 0 plays Sugarsnap (draw 2) with one card left in its deck: the Wand is taken, the
    discard pile becomes the deck, and one more card is due, privately."""
    st = table(3, hands={0: ["sugarsnap", "glyph", "fizzle"]}, pools={0: ["wand"]})
    st["players"][0]["discard"] = ["pit-weasel", "glyph", "glyph"]
    st = act(st, 0, type="play", card="sugarsnap")
    assert E.to_move(st) == [CHANCE] and E.chance(st)["visible_to"] == [0]
    assert st["players"][0]["top"] == ["wand"] and st["players"][0]["pool"] == ["glyph", "glyph", "pit-weasel"]
    return st


def test_the_old_deck_on_its_way_to_the_hand_is_shown_to_its_owner_only():
    st = short_draw_mid_turn()
    assert E.view(st, 0)["players"][0]["deck_top"] == ["wand"]
    for viewer in (None, 1, 2):
        mine = E.view(st, viewer)["players"][0]
        assert mine["deck_top"] == [] and mine["deck_top_hidden"] == 1 and mine["deck_count"] == 4


def test_the_others_cannot_tell_which_card_of_hand_and_deck_is_on_its_way():
    st = short_draw_mid_turn()
    other = copy.deepcopy(st)
    p = other["players"][0]
    p["top"], p["hand"] = ["glyph"], ["fizzle", "wand"]  # the Wand in the hand, a Glyph on its way
    for viewer in (None, 1, 2):
        assert E.view(other, viewer) == E.view(st, viewer)
    assert E.view(other, 0) != E.view(st, 0)


def test_the_end_of_a_turn_with_a_short_deck_shows_the_old_deck_to_nobody_else():
    """turn.py's end of turn takes the short deck itself (its own copy of ensure_top's steps)."""
    st = table(2, hands={0: ["glyph"]}, pools={0: ["wand", "pit-weasel"]})
    st["players"][0]["discard"] = ["fizzle"] * 4
    st = act(st, 0, type="end_turn")
    assert E.to_move(st) == [CHANCE] and E.chance(st)["count"] == 3
    assert sorted(st["players"][0]["top"]) == ["pit-weasel", "wand"]
    assert sorted(E.view(st, 0)["players"][0]["deck_top"]) == ["pit-weasel", "wand"]
    for viewer in (None, 1):
        assert E.view(st, viewer)["players"][0]["deck_top"] == []
        assert E.view(st, viewer)["players"][0]["deck_top_hidden"] == 2
    # The draw comes in: all five in the hand, nothing left on the top.
    st = step_chance(st)
    assert E.view(st, 1)["players"][0]["hand_count"] == 5 and st["players"][0]["top"] == []


def test_a_reveal_that_runs_short_shows_the_old_deck_to_everyone():
    """AN L386 (Lickity-Styx, our Lickity-Whatnot): "reveal the rest ... Then shuffle your discard
    pile and reveal additional cards": the old deck's cards are revealed before the shuffle."""
    st = table(2, hands={0: ["lickity-whatnot"]}, pools={0: ["glyph", "pit-weasel"]})
    st["players"][0]["discard"] = ["fizzle", "wand", "glyph", "glyph"]
    st = act(st, 0, type="play", card="lickity-whatnot")
    assert E.chance(st)["visible_to"] == "all"
    for viewer in (None, 0, 1):
        assert E.view(st, viewer)["players"][0]["deck_top"] == ["glyph", "pit-weasel"]
        assert E.view(st, viewer)["players"][0]["deck_top_hidden"] == 0


def test_resampling_deals_the_cards_on_their_way_again_for_the_other_viewers():
    """The conformance suite compares each view after resample_hidden: the cards on their way
    must be among what it deals again, or the suite cannot see them leak."""
    st = short_draw_mid_turn()
    rng = random.Random(3)
    tops = set()
    for viewer in (None, 1, 2):
        for _ in range(20):
            other = E.resample_hidden(st, viewer, rng)
            p = other["players"][0]
            assert sorted(p["hand"] + p["top"] + p["pool"]) == sorted(
                st["players"][0]["hand"] + ["wand"] + st["players"][0]["pool"]
            )
            assert len(p["top"]) == 1 and len(p["hand"]) == 2
            assert E.view(other, viewer) == E.view(st, viewer)
            tops.add(tuple(p["top"]))
    assert len(tops) > 1
    assert E.resample_hidden(st, 0, rng)["players"][0]["top"] == ["wand"]  # the owner's own


def test_every_version_hides_the_old_deck_from_the_others():
    """A view is no replay: every version shows the same (engines/base.py)."""
    st = short_draw_mid_turn()
    for version in ("1", "2", "3"):
        engine = registry.get("annihilageddon", version)
        assert engine.view(st, 1)["players"][0]["deck_top"] == []
        assert engine.view(st, 0)["players"][0]["deck_top"] == ["wand"]
