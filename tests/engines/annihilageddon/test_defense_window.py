"""The defense window (version 2): every affected player decides at once, in secret, and the
Attack resolves only when every choice is in, clockwise from the attacker (AN L209, L280, L320;
RULES.md "The defense window"). Version 1 asked one player at a time and stays for replay."""

import random

import pytest

from engines import registry
from engines.annihilageddon.engine import Annihilageddon
from engines.base import CHANCE, IllegalAction

from .helpers import E, act, choose, step_chance, table


def limpening(hands=None):
    """Seat 0 plays Limpening Curse ("each foe gains a Limp Wand") on a 4-player table."""
    st = table(4, hands={0: ["limpening-curse"], **(hands or {})})
    return act(st, 0, type="play", card="limpening-curse")


def test_every_attacked_player_is_asked_at_the_same_time():
    """AN L209: "each affected player has an opportunity to avoid the Attack"; the issue: the
    prompt is shown to every attacked player at once."""
    st = limpening()
    assert st["prompt"]["kind"] == "defend" and E.to_move(st) == [1, 2, 3]
    for seat in (1, 2, 3):
        assert E.view(st, seat)["prompt"]["choices"] == ["take"]
        assert E.view(st, seat)["legal_actions"] == [{"type": "defend", "value": "take"}]
    assert E.view(st, 0)["legal_actions"] == []  # the attacker waits


def test_they_may_answer_in_any_order_and_nothing_resolves_before_the_last_answer():
    """AN L320: "Then resolve ... in clockwise order"; AN L280: resolve for each affected player
    clockwise from the player who played it. Answers come 3, 2, 1; with 2 Limp Wands left, seats
    1 and 2 still get them (EX-AN-13)."""
    st = limpening()
    st["limp_wands"] = 2
    st = choose(st, 3, "take")
    assert E.to_move(st) == [1, 2]
    st = choose(st, 2, "take")
    assert [p["discard"] for p in st["players"]] == [[], [], [], []]  # nothing yet
    st = choose(st, 1, "take")
    assert [p["discard"].count("limp-wand") for p in st["players"]] == [0, 1, 1, 0]
    assert E.to_move(st) == [0] and st["prompt"] is None


def test_an_answer_is_secret_until_every_answer_is_in():
    """Hidden information (issue 11 item 3, ARCHITECTURE "simultaneous choices"): who has decided is
    public, what they chose is not, in the view, the event feed and the log line."""
    st = limpening(hands={1: ["moat-goblin", "glyph"], 2: ["hedge-wretch"], 3: ["glyph"]})
    defended = choose(st, 1, "moat-goblin")
    took = choose(st, 1, "take")
    for viewer in (None, 0, 2, 3):
        assert E.view(defended, viewer) == E.view(took, viewer)
    assert E.view(defended, None)["players"][1]["hand_count"] == 2  # the card stays in hand, unseen
    assert E.view(defended, None)["prompt"]["decided"] == [1]
    assert E.view(defended, 1)["prompt"]["mine"] == "moat-goblin"
    action = {"type": "defend", "value": "moat-goblin"}
    assert E.redact_action(1, action, None) == E.redact_action(1, action, 2) == {"type": "defend"}
    assert E.redact_action(1, action, 1) == action
    line = E.describe(st, {"kind": "action", "seat": 1, "action": action}, defended)
    assert line == E.describe(st, {"kind": "action", "seat": 1, "action": {"type": "defend", "value": "take"}}, took)
    assert "Moat Goblin" not in line


def test_the_last_answer_shows_every_choice_and_the_next_line_tells_them():
    st = limpening(hands={1: ["moat-goblin"], 2: ["hedge-wretch"], 3: ["glyph"]})
    st = choose(st, 1, "moat-goblin")
    st = choose(st, 3, "take")
    before = st
    event = {"kind": "action", "seat": 2, "action": {"type": "defend", "value": "take"}}
    st = E.apply(st, event)
    last = E.describe(before, event, st)
    assert last == "Seat 2 has decided how to meet the Attack. Every choice is in."
    assert st["last_defense"]["choices"] == [[1, "moat-goblin"], [2, "take"], [3, "take"]]
    assert E.view(st, None)["last_defense"] == st["last_defense"]
    assert st["players"][1]["discard"] == ["moat-goblin"]
    # Moat Goblin's Defense text (draw a card) is due: its line starts with what the window showed.
    assert E.to_move(st) == [CHANCE]
    after = step_chance(st)
    told = E.describe(st, {"kind": "chance", "outcome": None}, after)
    assert told.startswith("Seat 1 avoids the Attack with Moat Goblin. Seats 2 and 3 take the Attack.")


