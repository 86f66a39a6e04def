"""Mayhems, Legends and the rulebook's card clarifications, reproduced with our own cards
(AN L229-239, L316-326, L350-422; EX-AN-15, 16, 31, 38, 39, 41, 45, 46, 49, 52, 53)."""

from engines.annihilageddon.interp import run
from engines.base import CHANCE

from .helpers import E, act, choose, run_bots, step_chance, table, take_all


def mayhem(st, card, you=0, source=None):
    st["stack"].append(
        {"prog": [{"op": "_mayhem", "card": card, "source": source}], "pc": 0, "env": {"you": you}, "work": {}}
    )
    run(st)
    return st


def test_gaining_a_mayhem_from_the_main_deck_destroys_it_with_no_replacement():
    """EX-AN-15, AN L269, L326."""
    st = table(2, hands={0: ["bag-of-tricks"]})
    st = act(st, 0, type="play", card="bag-of-tricks")
    st = step_chance(st, ["mayhem-tax-day"])
    assert st["mayhem_pile"][-1] == "mayhem-tax-day"
    assert st["players"][0]["discard"] == [] and E.to_move(st) == [0]
    assert [p["hp"] for p in st["players"]] == [20, 20]


def test_each_player_may_gain_the_main_deck_top_and_each_who_does_destroys_their_deck_top():
    """EX-AN-16, AN L273-275 (our Mayhem: Free Lunch)."""
    st = table(2, hands={0: []}, pools={0: ["fizzle", "glyph"], 1: ["glyph"]})
    st = mayhem(st, "mayhem-free-lunch")
    st = choose(st, 0, "yes")
    st = step_chance(st, ["pit-weasel"])
    st = step_chance(st, ["fizzle"])
    st = choose(st, 1, "no")
    assert st["players"][0]["discard"] == ["pit-weasel"] and st["destroyed"] == ["fizzle"]
    assert st["players"][1]["pool"] == ["glyph"]


def test_a_new_legends_group_attack_asks_and_resolves_from_the_player_about_to_take_a_turn():
    """EX-AN-31, AN L233-235: 4 players, seat 1 ends its turn: prompts 2, 3, 0, 1 (all at once,
    listed in that order); a kill by a Legend gives no Trophy (AN L346)."""
    st = table(4, active=1, hands={1: []}, hp={0: 3})
    st["legend"]["up"] = None
    st = act(st, 1, type="end_turn")
    assert E.chance(st)["label"] == "Flip the next Legend"  # seat 1 drew its 5 Glyphs (all it had)
    st = step_chance(st, ["queen-quagmire"])
    assert st["prompt"]["kind"] == "defend" and E.to_move(st) == [2, 3, 0, 1]
    for seat in (2, 3, 0, 1):
        st = choose(st, seat, "take")
    st = step_chance(st, ["dwt-extra-dead"])
    assert [p["hp"] for p in st["players"]][1:] == [17, 17, 17]
    assert not any(p["trophy"] for p in st["players"])


def test_a_typed_discard_leaves_limp_wands_and_wild_magic_in_hand():
    """EX-AN-38, AN L290, L310: Limp Wand and Wild Magic have no card type."""
    st = table(2, hands={0: ["snot-rocket", "limp-wand", "wild-magic", "glyph"]})
    st["stack"].append(
        {
            "prog": [{"op": "discard", "who": "you", "n": "all", "filter": {"type": "Spell"}}],
            "pc": 0,
            "env": {"you": 0},
            "work": {},
        }
    )
    run(st)
    assert st["players"][0]["hand"] == ["glyph", "limp-wand", "wild-magic"]


def test_destroyed_limp_wands_and_wild_magic_go_back_to_their_stacks():
    """EX-AN-39, AN L263, L296, L312."""
    st = table(2, hands={0: ["madame-sneer", "limp-wand", "wild-magic"]})
    limp, wild = st["limp_wands"], st["wild_magic"]
    st = act(st, 0, type="play", card="madame-sneer")
    st = choose(st, 0, "hand:limp-wand")
    assert st["limp_wands"] == limp + 1 and st["destroyed"] == []
    st["players"][0]["hand"].append("madame-sneer")
    st = act(st, 0, type="play", card="madame-sneer")
    st = choose(st, 0, "hand:wild-magic")
    assert st["wild_magic"] == wild + 1


