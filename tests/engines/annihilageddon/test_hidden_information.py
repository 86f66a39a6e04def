"""Hands and deck orders are private, draws are lazy private draws, everything played is
public (issue 11 deliverable 3; AN L147-149, L153; spec A4)."""

import random

from engines.chance import indices_for_cards

from .helpers import E, act, started, step_chance, table
from .playout import playout


def states_of_a_game(seed, seats):
    seen = []

    def keep(before, event, after):
        if len(seen) < 400 and random.Random(len(seen) + seed).random() < 0.3:
            seen.append(after)

    playout(seed, seats, ["random"] * seats, on_event=keep)
    return seen


def test_a_hand_is_seen_only_by_its_owner():
    st = started(3)
    hand = st["players"][1]["hand"]
    assert E.view(st, 1)["players"][1]["hand"] == hand
    for viewer in (0, 2, None):
        v = E.view(st, viewer)["players"][1]
        assert "hand" not in v and "deck_cards" not in v and v["hand_count"] == 5


def test_a_draw_is_a_lazy_private_draw_naming_no_card():
    """Contract: chance.draw_spec, visible only to the drawer; the spec names no card."""
    st = table(2, hands={0: []}, pools={0: ["glyph", "pit-weasel", "fizzle", "wand", "glyph", "glyph"]})
    st = act(st, 0, type="end_turn")
    spec = E.chance(st)
    assert spec == {"kind": "draw", "pool": 6, "count": 5, "visible_to": [0], "label": "Seat 0 draws 5"}
    assert E.draw_pool(st) == ["fizzle", "glyph", "glyph", "glyph", "pit-weasel", "wand"]
    outcome = indices_for_cards(E.draw_pool(st), ["pit-weasel", "glyph", "glyph", "wand", "fizzle"])
    after = E.apply(st, {"kind": "chance", "outcome": outcome})
    assert after["players"][0]["pool"] == ["glyph"]
    line = E.describe(st, {"kind": "chance", "outcome": outcome}, after)
    assert "Weasel" not in line and "Glyph" not in line
    # indices are served to nobody while live; the drawer sees the cards in their own view
    assert all(E.redact_chance(spec, outcome, v) is None for v in (0, 1, None))
    assert "pit-weasel" in E.view(after, 0)["players"][0]["hand"] and "hand" not in E.view(after, 1)["players"][0]


def test_shuffling_the_discard_just_moves_it_into_the_unknown_pool():
    st = table(2, hands={0: ["glyph"]}, pools={0: []})
    st["players"][0]["discard"] = ["wand", "fizzle", "glyph"]
    st = act(st, 0, type="end_turn")
    # the 4 cards are the whole pool: taking them all needs no chance event
    assert sorted(st["players"][0]["hand"]) == ["fizzle", "glyph", "glyph", "wand"]


def test_resampling_really_moves_hidden_cards():
    st = started(2)
    rng = random.Random(1)
    seen = {tuple(E.resample_hidden(st, 0, rng)["players"][1]["hand"]) for _ in range(30)}
    assert len(seen) > 1


def test_setup_deals_are_resampled_for_other_viewers_only():
    st = E.setup({}, 3)
    for _ in range(3):
        st = step_chance(st)
    rng = random.Random(2)
    other = E.resample_hidden(st, 0, rng)
    assert other["players"][0]["tile_dealt"] == st["players"][0]["tile_dealt"]
    assert E.view(other, 0) == E.view(st, 0)
    pools = {tuple(E.resample_hidden(st, 0, rng)["players"][1]["tile_dealt"]) for _ in range(30)}
    assert len(pools) > 1


def test_log_lines_name_no_private_card():
    """describe() never names a card drawn privately."""
    from engines.annihilageddon.cards import CARDS
    from engines.base import chance_visible

    lines = []

    def check(before, event, after):
        line = E.describe(before, event, after)
        assert isinstance(line, str) and line
        spec = E.chance(before) if event["kind"] == "chance" else None
        if spec and not chance_visible(spec, None):
            pool = E.draw_pool(before)
            for i in event["outcome"]:
                assert CARDS[pool[i]]["name"] not in line
        lines.append(line)

    playout(3, 3, ["heuristic", "random", "random"], on_event=check)
    assert any("plays" in line for line in lines) and any("(private)" in line for line in lines)
