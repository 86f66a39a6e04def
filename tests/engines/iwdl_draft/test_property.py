"""Property tests: whole drafts played by random coaches and the clock, in every format.

Hypothesis draws the shuffle, the format and options, and a seed for a bot that takes a
random legal action or the clock's auto action. After every event: nothing raises, every
enumerated action validates, no wizard is on two teams or in the pool and on a team at once,
the 24 cards are all accounted for, and every draft ends within a bounded number of steps.
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.base import CHANCE
from engines.iwdl_draft import ENGINE as E
from engines.iwdl_draft.engine import magic, spell_cost

from .helpers import ORDER

PLAYOUTS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# At most 24 picks and a choice, then each coach needs three submissions; the bot is
# allowed this many random team-building actions before it lets the clock finish.
RANDOM_BUILDING_STEPS = 40
MAX_STEPS = 1 + 25 + RANDOM_BUILDING_STEPS + 4 * 3


@st.composite
def drafts(draw):
    fmt = draw(st.sampled_from(["basic", "schoolyard", "tournament"]))
    seats = 4 if fmt == "tournament" else 2
    config = {"format": fmt, "seat_order": draw(st.permutations(range(seats)))}
    if fmt == "tournament":
        config["order"] = draw(st.sampled_from(["snake", "straight"]))
        config["team_size"] = draw(st.sampled_from([5, 6]))
    if fmt != "basic":
        config["pool_size"] = draw(st.integers(min_value=1, max_value=24))
    shuffle = draw(st.permutations(range(24)))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    auto_share = draw(st.sampled_from([0.0, 0.3, 1.0]))
    return config, seats, shuffle, seed, auto_share


def check_invariants(state):
    owners = {}
    for seat, team in enumerate(state["teams"]):
        for j in team:
            assert j not in owners, f"#{j} is on two teams"
            owners[j] = seat
    for j in state["pool"]:
        assert j not in owners, f"#{j} is in the pool and on a team"
    everything = sorted(state["pool"] + state["deck"] + list(owners)) if state["phase"] != "deal" else ORDER
    assert everything == ORDER
    assert len(state["picks"]) == sum(len(t) for t in state["teams"]) or state["format"] == "basic"
    for seat in range(state["seats"]):
        lineup, spells = state["lineups"][seat], state["spells"][seat]
        if state["ready"][seat]:
            assert spell_cost(spells) <= sum(magic(j) for j in lineup)
            assert len(lineup) == 5 and set(lineup) <= set(state["teams"][seat])


@PLAYOUTS
@given(drafts())
def test_random_drafts_never_raise_keep_wizards_on_one_team_and_always_end(draft):
    config, seats, shuffle, seed, auto_share = draft
    rng = random.Random(seed)
    state = E.setup(config, seats)
    building_steps = 0
    for _ in range(MAX_STEPS):
        movers = E.to_move(state)
        if not movers:
            break
        if movers == [CHANCE]:
            state = E.apply(state, {"kind": "chance", "outcome": list(shuffle)})
            check_invariants(state)
            continue
        seat = rng.choice(movers)
        legal = E.legal_actions(state, seat)
        for action in legal:
            E.validate(state, seat, action)
        assert legal, "a seat to move always has an action"
        if state["phase"] == "building":
            building_steps += 1
        use_clock = rng.random() < auto_share or building_steps > RANDOM_BUILDING_STEPS
        action = E.auto_action(state, seat) if use_clock else rng.choice(legal)
        state = E.apply(state, {"kind": "action", "seat": seat, "action": action})
        check_invariants(state)
        E.view(state, seat)
        E.view(state, None)
    assert E.to_move(state) == [], "the draft did not end"
    result = E.result(state)
    assert result["reason"] == "draft_complete" and len(result["teams"]) == seats
    team_size = config.get("team_size", 6 if config["format"] == "tournament" else 5)
    assert all(len(t) == team_size for t in state["teams"])


@PLAYOUTS
@given(drafts())
def test_the_clock_always_picks_a_highest_magic_wizard_from_the_pool(draft):
    config, seats, shuffle, _, _ = draft
    state = E.apply(E.setup(config, seats), {"kind": "chance", "outcome": list(shuffle)})
    while state["phase"] in ("choose_first", "picking"):
        seat = E.to_move(state)[0]
        action = E.auto_action(state, seat)
        if action["type"] == "pick":
            best = max(magic(j) for j in state["pool"])
            assert magic(action["wizard"]) == best
            assert action["wizard"] == min(j for j in state["pool"] if magic(j) == best)
        state = E.apply(state, {"kind": "action", "seat": seat, "action": action})
