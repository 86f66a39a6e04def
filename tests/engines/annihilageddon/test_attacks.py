"""Attacks and Defenses (AN L207-227, L276-280, L308-310, L320; EX-AN-8..14)."""

import pytest

from engines.base import IllegalAction

from .helpers import E, act, choose, run_bots, step_chance, table, take_all


def test_every_affected_player_is_prompted_even_without_a_defense():
    """AN L209 / AN-R7: asking only Defense holders would reveal who holds none."""
    st = table(3, hands={0: ["limpening-curse"], 1: ["glyph"], 2: ["hedge-wretch"]})
    st = act(st, 0, type="play", card="limpening-curse")
    assert E.to_move(st) == [1, 2] and st["prompt"]["kind"] == "defend"

    # Both are asked the same question; only each one's own choices differ.
    def asked(seat):
        return {k: v for k, v in E.view(st, seat)["prompt"].items() if k != "choices"}

    assert asked(1) == asked(2) == E.view(st, None)["prompt"] and "choices" not in E.view(st, None)["prompt"]
    assert E.legal_actions(st, 1) == [{"type": "defend", "value": "take"}]
    assert E.legal_actions(st, 2) == [{"type": "defend", "value": "take"}, {"type": "defend", "value": "hedge-wretch"}]


def test_a_defense_avoids_the_attack_only_for_its_player_and_the_rest_of_the_card_still_happens():
    """AN L209: "negates the Attack only for that defending player ... Avoiding an Attack does
    not negate any other abilities (like +2 Power)". Hedge Wretch: draw 1, attacker takes 1."""
    st = table(3, hands={0: ["limpening-curse"], 1: ["hedge-wretch"], 2: []})
    st = act(st, 0, type="play", card="limpening-curse")
    st = choose(st, 1, "hedge-wretch")
    st = choose(st, 2, "take")
    st = step_chance(st)  # seat 1 draws a card (Hedge Wretch's Defense text)
    assert st["players"][1]["discard"] == ["hedge-wretch"] and "limp-wand" not in st["players"][1]["discard"]
    assert len(st["players"][1]["hand"]) == 1
    assert st["players"][0]["hp"] == 19
    assert st["players"][2]["discard"] == ["limp-wand"]
    assert st["turn"]["power"] == 2


def test_a_defense_played_on_your_own_turn_gives_only_its_top_text():
    """AN L227: "The Defense text will not happen in this case"."""
    st = table(2, hands={0: ["hedge-wretch"]})
    st = act(st, 0, type="play", card="hedge-wretch")
    assert st["turn"]["power"] == 2 and st["players"][0]["hand"] == [] and st["players"][1]["hp"] == 20


def test_an_unavoidable_attack_admits_no_defense_and_asks_nobody():
    """AN L209: "A Defense may not be utilized against an Unavoidable Attack"."""
    st = table(3, hands={0: ["overdue-fine"], 1: ["hedge-wretch"], 2: ["moat-goblin"]})
    st = act(st, 0, type="play", card="overdue-fine")
    assert E.to_move(st) == [0]
    assert st["players"][1]["hp"] == 18 and st["players"][2]["hp"] == 18


def test_familiar_redirect_counts_the_defenders_discard_not_the_attackers():
    """EX-AN-8, AN L225: B has 2 Defenses in discard and redirects; A (5 in discard) takes 4."""
    st = table(2, hands={0: ["gutter-comet"], 1: ["skitters"]})
    st["players"][1]["discard"] = ["hedge-wretch", "moat-goblin", "glyph"]
    st["players"][0]["discard"] = ["hedge-wretch"] * 5
    st = act(st, 0, type="play", card="gutter-comet")
    st = choose(st, 1, "skitters")
    assert E.to_move(st) == [0] and st["prompt"] is None  # the attacker gets no Defense window
    assert st["players"][0]["hp"] == 16 and st["players"][1]["hp"] == 20


def test_redirect_hits_the_attacker_even_if_not_a_legal_target():
    """EX-AN-9, AN L223: A (10 HP) attacks the strongest foe for 5; B redirects; A takes 5."""
    st = table(3, hands={0: ["crown-toppler"], 1: ["gristle"]}, hp={0: 10, 1: 18, 2: 12})
    st = act(st, 0, type="play", card="crown-toppler")
    assert E.to_move(st) == [1]
    st = choose(st, 1, "gristle")
    assert st["players"][0]["hp"] == 5 and st["players"][1]["hp"] == 18


