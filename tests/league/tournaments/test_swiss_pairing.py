"""Swiss pairing: score groups, rematches, byes, forbidden pairs, seats, determinism, scale."""

import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from league.tournaments.swiss import (
    SwissOptions,
    SwissPlayer,
    colour_wish,
    first_seat,
    pair_round,
)

REPO = Path(__file__).resolve().parents[3]


def P(id, score=0, rating=0, opponents=(), seats=(), byes=0, club=None, forbidden=()):
    return SwissPlayer(
        id=id,
        score=score,
        rating=rating,
        opponents=tuple(opponents),
        first_seats=tuple(seats),
        byes=byes,
        club=club,
        forbidden=frozenset(forbidden),
    )


def pairs_of(rnd):
    return {frozenset((p.first, p.second)) for p in rnd.pairings if p.second is not None}


def pair(a, b):
    return frozenset((a, b))


# --------------------------------------------------------------------------------------
# A tiny tournament runner for the multi-round tests: results are drawn from a seeded
# RNG, and the history each player carries is exactly what a caller's projection keeps.


class Tournament:
    def __init__(self, ids, seed=0, clubs=None, bye_score=Fraction(1)):
        self.rng = random.Random(seed)
        self.bye_score = bye_score
        self.state = {}
        self.clubs = clubs or {}
        for i in ids:
            self.join(i)

    def join(self, pid, score=Fraction(0)):
        self.state[pid] = {
            "score": score,
            "rating": self.rng.randint(1000, 2400),
            "opponents": [],
            "seats": [],
            "byes": 0,
        }

    def drop(self, pid):
        del self.state[pid]

    def players(self):
        return [
            P(
                pid,
                s["score"],
                s["rating"],
                s["opponents"],
                s["seats"],
                s["byes"],
                club=self.clubs.get(pid),
            )
            for pid, s in self.state.items()
        ]

    def play(self, rnd):
        for p in rnd.pairings:
            if p.second is None:
                self.state[p.first]["score"] += self.bye_score
                self.state[p.first]["byes"] += 1
                continue
            a, b = self.state[p.first], self.state[p.second]
            first_points = self.rng.choice([Fraction(1), Fraction(1, 2), Fraction(0)])
            a["score"] += first_points
            b["score"] += 1 - first_points
            a["opponents"].append(p.second)
            b["opponents"].append(p.first)
            a["seats"].append(True)
            b["seats"].append(False)


# --------------------------------------------------------------------------------------
# Independent existence check: is there a perfect pairing of these players (plus the bye
# when odd, only to players without one) using only allowed pairs? Brute force for small
# fields, an unweighted maximum-cardinality matching for larger ones.


def perfect_pairing_exists(players, allowed):
    ids = sorted(p.id for p in players)
    byes = {p.id: p.byes for p in players}
    nodes = list(ids)
    edges = {i: set() for i in ids}
    for x, a in enumerate(ids):
        for b in ids[x + 1 :]:
            if allowed(a, b):
                edges[a].add(b)
                edges[b].add(a)
    if len(ids) % 2:
        nodes.append("BYE")
        edges["BYE"] = {i for i in ids if byes[i] == 0}
        for i in edges["BYE"]:
            edges[i].add("BYE")
    if len(nodes) <= 14:
        return _brute_force(frozenset(nodes), edges)
    graph = nx.Graph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from((a, b) for a in edges for b in edges[a])
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(nodes)


def _brute_force(left, edges):
    if not left:
        return True
    first = min(left, key=str)
    return any(_brute_force(left - {first, other}, edges) for other in edges[first] if other in left)


# --------------------------------------------------------------------------------------
# Score groups and the Dutch top-half against bottom-half rule.


def test_round_one_pairs_the_top_half_against_the_bottom_half():
    players = [P(i, rating=2000 - 10 * i) for i in range(1, 9)]
    rnd = pair_round(players)
    assert pairs_of(rnd) == {pair(1, 5), pair(2, 6), pair(3, 7), pair(4, 8)}
    assert [p.board for p in rnd.pairings] == [1, 2, 3, 4]
    assert rnd.bye is None and rnd.method == "exact"


