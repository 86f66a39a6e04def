"""The Joker reversal of engine version 2 (rulebook: "The Play"; ruling: issue 20, RULES.md).

Rulebook L51, The Play: "If you play with Jokers, The Joker turns Weaker to Stronger, Weakest
to Strongest, and vice versa." Ruling: a Joker played (attack or defence) reverses the
circle of strength from its own round on, for every later round, until another Joker turns
it back. Jokers revealed in the same round each turn it over once, so two cancel out. A
Joker attack still deals 0 (L52-53: "Jokers are worth Zero"); a Joker defence has no suit
and takes the attack's full damage.

Suit positions on the circle (GAME-FACTS): Rock, Scissors, Lizard, Paper, Water; against an
attack the next suit round is weaker, the one after weakest, the previous one stronger, the
one before that strongest.
"""

from engines.dueling_wizards import ENGINE

from .helpers import heal_round, health_lost, play_round, position

# Enough cards left in the pile for every refill these duels need.
PILE = ["RK", "R4", "PK", "P3", "S2", "W2", "W3", "W4", "W5", "W6", "X2"]


def relations(state):
    return [d["relation"] for d in state["last_round"]["defences"]]


def test_a_joker_defence_in_a_two_wizard_duel_reverses_the_next_round():
    # With two wizards the Joker is the only defence of its round: the reversal shows in
    # the rounds after it, which gives the book's sentence meaning in every game.
    state = position([["R9", "R2", "R3"], ["X1", "S5", "R8"]], pile=PILE + ["S4"])
    state = play_round(state, {1: "X1"}, "R9", draws=["W2", "S4"])
    assert relations(state) == ["none"] and state["health"][1] == 200 - 18  # the full 9, in half-points
    assert state["reversed"] is True
    # Round two, seat 1 attacks with the 8 of Rock: Scissors is normally weaker (x1.5);
    # on the reversed circle it is stronger (x0.5).
    after = play_round(state, {0: "S4"}, "R8")
    assert relations(after) == ["stronger"]
    assert health_lost(state, after, 0) == 4


def test_a_joker_attack_deals_nothing_and_reverses_every_later_round():
    state = position([["X1", "R2", "R3"], ["S4", "S5", "R8"]], pile=PILE + ["L2"])
    state = play_round(state, {1: "S4"}, "X1", draws=["W2", "L2"])
    assert state["health"] == [200, 200]
    assert state["reversed"] is True
    # Seat 1 attacks with the 8 of Rock against Lizard: normally weakest (x2), now strongest (x0).
    after = play_round(state, {0: "L2"}, "R8")
    assert relations(after) == ["strongest"]
    assert health_lost(state, after, 0) == 0


def test_the_circle_stays_reversed_round_after_round_until_another_joker_turns_it_back():
    state = position([["X1", "R2", "R9"], ["S4", "S5", "P2"]], pile=PILE)
    state = play_round(state, {1: "S4"}, "X1", draws=["P3", "RK"])  # 1: the Joker attack reverses
    assert state["reversed"] is True
    state = play_round(state, {0: "R2"}, "P2", draws=["X2", "W3"])  # 2: Rock vs Paper, weakest -> strongest
    assert relations(state) == ["strongest"] and state["health"][0] == 200
    state = play_round(state, {1: "S5"}, "R9", draws=["W4", "W5"])  # 3: Scissors vs Rock, weaker -> stronger
    assert relations(state) == ["stronger"] and state["health"][1] == 200 - 9
    assert state["reversed"] is True
    state = play_round(state, {0: "X2"}, "W3", draws=["W6", "S2"])  # 4: a second Joker turns it back
    assert state["reversed"] is False
    before = state
    after = play_round(state, {1: "S2"}, "RK")  # 5: Scissors vs Rock is weaker again
    assert relations(after) == ["weaker"]
    assert health_lost(before, after, 1) == 15


def test_in_a_three_wizard_round_the_joker_mirrors_the_other_defence_at_once_and_later_rounds_too():
    state = position([["R9", "R2", "R3"], ["S4", "P5", "P6"], ["X1", "P7", "P8"]], pile=PILE)
    state = play_round(state, {1: "S4", 2: "X1"}, "R9", draws=["PK", "R4", "W3"])
    assert relations(state) == ["stronger", "none"]
    assert state["health"][1:] == [200 - 9, 200 - 18]
    # Round two, seat 1 attacks with the King of Paper: Water is normally weaker (x1.5)
    # and Rock weakest (x2); on the reversed circle they are stronger and strongest.
    after = play_round(state, {0: "W3", 2: "R4"}, "PK")
    assert relations(after) == ["stronger", "strongest"]
    assert [health_lost(state, after, s) for s in (0, 2)] == [5, 0]


def test_two_jokers_in_one_round_cancel_out():
    # Ruling: each Joker turns the circle over once; revealed together, two turn it over
    # and back, so neither this round nor the next is reversed.
    state = position([["R9", "R2", "R3"], ["X1", "P5", "P6"], ["X2", "S7", "P8"]], pile=PILE)
    state = play_round(state, {1: "X1", 2: "X2"}, "R9", draws=["RK", "W2", "S2"])
    assert state["reversed"] is False
    assert (state["last_round"]["jokers"], state["last_round"]["turned"]) == (2, False)
    after = play_round(state, {0: "S2", 2: "S7"}, "RK")
    assert relations(after) == ["weaker", "weaker"]


