"""Death, respawn, Dead Wizard Tokens, the Trophy, healing (AN L330-352, L406, L410-422;
EX-AN-6, EX-AN-19..26, EX-AN-40, EX-AN-55)."""

import pytest

from engines.annihilageddon.interp import run
from engines.base import CHANCE, IllegalAction

from .helpers import E, act, choose, run_bots, step_chance, table, take_all


def wand_at(st, attacker, target):
    st = act(st, attacker, type="play", card="wand")
    st = choose(st, attacker, target)
    return choose(st, target, "take")


def test_below_1_hp_you_die_excess_is_ignored_and_you_respawn_at_20_with_a_token():
    """EX-AN-19, AN L332: HP 3, takes 5: dies, takes a token, HP 20."""
    st = table(2, hands={0: ["crown-toppler"]}, hp={1: 3})
    st = act(st, 0, type="play", card="crown-toppler")
    st = choose(st, 1, "take")
    assert E.to_move(st) == [CHANCE] and E.chance(st)["visible_to"] == "all"
    st = step_chance(st, ["dwt-extra-dead"])
    assert st["players"][1]["hp"] == 20 and st["players"][1]["dwts"] == ["dwt-extra-dead"]
    assert st["dwt"]["count"] == 7


def test_a_respawn_token_sets_hp_once():
    """EX-AN-20, AN L336-338: "You respawn from this death with 11 HP"."""
    st = table(2, hands={0: ["wand"]}, hp={1: 1})
    st = wand_at(st, 0, 1)
    st = step_chance(st, ["dwt-patchwork"])
    assert st["players"][1]["hp"] == 11


def test_token_damage_reduces_the_reset_hp():
    """EX-AN-21, AN L338: "that damage will reduce your HP from the 20 it reset to"."""
    st = table(2, hands={0: ["wand"]}, hp={1: 1})
    st = wand_at(st, 0, 1)
    st = step_chance(st, ["dwt-ouch-again"])
    assert st["players"][1]["hp"] == 17


@pytest.mark.parametrize("killer", ["foe", "self"])
def test_grudge_token_hits_the_killer_or_yourself_after_a_self_kill(killer):
    """EX-AN-22, AN L416."""
    st = table(2, hands={0: ["wand"]}, hp={0: 1, 1: 1})
    target = 1 if killer == "foe" else 0
    st = wand_at(st, 0, target)
    st = step_chance(st, ["dwt-grudge"])
    if killer == "foe":
        assert st["players"][0]["hp"] < 1 or st["players"][0]["dwts"]  # 1 HP - 8: dead
        st = step_chance(st, ["dwt-patchwork"])
        assert st["players"][0]["dwts"] == ["dwt-patchwork"] and st["players"][0]["hp"] == 11
        assert st["players"][1]["trophy"]  # seat 1's token killed seat 0: seat 1 is the source
    else:
        assert st["players"][0]["hp"] == 12 and not st["players"][0]["trophy"]


def test_grudge_does_nothing_after_a_line_up_mayhem_kill():
    """EX-AN-22, AN L416: "If a Legend or Mayhem kills you, this does nothing"."""
    st = table(2, hands={0: []}, hp={0: 20, 1: 2})
    st["stack"].append(
        {
            "prog": [{"op": "_mayhem", "card": "mayhem-slap-fight", "source": None}],
            "pc": 0,
            "env": {"you": 0},
            "work": {},
        }
    )
    run(st)
    st = step_chance(st, ["dwt-grudge"])
    assert st["players"][1]["hp"] == 20 and st["players"][0]["hp"] == 18
    assert not any(p["trophy"] for p in st["players"])  # AN L346


