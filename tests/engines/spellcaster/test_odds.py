"""Exact odds of SpellCaster's chance events: hand-computed contests, captures and draws, and agreement
with what the engine did over autoplayed games."""

from fractions import Fraction as F

from .helpers import E, act, at, fresh_turn, roll, started
from .playouts import playout
from .test_contests_of_wills import contested
from .test_wild_spells_and_capture import capture_state


def by_label(odds, words):
    return next(s for s in odds.stakes if words in s.label)


def test_a_contest_of_wills_needing_a_margin_of_4_is_won_21_times_in_100_with_equal_tokens():
    """Rulebook L150-162: the caster wins by 4 or more (discarding the opponent's token), by 2 or 3, or
    the opponent breaks the spell by 5 or more. With equal tokens a d10 difference of k >= 0 comes up
    10 - k times in 100: 4 or more is 6+5+4+3+2+1 = 21, 2 or more adds 8+7 = 36, -5 or less is 15."""
    st = contested()
    caster, opponent = (st["casters"][s]["tokens"] for s in (0, 1))
    assert caster == opponent  # the case is the equal-token one
    odds = E.chance_odds(st, [7, 3])
    assert odds.p_outcome == F(1, 100)
    wins, discard, broken = (by_label(odds, w) for w in ("(by 2 or more)", "by 4 or more", "broken"))
    assert (wins.p, discard.p, broken.p) == (F(36, 100), F(21, 100), F(15, 100))
    assert wins.happened and discard.happened and not broken.happened
    assert (discard.favours, discard.hurts, broken.favours, broken.hurts) == (0, 1, 1, 0)
    # lucky by (1 - 36/100) + (1 - 21/100) - (0 - 15/100) for the caster, the opponent the mirror image
    assert odds.luck() == {0: F(158, 100), 1: F(-158, 100)}


def test_unused_tokens_shift_the_bands():
    """Rulebook L146-148 (EX-SC-5): 5 unused tokens against 2. The caster wins by 4 or more when its die is
    higher (45 pairs), by 2 or more when it is at most 1 lower (45 + 10 + 9 = 64), and is broken when it
    is 8 or more lower: (1, 9), (1, 10), (2, 10)."""
    st = contested(sheets={1: {"life_force": 2, "will": 0, "focus": 2, "skill": 2}})
    odds = E.chance_odds(st, [3, 7])
    assert [(s.p, s.happened) for s in odds.stakes] == [(F(64, 100), False), (F(45, 100), False), (F(3, 100), False)]
    assert roll(st, 3, 7)["last"]["band"] == "locked"  # the case the odds call "none of them"


def test_a_capture_with_two_tokens_left_succeeds_7_times_in_10():
    """Rulebook L231-236: 1d10 + unused tokens, 6 or more: with two left, 4 to 10."""
    st = capture_state(2)
    (capture,) = E.chance_odds(st, [3]).stakes
    assert (capture.p, capture.happened, capture.favours) == (F(7, 10), False, 0)
    assert E.chance_odds(st, [4]).stakes[0].happened


def test_drawing_the_five_from_a_ten_card_element_deck_is_1_in_10_and_then_a_three_is_3_in_9():
    """Rulebook L118-125: six 1s, three 3s and one 5 per element, drawn face down one at a time.
    The stake is the highest value left: the 5 while it is in the pool, then a 3."""
    st = started()
    at(st, 0, "C")
    fresh_turn(st, 0)
    st = act(st, 0, type="conjure", cards=3)
    st = act(st, 0, type="draw", **{"from": "fire"})
    pool = E.draw_pool(st)
    assert len(pool) == 10
    five = pool.index("0-fire-5-a")
    (stake,) = E.chance_odds(st, [five]).stakes
    assert (stake.p, stake.happened, stake.favours) == (F(1, 10), True, 0)
    assert E.chance_odds(st, [five]).p_outcome == F(1, 10)
    assert not E.chance_odds(st, [pool.index("0-fire-1-a")]).stakes[0].happened
    st = roll(st, five)
    st = act(st, 0, type="draw", **{"from": "fire"})
    (stake,) = E.chance_odds(st, [E.draw_pool(st).index("0-fire-3-a")]).stakes
    assert (stake.p, stake.happened) == (F(3, 9), True)
    assert "draws a 3" in stake.label


def test_who_goes_first_is_one_seat_in_n():
    st = E.setup({}, 3)
    for s in range(3):
        st = act(st, s, type="allocate", life_force=2, will=1, focus=1, skill=2)
    odds = E.chance_odds(st, [2])
    assert odds.p_outcome == F(1, 3)
    assert [(s.p, s.happened, s.favours) for s in odds.stakes] == [
        (F(1, 3), False, 0),
        (F(1, 3), False, 1),
        (F(1, 3), True, 2),
    ]


def test_the_stakes_agree_with_what_the_engine_recorded_in_autoplayed_games():
    """The band, the capture and the card drawn: what the odds say happened is what the engine did."""
    seen = {"contest": 0, "capture": 0, "draw": 0}

    def check(before, event, after):
        if event["kind"] != "chance":
            return
        odds = E.chance_odds(before, event["outcome"])
        assert 0 < odds.p_outcome <= 1 and all(0 < s.p < 1 for s in odds.stakes)
        last = after["last"]
        if before["phase"] == "play" and before["stack"][-1]["p"] == "contest" and last["kind"] == "contest":
            seen["contest"] += 1
            assert by_label(odds, "(by 2 or more)").happened == (last["band"] in ("win_discard", "win_return"))
        elif before["phase"] == "play" and before["stack"][-1]["p"] == "contest":
            seen["capture"] += 1
            assert all(s.happened == last["captured"] for s in odds.stakes)
        elif before["phase"] == "play":
            seen["draw"] += 1

    for seed in range(3):
        playout(seed, n=2 + seed % 2, bots={0: "heuristic", 1: "heuristic"}, max_events=1500, every=check)
    assert seen["contest"] and seen["draw"]
