"""A turn: play, buy, end of turn in the rulebook's order, shuffling only when needed, Ongoing,
Wild Magic (AN L145-175, L241-251, L288-302, L505-521)."""

import pytest

from engines.base import CHANCE, IllegalAction

from .helpers import E, act, choose, run_bots, step_chance, table, take_all

LINEUP = ["pit-weasel", "questionable-coin", "crown-toppler", "snot-rocket", "heal-o-matic"]


def test_sample_turn_four_glyphs_buy_a_cost_4_card_fizzle_adds_nothing():
    """EX-AN-1, AN L181: 4 Glyphs give 4 Power, enough for a cost-4 card, which goes to the
    discard pile; the Fizzle adds no Power; unspent Power is lost at the end of the turn."""
    st = table(2, hands={0: ["glyph"] * 4 + ["fizzle"]}, lineup=LINEUP)
    for _ in range(4):
        st = act(st, 0, type="play", card="glyph")
    st = act(st, 0, type="play", card="fizzle")
    assert st["turn"]["power"] == 4
    st = act(st, 0, type="buy", **{"from": "lineup", "slot": 0})
    assert st["players"][0]["discard"] == ["pit-weasel"] and st["lineup"][0] is None
    assert st["turn"]["power"] == 0


def test_with_4_power_you_may_buy_cards_costing_up_to_4_but_not_5():
    """EX-AN-2, AN L151: combined cost at most your Power."""
    st = table(2, hands={0: ["glyph"] * 4}, lineup=LINEUP)
    for _ in range(4):
        st = act(st, 0, type="play", card="glyph")
    buys = [a for a in E.legal_actions(st, 0) if a["type"] == "buy" and a["from"] == "lineup"]
    assert sorted(a["slot"] for a in buys) == [0, 1, 3, 4]  # cost 4, 2, 2, 3; not the cost-5 Crown Toppler
    st = act(st, 0, type="buy", **{"from": "lineup", "slot": 1})
    st = act(st, 0, type="buy", **{"from": "lineup", "slot": 3})  # two cost-2 cards
    with pytest.raises(IllegalAction) as err:
        act(st, 0, type="buy", **{"from": "lineup", "slot": 4})
    assert err.value.code == "cannot_buy"


def test_a_slot_written_3_point_0_is_refused_in_place_and_copying_where_3_buys():
    """A slot is a JSON integer (RULES.md, "Actions and prompts"): 3.0 bought slot 3 before, as
    the legal list compares it; now the fold's step refuses it as the copying apply does, before
    the list index or any write."""
    st = table(2, hands={0: ["glyph"] * 4}, lineup=LINEUP)
    for _ in range(4):
        st = act(st, 0, type="play", card="glyph")
    want = act(st, 0, type="buy", **{"from": "lineup", "slot": 3})
    assert want["lineup"][3] is None and "snot-rocket" in want["players"][0]["discard"]
    event = {"kind": "action", "seat": 0, "action": {"type": "buy", "from": "lineup", "slot": 3.0}}
    before = repr(st)
    for step in (E.apply, lambda state, e: E.apply_in_place(E.owned_copy(state), e)):
        with pytest.raises(IllegalAction) as refused:
            step(st, event)
        assert refused.value.code == "bad_action"
        assert "whole number" in str(refused.value)
    assert repr(st) == before


def test_you_may_play_more_cards_after_buying():
    """AN L155, L508: "You may play additional cards even after making purchases"."""
    st = table(2, hands={0: ["glyph"] * 3}, lineup=LINEUP)
    st = act(st, 0, type="play", card="glyph")
    st = act(st, 0, type="play", card="glyph")
    st = act(st, 0, type="buy", **{"from": "lineup", "slot": 1})
    st = act(st, 0, type="play", card="glyph")
    assert st["turn"]["power"] == 1


def test_end_of_turn_hand_and_played_cards_go_to_discard_then_draw_5():
    """AN L167-175: hand to discard, end-of-turn effects, played cards to discard, draw 5."""
    st = table(2, hands={0: ["glyph", "glyph", "kiddo-chaos", "fizzle"]}, hp={0: 10})
    st = act(st, 0, type="play", card="kiddo-chaos")
    st = act(st, 0, type="play", card="glyph")
    st = act(st, 0, type="end_turn")
    st = run_bots(st, take_all)
    p = st["players"][0]
    assert sorted(p["discard"]) == ["fizzle", "glyph", "glyph", "kiddo-chaos"]
    assert len(p["hand"]) == 5
    assert p["hp"] == 13  # Kiddo Chaos: at the end of your turn, heal 3
    assert st["active"] == 1


