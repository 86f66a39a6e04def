"""What each seat and a spectator may see, and the match log lines.

Rulebook passages at stake: "The Deal" (spell books are private hands), "The Play"
(defences face down, the attack face up, the round tallied in the open).
"""

import json
import random

import pytest

from engines.base import CHANCE, IllegalAction
from engines.chance import draw as chance_draw
from engines.dueling_wizards import ENGINE, deck

from .helpers import attack, deal, defend


def log_line(state, seat, action):
    event = {"kind": "action", "seat": seat, "action": action}
    return ENGINE.describe(state, event, ENGINE.apply(state, event))


HANDS = [["R9", "R3", "R4"], ["S4", "P3", "P4"], ["W4", "L3", "L5"]]


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    # The Deal: the three cards are each wizard's private spell book.
    view = ENGINE.view(deal(HANDS), 1)
    assert view["hand"] == ["P3", "P4", "S4"]
    assert view["players"][1]["hand"] == ["P3", "P4", "S4"]
    assert view["players"][0]["hand"] is None and view["players"][2]["hand"] is None
    assert [p["hand_size"] for p in view["players"]] == [3, 3, 3]


def test_a_spectator_sees_no_cards_and_has_no_actions():
    view = ENGINE.view(deal(HANDS), None)
    assert view["hand"] is None
    assert all(p["hand"] is None for p in view["players"])
    assert view["legal_actions"] == []
    for card in deck.ALL_CARDS[:65]:
        if any(card in hand for hand in HANDS):
            assert f"'{card}'" not in repr(view)


def test_the_view_shows_health_as_numbers_alive_flags_pile_and_attacker():
    view = ENGINE.view(deal(HANDS), None)
    assert [p["health"] for p in view["players"]] == [100, 100, 100]
    assert [p["alive"] for p in view["players"]] == [True, True, True]
    assert view["pile_size"] == 61
    assert view["attacker"] == 0
    assert view["players"][0]["attacker"] is True


def test_the_phase_goes_from_deal_to_defend_to_attack():
    state = ENGINE.setup({}, 3)
    assert ENGINE.view(state, None)["phase"] == "deal"
    assert ENGINE.view(state, None)["to_move"] == [CHANCE]
    state = deal(HANDS)
    assert ENGINE.view(state, 0)["phase"] == "defend"
    state = defend(defend(state, 1, "S4"), 2, "W4")
    assert ENGINE.view(state, 0)["phase"] == "attack"


def test_a_seat_gets_its_legal_actions_only_when_it_must_act():
    state = deal(HANDS)
    assert ENGINE.view(state, 0)["legal_actions"] == []
    assert ENGINE.view(state, 1)["legal_actions"] == [
        {"type": "defend", "card": "P3"},
        {"type": "defend", "card": "P4"},
        {"type": "defend", "card": "S4"},
    ]


def test_who_has_chosen_is_public_but_the_card_is_not():
    # The Play: a defence is face down on the table; everyone sees that it is there.
    state = defend(deal(HANDS), 2, "W4")
    for viewer in (None, 0, 1):
        view = ENGINE.view(state, viewer)
        assert view["defended"] == [2]
        assert view["my_defence"] is None
        assert "W4" not in json.dumps(view)
    assert ENGINE.view(state, 2)["my_defence"] == "W4"


def test_the_resolved_round_is_fully_revealed():
    # The Play: the round's spells are tallied in the open.
    state = attack(defend(defend(deal(HANDS), 1, "S4"), 2, "W4"), 0, "R9")
    last = ENGINE.view(state, None)["last_round"]
    assert last["attacker"] == 0
    assert last["attack"] == "R9"
    assert last["spell"] == "attack"
    assert last["defences"] == [
        {
            "seat": 1,
            "card": "S4",
            "card_name": "4 of Scissors",
            "relation": "weaker",
            "multiplier": 1.5,
            "damage": 13.5,
        },
        {"seat": 2, "card": "W4", "card_name": "4 of Water", "relation": "stronger", "multiplier": 0.5, "damage": 4.5},
    ]
    assert last["knocked_out"] == []