def test_a_card_played_via_wild_magic_counts_for_the_two_different_wizards_tile():
    """EX-AN-41, AN L422."""
    st = table(
        2,
        hands={0: ["fumbledore", "wild-magic"]},
        pools={1: ["pit-weasel"]},
        tiles={0: "tile-menagerie", 1: "tile-thick-skull"},
    )
    st = act(st, 0, type="play", card="fumbledore")
    st = step_chance(st) if E.to_move(st) == [CHANCE] else st
    assert st["turn"]["power"] == 2
    st = act(st, 0, type="play", card="wild-magic")
    st = choose(st, 0, 1)
    st = step_chance(st, ["pit-weasel"]) if E.to_move(st) == [CHANCE] else st
    st = choose(st, 1, "take")
    assert st["turn"]["power"] == 2 + 2 + 2  # Fumbledore, Pit Weasel, the tile


def test_expando_skips_a_player_with_no_card_costing_5_or_more():
    """EX-AN-45, AN L368."""
    st = table(2, hands={0: []})
    st["players"][1]["discard"] = ["crown-toppler"]
    st = mayhem(st, "mayhem-expando")
    st = run_bots(st, take_all)
    assert [p["hp"] for p in st["players"]] == [20, 16]


def test_damage_per_defense_in_discard_may_be_zero():
    """EX-AN-46, AN L400."""
    st = table(3, hands={0: ["gutter-comet"]})
    st = act(st, 0, type="play", card="gutter-comet")
    st = run_bots(st, take_all)
    assert [p["hp"] for p in st["players"]] == [20, 20, 20]


def test_reveal_five_with_a_short_deck_reshuffles_the_discard_mid_way():
    """EX-AN-49, AN L386: reveal 3, shuffle the discard, reveal 2 more, discard cost >= 1, rest
    back on top."""
    st = table(2, hands={0: ["lickity-whatnot"]}, pools={0: ["glyph", "pit-weasel", "fizzle"]})
    st["players"][0]["discard"] = ["snot-rocket", "glyph", "wand"]
    st = act(st, 0, type="play", card="lickity-whatnot")
    assert E.chance(st) is None or E.chance(st)["visible_to"] == "all"
    st = step_chance(st, ["snot-rocket", "glyph"])
    p = st["players"][0]
    assert sorted(p["top"]) == ["fizzle", "glyph", "glyph"]
    assert sorted(p["discard"]) == ["pit-weasel", "snot-rocket"] and p["pool"] == ["wand"]


def test_the_standee_triggers_when_a_group_attack_destroys_its_holders_card():
    """EX-AN-52, AN L358."""
    st = table(2, hands={0: ["lord-tentacular"]}, pools={0: ["fizzle", "glyph"], 1: ["glyph", "glyph"]})
    st = act(st, 0, type="play", card="lord-tentacular")
    assert st["players"][0]["standee"] == "sunken-throne"
    st["stack"].append(
        {
            "prog": st["legend"]["up"]
            and [
                {
                    "op": "attack",
                    "who": "each_player",
                    "do": [{"op": "destroy", "who": "it", "from": "deck_top", "n": 1}],
                }
            ],
            "pc": 0,
            "env": {"you": 1, "group": True, "source": None, "card": "lord-tentacular"},
            "work": {},
        }
    )
    run(st)
    st = choose(st, 1, "take")
    st = choose(st, 0, "take")
    st = step_chance(st, ["glyph"])
    st = step_chance(st, ["fizzle"])
    assert st["players"][1]["hp"] == 19  # seat 0's card was destroyed: each foe of seat 0 takes 1