def test_players_are_paired_inside_their_score_group_when_possible():
    # Two groups of four: 2 points (1-4) and 1 point (5-8), nobody has met.
    players = [P(i, score=2 if i <= 4 else 1, rating=100 - i) for i in range(1, 9)]
    rnd = pair_round(players)
    assert pairs_of(rnd) == {pair(1, 3), pair(2, 4), pair(5, 7), pair(6, 8)}
    assert rnd.costs["score"] == 0


def test_floats_go_one_group_down_at_a_time_and_take_the_lowest_of_the_higher_group():
    # Three players on 2 points, two on 1, three on 0. Floating 3 to the 1-point group
    # and then one 1-point player to the 0-point group costs 1**2 + 1**2 = 2; floating
    # one 2-point player straight down to 0 would cost 2**2 = 4.
    scores = {1: 2, 2: 2, 3: 2, 4: 1, 5: 1, 6: 0, 7: 0, 8: 0}
    players = [P(i, s, 100 - i) for i, s in scores.items()]
    rnd = pair_round(players)
    assert rnd.costs["score"] == 2
    assert pair(1, 2) in pairs_of(rnd)
    assert pair(3, 4) in pairs_of(rnd)  # lowest of the top group meets the top of the next
    assert pair(5, 6) in pairs_of(rnd)
    assert pair(7, 8) in pairs_of(rnd)


def test_half_point_scores_stay_exact_and_group_correctly():
    players = [P("a", 1.5), P("b", Fraction(3, 2)), P("c", "0.5"), P("d", 0.5)]
    rnd = pair_round(players)
    assert pairs_of(rnd) == {pair("a", "b"), pair("c", "d")}


# --------------------------------------------------------------------------------------
# Rematches and forbidden pairs.


def test_a_rematch_is_avoided_even_at_the_cost_of_floats():
    # 1 and 2 lead alone on 2 points and have already met; pairing them is the only
    # pairing inside the score group, but a fresh pairing exists, so it must be used.
    players = [
        P(1, 2, 90, opponents=[2, 5]),
        P(2, 2, 80, opponents=[1, 6]),
        P(3, 1, 70, opponents=[4, 7]),
        P(4, 1, 60, opponents=[3, 8]),
        P(5, 1, 50, opponents=[6, 1]),
        P(6, 1, 40, opponents=[5, 2]),
        P(7, 0, 30, opponents=[8, 3]),
        P(8, 0, 20, opponents=[7, 4]),
    ]
    rnd = pair_round(players)
    assert rnd.rematches == 0
    assert pair(1, 2) not in pairs_of(rnd)
    for p in players:
        assert rnd.opponent_of(p.id) not in p.opponents


def test_an_unavoidable_rematch_uses_the_pairs_who_met_the_fewest_times():
    # Four players who have all met: 1-2 and 3-4 twice, the others once. Round five
    # must repeat two pairings; 1-3 & 2-4 or 1-4 & 2-3 repeat once each, 1-2 & 3-4 twice.
    players = [
        P(1, 3, 90, opponents=[2, 2, 3, 4]),
        P(2, 2, 80, opponents=[1, 1, 3, 4]),
        P(3, 2, 70, opponents=[4, 4, 1, 2]),
        P(4, 1, 60, opponents=[3, 3, 1, 2]),
    ]
    rnd = pair_round(players)
    assert rnd.rematches == 2
    assert pair(1, 2) not in pairs_of(rnd) and pair(3, 4) not in pairs_of(rnd)
    assert rnd.costs["rematch"] == 2


def test_same_club_players_are_kept_apart_when_possible():
    players = [P(i, rating=100 - i, club="Owls" if i in (1, 5) else None) for i in range(1, 9)]
    rnd = pair_round(players)
    assert pair(1, 5) not in pairs_of(rnd)
    assert rnd.forbidden == 0