def test_a_seat_answers_once_and_only_an_asked_seat_answers():
    st = limpening()
    st = choose(st, 2, "take")
    with pytest.raises(IllegalAction) as again:
        choose(st, 2, "take")
    assert again.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as attacker:
        act(st, 0, type="defend", value="take")
    assert attacker.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as wrong_kind:
        act(st, 1, type="choose", value="take")
    assert wrong_kind.value.code == "prompt_pending"
    with pytest.raises(IllegalAction) as not_held:
        act(st, 1, type="defend", value="moat-goblin")
    assert not_held.value.code == "bad_choice"


def test_a_players_own_attack_also_waits_for_every_answer_then_hits_each_in_turn():
    """RULES.md "The defense window": Bully Pulpit (each weaker foe takes 2) on three weaker foes;
    seat 3 redirects with a Familiar. The redirect lands on the attacker after seats 1 and 2 are hit,
    clockwise (AN L221, L280)."""
    st = table(4, hands={0: ["bully-pulpit"], 3: ["skitters"]}, hp={0: 20, 1: 2, 2: 10, 3: 10})
    st = act(st, 0, type="play", card="bully-pulpit")
    assert E.to_move(st) == [1, 2, 3]
    st = choose(st, 3, "skitters")
    st = choose(st, 2, "take")
    assert [p["hp"] for p in st["players"]] == [20, 2, 10, 10]
    st = choose(st, 1, "take")
    assert E.to_move(st) == [CHANCE]  # seat 1 died first: its Dead Wizard Token is drawn now
    assert st["players"][0]["hp"] == 20 and st["players"][2]["hp"] == 10  # the rest waits its turn
    st = step_chance(st)
    assert [p["hp"] for p in st["players"]][2:] == [8, 10] and st["players"][0]["hp"] == 18


def test_version_1_still_asks_one_player_at_a_time_and_replays_its_matches():
    """Matches recorded under version 1 replay exactly as they were played (registry: both)."""
    v1 = registry.get("annihilageddon", "1")
    assert registry.get("annihilageddon").version == "5" and not v1.current
    assert isinstance(v1, Annihilageddon) and "window" not in v1.setup({}, 3)
    rng = random.Random(7)
    st = v1.setup({}, 3)
    events = []
    from engines.chance import derive

    while v1.to_move(st):
        moving = v1.to_move(st)
        assert len(moving) == 1
        if moving == [CHANCE]:
            event = {"kind": "chance", "outcome": derive(v1.chance(st), b"v1", "replay", len(events))}
        else:
            action = v1.bot_action("heuristic", st, moving[0], rng)
            assert action["type"] != "defend"
            event = {"kind": "action", "seat": moving[0], "action": action}
        events.append(event)
        st = v1.apply(st, event)
    from engines.base import replay

    assert replay(v1, {}, 3, events) == st
    with pytest.raises(IllegalAction):
        replay(registry.get("annihilageddon", "2"), {}, 3, events)  # it means something else under version 2


def test_a_window_that_ends_the_game_is_told_by_the_final_view_and_its_line_reads_the_same():
    """RULES.md "The defense window": the last answer's line reads the same whatever was chosen (the
    log is public, tests/engines/test_conformance.py), so when the Attack it answered ends the game
    (no line follows to tell it) the final view's last_defense is what shows every choice."""
    st = table(2, hands={0: [], 1: ["cosmic-bouncer"]})
    st["legend"]["up"], st["main"], st["lineup"][0] = None, [], None  # the Line-Up cannot refill: last turn
    st = act(st, 0, type="end_turn")
    st = step_chance(st, cards=["duke-of-drool"])  # the next Legend flips; its Group Attack asks both
    assert E.to_move(st) == [1, 0] and st["prompt"]["kind"] == "defend"
    lines = set()
    for answer in ("take", "cosmic-bouncer"):
        before = choose(st, 1, answer)
        event = {"kind": "action", "seat": 0, "action": {"type": "defend", "value": "take"}}
        over = E.apply(before, event)
        assert over["phase"] == "over" and E.to_move(over) == []
        lines.add(E.describe(before, event, over))
        assert E.view(over, None)["last_defense"]["choices"] == [[1, answer], [0, "take"]]
    assert lines == {"Seat 0 has decided how to meet the Attack. Every choice is in."}
