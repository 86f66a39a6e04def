"""Round robin, groups followed by a playoff, and free-for-all pods (issue 6, formats)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.standings import progress, standings
from matches.commands import AT_HEAD
from matches.errors import Refusal

from .helpers import field, lower_id_wins, open_tournament, pid, settle, state

pytestmark = pytest.mark.django_db


def run_rounds(t, by, winner_of=lower_id_wins):
    while True:
        settle(t, winner_of)
        info = progress(state(t))
        if info["finished"] or not info["can_pair_next"]:
            return state(t)
        services.tournament_pair_next(tournament=t, by=by, expected_seq=AT_HEAD)
        if state(t)["bracket"] is not None:
            return state(t)


def test_a_round_robin_pairs_everyone_once_and_ranks_by_score_then_tie_breaks(alice):
    players = field(5)
    t = open_tournament(alice, "round_robin", players, start=True)
    s = run_rounds(t, alice)
    assert progress(s)["finished"] and len(s["rounds"]) == 5
    met = Counter(frozenset(r["players"]) for r in s["pairings"].values())
    assert set(met) == {frozenset((pid(a), pid(b))) for a, b in combinations(players, 2)}
    rows = standings(s)["tables"][0]["rows"]
    assert [r["name"] for r in rows] == ["p01", "p02", "p03", "p04", "p05"]
    assert rows[0]["score"] == 4 and set(rows[0]["tiebreaks"]) == {"head_to_head", "sonneborn_berger", "wins"}


def test_a_dropped_players_remaining_round_robin_games_are_forfeited(alice):
    players = field(4)
    t = open_tournament(alice, "round_robin", players, start=True)
    settle(t, lower_id_wins)
    services.tournament_drop(tournament=t, user=players[0], expected_seq=AT_HEAD)
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    game = next(s["pairings"][p] for p in s["rounds"][1]["pairings"] if pid(players[0]) in s["pairings"][p]["players"])
    assert game["status"] == "final" and game["result"]["forfeit"] and game["result"]["winner"] != pid(players[0])


def test_groups_are_seeded_by_snake_and_the_best_of_each_group_meet_in_a_crossed_playoff(alice):
    players = field(8)
    t = open_tournament(alice, "groups_playoff", players, start=True, groups=2, advance=2)
    s = state(t)
    assert s["groups"] == [[pid(players[i]) for i in (0, 3, 4, 7)], [pid(players[i]) for i in (1, 2, 5, 6)]]
    s = run_rounds(t, alice)
    assert s["bracket"] is not None
    a1, b1 = pid(players[0]), pid(players[1])
    assert s["bracket"]["seeds"][:2] == [a1, b1]
    first = [r["players"] for r in s["pairings"].values() if r["bracket_match"]]
    assert all(not ({a1, b1} <= set(p)) for p in first)  # group winners are kept apart
    while not progress(state(t))["finished"]:
        settle(t, lower_id_wins)
    tables = standings(state(t))["tables"]
    assert tables[0]["playoff"] and tables[0]["rows"][0]["name"] == "p01"
    # The playoff, the groups, then the whole event's final places.
    assert [tb["title"] for tb in tables[1:]] == ["Group A", "Group B", "Final places"]


def test_pods_score_placement_points_split_equally_on_ties_and_avoid_repeat_opponents(alice):
    players = field(8)
    t = open_tournament(
        alice, "pods", players, start=True, game="wizard-dodgeball", pod_size=4, rounds=2, placement_points=[4, 2, 1, 0]
    )
    User = get_user_model()
    s = state(t)
    pods = [r for r in s["pairings"].values()]
    assert sorted(len(p["players"]) for p in pods) == [4, 4]
    for pod in pods:
        a, b, c, d = pod["players"]
        reporter, confirmer = User.objects.get(pk=int(a)), User.objects.get(pk=int(b))
        finish = {"finish": [[a], [b, c], [d]]}
        services.tournament_report(tournament=t, pairing=pod["id"], user=reporter, result=finish, expected_seq=AT_HEAD)
        services.tournament_report(tournament=t, pairing=pod["id"], user=confirmer, result=finish, expected_seq=AT_HEAD)
    s = state(t)
    rows = {r["player"]: r for r in standings(s)["tables"][0]["rows"]}
    first = pods[0]["players"]
    assert rows[first[0]]["score"] == 4 and rows[first[1]]["score"] == Fraction(3, 2)
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    before = [set(p["players"]) for p in pods]
    again = [set(s["pairings"][p]["players"]) for p in s["rounds"][1]["pairings"]]
    repeats = sum(len(a & b) * (len(a & b) - 1) // 2 for a in again for b in before)
    assert repeats <= 4  # eight players in pods of four cannot avoid every repeat; the seating minimises them


def test_a_pod_report_must_place_every_player_once(alice):
    players = field(3)
    t = open_tournament(alice, "pods", players, start=True, game="dueling-wizards", pod_size=3)
    s = state(t)
    pod = next(iter(s["pairings"].values()))
    a, b, c = pod["players"]
    with pytest.raises(Refusal) as exc:
        services.tournament_report(
            tournament=t, pairing=pod["id"], user=players[0], result={"finish": [[a], [b]]}, expected_seq=AT_HEAD
        )
    assert exc.value.code == "bad_result"
    with pytest.raises(Refusal) as exc:
        services.tournament_report(
            tournament=t, pairing=pod["id"], user=players[0], result={"winner": a}, expected_seq=AT_HEAD
        )
    assert exc.value.code == "bad_result"


def test_pods_hold_three_to_five_players(alice):
    for size in (2, 6):
        with pytest.raises(Refusal) as exc:
            services.tournament_create(
                created_by=alice, name="x", game="wizard-dodgeball", format="pods", options={"pod_size": size}
            )
        assert exc.value.code == "bad_options"