def test_same_club_pairs_are_allowed_when_the_organiser_switches_the_rule_off():
    players = [P(i, rating=100 - i, club="Owls" if i in (1, 5) else None) for i in range(1, 9)]
    rnd = pair_round(players, SwissOptions(avoid_same_club=False))
    assert pair(1, 5) in pairs_of(rnd)


def test_organiser_forbidden_pairs_and_personal_forbidden_sets_are_both_honoured():
    players = [P(i, rating=100 - i) for i in range(1, 9)]
    players[1] = P(2, rating=98, forbidden=[6])
    rnd = pair_round(players, SwissOptions(forbidden_pairs=((1, 5),)))
    assert pair(1, 5) not in pairs_of(rnd)
    assert pair(2, 6) not in pairs_of(rnd)


def test_a_forbidden_pair_is_played_when_every_other_pairing_is_a_rematch():
    # 1 and 2 are clubmates; 1 has met 3 and 4, so every pairing of 1 is either a rematch
    # or the clubmate. The rematch weighs more, so the clubmates meet.
    players = [
        P(1, 1, 90, opponents=[3, 4], club="Owls"),
        P(2, 1, 80, opponents=[], club="Owls"),
        P(3, 1, 70, opponents=[1]),
        P(4, 1, 60, opponents=[1]),
    ]
    rnd = pair_round(players)
    assert pair(1, 2) in pairs_of(rnd)
    assert rnd.rematches == 0 and rnd.forbidden == 1


# --------------------------------------------------------------------------------------
# Byes.


def test_the_bye_goes_to_the_lowest_ranked_player():
    players = [P(i, score=1 if i <= 4 else 0, rating=100 - i) for i in range(1, 8)]
    rnd = pair_round(players, SwissOptions(bye_score=Fraction(1, 2)))
    assert rnd.bye == 7
    assert rnd.pairings[-1].is_bye and rnd.pairings[-1].first == 7
    assert rnd.bye_score == Fraction(1, 2)


def test_seeds_rank_equal_players_before_their_ids_do():
    # Text ids as a tournament has them: "99" sorts after "100", the seeds say who entered first.
    players = [P(pid) for pid in ("98", "99", "100", "101", "102")]
    players = [SwissPlayer(id=p.id, seed=n) for n, p in enumerate(players)]
    assert pair_round(players).bye == "102"
    assert pair_round([P(pid) for pid in ("98", "99", "100", "101", "102")]).bye == "99"


def test_a_player_who_had_a_bye_is_skipped_for_the_next_lowest():
    players = [P(i, score=1 if i <= 4 else 0, rating=100 - i) for i in range(1, 8)]
    players[6] = P(7, 0, 93, byes=1)
    players[5] = P(6, 0, 94, byes=1)
    rnd = pair_round(players)
    assert rnd.bye == 5
    assert rnd.extra_byes == 0


def test_the_bye_moves_up_when_the_lowest_player_could_only_get_it_by_forcing_a_rematch():
    # 5 is lowest, but if 5 takes the bye, 3 and 4 must play each other again, because
    # 1 and 2 have met both of them. The next lowest, 4, takes the bye and 5 plays 3.
    players = [
        P(1, 2, 90, opponents=[3, 4]),
        P(2, 2, 80, opponents=[4, 3]),
        P(3, 1, 70, opponents=[1, 2, 4]),
        P(4, 1, 60, opponents=[2, 1, 3]),
        P(5, 0, 50, opponents=[]),
    ]
    rnd = pair_round(players)
    assert rnd.rematches == 0
    assert rnd.bye == 4
    assert pairs_of(rnd) == {pair(1, 2), pair(3, 5)}


def test_when_everyone_has_had_a_bye_the_round_is_still_paired_and_says_so():
    players = [P(i, rating=100 - i, byes=1) for i in range(1, 4)]
    rnd = pair_round(players)
    assert rnd.bye == 3
    assert rnd.extra_byes == 1


def test_an_empty_and_a_single_player_field_are_paired_trivially():
    assert pair_round([]).pairings == ()
    rnd = pair_round([P("solo")])
    assert rnd.bye == "solo" and len(rnd.pairings) == 1