def test_drawing_past_an_empty_deck_draws_what_is_left_then_shuffles_the_discard():
    """EX-AN-17, AN L243, L514-517, L521: 3 in the deck: draw them, then the discard (with this
    turn's hand and played cards) becomes the deck and 2 more are drawn."""
    st = table(2, hands={0: ["fizzle", "glyph"]}, pools={0: ["wand", "wand", "wand"]})
    st["players"][0]["discard"] = ["glyph"] * 5
    st = act(st, 0, type="play", card="glyph")
    st = act(st, 0, type="end_turn")
    assert E.to_move(st) == [CHANCE]
    spec = E.chance(st)
    assert spec["count"] == 2 and spec["pool"] == 7 and spec["visible_to"] == [0]
    st = step_chance(st, ["fizzle", "glyph"])
    assert sorted(st["players"][0]["hand"]) == ["fizzle", "glyph", "wand", "wand", "wand"]
    assert st["players"][0]["discard"] == []


def test_no_shuffle_happens_until_a_card_is_needed():
    """EX-AN-18, AN L521: an empty deck with a full discard pile stays as it is."""
    st = table(2, hands={0: ["glyph"]}, pools={0: []})
    st["players"][0]["discard"] = ["glyph"] * 6
    st = act(st, 0, type="play", card="glyph")
    assert st["players"][0]["pool"] == [] and len(st["players"][0]["discard"]) == 6


def test_only_one_legend_per_turn_and_the_next_flips_at_end_of_turn():
    """EX-AN-30, AN L231, L171."""
    st = table(2, hands={0: []})
    st["turn"]["power"] = 30
    st = act(st, 0, type="buy", **{"from": "legend"})
    assert st["legend"]["up"] is None
    assert not any(a.get("from") == "legend" for a in E.legal_actions(st, 0))
    down = st["legend"]["down"]
    st = act(st, 0, type="end_turn")
    while st["legend"]["up"] is None:
        st = step_chance(st) if E.to_move(st) == [CHANCE] else choose(st, E.to_move(st)[0], "take")
    assert st["legend"]["down"] == down - 1


def test_only_you_may_buy_your_familiar_for_6():
    """AN L203: "If you have 6 Power during your turn, you may choose to buy your Familiar"."""
    st = table(2, hands={0: []})
    st["turn"]["power"] = 5
    assert {"type": "buy", "from": "familiar"} not in E.legal_actions(st, 0)
    st["turn"]["power"] = 6
    st = act(st, 0, type="buy", **{"from": "familiar"})
    assert st["players"][0]["familiar_bought"] and st["players"][0]["discard"] == [st["players"][0]["familiar"]]
    assert {"type": "buy", "from": "familiar"} not in E.legal_actions(st, 0)


def test_limp_wands_and_mayhems_can_never_be_bought():
    """AN L129, L326."""
    st = table(2, hands={0: []})
    st["turn"]["power"] = 50
    froms = {a.get("from") for a in E.legal_actions(st, 0)}
    assert froms == {None, "lineup", "wild_magic", "legend", "familiar"}


def test_an_ongoing_card_stays_in_play_and_counts_as_played_only_that_turn():
    """EX-AN-56, AN L245-249."""
    st = table(2, hands={0: ["marrow-baths"]}, hp={0: 10})
    st = act(st, 0, type="play", card="marrow-baths")
    assert st["players"][0]["ongoing"] == ["marrow-baths"]
    assert st["turn"]["played_log"] == ["marrow-baths"]
    st = act(st, 0, type="end_turn")
    st = run_bots(st, take_all)
    assert st["players"][0]["ongoing"] == ["marrow-baths"] and "marrow-baths" not in st["players"][0]["discard"]
    st = act(st, 1, type="end_turn")
    st = run_bots(st, take_all)
    # start of seat 0's next turn: heal 2, doubled by the Baths themselves
    assert st["active"] == 0 and st["players"][0]["hp"] == 14
    assert st["turn"]["played_log"] == []


def test_wild_magic_for_2_power():
    """EX-AN-27, AN L300."""
    st = table(2, hands={0: ["wild-magic"]})
    st = act(st, 0, type="play", card="wild-magic")
    assert st["prompt"]["kind"] == "option"
    st = choose(st, 0, 0)
    assert st["turn"]["power"] == 2


