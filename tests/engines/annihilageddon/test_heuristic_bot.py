"""The heuristic bot (issue 11 deliverable 5): buys by a value curve, kills when it can, defends."""

import random

from .helpers import E, act, table


def bot(st, seat):
    return E.bot_action("heuristic", st, seat, random.Random(0))


def test_it_defends_whenever_it_holds_a_defense_preferring_a_redirecting_familiar():
    st = table(2, hands={0: ["snot-rocket"], 1: ["moat-goblin", "skitters"]})
    st = act(st, 0, type="play", card="snot-rocket")
    assert bot(st, 1) == {"type": "defend", "value": "skitters"}
    st["players"][1]["hand"] = ["moat-goblin"]
    assert bot(st, 1) == {"type": "defend", "value": "moat-goblin"}
    st["players"][1]["hand"] = ["glyph"]
    assert bot(st, 1) == {"type": "defend", "value": "take"}


def test_it_aims_at_the_foe_closest_to_death():
    st = table(3, hands={0: ["snot-rocket"]}, hp={1: 9, 2: 2})
    st = act(st, 0, type="play", card="snot-rocket")
    assert bot(st, 0) == {"type": "choose", "value": 2}


def test_it_plays_its_cards_then_buys_the_best_it_can_afford():
    st = table(
        2,
        hands={0: ["glyph", "glyph"]},
        lineup=["questionable-coin", "pit-weasel", "crown-toppler", "snot-rocket", "heal-o-matic"],
    )
    assert bot(st, 0)["type"] == "play"
    st["players"][0]["hand"] = []
    st["turn"]["power"] = 4
    assert bot(st, 0) == {"type": "buy", "from": "lineup", "slot": 1}  # the cost-4 card beats the cheaper ones
    st["turn"]["power"] = 8
    assert bot(st, 0) == {"type": "buy", "from": "legend"}
    st["turn"]["power"] = 1
    assert bot(st, 0) == {"type": "end_turn"}


def test_it_throws_away_junk_first():
    st = table(2, hands={0: ["mind-sieve"], 1: ["pit-weasel", "limp-wand", "fizzle"]})
    st = act(st, 0, type="play", card="mind-sieve")
    st = act(st, 1, type="defend", value="take")
    assert bot(st, 1) == {"type": "choose", "value": "limp-wand"}