def test_wand_self_kill_draws_2_takes_a_token_and_no_trophy():
    """EX-AN-23, AN L406."""
    st = table(2, hands={0: ["wand"]}, hp={0: 1}, pools={0: ["glyph"] * 5})
    st = wand_at(st, 0, 0)
    st = step_chance(st, ["dwt-extra-dead"])
    st = step_chance(st)
    p = st["players"][0]
    assert p["dwts"] == ["dwt-extra-dead"] and len(p["hand"]) == 2 and not p["trophy"]


def test_the_trophy_goes_to_the_latest_killer_of_a_foe_and_not_to_a_self_killer():
    """EX-AN-24, AN L344-346: A kills B, C kills A, A kills A: C keeps it."""
    st = table(3, hands={0: ["wand", "wand"], 2: ["snot-rocket"]}, hp={0: 1, 1: 1})
    st = wand_at(st, 0, 1)
    st = step_chance(st, ["dwt-extra-dead"])
    st = step_chance(st)  # A draws 2 for the Wand kill
    assert [p["trophy"] for p in st["players"]] == [True, False, False]
    # C kills A (a Mayhem played through a card would do the same; here we hand C the turn)
    st["active"] = 2
    st["turn"]["played"] = []
    st = act(st, 2, type="play", card="snot-rocket")
    st = choose(st, 2, 0)
    st = choose(st, 0, "take")
    st = step_chance(st, ["dwt-patchwork"])
    assert [p["trophy"] for p in st["players"]] == [False, False, True]
    st["active"] = 0
    st["players"][0]["hp"] = 1
    st = wand_at(st, 0, 0)
    st = step_chance(st, ["dwt-extra-dead"])
    st = run_bots(st, take_all)
    assert [p["trophy"] for p in st["players"]] == [False, False, True]


def test_the_trophy_holder_draws_6_and_discards_1_at_the_end_of_their_turn():
    """EX-AN-25, AN L344."""
    st = table(2, hands={0: []}, pools={0: ["glyph"] * 4 + ["fizzle"] * 4})
    st["players"][0]["trophy"] = True
    st = act(st, 0, type="end_turn")
    assert E.chance(st)["count"] == 6
    st = step_chance(st)
    assert st["prompt"]["kind"] == "card" and st["prompt"]["why"] == "trophy"
    st = choose(st, 0, E.prompt_options(st)[0])
    assert len(st["players"][0]["hand"]) == 5 and len(st["players"][0]["discard"]) == 1


def test_a_mayhem_played_through_a_card_credits_its_player_with_the_kill():
    """EX-AN-26, AN L346: "If a foe plays a Mayhem (through a card effect), that foe is the source"."""
    st = table(2, hands={0: []}, hp={1: 2})
    st["mayhem_pile"] = ["mayhem-slap-fight"]
    st["stack"].append({"prog": [{"op": "play_mayhem"}], "pc": 0, "env": {"you": 0}, "work": {}})
    run(st)
    st = step_chance(st, ["dwt-extra-dead"])
    assert st["players"][0]["trophy"] and st["mayhem_pile"] == ["mayhem-slap-fight"]


@pytest.mark.parametrize(
    "start, heal, doubled, end",
    [(22, 7, False, 25), (25, 3, False, 25), (24, 2, True, 25), (10, 4, False, 14), (10, 4, True, 18)],
)
def test_healing_stops_at_25_and_a_doubler_doubles_it(start, heal, doubled, end):
    """EX-AN-6, AN L352, L376."""
    st = table(2, hands={0: ["heal-o-matic"] if heal == 4 else []}, hp={0: start})
    if doubled:
        st["players"][0]["ongoing"] = ["marrow-baths"]
    if heal == 4:
        st = act(st, 0, type="play", card="heal-o-matic")
    else:
        st["stack"].append({"prog": [{"op": "heal", "who": "you", "n": heal}], "pc": 0, "env": {"you": 0}, "work": {}})
        run(st)
    assert st["players"][0]["hp"] == end