# --------------------------------------------------------------------------------------
# First seat (colour).


def test_colour_wishes_follow_balance_then_alternation():
    assert colour_wish([]) == (0, 0)
    assert colour_wish([True]) == (-1, 2)  # one first more than seconds: strong
    assert colour_wish([True, False]) == (1, 1)  # balanced, alternate from last: mild
    assert colour_wish([False, False]) == (1, 3)  # twice running: absolute
    assert colour_wish([True, True, False, True]) == (-1, 3)  # balance +2: absolute


def test_the_player_with_the_lower_first_seat_balance_sits_first():
    a = P("a", seats=[True, True, False])
    b = P("b", seats=[False, True, False])
    assert first_seat(a, b)[0].id == "b"


def test_equal_balances_alternate_from_the_last_round_in_which_seats_differed():
    a = P("a", seats=[True, False])
    b = P("b", seats=[False, True])
    assert first_seat(a, b)[0].id == "a"  # a sat second last time
    c = P("c", seats=[False, True, False, True])
    d = P("d", seats=[True, False, False, True])
    assert first_seat(c, d)[0].id == "d"  # rounds 4 and 3 equal; in round 2 d sat second


def test_identical_histories_give_the_first_seat_to_the_higher_ranked():
    a = P("a", seats=[True, False])
    b = P("b", seats=[True, False])
    assert first_seat(a, b)[0].id == "a"
    assert first_seat(b, a)[0].id == "b"


def test_colour_wishes_change_the_pairing_when_the_dutch_pairing_would_clash():
    # One score group of four. Dutch ideal is 1-3 and 2-4, but 1 and 3 both must sit first
    # and 2 and 4 both must sit second; 1-4 and 2-3 satisfy everyone.
    players = [
        P(1, 1, 90, seats=[False, False]),
        P(2, 1, 80, seats=[True, True]),
        P(3, 1, 70, seats=[False, False]),
        P(4, 1, 60, seats=[True, True]),
    ]
    rnd = pair_round(players)
    assert pairs_of(rnd) == {pair(1, 4), pair(2, 3)}
    assert {p.first for p in rnd.pairings} == {1, 3}
    assert rnd.costs["colour"] == 0


# --------------------------------------------------------------------------------------
# Determinism, late joins and drops.


def test_the_same_players_in_any_order_give_the_same_pairing():
    t = Tournament(range(30), seed=3)
    for _ in range(3):
        t.play(pair_round(t.players()))
    players = t.players()
    expected = pair_round(players)
    for seed in range(3):
        shuffled = players[:]
        random.Random(seed).shuffle(shuffled)
        assert pair_round(shuffled) == expected


def test_the_same_players_give_the_same_pairing_in_another_process():
    # String ids and a different hash seed: nothing may depend on set or dict hash order.
    script = (
        "from league.tournaments.swiss import SwissPlayer, pair_round\n"
        "ps = [SwissPlayer(id=f'p{i}', score=(i * 7) % 4 / 2, rating=1500 + (i * 37) % 300,"
        " opponents=(f'p{(i + 1) % 41}',), club=['x', 'y', None][i % 3]) for i in range(41)]\n"
        "print([(p.first, p.second) for p in pair_round(ps).pairings])\n"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", script],
            cwd=REPO,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }
    assert len(outputs) == 1


def test_a_dropped_player_is_not_paired_and_a_late_joiner_is_paired_normally():
    t = Tournament(range(10), seed=5)
    for _ in range(2):
        t.play(pair_round(t.players()))
    t.drop(3)
    t.join(100, score=Fraction(1))  # joined late, given a point for the missed rounds
    rnd = pair_round(t.players())
    seen = [x for p in rnd.pairings for x in (p.first, p.second) if x is not None]
    assert sorted(seen) == sorted(t.state)
    assert 3 not in seen and 100 in seen
    assert rnd.rematches == 0


# --------------------------------------------------------------------------------------
# Large fields: segmenting, and widening when a segment would force a rematch.