def test_cannot_avoid_mayhem_attacks_token_still_lets_you_decline_a_mayhem():
    """EX-AN-53, AN L366, L324."""
    st = table(2, hands={0: [], 1: ["moat-goblin"]}, hp={0: 10, 1: 10})
    st["players"][1]["dwts"] = ["dwt-mayhem-magnet"]
    st = mayhem(st, "mayhem-tax-day")
    assert st["prompt"]["kind"] == "defend" and E.to_move(st) == [0, 1]
    assert E.prompt_options(st, 1) == ["take"]  # the token forbids the Defense
    st = choose(st, 0, "take")
    st = choose(st, 1, "take")
    assert [p["hp"] for p in st["players"]] == [7, 7]
    st["players"][1]["ongoing"] = ["bouncy-dungeon"]
    st = mayhem(st, "mayhem-group-hug")
    assert st["prompt"] == {"seat": 1, "kind": "decline", "card": "mayhem-group-hug"}
    st = choose(st, 1, "decline")
    assert [p["hp"] for p in st["players"]] == [11, 7]


def test_a_declining_player_takes_no_part_in_a_mayhem_attack():
    """AN L324: "automatically avoids the Attack"."""
    st = table(2, hands={0: []})
    st["players"][0]["ongoing"] = ["bouncy-dungeon"]
    st = mayhem(st, "mayhem-limp-parade")
    st = choose(st, 0, "decline")
    assert E.to_move(st) == [1] and st["prompt"]["kind"] == "defend"
    st = choose(st, 1, "take")
    assert st["players"][0]["discard"] == [] and st["players"][1]["discard"] == ["limp-wand"]


def test_must_put_matching_cards_into_hand():
    """AN L356: "If there is a card of the type indicated, you must put it into your hand"."""
    st = table(2, hands={0: ["deck-sniffer"]}, pools={0: ["snot-rocket", "glyph", "mind-sieve", "fizzle"]})
    st = act(st, 0, type="play", card="deck-sniffer")
    st = step_chance(st, ["snot-rocket", "glyph", "mind-sieve"])
    assert st["players"][0]["hand"] == ["mind-sieve", "snot-rocket"]
    assert st["players"][0]["discard"] == ["glyph"]


def test_output_counts_standees_and_ongoing_tokens_you_control():
    """AN L378: standees and Ongoing Dead Wizard Tokens count as Ongoing you control."""
    st = table(2, hands={0: ["baron-tallyho"]})
    st["players"][0]["ongoing"] = ["spite-tower"]
    st["players"][0]["dwts"] = ["dwt-wand-shy", "dwt-patchwork"]
    st["players"][0]["trophy"] = True
    st = act(st, 0, type="play", card="baron-tallyho")
    assert st["turn"]["power"] == 2 + 3


def test_a_counts_as_a_token_card_adds_one_to_your_token_count():
    """AN L374, L380."""
    st = table(2, hands={0: ["grave-accountant"]})
    st["players"][0]["dwts"] = ["dwt-extra-dead"]
    st["players"][0]["ongoing"] = ["grudge-golem"]
    st = act(st, 0, type="play", card="grave-accountant")
    assert st["turn"]["power"] == 1 + 2


def test_gaining_from_the_line_up_takes_a_matching_card_free_and_leaves_the_slot_empty():
    """AN L265-267: a gained card costs nothing and goes where the card says (here: your hand);
    with nothing that matches, nothing is gained."""
    st = table(
        2,
        hands={0: ["professor-paradox", "professor-paradox"]},
        lineup=["pocket-volcano", "pit-weasel", "cosmic-bouncer", "crown-toppler", "questionable-coin"],
    )
    st = act(st, 0, type="play", card="professor-paradox")
    assert st["prompt"] == {"seat": 0, "kind": "slot", "options": [1, 3, 4], "why": "gain"}
    st = choose(st, 0, 3)
    assert st["players"][0]["hand"] == ["crown-toppler", "professor-paradox"] and st["lineup"][3] is None
    assert st["turn"]["power"] == 4
    st["lineup"] = ["pocket-volcano", None, "cosmic-bouncer", None, None]
    st = act(st, 0, type="play", card="professor-paradox")
    assert st["players"][0]["hand"] == ["crown-toppler"] and E.to_move(st) == [0]
