"""The rest of the rulebook's card clarifications, with our own cards: passing one card to two
neighbours (AN L388), the mirror Mayhem (L392), tokens back into the stack (L394, L402), deny-
the-good-effect Mayhems (L396), the hidden pick (L408), choose-1-of-2 tokens (L370), a Legend's
Group Attack against yourself (L414) and a token gained other than at death (L416)."""

from engines.annihilageddon.interp import run

from .helpers import E, act, choose, run_bots, step_chance, table, take_all


def mayhem(st, card, you=0, source=None):
    st["stack"].append(
        {"prog": [{"op": "_mayhem", "card": card, "source": source}], "pc": 0, "env": {"you": you}, "work": {}}
    )
    run(st)
    return st


def test_passing_both_ways_with_one_card_the_passer_picks_who_gets_it():
    """EX-AN-42, AN L388."""
    st = table(3, hands={0: ["glyph", "wand"], 1: ["pit-weasel"], 2: ["fizzle", "snot-rocket"]})
    st = mayhem(st, "mayhem-neighbourly-dumping")
    for s in (0, 1, 2):
        st = choose(st, s, "take")
    # seat 0 picks a card for the left (seat 1), then for the right (seat 2)
    assert st["prompt"] == {"seat": 0, "kind": "card", "zone": "hand", "of": 0, "filter": None, "why": "pass"}
    st = choose(st, 0, "wand")
    st = choose(st, 0, "glyph")
    # seat 1 has one card: it picks the neighbour
    assert st["prompt"] == {"seat": 1, "kind": "target", "options": [2, 0], "why": "pass_to"}
    st = choose(st, 1, 0)
    st = choose(st, 2, "fizzle")  # to the left: seat 0
    st = choose(st, 2, "snot-rocket")  # to the right: seat 1
    hands = [p["hand"] for p in st["players"]]
    assert hands == [["fizzle", "pit-weasel"], ["snot-rocket", "wand"], ["glyph"]]


def test_under_the_mirror_mayhem_your_attack_targets_you_and_you_may_defend():
    """EX-AN-43, AN L392: "You are the target of your own Attacks ... You may utilize Defenses
    to avoid your own Attacks"."""
    st = table(3, hands={0: ["mind-sieve", "moat-goblin", "glyph", "wand"]})
    st = mayhem(st, "mayhem-mirror-madness")
    st = act(st, 0, type="play", card="mind-sieve")
    assert st["prompt"]["kind"] == "defend" and E.to_move(st) == [0]
    st = choose(st, 0, "take")
    # you decide as your own foe: you discard 2 of your own cards
    st = choose(st, 0, "glyph")
    st = choose(st, 0, "wand")
    assert st["players"][0]["hand"] == ["moat-goblin"]
    assert [p["hand"] for p in st["players"]][1:] == [[], []] and E.to_move(st) == [0]


def test_under_the_mirror_mayhem_a_defense_avoids_your_own_attack():
    st = table(3, hands={0: ["snot-rocket", "moat-goblin"]}, pools={0: ["glyph"] * 3})
    st = mayhem(st, "mayhem-mirror-madness")
    st = act(st, 0, type="play", card="snot-rocket")
    st = choose(st, 0, "moat-goblin")
    st = run_bots(st, take_all)
    assert [p["hp"] for p in st["players"]] == [20, 20, 20]


def test_the_mirror_ends_with_the_turn():
    st = table(2, hands={0: []})
    st = mayhem(st, "mayhem-mirror-madness")
    assert st["temp"] == {"0": {"self_target": True}, "1": {"self_target": True}}
    st = act(st, 0, type="end_turn")
    st = run_bots(st, take_all)
    assert st["temp"] == {}


def test_a_deny_mayhem_asks_everyone_first_and_a_defense_cancels_the_good_effect_for_others():
    """EX-AN-44, AN L396, AN-R27: "the weakest player(s) heal 5"; a non-recipient defends."""
    st = table(3, active=1, hands={0: ["moat-goblin"]}, hp={0: 20, 1: 8, 2: 8})
    st = mayhem(st, "mayhem-charity-gala", you=1)
    assert E.to_move(st) == [1, 2, 0]  # every player, listed from the active player clockwise
    for seat in (1, 2, 0):
        assert [p["hp"] for p in st["players"]] == [20, 8, 8]  # nothing before every decision
        st = choose(st, seat, "moat-goblin" if seat == 0 else "take")
    st = run_bots(st, take_all)
    assert [p["hp"] for p in st["players"]] == [20, 8, 8]


def test_a_deny_mayhem_nobody_denies_heals_every_tied_weakest_player():
    st = table(3, active=1, hands={}, hp={0: 20, 1: 8, 2: 8})
    st = mayhem(st, "mayhem-charity-gala", you=1)
    st = run_bots(st, take_all)
    assert [p["hp"] for p in st["players"]] == [20, 13, 13]