def test_wild_magic_plays_a_foes_top_ongoing_card_which_becomes_yours():
    """EX-AN-28, AN L294, L302."""
    st = table(2, hands={0: ["wild-magic"]}, pools={1: ["glyph", "glyph", "spite-tower"]})
    st = act(st, 0, type="play", card="wild-magic")
    st = choose(st, 0, 1)
    assert E.chance(st)["visible_to"] == "all"  # the played card is shown to everyone
    st = step_chance(st, ["spite-tower"])
    assert st["players"][0]["ongoing"] == ["spite-tower"]
    assert "spite-tower" not in st["players"][1]["discard"]
    assert E.vp_breakdown(st, 0)["spite-tower"] == 2


def test_wild_magic_on_a_card_with_end_of_turn_text_sends_it_to_its_owners_discard_at_once():
    """EX-AN-29, AN L384: the top text resolves; the end-of-turn text never happens."""
    st = table(2, hands={0: ["wild-magic"]}, pools={1: ["kiddo-chaos", "glyph"]}, hp={0: 10})
    st = act(st, 0, type="play", card="wild-magic")
    st = choose(st, 0, 1)
    st = step_chance(st, ["kiddo-chaos"])
    assert st["turn"]["power"] == 2  # Kiddo Chaos's +2 Power is yours
    assert st["players"][1]["discard"] == ["kiddo-chaos"]
    st = act(st, 0, type="end_turn")
    st = run_bots(st, take_all)
    assert st["players"][0]["hp"] == 10


def test_wild_magic_on_a_foe_with_no_cards_does_nothing():
    """AN-R24."""
    st = table(2, hands={0: ["wild-magic"]}, pools={1: []})
    st = act(st, 0, type="play", card="wild-magic")
    st = choose(st, 0, 1)
    assert st["turn"]["power"] == 0 and E.to_move(st) == [0]


def test_a_refill_mayhem_is_resolved_by_the_active_player_then_replaced():
    """AN L159, L318-322: the refill stops for the Mayhem, which then goes to the Mayhem pile."""
    st = table(2, hands={0: []}, hp={0: 20, 1: 20})
    st["turn"]["power"] = 10
    st = act(st, 0, type="buy", **{"from": "lineup", "slot": 2})
    st = act(st, 0, type="end_turn")
    while not (E.to_move(st) == [CHANCE] and E.chance(st)["label"] == "Line-Up refill"):
        st = step_chance(st) if E.to_move(st) == [CHANCE] else choose(st, E.to_move(st)[0], "take")
    st = step_chance(st, ["mayhem-tax-day"])
    assert st["mayhem_now"] == "mayhem-tax-day"
    # Mayhem Attack: every player decides at once, listed from the active player (seat 1) clockwise
    assert E.to_move(st) == [1, 0]
    st = choose(st, 1, "take")
    assert st["players"][1]["hp"] == 20  # nothing resolves before every decision is in
    assert E.to_move(st) == [0]
    st = choose(st, 0, "take")
    assert st["players"][0]["hp"] == 17 and st["players"][1]["hp"] == 17
    assert st["mayhem_pile"][-1] == "mayhem-tax-day" and st["lineup"][2] is None
    st = step_chance(st, ["snot-rocket"])
    assert st["lineup"][2] == "snot-rocket"


@pytest.mark.parametrize("first, drawn", [("tile-underdog", 1), ("marrow-baths", 0)])
def test_several_start_of_turn_effects_resolve_in_the_order_the_player_picks(first, drawn):
    """AN L160, AN-R18: the active player orders simultaneous triggers. Seat 1 (10 HP) has the
    Baths (heal 2, doubled) and Underdog (draw if no one has fewer HP); seat 0 has 12 HP."""
    st = table(2, hands={0: []}, hp={0: 12, 1: 10}, tiles={0: "tile-wild-child", 1: "tile-underdog"})
    st["players"][1]["ongoing"] = ["marrow-baths"]
    st = act(st, 0, type="end_turn")
    while st["prompt"] is None or st["prompt"]["kind"] != "trigger":
        st = step_chance(st) if E.to_move(st) == [CHANCE] else choose(st, E.to_move(st)[0], "take")
    assert st["prompt"] == {
        "seat": 1,
        "kind": "trigger",
        "options": ["marrow-baths", "tile-underdog"],
        "why": "start_of_turn",
    }
    st = choose(st, 1, first)
    st = run_bots(st, take_all)
    assert st["players"][1]["hp"] == 14 and len(st["players"][1]["hand"]) == drawn