def test_the_non_redirecting_familiar_only_avoids():
    """AN L221: the one Familiar whose Defense does not redirect (our Poofy the Fog)."""
    st = table(2, hands={0: ["snot-rocket"], 1: ["poofy"]}, pools={1: ["glyph", "glyph", "glyph"]})
    st = act(st, 0, type="play", card="snot-rocket")
    st = choose(st, 1, 1) if st["prompt"]["kind"] == "target" else st
    st = choose(st, 1, "poofy")
    st = step_chance(st)
    assert st["players"][0]["hp"] == 20 and st["players"][1]["hp"] == 20
    assert len(st["players"][1]["hand"]) == 2


def test_a_redirected_kill_gives_the_trophy_to_the_defender():
    """AN-R15, AN L344: the redirecting defender is the source of the damage."""
    st = table(2, hands={0: ["snot-rocket"], 1: ["skitters"]}, hp={0: 2})
    st = act(st, 0, type="play", card="snot-rocket")
    st = choose(st, 1, "skitters")
    st = step_chance(st)  # seat 0's Dead Wizard Token
    assert st["players"][0]["dwts"] and st["players"][1]["trophy"]


@pytest.mark.parametrize("card, hit", [("tall-poppy-scythe", [2]), ("bully-pulpit", [3])])
def test_stronger_and_weaker_foes_exclude_equal_hp(card, hit):
    """EX-AN-10, AN L215: HP A 15, B 15, C 16, D 14: stronger = {C}, weaker = {D}."""
    st = table(4, hands={0: [card]}, hp={0: 15, 1: 15, 2: 16, 3: 14})
    st = act(st, 0, type="play", card=card)
    assert E.to_move(st) == hit
    st = choose(st, hit[0], "take")
    assert [p["hp"] for p in st["players"]][1] == 15


def test_tall_poppy_gives_power_when_nobody_is_stronger():
    st = table(3, hands={0: ["tall-poppy-scythe"]}, hp={0: 20, 1: 20, 2: 3})
    st = act(st, 0, type="play", card="tall-poppy-scythe")
    assert st["turn"]["power"] == 3 and E.to_move(st) == [0]


def test_a_tie_for_strongest_foe_is_the_attackers_choice():
    """EX-AN-11, AN L213: "If there is a tie for strongest/weakest, you choose"."""
    st = table(4, hands={0: ["crown-toppler"]}, hp={0: 10, 1: 18, 2: 18, 3: 5})
    st = act(st, 0, type="play", card="crown-toppler")
    assert st["prompt"] == {
        "seat": 0,
        "kind": "target",
        "options": [1, 2],
        "why": "strongest_foe",
        "card": "crown-toppler",
    }
    st = choose(st, 0, 2)
    st = choose(st, 2, "take")
    assert st["players"][2]["hp"] == 13 and st["players"][1]["hp"] == 18


def test_player_s_hits_every_tied_player():
    """EX-AN-11, AN L219: a Mayhem "player(s) with the most HP" hits both."""
    st = table(3, hands={0: ["duke-of-drool"]}, hp={0: 10, 1: 18, 2: 18})
    frame = {
        "prog": [{"op": "_mayhem", "card": "mayhem-tax-day", "source": None}],
        "pc": 0,
        "env": {"you": 0},
        "work": {},
    }
    st["stack"].append(frame)
    from engines.annihilageddon.interp import run

    run(st)
    st = run_bots(st, take_all)
    assert [p["hp"] for p in st["players"]] == [10, 15, 15]


def test_left_and_right_hits_the_one_foe_once_with_two_players():
    """EX-AN-12, AN L217."""
    st = table(2, hands={0: ["elbow-lightning"]})
    st = act(st, 0, type="play", card="elbow-lightning")
    st = choose(st, 1, "take")
    assert st["players"][1]["hp"] == 18 and E.to_move(st) == [0]


def test_left_is_the_next_seat_clockwise_and_right_the_previous():
    """AN-R1."""
    st = table(4, hands={0: ["sidewinder-sneeze", "backhand-hex"]})
    st = act(st, 0, type="play", card="sidewinder-sneeze")
    assert E.to_move(st) == [1]
    st = choose(st, 1, "take")
    st = act(st, 0, type="play", card="backhand-hex")
    assert E.to_move(st) == [3]


