"""Bots and whole games: heuristic beats random, random playouts always end, nothing raises
(issue 11 deliverable 5)."""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import CHANCE, IllegalAction

from .helpers import E, started
from .playout import playout

PLAYOUTS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def total_cards(state):
    """Starters, main-deck cards, Wild Magic and Limp Wands wherever they are (Legends and
    Familiars join a player's cards from their own stacks, so they are left out)."""
    from engines.annihilageddon.cards import CARDS

    def counted(cards):
        return sum(1 for c in cards if c and CARDS[c]["kind"] not in ("legend", "familiar"))

    n = len(state["main"]) + counted(state["lineup"]) + counted(state["destroyed"])
    n += len(state["mayhem_pile"]) + (1 if state["mayhem_now"] else 0)
    for p in state["players"]:
        n += sum(counted(p[z]) for z in ("top", "pool", "hand", "discard", "ongoing"))
    n += counted(state["turn"]["played"]) + state["wild_magic"] + state["limp_wands"]
    n += counted(card for _, card in state["defending"]) + counted(state["turn"]["borrowed"])
    for frame in state["stack"]:
        n += counted(c for mine in (frame["work"].get("held") or {}).values() for c in mine.values())
    return n


@given(
    seats=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    heuristic=st.booleans(),
)
@PLAYOUTS
def test_random_and_heuristic_playouts_for_2_to_5_seats_never_raise_and_always_end(seats, seed, heuristic):
    bots = [("heuristic" if heuristic and s % 2 == 0 else "random") for s in range(seats)]

    def check(before, event, after):
        # HP never above 25 (AN L352); after a death the Wizard is back on its feet at once
        for p in after["players"]:
            assert p["hp"] <= 25
            if after["need"] is None and not any(
                f["prog"][f["pc"]]["op"] == "_die" for f in after["stack"] if f["pc"] < len(f["prog"])
            ):
                assert p["hp"] >= 1
        # Dead Wizard Tokens are never created or lost: the stack plus the tokens held is 4 per
        # player (AN L131, L340), and the stack never holds fewer tokens than the known returned ones
        dwt = after["dwt"]
        if not any(f["prog"][f["pc"]]["op"] == "_die" for f in after["stack"] if f["pc"] < len(f["prog"])):
            assert dwt["count"] + sum(len(p["dwts"]) for p in after["players"]) == 4 * seats
        assert dwt["count"] >= len(dwt["returned"]) >= 0

    state, n = playout(seed, seats, bots, on_event=check)
    assert E.to_move(state) == []
    result = E.result(state)
    assert sorted(result["placements"])[0] == 1 and len(result["scores"]) == seats
    assert state["round"] <= state["config"]["max_rounds"]


def test_cards_are_never_created_or_lost():
    """Starters, the main deck and the two stacks keep their total through a game (destroyed
    cards go to the destroyed pile or back onto their stacks, AN L259-263)."""

    def check(before, event, after):
        assert total_cards(after) == expected

    st0 = E.setup({}, 4)
    expected = total_cards(st0) + 0
    playout(11, 4, ["heuristic", "random", "heuristic", "random"], on_event=check)


def test_a_play_buy_or_choice_the_rules_refuse_changes_nothing():
    # The conformance suite tries every listed action and a made-up one; these are shaped like
    # real moves, so they reach the card rules' own checks before being refused.
    rng = random.Random(3)
    state = started(3)
    for _ in range(150):
        moving = E.to_move(state)
        if not moving:
            break
        if moving == [CHANCE]:
            from engines.chance import derive

            state = E.apply(state, {"kind": "chance", "outcome": derive(E.chance(state), b"x", "y", rng.randrange(99))})
            continue
        seat = moving[0]
        before = json.dumps(state, sort_keys=True)
        for bad in (
            {"type": "play", "card": "pocket-volcano"},
            {"type": "buy", "from": "limp_wand"},
            {"type": "choose", "value": "nonsense"},
            {"nope": 1},
        ):
            with pytest.raises(IllegalAction):
                E.apply(state, {"kind": "action", "seat": seat, "action": bad})
        with pytest.raises(IllegalAction):
            E.apply(state, {"kind": "action", "seat": (seat + 1) % 3, "action": {"type": "end_turn"}})
        assert json.dumps(state, sort_keys=True) == before
        state = E.apply(state, {"kind": "action", "seat": seat, "action": E.random_action(state, seat, rng)})


def heuristic_win_rate(games, seats=4):
    wins = 0
    for seed in range(games):
        seat = seed % seats
        bots = ["random"] * seats
        bots[seat] = "heuristic"
        state, _ = playout(1000 + seed, seats, bots)
        wins += seat in E.result(state)["winners"]
    return wins / games


def test_heuristic_beats_random_in_at_least_80_percent_of_four_player_games_small_sample():
    assert heuristic_win_rate(30) >= 0.8


@pytest.mark.slow
def test_heuristic_beats_random_in_at_least_80_percent_of_200_four_player_games():
    assert heuristic_win_rate(200) >= 0.8


def test_unknown_bot_is_refused():
    with pytest.raises(IllegalAction) as err:
        E.bot_action("oracle", started(2), 0, random.Random(1))
    assert err.value.code == "unknown_bot"