def test_an_attack_can_send_a_foes_ongoing_card_to_its_owners_discard():
    """AN L247: an Ongoing card stays "until an Attack might make you place it into your discard
    pile"; AN L284-286: the foe controls and owns it, the attacker picks which one."""
    st = table(2, hands={0: ["nana-pickpocket"]})
    st["players"][1]["ongoing"] = ["spite-tower", "marrow-baths"]
    st = act(st, 0, type="play", card="nana-pickpocket")
    st = choose(st, 1, "take")
    assert st["prompt"]["seat"] == 0 and st["prompt"]["why"] == "return"
    st = choose(st, 0, "spite-tower")
    assert st["players"][1]["ongoing"] == ["marrow-baths"] and st["players"][1]["discard"] == ["spite-tower"]


def test_a_legend_played_from_hand_uses_only_its_top_text():
    """AN L237-239: "The Group Attack is no longer applicable"."""
    st = table(3, hands={0: ["queen-quagmire"]})
    st = act(st, 0, type="play", card="queen-quagmire")
    assert st["turn"]["power"] == 5 and E.to_move(st) == [0]
    assert [p["hp"] for p in st["players"]] == [20, 20, 20]


def test_cards_in_the_line_up_or_a_foes_ongoing_cards_are_not_in_play_for_you():
    """AN L249: only Ongoing cards you control give you their abilities."""
    st = table(
        2,
        hands={0: ["snot-rocket"]},
        lineup=["spite-tower", "pit-weasel", "questionable-coin", "heal-o-matic", "fumbledore"],
    )
    st["players"][1]["ongoing"] = ["spite-tower"]
    st = act(st, 0, type="play", card="snot-rocket")
    st = choose(st, 1, "take")
    assert st["turn"]["power"] == 1  # no +1 from a Spite Tower you do not control


def test_wild_magic_under_wild_child_costs_2_worked_out_once_per_buy(monkeypatch):
    """Wild Child: "Wild Magic costs you 2". The buy pays the cost its test read: the seat's
    statics are asked once per buy, in place and copying (issue 17, P1: they were asked twice)."""
    st = table(2, hands={0: ["glyph"] * 3}, tiles={0: "tile-wild-child", 1: "tile-underdog"})
    for _ in range(3):
        st = act(st, 0, type="play", card="glyph")
    calls = []
    real = type(E).wild_magic_cost
    monkeypatch.setattr(
        type(E), "wild_magic_cost", lambda self, state, seat: calls.append(seat) or real(self, state, seat)
    )
    event = {"kind": "action", "seat": 0, "action": {"type": "buy", "from": "wild_magic"}}
    bought = E.apply(st, event)
    assert calls == [0] and bought["turn"]["power"] == 1 and bought["players"][0]["discard"] == ["wild-magic"]
    assert E.apply_in_place(E.owned_copy(st), event) == bought and calls == [0, 0]
    with pytest.raises(IllegalAction) as err:
        act(bought, 0, type="buy", **{"from": "wild_magic"})  # 1 Power left: not enough
    assert err.value.code == "cannot_buy"


def test_a_line_up_slot_of_true_or_1_0_is_refused_where_1_buys_slot_1():
    """A slot is a JSON integer, as the list writes it (RULES.md, "Actions and prompts"): Python's
    True == 1.0 == 1 must not make ``true`` or ``1.0`` buy slot 1, nor change anything."""
    st = table(2, hands={0: ["glyph"] * 4}, lineup=LINEUP)
    for _ in range(4):
        st = act(st, 0, type="play", card="glyph")
    assert act(st, 0, type="buy", **{"from": "lineup", "slot": 1})["players"][0]["discard"][-1] == LINEUP[1]
    before = repr(st)
    for slot in (True, 1.0):
        for check in (E.validate, lambda s, seat, a: act(s, seat, **a)):
            with pytest.raises(IllegalAction) as refused:
                check(st, 0, {"type": "buy", "from": "lineup", "slot": slot})
            assert refused.value.code == "bad_action"
            assert "whole number" in str(refused.value)
    assert repr(st) == before