def test_a_beneficiary_who_defends_keeps_their_own_benefit():
    """AN-R27: the Defense denies the effect to the other beneficiaries only."""
    st = table(3, active=1, hands={1: ["moat-goblin"]}, hp={0: 20, 1: 8, 2: 8})
    st = mayhem(st, "mayhem-charity-gala", you=1)
    st = choose(st, 1, "moat-goblin")
    st = run_bots(st, take_all)
    assert [p["hp"] for p in st["players"]] == [20, 13, 8]


def test_discarding_a_token_puts_it_back_in_the_stack_and_its_past_effects_stay():
    """EX-AN-48, AN L402: the one way to remove a token; the stack is shuffled after."""
    st = table(2, hands={0: ["sugarsnap"]}, pools={0: ["glyph", "glyph"]}, hp={0: 11})
    st["players"][0]["dwts"] = ["dwt-patchwork"]
    st["dwt"]["count"] = 5
    st = act(st, 0, type="play", card="sugarsnap")
    assert "token:dwt-patchwork" in E.prompt_options(st)
    st = choose(st, 0, "token:dwt-patchwork")
    assert st["players"][0]["dwts"] == [] and st["players"][0]["hp"] == 11
    assert st["dwt"]["count"] == 6 and st["dwt"]["returned"] == ["dwt-patchwork"]
    assert st["players"][0]["hand"] == ["glyph", "glyph"]


def test_a_returned_token_can_come_up_again_in_a_fair_draw():
    """A die over the whole stack says whether a known returned token or an unknown one comes up."""
    st = table(2, hands={0: ["wand"]}, hp={1: 1})
    st["dwt"] = {"count": 3, "unseen": st["dwt"]["unseen"], "returned": ["dwt-patchwork"]}
    st = act(st, 0, type="play", card="wand")
    st = choose(st, 0, 1)
    st = choose(st, 1, "take")
    assert E.chance(st) == {"kind": "dice", "dice": [[0, 2]], "label": "Dead Wizard Token: which one in the stack"}
    st = E.apply(st, {"kind": "chance", "outcome": [0]})
    assert st["players"][1]["dwts"] == ["dwt-patchwork"] and st["players"][1]["hp"] == 11
    assert st["dwt"] == {"count": 2, "unseen": st["dwt"]["unseen"], "returned": []}


def test_an_unknown_slot_draws_from_the_unseen_tokens():
    st = table(2, hands={0: ["wand"]}, hp={1: 1})
    st["dwt"] = {"count": 3, "unseen": st["dwt"]["unseen"], "returned": ["dwt-patchwork"]}
    st = act(st, 0, type="play", card="wand")
    st = choose(st, 0, 1)
    st = choose(st, 1, "take")
    st = E.apply(st, {"kind": "chance", "outcome": [2]})
    assert E.chance(st)["kind"] == "draw" and E.chance(st)["visible_to"] == "all"
    st = step_chance(st, ["dwt-extra-dead"])
    assert st["players"][1]["dwts"] == ["dwt-extra-dead"] and st["dwt"]["returned"] == ["dwt-patchwork"]


def test_counts_as_a_token_cards_are_not_returned_to_the_stack():
    """AN L394: "Huge Boners are not actual Dead Wizard Tokens and will not be placed into the pile"."""
    st = table(2, hands={0: []})
    st["players"][0]["ongoing"] = ["grudge-golem"]
    st["players"][1]["dwts"] = ["dwt-extra-dead", "dwt-patchwork"]
    count = st["dwt"]["count"]
    st = mayhem(st, "mayhem-afterlife-amnesty")
    assert st["prompt"] == {"seat": 1, "kind": "token", "options": ["dwt-extra-dead", "dwt-patchwork"], "why": "return"}
    st = choose(st, 1, "dwt-extra-dead")
    assert st["players"][0]["ongoing"] == ["grudge-golem"] and st["players"][1]["dwts"] == ["dwt-patchwork"]
    assert st["dwt"]["count"] == count + 1


def test_the_hidden_pick_is_made_only_after_the_target_declines_and_shown_then():
    """EX-AN-50, AN L408."""
    st = table(2, hands={0: ["wand-of-oinkus", "limp-wand", "glyph"]})
    st = act(st, 0, type="play", card="wand-of-oinkus")
    assert st["prompt"]["kind"] == "defend" and E.to_move(st) == [1]
    st = choose(st, 1, "take")
    assert st["prompt"] == {"seat": 0, "kind": "card", "zone": "hand", "of": 0, "filter": None, "why": "give"}
    st = choose(st, 0, "limp-wand")
    assert st["players"][1]["hand"] == ["limp-wand"]


def test_the_hidden_pick_is_never_made_if_the_target_defends_or_redirects():
    for defense in ("moat-goblin", "skitters"):
        st = table(2, hands={0: ["wand-of-oinkus", "limp-wand"], 1: [defense]}, pools={1: ["glyph"] * 3})
        st = act(st, 0, type="play", card="wand-of-oinkus")
        st = choose(st, 1, defense)
        st = run_bots(st, take_all)
        assert st["players"][0]["hand"] == ["limp-wand"] and "limp-wand" not in st["players"][1]["hand"]


