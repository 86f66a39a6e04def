"""The three end conditions, VP counting and both tie-breaks (AN L183-195, L205, L340, L360,
L523-527; EX-AN-32..37)."""

from .helpers import E, act, choose, run_bots, step_chance, table, take_all


def end_turn(st, seat):
    st = act(st, seat, type="end_turn")
    return run_bots(st, take_all)


def test_the_game_ends_when_no_legend_is_left_to_flip():
    """EX-AN-32, AN L525."""
    st = table(2, hands={0: []})
    st["legend"]["down"] = 0
    st["turn"]["power"] = 20
    st = act(st, 0, type="buy", **{"from": "legend"})
    st = end_turn(st, 0)
    assert st["phase"] == "over" and st["end_reason"] == "legends" and E.to_move(st) == []


def test_the_game_ends_when_the_main_deck_cannot_refill_the_line_up():
    """EX-AN-33, AN L526: 2 cards in the main deck, 3 empty slots."""
    st = table(2, hands={0: []})
    st["main"] = ["glyph", "glyph"]
    st["turn"]["power"] = 30
    for slot in (0, 1, 2):
        st = act(st, 0, type="buy", **{"from": "lineup", "slot": slot})
    st = end_turn(st, 0)
    assert st["phase"] == "over" and st["end_reason"] == "main_deck"


def test_the_game_goes_on_while_the_main_deck_can_still_refill():
    st = table(2, hands={0: []})
    st["turn"]["power"] = 30
    st = act(st, 0, type="buy", **{"from": "lineup", "slot": 0})
    st = end_turn(st, 0)
    assert st["phase"] == "turn" and st["active"] == 1


def test_the_game_ends_at_the_end_of_the_turn_the_last_token_is_taken():
    """EX-AN-34, AN L340, L527."""
    st = table(2, hands={0: ["wand"]}, hp={1: 1})
    st["dwt"]["count"] = 1
    st = act(st, 0, type="play", card="wand")
    st = choose(st, 0, 1)
    st = choose(st, 1, "take")
    st = step_chance(st, ["dwt-extra-dead"])
    assert st["phase"] == "turn"
    st = run_bots(st, take_all)
    st = end_turn(st, 0)
    assert st["end_reason"] == "dead_wizard_tokens"


def test_vp_counts_every_card_owned_minus_tokens_and_limp_wands_and_an_unbought_familiar_is_nothing():
    """EX-AN-35, AN L191-193, L205, L310, L340."""
    st = table(2, hands={0: ["pit-weasel"]})
    p = st["players"][0]
    p["discard"] = ["crown-toppler", "limp-wand"]
    p["ongoing"] = ["spite-tower"]
    p["pool"] = ["goblet-of-grudges", "duke-of-drool", "grandpa-gutsmash"]
    p["dwts"] = ["dwt-patchwork", "dwt-extra-dead"]
    # 1 + 2 - 1 + 2 + 2 (two Legends) + 4 + 3 - 3 - 4; Familiar unbought: 0
    assert E.vp(st, 0) == 1 + 2 - 1 + 2 + 2 + 4 + 3 - 3 - 4
    assert p["familiar"] not in E.vp_breakdown(st, 0)
    p["familiar"] = "mr-wiggles"  # VP: 2 per Legend you own
    p["discard"].append("mr-wiggles")
    p["familiar_bought"] = True
    assert E.vp_breakdown(st, 0)["mr-wiggles"] == 4


def test_one_copy_of_a_set_card_scores_0_and_two_score_together():
    """EX-AN-36, AN L360."""
    st = table(2, hands={0: ["twin-skull-gourd"]})
    assert E.vp_breakdown(st, 0)["twin-skull-gourd"] == 0
    st["players"][0]["discard"] = ["twin-skull-gourd"]
    assert E.vp_breakdown(st, 0)["twin-skull-gourd"] == 4


def finish(st):
    st["phase"] = "over"
    st["end_reason"] = "legends"
    return E.result(st)


def test_a_vp_tie_goes_to_more_legends_then_fewer_tokens_then_is_shared():
    """EX-AN-37, AN L195, AN-R20."""
    st = table(3, hands={})
    for p in st["players"]:
        p["hand"], p["pool"], p["discard"], p["top"], p["dwts"] = [], [], [], [], []
    # all on 5 VP: seat 0 two Legends (4 + 4) and a token; seat 1 one Legend and a Coin; seat 2 five Coins
    st["players"][0]["discard"] = ["duke-of-drool", "madame-vertigo"]
    st["players"][0]["dwts"] = ["dwt-patchwork"]
    st["players"][1]["discard"] = ["duke-of-drool", "questionable-coin"]
    st["players"][2]["discard"] = ["questionable-coin"] * 5
    r = finish(st)
    assert r["scores"] == [5, 5, 5] and r["legends"] == [2, 1, 0]
    assert r["placements"] == [1, 2, 3] and r["winners"] == [0]
    # equal VP and Legends: fewer tokens wins
    st["players"][1]["discard"] = ["duke-of-drool", "madame-vertigo"] + ["questionable-coin"] * 3
    st["players"][1]["dwts"] = ["dwt-patchwork", "dwt-patchwork"]
    r = finish(st)
    assert r["scores"][:2] == [5, 5] and r["legends"][:2] == [2, 2] and r["dwts"][:2] == [1, 2]
    assert r["placements"][:2] == [1, 2]
    # equal in all three: a shared place
    st["players"][1]["discard"] = ["duke-of-drool", "madame-vertigo"]
    st["players"][1]["dwts"] = ["dwt-patchwork"]
    r = finish(st)
    assert r["placements"] == [1, 1, 3] and r["winners"] == [0, 1]


def test_the_round_bound_ends_bot_games_and_scores_them():
    """RULES.md "Bound": after max_rounds rounds the game is scored as at a normal end."""
    st = table(2, hands={0: []}, config={"max_rounds": 1})
    st = end_turn(st, 0)
    assert st["phase"] == "turn"
    st = end_turn(st, 1)
    assert st["phase"] == "over" and st["end_reason"] == "round_limit"
    assert E.result(st)["placements"]
