"""Swiss tournaments end to end through the services (issue 6): byes to the lowest ranked
at most once and worth the configured score, no rematches, drops and late joins between
rounds, forbidden pairs, a corrected result that keeps the pairings and recomputes the
standings, and a 40-player six-round event."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.standings import progress, round_standings, standings
from matches.commands import AT_HEAD
from matches.errors import Refusal

from .helpers import field, lower_id_wins, open_tournament, people, pid, settle, state

pytestmark = pytest.mark.django_db


def next_round(t, by):
    services.tournament_pair_next(tournament=t, by=by, expected_seq=AT_HEAD)


def round_records(s, n):
    rnd = s["rounds"][n - 1]
    return [s["pairings"][p] for p in rnd["pairings"]]


def byes(s):
    return Counter(r["players"][0] for r in s["pairings"].values() if len(r["players"]) == 1)


def meetings(s):
    return Counter(frozenset(r["players"]) for r in s["pairings"].values() if len(r["players"]) == 2)


def test_the_bye_goes_to_the_lowest_ranked_player_and_is_worth_the_configured_score(alice):
    players = field(5)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3, bye_score="1/2")
    s = state(t)
    bye = [r for r in round_records(s, 1) if len(r["players"]) == 1]
    assert len(bye) == 1 and bye[0]["players"] == [pid(players[4])]  # the last of five, by entry
    assert bye[0]["status"] == "final"
    rows = {r["player"]: r["score"] for r in round_standings(s)}
    assert rows[pid(players[4])] == Fraction(1, 2)


def test_the_bye_goes_to_the_last_entrant_when_user_ids_cross_a_power_of_ten(alice):
    # The ids are text in the tournament's state: by them alone, user 99 would rank below 102.
    User = get_user_model()
    players = [User.objects.create_user(f"late{pk}", password="pw", pk=pk) for pk in (98, 99, 100, 101, 102)]
    s = state(open_tournament(alice, "swiss", players, start=True, rounds=3))
    bye = [r for r in round_records(s, 1) if len(r["players"]) == 1]
    assert [r["players"] for r in bye] == [["102"]]


def test_nobody_gets_two_byes_and_nobody_meets_twice_over_a_full_swiss(alice):
    t = open_tournament(alice, "swiss", field(7), start=True, rounds=5)
    for n in range(5):
        settle(t, lower_id_wins)
        if n < 4:
            next_round(t, alice)
    s = state(t)
    assert max(byes(s).values()) == 1 and len(byes(s)) == 5
    assert max(meetings(s).values()) == 1
    assert progress(s)["status"] == "finished"
    with pytest.raises(Refusal) as exc:
        next_round(t, alice)
    assert exc.value.code == "tournament_finished"


def test_the_next_round_waits_until_every_result_of_this_one_is_final(alice):
    t = open_tournament(alice, "swiss", field(4), start=True, rounds=3)
    with pytest.raises(Refusal) as exc:
        next_round(t, alice)
    assert exc.value.code == "round_not_complete" and len(exc.value.extra["open_pairings"]) == 2


def test_a_dropped_player_is_not_paired_again_but_stays_in_the_standings(alice):
    players = field(6)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    settle(t, lower_id_wins)
    services.tournament_drop(tournament=t, user=players[5], expected_seq=AT_HEAD)
    next_round(t, alice)
    s = state(t)
    paired = {p for r in round_records(s, 2) for p in r["players"]}
    assert pid(players[5]) not in paired and len(paired) == 5
    rows = {r["player"]: r for r in round_standings(s)}
    assert rows[pid(players[5])]["status"] == "dropped"
    with pytest.raises(Refusal) as exc:
        services.tournament_drop(tournament=t, user=players[5], expected_seq=AT_HEAD)
    assert exc.value.code == "not_playing"


def test_a_late_joiner_is_paired_from_the_next_round_with_no_points_for_the_rounds_missed(alice):
    players = field(6)
    (late,) = people("late")
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    settle(t, lower_id_wins)
    services.tournament_join_late(tournament=t, user=late, expected_seq=AT_HEAD)
    next_round(t, alice)
    s = state(t)
    assert s["players"][pid(late)]["joined_round"] == 2
    round2 = round_records(s, 2)
    assert any(pid(late) in r["players"] for r in round2)
    # Seven players: someone has the bye, and it is nobody who already had one.
    bye = [r["players"][0] for r in round2 if len(r["players"]) == 1]
    assert len(bye) == 1
    settle(t, lower_id_wins)
    rows = {r["player"]: r for r in round_standings(state(t))}
    assert rows[pid(late)]["played"] in (0, 1)


def test_late_entries_are_refused_by_fixed_formats_and_before_the_start(alice):
    players = field(4)
    (newcomer,) = people("newcomer")
    rr = open_tournament(alice, "round_robin", players, start=True)
    with pytest.raises(Refusal) as exc:
        services.tournament_join_late(tournament=rr, user=newcomer, expected_seq=AT_HEAD)
    assert exc.value.code == "late_join_not_allowed"
    swiss = open_tournament(alice, "swiss", [])
    with pytest.raises(Refusal) as exc:
        services.tournament_join_late(tournament=swiss, user=newcomer, expected_seq=AT_HEAD)
    assert exc.value.code == "not_started"


def test_forbidden_pairs_are_not_paired_while_another_pairing_exists(alice):
    players = field(4)
    t = open_tournament(
        alice, "swiss", players, start=True, rounds=1, forbidden_pairs=[[players[0].username, players[2].username]]
    )
    s = state(t)
    assert frozenset((pid(players[0]), pid(players[2]))) not in meetings(s)
    # Without it, the Dutch ideal would pair 1 with 3.
    other = open_tournament(alice, "swiss", field(4, "q"), start=True, rounds=1)
    assert len(meetings(state(other))) == 2


def test_same_club_players_are_kept_apart(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", [], rounds=1)
    for i, p in enumerate(players):
        services.tournament_register(tournament=t, user=p, club="red" if i in (0, 2) else None, expected_seq=AT_HEAD)
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    assert frozenset((pid(players[0]), pid(players[2]))) not in meetings(state(t))


def test_a_result_corrected_after_later_rounds_keeps_the_pairings_and_recomputes_the_standings(alice):
    players = field(8)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    settle(t, lower_id_wins)
    next_round(t, alice)
    settle(t, lower_id_wins)
    before = state(t)
    game = round_records(before, 1)[0]
    loser = next(p for p in game["players"] if p != game["result"]["winner"])
    scores_before = {r["player"]: r["score"] for r in round_standings(before)}
    services.tournament_correct(
        tournament=t, pairing=game["id"], by=alice, result={"winner": loser}, expected_seq=AT_HEAD
    )
    after = state(t)
    assert [r["players"] for r in round_records(after, 2)] == [r["players"] for r in round_records(before, 2)]
    scores_after = {r["player"]: r["score"] for r in round_standings(after)}
    assert scores_after[loser] == scores_before[loser] + 1
    assert scores_after[game["result"]["winner"]] == scores_before[game["result"]["winner"]] - 1
    assert after["pairings"][game["id"]]["history"][-1]["event"] == "corrected"


def test_tie_breaks_are_the_organisers_choice_and_every_column_is_reported(alice):
    t = open_tournament(alice, "swiss", field(6), start=True, rounds=2, tiebreaks=["omw", "wins", "buchholz"])
    settle(t, lower_id_wins)
    table = standings(state(t))
    assert table["columns"] == ["omw", "wins", "buchholz"]
    assert set(table["tables"][0]["rows"][0]["tiebreaks"]) == {"omw", "wins", "buchholz"}


@pytest.mark.slow
def test_a_forty_player_six_round_swiss_with_a_drop_a_late_join_and_a_correction(alice):
    players = field(40)
    t = open_tournament(alice, "swiss", players, start=True, rounds=6)
    (late,) = people("latecomer")
    for n in range(1, 7):
        s = state(t)
        active = sum(1 for p in s["players"].values() if p["status"] == "active")
        paired = [p for r in round_records(s, n) for p in r["players"]]
        assert sorted(paired) == sorted(set(paired)) and len(paired) == active  # everyone present, once
        settle(t, lower_id_wins)
        if n == 2:
            services.tournament_drop(tournament=t, user=players[10], expected_seq=AT_HEAD)
            services.tournament_join_late(tournament=t, user=late, expected_seq=AT_HEAD)
        if n == 4:
            first = round_records(state(t), 1)[0]
            loser = next(p for p in first["players"] if p != first["result"]["winner"])
            services.tournament_correct(
                tournament=t, pairing=first["id"], by=alice, result={"winner": loser}, expected_seq=AT_HEAD
            )
        if n < 6:
            next_round(t, alice)
    s = state(t)
    assert progress(s)["finished"]
    assert max(meetings(s).values()) == 1
    assert not byes(s) or max(byes(s).values()) == 1