def test_a_finished_duel_is_fully_public_and_carries_the_result():
    state = deal([["RK", "R3", "R4"], ["L2", "P3", "P4"]])
    state = attack(defend(dict(state, health=[200, 20]), 1, "L2"), 0, "RK")
    view = ENGINE.view(state, None)
    assert view["phase"] == "over"
    assert view["players"][0]["hand"] == state["hands"][0]
    assert view["players"][1]["hand"] == []
    assert view["result"]["winners"] == [0]
    assert view["to_move"] == []


def test_a_view_for_a_seat_that_does_not_exist_is_refused():
    with pytest.raises(IllegalAction) as refused:
        ENGINE.view(deal(HANDS), 5)
    assert refused.value.code == "bad_seat"


def test_no_view_ever_shows_another_seats_hand_or_face_down_card_during_a_duel():
    # A whole bot duel, checked at every step: nothing hidden leaks to anyone.
    rng = random.Random(7)
    state = ENGINE.setup({}, 3)
    while ENGINE.to_move(state):
        for viewer in (None, 0, 1, 2):
            view = ENGINE.view(state, viewer)
            for p in view["players"]:
                if p["seat"] != viewer:
                    assert p["hand"] is None and p["defence"] is None
        if ENGINE.to_move(state) == [CHANCE]:
            outcome = chance_draw(ENGINE.chance(state), lambda n: int(rng.random() * n))
            state = ENGINE.apply(state, {"kind": "chance", "outcome": outcome})
            continue
        seat = ENGINE.to_move(state)[0]
        state = ENGINE.apply(state, {"kind": "action", "seat": seat, "action": ENGINE.random_action(state, seat, rng)})
    assert all(p["hand"] is not None for p in ENGINE.view(state, None)["players"])


def test_a_live_defence_action_is_redacted_for_everyone_but_its_owner():
    action = {"type": "defend", "card": "S4"}
    assert ENGINE.redact_action(1, action, None) == {"type": "defend"}
    assert ENGINE.redact_action(1, action, 0) == {"type": "defend"}
    assert ENGINE.redact_action(1, action, 1) == action
    assert ENGINE.redact_action(0, {"type": "attack", "card": "R9"}, None) == {"type": "attack", "card": "R9"}


def test_the_log_describes_an_attack_with_each_defenders_suit_relation_and_damage():
    state = defend(defend(deal(HANDS), 1, "S4"), 2, "W4")
    line = log_line(state, 0, {"type": "attack", "card": "R9"})
    assert line == (
        "Seat 0 attacks with the 9 of Rock: seat 1 (Scissors, weaker) takes 13.5; seat 2 (Water, stronger) takes 4.5."
    )


def test_the_log_describes_a_halved_heal():
    state = defend(deal([["RK", "R7", "RA"], ["W4", "P3", "P4"]]), 1, "W4")
    state = dict(state, health=[100, 200])
    line = log_line(state, 0, {"type": "heal", "cards": ["RA", "R7", "RK"]})
    assert line.startswith("Seat 0 heals with the King, 7 and Ace of Rock for 18, halved to 9")


def test_the_log_names_knock_outs_and_the_winner():
    state = defend(dict(deal([["RK", "R3", "R4"], ["L2", "P3", "P4"]]), health=[200, 20]), 1, "L2")
    line = log_line(state, 0, {"type": "attack", "card": "RK"})
    assert "Seat 1 is knocked out." in line
    assert line.endswith("Seat 0 is the last wizard standing and wins.")


def test_the_log_lines_for_the_deal_name_no_card():
    # The Deal: the spell books are private, so the log says who drew, never what.
    state = ENGINE.setup({}, 2)
    lines = []
    for outcome in ([0, 1, 2], [5, 60, 66]):
        event = {"kind": "chance", "outcome": outcome}
        after = ENGINE.apply(state, event)
        lines.append(ENGINE.describe(state, event, after))
        state = after
    assert lines == [
        "Seat 0 draws three spells.",
        "Seat 1 draws three spells. Every wizard holds three spells; seat 0 attacks first.",
    ]
