"""Double elimination: structure, drop-in placement, grand final and reset, corrections."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from league.tournaments.brackets import champion, double_elimination, dropin_order, resolve


def play(bracket, seeds, winner_of):
    results = {}
    while True:
        state = resolve(bracket, seeds, results)
        ready = [m for m in bracket.matches if state[m.id].status == "ready"]
        if not ready:
            return results, state
        for m in ready:
            a, b = state[m.id].players
            w = winner_of(m, a, b)
            results[m.id] = (w, b if w == a else a)


def losses(state):
    count = Counter()
    for s in state.values():
        if s.status == "done":
            count[s.loser] += 1
    return count


def possible_rematch_rounds(bracket):
    """For each losers' round: how many of its matches could pair two players who already
    met in the winners' bracket, judged from the sources alone.

    A player who lost winners' match X has played exactly the matches on one path up to X,
    all inside X's subtree. Players from X and from Y can have met only if one of X, Y lies
    in the other's subtree.
    """
    by_id = {m.id: m for m in bracket.matches}

    def subtree(mid):
        found = {mid}
        for s in by_id[mid].sources:
            if s.kind == "winner" and by_id[s.ref].bracket == "winners":
                found |= subtree(s.ref)
        return found

    def origins(source):
        if source.kind == "loser" and by_id[source.ref].bracket == "winners":
            return {source.ref}
        if source.kind == "winner" and by_id[source.ref].bracket == "losers":
            return set().union(*(origins(s) for s in by_id[source.ref].sources))
        return set()

    per_round = Counter()
    for m in bracket.matches:
        if m.bracket != "losers":
            continue
        left, right = (origins(s) for s in m.sources)
        crossed = any(x in subtree(y) or y in subtree(x) for x in left for y in right)
        per_round[m.round] += int(crossed)
    return [per_round[r] for r in sorted(per_round)]


def test_sixteen_players_give_four_winners_rounds_six_losers_rounds_a_final_and_a_reset():
    bracket = double_elimination(16)
    assert [len(r) for r in bracket.rounds("winners")] == [8, 4, 2, 1]
    assert [len(r) for r in bracket.rounds("losers")] == [4, 4, 2, 2, 1, 1]
    assert len(bracket.matches) == 2 * 16 - 2 + 1
    gf = bracket.rounds("grand_final")[0][0]
    reset = bracket.rounds("reset")[0][0]
    wb_final = bracket.rounds("winners")[-1][0]
    lb_final = bracket.rounds("losers")[-1][0]
    assert [str(s) for s in gf.sources] == [f"winner of {wb_final.id}", f"winner of {lb_final.id}"]
    assert [str(s) for s in reset.sources] == [f"winner of {gf.id}", f"loser of {gf.id}"]
    assert reset.conditional and not gf.conditional


def test_losers_round_one_pairs_first_round_losers_and_later_rounds_take_the_drop_ins():
    bracket = double_elimination(8)
    w1 = bracket.rounds("winners")[0]
    l1, l2 = bracket.rounds("losers")[:2]
    assert [str(s) for s in l1[0].sources] == [f"loser of {w1[0].id}", f"loser of {w1[1].id}"]
    # Every drop-in match has one losers'-bracket survivor and one winners' loser.
    for m in l2:
        assert [s.kind for s in m.sources] == ["winner", "loser"]


def test_dropped_players_are_placed_so_that_early_losers_rounds_have_no_possible_rematch():
    # Straight placement would give a possible rematch in every second-round match.
    assert possible_rematch_rounds(double_elimination(16)) == [0, 0, 0, 2, 1, 1]
    assert possible_rematch_rounds(double_elimination(64)) == [0, 0, 0, 0, 0, 0, 2, 2, 1, 1]
    assert possible_rematch_rounds(double_elimination(128))[:7] == [0] * 7


def test_the_drop_in_placement_cycles_reversed_halves_swapped_and_halves_reversed():
    assert dropin_order(4, 1) == [3, 2, 1, 0]
    assert dropin_order(4, 2) == [2, 3, 0, 1]
    assert dropin_order(4, 3) == [1, 0, 3, 2]
    assert dropin_order(1, 2) == [0]


def test_when_the_winners_champion_takes_the_grand_final_the_reset_is_not_needed():
    bracket = double_elimination(16)
    seeds = list(range(1, 17))
    _, state = play(bracket, seeds, lambda m, a, b: min(a, b))
    reset = bracket.rounds("reset")[0][0]
    assert state[reset.id].status == "not_needed"
    assert champion(bracket, state) == 1
    assert set(state[bracket.rounds("grand_final")[0][0].id].players) == {1, 2}


def test_when_the_losers_champion_takes_the_grand_final_the_reset_decides():
    bracket = double_elimination(4)
    gf = bracket.rounds("grand_final")[0][0]
    reset = bracket.rounds("reset")[0][0]

    def lower_seed_wins_finals(m, a, b):
        return max(a, b) if m.bracket in ("grand_final", "reset") else min(a, b)

    _, state = play(bracket, [1, 2, 3, 4], lower_seed_wins_finals)
    # 1 wins the winners' side, 2 comes back through the losers' side and wins the grand
    # final, so both have one loss and the reset is played; 2 wins that too.
    assert state[gf.id].winner == 2
    assert state[reset.id].status == "done"
    assert champion(bracket, state) == 2


def test_without_a_reset_the_grand_final_decides_alone():
    bracket = double_elimination(4, bracket_reset=False)
    assert not bracket.rounds("reset")
    _, state = play(bracket, [1, 2, 3, 4], lambda m, a, b: max(a, b) if m.bracket == "grand_final" else min(a, b))
    assert champion(bracket, state) == 2


def test_byes_go_to_the_top_seeds_and_leave_no_empty_losers_matches():
    bracket = double_elimination(6)
    assert bracket.byes == (1, 2)
    assert len(bracket.matches) == 2 * 6 - 2 + 1
    for m in bracket.matches:
        assert all(s.kind in ("seed", "winner", "loser") for s in m.sources)


def test_a_corrected_winners_result_reroutes_the_drop_in_and_voids_what_followed():
    bracket = double_elimination(4)
    seeds = ["A", "B", "C", "D"]
    w1a, w1b = bracket.rounds("winners")[0]
    l1 = bracket.rounds("losers")[0][0]
    results = {w1a.id: ("A", "D"), w1b.id: ("B", "C"), l1.id: ("C", "D")}
    assert resolve(bracket, seeds, results)[l1.id].status == "done"
    results[w1a.id] = ("D", "A")  # ruled: D won
    state = resolve(bracket, seeds, results)
    assert state[l1.id].players == ("A", "C")
    assert state[l1.id].status == "void"


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.integers(min_value=0, max_value=10**6), st.booleans())
def test_every_player_but_the_champion_leaves_with_exactly_two_losses(entrants, seed, reset):
    rng = random.Random(seed)
    bracket = double_elimination(entrants, bracket_reset=reset)
    seeds = list(range(entrants))
    _, state = play(bracket, seeds, lambda m, a, b: rng.choice((a, b)))
    winner = champion(bracket, state)
    assert winner is not None
    count = losses(state)
    gf = state[bracket.rounds("grand_final")[0][0].id]
    for p in seeds:
        if p == winner:
            assert count[p] <= 1
        elif not reset and gf.loser == p and count[p] == 1:
            continue  # without a reset, the winners' champion can leave with one loss
        else:
            assert count[p] == 2, (p, count[p])
    assert all(s.status in ("done", "not_needed") for s in state.values())


def test_too_few_entrants_are_refused():
    with pytest.raises(ValueError):
        double_elimination(1)
