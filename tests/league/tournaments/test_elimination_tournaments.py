"""Single and double elimination tournaments through the services (issue 6): seeding and
byes, the bracket moving on by itself, third place, grand final and reset, corrections
re-routing the winner and voiding matches that no longer stand, drops and forfeits."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from league.tournaments import services
from league.tournaments.projection import bracket_state
from league.tournaments.standings import progress, standings
from matches.commands import AT_HEAD
from matches.errors import Refusal

from .helpers import field, lower_id_wins, open_tournament, pid, settle, state

pytestmark = pytest.mark.django_db


def user(p):
    return get_user_model().objects.get(pk=int(p))


def play_all(t, winner_of=lower_id_wins, limit=64):
    for _ in range(limit):
        if progress(state(t))["finished"]:
            return state(t)
        settle(t, winner_of)
    raise AssertionError("did not finish")


def places(s):
    return [(r["rank"], r["name"]) for r in standings(s)["tables"][0]["rows"]]


def test_an_eight_player_single_elimination_runs_to_a_champion_with_a_third_place_match(alice):
    players = field(8)
    t = open_tournament(alice, "single_elimination", players, start=True, third_place=True)
    s = state(t)
    assert len([r for r in s["pairings"].values() if r["status"] == "pending"]) == 4
    # Seed 1 meets seed 8 in the first round.
    assert s["pairings"]["M1"]["players"] == [pid(players[0]), pid(players[7])]
    s = play_all(t)
    assert progress(s)["status"] == "finished"
    assert places(s)[:4] == [(1, "p01"), (2, "p02"), (3, "p03"), (4, "p04")]
    assert [r for r, _ in places(s)[4:]] == [5, 5, 5, 5]


def test_byes_go_to_the_top_seeds_when_the_field_is_not_a_power_of_two(alice):
    players = field(6)
    t = open_tournament(alice, "single_elimination", players, start=True)
    s = state(t)
    first_round = [r["players"] for r in s["pairings"].values()]
    seeded_out = {pid(players[0]), pid(players[1])}
    assert all(not seeded_out & set(p) for p in first_round) and len(first_round) == 2


def test_manual_seeding_decides_the_bracket(alice):
    players = field(4)
    t = open_tournament(alice, "single_elimination", players)
    order = [p.username for p in reversed(players)]
    services.tournament_seed(tournament=t, by=alice, method="manual", order=order, expected_seq=AT_HEAD)
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    assert s["seeds"] == [pid(p) for p in reversed(players)]
    assert s["pairings"]["M1"]["players"] == [pid(players[3]), pid(players[0])]


def test_a_corrected_first_round_result_reroutes_the_winner_and_voids_the_match_that_no_longer_stands(alice):
    players = field(8)
    t = open_tournament(alice, "single_elimination", players, start=True)
    settle(t, lower_id_wins)  # round 1: seeds 1-4 win
    settle(t, lower_id_wins)  # semi-finals
    s = state(t)
    semi = next(
        r
        for r in s["pairings"].values()
        if r["round"] == 1 and pid(players[0]) in r["players"] and r["id"] != "M1" and r["status"] == "final"
    )
    final = next(r for r in s["pairings"].values() if r["status"] == "pending")
    assert pid(players[0]) in final["players"]
    # The organiser finds that seed 8 actually beat seed 1 in the first round.
    services.tournament_correct(
        tournament=t,
        pairing="M1",
        by=alice,
        result={"winner": pid(players[7])},
        reason="score sheet misread",
        expected_seq=AT_HEAD,
    )
    s = state(t)
    assert s["pairings"]["M1"]["result"] == {"winner": pid(players[7])}
    rerouted = s["pairings"][semi["id"]]
    assert pid(players[7]) in rerouted["players"] and pid(players[0]) not in rerouted["players"]
    assert rerouted["status"] == "pending" and rerouted["result"] is None
    assert rerouted["history"][-1]["event"] == "voided"
    # The final no longer has its players: it waits for the replayed semi-final.
    assert s["pairings"][final["id"]]["status"] == "waiting"
    settle(t, lower_id_wins)
    s = play_all(t)
    assert places(s)[0] == (1, "p02")


def test_a_correction_that_keeps_the_same_winner_is_refused(alice):
    players = field(4)
    t = open_tournament(alice, "single_elimination", players, start=True)
    settle(t, lower_id_wins)
    with pytest.raises(Refusal) as exc:
        services.tournament_correct(
            tournament=t, pairing="M1", by=alice, result={"winner": pid(players[0])}, expected_seq=AT_HEAD
        )
    assert exc.value.code == "same_result"


def test_a_bracket_match_needs_a_winner_no_draw_and_no_double_forfeit(alice):
    players = field(4)
    t = open_tournament(alice, "single_elimination", players, start=True)
    with pytest.raises(Refusal) as exc:
        services.tournament_report(
            tournament=t, pairing="M1", user=players[0], result={"draw": True}, expected_seq=AT_HEAD
        )
    assert exc.value.code == "draw_not_allowed"
    with pytest.raises(Refusal) as exc:
        services.tournament_no_show(
            tournament=t, pairing="M1", by=alice, absent=[pid(players[0]), pid(players[3])], expected_seq=AT_HEAD
        )
    assert exc.value.code == "double_forfeit_in_bracket"
    services.tournament_no_show(tournament=t, pairing="M1", by=alice, absent=[pid(players[0])], expected_seq=AT_HEAD)
    s = state(t)
    assert s["pairings"]["M1"]["result"] == {"winner": pid(players[3]), "forfeit": True}


def test_the_bracket_moves_on_by_itself_and_refuses_a_manual_pairing(alice):
    t = open_tournament(alice, "single_elimination", field(4), start=True)
    with pytest.raises(Refusal) as exc:
        services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    assert exc.value.code == "bracket_advances_itself"


def test_a_player_who_drops_forfeits_their_next_bracket_match(alice):
    players = field(4)
    t = open_tournament(alice, "single_elimination", players, start=True)
    services.tournament_drop(tournament=t, user=players[3], expected_seq=AT_HEAD)
    s = state(t)
    m1 = s["pairings"]["M1"]
    assert m1["status"] == "final" and m1["source"] == "drop" and m1["result"]["winner"] == pid(players[0])


def test_a_sixteen_player_double_elimination_runs_through_the_grand_final_and_reset(alice):
    players = field(16)
    t = open_tournament(alice, "double_elimination", players, start=True, bracket_reset=True)
    # Seed 1 loses its first match, then wins every match after it: it comes through the
    # losers' bracket and wins the grand final, so the reset is played.
    one = pid(players[0])

    def winner_of(record):
        if record["id"] == "M1":
            return next(p for p in record["players"] if p != one)
        if one in record["players"]:
            return one
        return lower_id_wins(record)

    s = play_all(t, winner_of)
    grand = [r for r in s["pairings"].values() if r["id"] in ("M30", "M31")]
    assert len(grand) == 2 and all(r["status"] == "final" for r in grand)
    assert places(s)[0] == (1, "p01")
    assert [r["rank"] for r in standings(s)["tables"][0]["rows"]][:4] == [1, 2, 3, 4]


def test_the_reset_is_not_needed_when_the_winners_bracket_champion_wins_the_grand_final(alice):
    t = open_tournament(alice, "double_elimination", field(8), start=True)
    s = play_all(t)
    resolved = bracket_state(s)
    reset = [m for m, st in resolved.items() if st.status == "not_needed"]
    assert len(reset) == 1 and reset[0] not in s["pairings"]
    assert places(s)[0] == (1, "p01") and places(s)[1] == (2, "p02")


def test_a_corrected_winners_bracket_result_moves_both_players_in_double_elimination(alice):
    players = field(8)
    t = open_tournament(alice, "double_elimination", players, start=True)
    settle(t, lower_id_wins)  # winners' round 1
    settle(t, lower_id_wins)  # winners' round 2 and losers' round 1
    services.tournament_correct(
        tournament=t, pairing="M1", by=alice, result={"winner": pid(players[7])}, expected_seq=AT_HEAD
    )
    s = state(t)
    where = {
        p: [r["id"] for r in s["pairings"].values() if p in r["players"] and r["status"] != "final"]
        for p in (pid(players[0]), pid(players[7]))
    }
    # Seed 8 now plays on in the winners' bracket, seed 1 in the losers' bracket.
    assert where[pid(players[7])] and where[pid(players[0])]
    s = play_all(t)
    assert progress(s)["finished"]