def test_two_jokers_in_one_round_leave_a_reversed_circle_reversed():
    # A Joker attack against a Joker defence, two wizards, on a reversed circle.
    state = position([["X1", "R2", "R3"], ["X2", "S5", "R8"]], pile=PILE, reversed_circle=True)
    after = play_round(state, {1: "X2"}, "X1")
    assert after["reversed"] is True
    assert after["health"] == [200, 200]


def test_three_jokers_in_one_round_reverse_the_circle_once():
    state = position([["X1", "R2", "R3"], ["X2", "P5", "P6"], ["X3", "S7", "P8"]], pile=PILE)
    after = play_round(state, {1: "X2", 2: "X3"}, "X1")
    assert after["reversed"] is True
    assert (after["last_round"]["jokers"], after["last_round"]["turned"]) == (3, True)


def test_a_heal_on_a_reversed_circle_is_halved_by_a_weaker_defence_not_a_stronger_one():
    # Healing: "if any of the defenders played a stronger suit" is read on the circle as
    # it stands, so once reversed a suit weaker than the healing suit halves the spell.
    king_seven_ace = ["RK", "R7", "RA"]
    state = position(
        [king_seven_ace, ["S4", "P5", "P6"]], pile=["W2", "W3", "W4", "W5"], health=[100, 200], reversed_circle=True
    )
    assert heal_round(state, {1: "S4"}, king_seven_ace)["health"][0] == 100 + 18
    state = position(
        [king_seven_ace, ["W4", "P5", "P6"]], pile=["W2", "W3", "W5", "W6"], health=[100, 200], reversed_circle=True
    )
    assert heal_round(state, {1: "W4"}, king_seven_ace)["health"][0] == 100 + 36


def test_the_reversal_is_public_in_every_view_and_in_the_log():
    state = position([["R9", "R2", "R3"], ["S4", "P5", "P6"], ["X1", "P7", "P8"]], pile=PILE)
    for seat, card in ((1, "S4"), (2, "X1")):
        state = ENGINE.apply(state, {"kind": "action", "seat": seat, "action": {"type": "defend", "card": card}})
    assert all(ENGINE.view(state, v)["circle_reversed"] is False for v in (None, 0, 1, 2))
    event = {"kind": "action", "seat": 0, "action": {"type": "attack", "card": "R9"}}
    after = ENGINE.apply(state, event)
    assert ENGINE.describe(state, event, after) == (
        "Seat 0 attacks with the 9 of Rock (on the reversed circle): seat 1 (Scissors, stronger) takes 4.5; "
        "seat 2 (Joker) takes 9. A Joker reverses the circle of strength from this round on."
    )
    for viewer in (None, 0, 1, 2):
        view = ENGINE.view(after, viewer)
        assert view["circle_reversed"] is True
        assert (view["last_round"]["jokers"], view["last_round"]["circle_turned"]) == (1, True)
        assert view["last_round"]["inverted_by_joker"] is True


def test_the_log_says_when_a_joker_turns_the_circle_back_and_when_two_cancel():
    state = position([["R9", "R2", "R3"], ["X1", "P5", "P6"]], pile=PILE, reversed_circle=True)
    state = ENGINE.apply(state, {"kind": "action", "seat": 1, "action": {"type": "defend", "card": "X1"}})
    event = {"kind": "action", "seat": 0, "action": {"type": "attack", "card": "R9"}}
    assert ENGINE.describe(state, event, ENGINE.apply(state, event)) == (
        "Seat 0 attacks with the 9 of Rock: seat 1 (Joker) takes 9. "
        "A Joker turns the circle of strength back from this round on."
    )
    state = position([["X1", "R2", "R3"], ["X2", "P5", "P6"]], pile=PILE)
    state = ENGINE.apply(state, {"kind": "action", "seat": 1, "action": {"type": "defend", "card": "X2"}})
    event = {"kind": "action", "seat": 0, "action": {"type": "attack", "card": "X1"}}
    assert ENGINE.describe(state, event, ENGINE.apply(state, event)) == (
        "Seat 0 attacks with a Joker: seat 1 (Joker) takes 0. "
        "Two Jokers cancel out: the circle of strength stays as it was."
    )


def test_a_round_on_a_reversed_circle_says_so_in_the_log():
    state = position([["R9", "R2", "R3"], ["S4", "P5", "P6"]], pile=PILE, reversed_circle=True)
    state = ENGINE.apply(state, {"kind": "action", "seat": 1, "action": {"type": "defend", "card": "S4"}})
    event = {"kind": "action", "seat": 0, "action": {"type": "attack", "card": "R9"}}
    assert ENGINE.describe(state, event, ENGINE.apply(state, event)) == (
        "Seat 0 attacks with the 9 of Rock (on the reversed circle): seat 1 (Scissors, stronger) takes 4.5."
    )
