"""Log lines read as a person would say them: card names and seats, never an option number or an
internal value (issue 11: "the log shows option numbers, not labels")."""

import random
import re

from engines import registry
from engines.annihilageddon.cards import CARDS
from engines.base import CHANCE
from engines.chance import derive

from .helpers import E, act, choose, table


def line_of(st, seat, value):
    kind = "defend" if "seats" in st["prompt"] else "choose"
    event = {"kind": "action", "seat": seat, "action": {"type": kind, "value": value}}
    return E.describe(st, event, E.apply(st, event))


def test_a_choice_of_one_is_told_by_its_label():
    st = act(table(2, hands={0: ["wild-magic"]}), 0, type="play", card="wild-magic")
    assert st["prompt"]["kind"] == "option"
    assert line_of(st, 0, 0) == 'Seat 0 chooses "+2 Power" (Wild Magic).'


def test_a_target_is_told_as_a_seat_with_the_card():
    st = act(table(3, hands={0: ["snot-rocket"]}), 0, type="play", card="snot-rocket")
    assert line_of(st, 0, 2) == "Seat 0 targets seat 2 with Snot Rocket."


def test_a_line_up_pick_is_told_by_the_cards_name():
    lineup = ["pit-weasel", "snot-rocket", "mind-sieve", "heal-o-matic", "crown-toppler"]
    st = act(table(2, hands={0: ["destiny-crowbar"]}, lineup=lineup), 0, type="play", card="destiny-crowbar")
    st = choose(st, 0, "yes") if st["prompt"]["kind"] == "yesno" else st
    assert st["prompt"]["kind"] == "slot"
    assert line_of(st, 0, 4) == "Seat 0 destroys Crown Toppler in the Line-Up."
    assert line_of(st, 0, "none") == "Seat 0 leaves the Line-Up as it is."


def test_no_line_of_a_whole_game_shows_an_option_number_or_an_internal_value():
    engine = registry.get("annihilageddon")
    ids = "|".join(re.escape(c) for c in sorted(CARDS) if "-" in c)  # e.g. "snot-rocket", never a name
    raw = re.compile(rf"chooses \d|chooses (yes|no|none|take|participate|decline)\b|(?<![\w-])({ids})(?![\w-])")
    for seed, seats in ((1, 2), (2, 4), (3, 5)):
        rng = random.Random(seed)
        st = engine.setup({}, seats)
        n = 0
        while engine.to_move(st):
            moving = engine.to_move(st)
            if moving == [CHANCE]:
                event = {"kind": "chance", "outcome": derive(engine.chance(st), b"log", str(seed), n)}
            else:
                event = {"kind": "action", "seat": moving[0], "action": engine.bot_action("random", st, moving[0], rng)}
            after = engine.apply(st, event)
            line = engine.describe(st, event, after)
            assert not raw.search(line), line
            st, n = after, n + 1


def test_version_1_keeps_its_lines_word_for_word():
    """A finished match's log is checked against the replayed lines when it is verified again
    (audit.matchverify): version 1's lines, option numbers and all, must never change."""
    v1 = registry.get("annihilageddon", "1")
    st = table(2, hands={0: ["wild-magic"]})
    for key in ("window", "held_notes", "last_defense"):  # the table helper builds version-2 states
        st.pop(key)
    st = v1.apply(st, {"kind": "action", "seat": 0, "action": {"type": "play", "card": "wild-magic"}})
    event = {"kind": "action", "seat": 0, "action": {"type": "choose", "value": 0}}
    assert v1.describe(st, event, v1.apply(st, event)) == "Seat 0 chooses 0."