def test_a_doubler_doubles_mayhem_healing_too():
    """AN L376: "All of your healing doubles, even if the source is a Mayhem"."""
    st = table(2, hands={0: []}, hp={0: 10, 1: 10})
    st["players"][1]["ongoing"] = ["marrow-baths"]
    st["stack"].append(
        {
            "prog": [{"op": "_mayhem", "card": "mayhem-group-hug", "source": None}],
            "pc": 0,
            "env": {"you": 0},
            "work": {},
        }
    )
    run(st)
    assert [p["hp"] for p in st["players"]] == [14, 18]


def test_pay_4_hp_needs_4_hp_and_may_kill_you_without_a_trophy():
    """EX-AN-40, AN L390, L420."""
    st = table(2, hands={0: []}, hp={0: 3}, tiles={0: "tile-blood-price", 1: "tile-thick-skull"})
    assert {"type": "activate"} not in E.legal_actions(st, 0)
    with pytest.raises(IllegalAction):
        act(st, 0, type="activate")
    st["players"][0]["hp"] = 4
    st = act(st, 0, type="activate")
    assert st["players"][0]["hp"] == 0 or st["players"][0]["dwts"] or E.to_move(st) == [CHANCE]
    st = step_chance(st, ["dwt-extra-dead"])
    assert st["players"][0]["hp"] == 20 and not st["players"][0]["trophy"]
    assert st["turn"]["power"] == 0  # a dead payer does not get the +3
    assert {"type": "activate"} not in E.legal_actions(st, 0)  # once per turn


def test_pay_hp_gives_power_when_you_survive():
    st = table(2, hands={0: []}, hp={0: 12}, tiles={0: "tile-blood-price", 1: "tile-thick-skull"})
    st = act(st, 0, type="activate")
    assert st["players"][0]["hp"] == 8 and st["turn"]["power"] == 3


def test_the_wand_shy_token_adds_3_to_the_starter_wand_only():
    """EX-AN-55, AN L412: "Only the Starter card with the name Wand deals this extra damage"."""
    st = table(2, hands={0: ["wand", "snot-rocket"]})
    st["players"][1]["dwts"] = ["dwt-wand-shy"]
    st = wand_at(st, 0, 1)
    assert st["players"][1]["hp"] == 16
    st = act(st, 0, type="play", card="snot-rocket")
    st = choose(st, 1, "take")
    assert st["players"][1]["hp"] == 14


def test_a_death_with_an_empty_token_stack_gives_no_token_and_ends_the_game_at_end_of_turn():
    """EX-AN-34, AN L340, AN-R11."""
    st = table(2, hands={0: ["wand"]}, hp={1: 1})
    st["dwt"]["count"] = 0
    st = wand_at(st, 0, 1)
    st = run_bots(st, take_all)
    assert st["players"][1]["hp"] == 20 and st["players"][1]["dwts"] == []
    st = act(st, 0, type="end_turn")
    st = run_bots(st, take_all)
    assert st["phase"] == "over" and st["end_reason"] == "dead_wizard_tokens"


def test_swapping_tokens_needs_a_real_token_on_both_sides():
    """EX-AN-47, AN L398: a counts-as-a-token card cannot be swapped."""
    st = table(2, hands={0: ["sir-swapsalot"]})
    st["players"][0]["dwts"] = ["dwt-extra-dead"]
    st["players"][1]["ongoing"] = ["grudge-golem"]
    st = act(st, 0, type="play", card="sir-swapsalot")
    st = choose(st, 0, "yes")
    assert st["players"][0]["dwts"] == ["dwt-extra-dead"] and st["players"][1]["dwts"] == []
    st["players"][1]["dwts"] = ["dwt-patchwork"]
    st["players"][0]["hand"] = ["sir-swapsalot"]
    st = act(st, 0, type="play", card="sir-swapsalot")
    st = choose(st, 0, "yes")
    assert st["players"][0]["dwts"] == ["dwt-patchwork"] and st["players"][1]["dwts"] == ["dwt-extra-dead"]