def test_limp_wands_run_out_clockwise_and_a_foe_may_still_defend():
    """EX-AN-13, AN L278-280, L310: 2 Limp Wands left, each foe gains one: seats 1, 2 get them,
    seat 3 none; +2 Power regardless; seat 3 is still asked."""
    st = table(4, hands={0: ["limpening-curse"]})
    st["limp_wands"] = 2
    st = act(st, 0, type="play", card="limpening-curse")
    for s in (1, 2, 3):
        assert E.to_move(st) == [1, 2, 3][s - 1 :]
        st = choose(st, s, "take")
    assert [p["discard"].count("limp-wand") for p in st["players"]] == [0, 1, 1, 0]
    assert st["turn"]["power"] == 2 and st["limp_wands"] == 0


def test_one_defense_per_attack():
    """AN L209: "A player may only utilize 1 Defense card per Attack"."""
    st = table(2, hands={0: ["snot-rocket"], 1: ["hedge-wretch", "moat-goblin"]})
    st = act(st, 0, type="play", card="snot-rocket")
    st = choose(st, 1, "moat-goblin")
    st = step_chance(st)
    assert E.to_move(st) == [0]
    assert "hedge-wretch" in st["players"][1]["hand"]


def test_passing_mayhem_takes_every_decision_first_and_a_defender_neither_gives_nor_gets():
    """EX-AN-14, AN L209, L320, AN-R8: seat 2 avoids; 0 -> 1 -> 3 -> 0."""
    st = table(4, hands={0: ["glyph"], 1: ["wand"], 2: ["moat-goblin", "fizzle"], 3: ["snot-rocket"]})
    st["stack"].append(
        {
            "prog": [{"op": "_mayhem", "card": "mayhem-hot-potato", "source": None}],
            "pc": 0,
            "env": {"you": 0},
            "work": {},
        }
    )
    from engines.annihilageddon.interp import run

    run(st)
    st = choose(st, 0, "take")
    st = choose(st, 1, "take")
    st = choose(st, 2, "moat-goblin")
    st = choose(st, 3, "take")
    assert [p["hand"] for p in st["players"]][:2] == [["glyph"], ["wand"]]  # nothing moved yet
    while st["prompt"] is not None and st["prompt"]["kind"] == "card":
        st = choose(st, st["prompt"]["seat"], E.prompt_options(st)[0])
    st = run_bots(st, take_all)
    hands = [p["hand"] for p in st["players"]]
    assert hands[1] == ["glyph"] and hands[3] == ["wand"] and hands[0] == ["snot-rocket"]
    assert "fizzle" in hands[2]


def test_a_mayhem_attack_defense_that_hurts_the_attacker_does_nothing_to_anyone():
    """AN L320: "Any Defense text that would affect the attacker does nothing"."""
    st = table(2, hands={0: [], 1: ["hedge-wretch"]}, hp={0: 20, 1: 20})
    st["stack"].append(
        {
            "prog": [{"op": "_mayhem", "card": "mayhem-limp-parade", "source": None}],
            "pc": 0,
            "env": {"you": 0},
            "work": {},
        }
    )
    from engines.annihilageddon.interp import run

    run(st)
    st = choose(st, 0, "take")
    st = choose(st, 1, "hedge-wretch")
    st = run_bots(st, take_all)
    assert [p["hp"] for p in st["players"]] == [20, 20]
    assert st["players"][0]["discard"] == ["limp-wand"] and "limp-wand" not in st["players"][1]["discard"]


def test_a_refused_defense_leaves_the_state_untouched():
    st = table(2, hands={0: ["snot-rocket"], 1: ["glyph"]})
    st = act(st, 0, type="play", card="snot-rocket")
    before = repr(st)
    with pytest.raises(IllegalAction) as err:
        choose(st, 1, "hedge-wretch")
    assert err.value.code == "bad_choice" and repr(st) == before
    with pytest.raises(IllegalAction) as err:
        act(st, 0, type="end_turn")
    assert err.value.code == "not_your_turn"


def test_cards_picked_for_a_pass_are_shown_until_they_move():
    """RULES.md "Passing is public"."""
    st = table(3, hands={0: ["glyph"], 1: ["wand"], 2: ["fizzle"]})
    st["stack"].append(
        {
            "prog": [{"op": "_mayhem", "card": "mayhem-hot-potato", "source": None}],
            "pc": 0,
            "env": {"you": 0},
            "work": {},
        }
    )
    from engines.annihilageddon.interp import run

    run(st)
    for s in (0, 1, 2):
        st = choose(st, s, "take")
    st = choose(st, 0, "glyph")
    assert E.view(st, None)["passing"] == {"0": ["glyph"]} == E.view(st, 2)["passing"]
    st = choose(st, 1, "wand")
    st = choose(st, 2, "fizzle")
    assert E.view(st, None)["passing"] == {}