def test_choose_one_of_two_tokens_on_a_kill_gives_the_victim_one():
    """EX-AN-51, AN L370: "You give your dead foe their Dead Wizard Token for this death. They
    do not gain 2 tokens. Shuffle the other token back into the stack"."""
    st = table(2, hands={0: ["fatality-fiend"]}, hp={1: 3})
    count = st["dwt"]["count"]
    st = act(st, 0, type="play", card="fatality-fiend")
    st = choose(st, 1, "take")
    st = step_chance(st, ["dwt-patchwork"])
    st = step_chance(st, ["dwt-extra-dead"])
    assert st["prompt"] == {
        "seat": 0,
        "kind": "token",
        "options": ["dwt-extra-dead", "dwt-patchwork"],
        "why": "fatality",
    }
    st = choose(st, 0, "dwt-extra-dead")
    assert st["players"][1]["dwts"] == ["dwt-extra-dead"] and st["players"][1]["hp"] == 20
    assert st["dwt"]["returned"] == ["dwt-patchwork"] and st["dwt"]["count"] == count - 1
    assert st["players"][0]["trophy"]


def test_a_legends_group_attack_against_yourself_passes_to_yourself():
    """EX-AN-54, AN L414."""
    st = table(2, hands={0: ["wand"], 1: ["pit-weasel", "glyph"]}, hp={1: 1})
    st["legend"]["up"] = "count-backwards"  # Group Attack: each player passes a card to the left
    st = act(st, 0, type="play", card="wand")
    st = choose(st, 0, 1)
    st = choose(st, 1, "take")
    st = step_chance(st, ["dwt-legend-echo"])
    assert st["prompt"]["kind"] == "defend" and E.to_move(st) == [1]  # you may still defend
    st = choose(st, 1, "take")
    st = choose(st, 1, "pit-weasel")
    st = run_bots(st, take_all)
    assert st["players"][1]["hand"] == ["glyph", "pit-weasel"]
    assert st["players"][0]["hand"] == ["glyph", "glyph"]  # the two cards the Wand kill drew


def test_a_grudge_token_gained_by_a_swap_does_nothing():
    """EX-AN-22, AN L416: "If you gain this at a time other than immediately after your death,
    it has no effect"."""
    st = table(2, hands={0: ["sir-swapsalot"]})
    st["players"][0]["dwts"] = ["dwt-extra-dead"]
    st["players"][1]["dwts"] = ["dwt-grudge"]
    st = act(st, 0, type="play", card="sir-swapsalot")
    st = choose(st, 0, "yes")
    assert st["players"][0]["dwts"] == ["dwt-grudge"]
    assert [p["hp"] for p in st["players"]] == [20, 20]


def test_paying_hp_again_and_again_needs_4_hp_each_time_and_stops_at_death():
    """AN L390 (Mayhem D): "You must have at least 4 HP to use this ability ... If you die, you
    cannot continue using this ability"."""
    st = table(2, hands={}, hp={0: 9, 1: 3}, pools={0: ["glyph"] * 5})
    st = mayhem(st, "mayhem-blood-bank")
    st = choose(st, 0, "yes")
    st = step_chance(st)
    assert st["players"][0]["hp"] == 5 and len(st["players"][0]["hand"]) == 1
    st = choose(st, 0, "yes")
    st = step_chance(st)
    assert st["players"][0]["hp"] == 1 and len(st["players"][0]["hand"]) == 2
    # 1 HP left: no more offers to seat 0; seat 1 (3 HP) is never asked
    assert st["prompt"] is None and st["mayhem_pile"][-1] == "mayhem-blood-bank"


def test_paying_into_death_is_a_self_kill():
    st = table(2, hands={}, hp={0: 4, 1: 3})
    st = mayhem(st, "mayhem-blood-bank")
    st = choose(st, 0, "yes")
    st = step_chance(st, ["dwt-grudge"])  # "the Wizard who killed you" is yourself (AN L416)
    assert st["players"][0]["hp"] == 12 and not st["players"][0]["trophy"]
    assert len(st["players"][0]["hand"]) == 0  # a dead payer gets no card


def test_a_mayhem_played_from_a_legend_is_replayed_with_its_player_as_source():
    """AN L346 with our Count Backwards: the top of the Mayhem pile is played again."""
    st = table(2, hands={0: ["count-backwards"]}, hp={1: 2})
    st["mayhem_pile"] = ["mayhem-group-hug", "mayhem-slap-fight"]
    st = act(st, 0, type="play", card="count-backwards")
    st = step_chance(st, ["dwt-extra-dead"])
    assert st["players"][0]["trophy"] and st["turn"]["power"] == 3
    assert st["mayhem_pile"] == ["mayhem-group-hug", "mayhem-slap-fight"]
