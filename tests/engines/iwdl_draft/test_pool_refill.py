"""Advanced Draft (Schoolyard): the pool of ten and the refill after every pick."""

from engines.iwdl_draft import ENGINE as E

from .helpers import ORDER, act, pick, start

TOP = [58, 3, 71, 21, 12, 44, 7, 30, 63, 25, 47, 10, 39, 41, 23, 50]


def test_the_top_ten_cards_form_the_face_up_pool_in_draw_order():
    """Advanced Draft (Schoolyard): draw the top 10 cards for the pool and place them face-up."""
    state = start(top=TOP)
    assert state["pool"] == TOP[:10]
    assert state["deck"][:6] == TOP[10:]
    assert len(state["deck"]) == 14


def test_after_each_pick_the_next_deck_card_joins_the_end_of_the_pool():
    """Advanced Draft (Schoolyard): each time a wizard is picked, draw a new wizard to add to the pool."""
    state = act(start(top=TOP), 1, {"type": "take_first_pick"})
    expected = list(TOP[:10])
    for n, (seat, jersey) in enumerate([(1, 21), (0, 58), (1, 63), (0, 47), (1, 3)]):
        state = pick(state, seat, jersey)
        expected.remove(jersey)
        expected.append(TOP[10 + n])
        assert state["pool"] == expected
        assert state["picks"][-1] == {
            "pick": n + 1,
            "seat": seat,
            "wizard": jersey,
            "auto": False,
            "refill": TOP[10 + n],
        }
        assert len(state["pool"]) == 10
        assert E.view(state, None)["deck_remaining"] == 14 - (n + 1)


def test_the_refills_over_a_whole_draft_come_off_the_deck_in_order():
    """Advanced Draft (Schoolyard): each refill is the next card from the top of the deck."""
    state = act(start(top=TOP), 1, {"type": "pass_first_pick"})
    deck = list(state["deck"])
    while state["phase"] == "picking":
        state = pick(state, E.to_move(state)[0], state["pool"][0])
    assert [p["refill"] for p in state["picks"]] == deck[:10]


def test_a_smaller_pool_refills_the_same_way():
    """Advanced Draft (Schoolyard) with a house-rule pool size: the same refill rule."""
    state = act(start(top=TOP, pool_size=4), 1, {"type": "take_first_pick"})
    assert state["pool"] == TOP[:4]
    state = pick(state, 1, 71)
    assert state["pool"] == [58, 3, 21, 12]


def test_when_the_deck_runs_out_the_pool_shrinks():
    """Variants, Tournaments: 24 wizards for four teams of six; the last picks empty the pool."""
    state = start("tournament")
    sizes = []
    while state["phase"] == "picking":
        state = pick(state, E.to_move(state)[0], state["pool"][0])
        sizes.append(len(state["pool"]))
    assert sizes == [10] * 14 + list(range(9, -1, -1))
    assert [p["refill"] for p in state["picks"][14:]] == [None] * 10
    assert state["deck"] == [] and sorted(j for t in state["teams"] for j in t) == ORDER