def test_a_large_field_is_paired_in_segments_without_rematches():
    t = Tournament(range(401), seed=11)
    for _ in range(4):
        rnd = pair_round(t.players())
        assert rnd.method.startswith("segmented")
        assert rnd.rematches == 0
        t.play(rnd)
    assert len(pairs_of(rnd)) == 200 and rnd.bye is not None


def test_segments_widen_when_a_segment_alone_could_only_pair_with_a_rematch():
    # The top four have all met one another, the bottom four have not met anyone. With
    # four-player segments the top segment can only pair with rematches, so the solver
    # widens to the whole field and crosses the groups instead.
    top = [1, 2, 3, 4]
    players = [P(i, 3, 100 - i, opponents=[o for o in top if o != i]) for i in top]
    players += [P(i, 0, 100 - i) for i in range(5, 9)]
    rnd = pair_round(players, SwissOptions(exact_limit=0, segment_size=4))
    assert rnd.rematches == 0
    assert rnd.method == "exact"
    assert all(len(pr & set(top)) == 1 for pr in pairs_of(rnd))


def test_segmented_and_exact_pairings_agree_on_the_hard_tiers():
    t = Tournament(range(150), seed=2)
    for _ in range(4):
        t.play(pair_round(t.players()))
    exact = pair_round(t.players(), SwissOptions(exact_limit=1000))
    split = pair_round(t.players(), SwissOptions(exact_limit=0, segment_size=32))
    assert split.method.startswith("segmented")
    for tier in ("rematch", "forbidden", "bye", "score"):
        assert split.costs[tier] == exact.costs[tier]


# --------------------------------------------------------------------------------------
# Property: random tournaments with drops and late joins.


@st.composite
def tournaments(draw):
    size = draw(st.integers(min_value=8, max_value=200))
    rounds = draw(st.integers(min_value=2, max_value=6 if size < 60 else 4))
    seed = draw(st.integers(min_value=0, max_value=10**6))
    small_segments = draw(st.booleans())
    clubs = draw(st.booleans())
    return size, rounds, seed, small_segments, clubs


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_random_tournaments_pair_everyone_once_never_rematch_avoidably_and_give_one_bye_each(case):
    size, rounds, seed, small_segments, with_clubs = case
    rng = random.Random(seed)
    clubs = {i: rng.choice("ABCDEFGH") for i in range(size + 50) if with_clubs and rng.random() < 0.3}
    options = SwissOptions(exact_limit=8, segment_size=rng.randint(4, 24)) if small_segments else SwissOptions()
    t = Tournament(range(size), seed=seed, clubs=clubs)
    next_id = size
    byes = {}
    for _ in range(rounds):
        players = t.players()
        rnd = pair_round(players, options)

        # Everyone present exactly once, nobody else.
        seen = [x for p in rnd.pairings for x in (p.first, p.second) if x is not None]
        assert sorted(seen) == sorted(p.id for p in players)

        # At most one bye each.
        if rnd.bye is not None:
            byes[rnd.bye] = byes.get(rnd.bye, 0) + 1
        assert rnd.extra_byes == 0
        assert all(count == 1 for count in byes.values())

        # No rematch (then no forbidden pair) while the field could avoid it.
        history = {p.id: set(p.opponents) for p in players}
        club_of = {p.id: p.club for p in players}

        def fresh(a, b, history=history):
            return b not in history[a]

        def fresh_and_other_club(a, b, club_of=club_of):
            return fresh(a, b) and not (club_of[a] and club_of[a] == club_of[b])

        if rnd.rematches:
            assert not perfect_pairing_exists(players, fresh)
        elif rnd.forbidden:
            assert not perfect_pairing_exists(players, fresh_and_other_club)
        t.play(rnd)

        # Drops and late joins between rounds, keeping at least eight players.
        for pid in sorted(t.state):
            if len(t.state) > 8 and rng.random() < 0.05:
                t.drop(pid)
        for _ in range(rng.randint(0, 2)):
            t.join(next_id, score=Fraction(rng.randint(0, 2), 2))
            next_id += 1
