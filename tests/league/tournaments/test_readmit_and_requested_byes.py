"""A dropped player brought back by the organiser, and a bye a player asks for in advance
(issue 16): who is paired, what it scores, how the tie-breaks count it, and what is refused."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.test import Client

from league.tournaments import services
from league.tournaments.models import Tournament
from league.tournaments.projection import event_dict, fold
from league.tournaments.selectors import trf_report
from league.tournaments.standings import round_standings, swiss_field
from matches.commands import AT_HEAD
from matches.models import Event

from .helpers import api_command, field, lower_id_wins, open_tournament, pid, refused, settle, state

pytestmark = pytest.mark.django_db


def count(t):
    return Event.objects.filter(stream_id=t.stream_id).count()


def round_players(s, n):
    return {p for key in s["rounds"][n - 1]["pairings"] for p in s["pairings"][key]["players"]}


def pair_next(t, by):
    services.tournament_pair_next(tournament=t, by=by, expected_seq=AT_HEAD)


def row_of(s, player):
    return next(r for r in round_standings(s) if r["player"] == pid(player))


# --------------------------------------------------------------------------------------
# Readmitting


def test_a_readmitted_player_is_paired_from_the_next_round_and_the_missed_round_scores_nothing(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    settle(t, lower_id_wins)
    gone = players[3]
    services.tournament_drop(tournament=t, user=gone, expected_seq=AT_HEAD)
    pair_next(t, alice)
    assert pid(gone) not in round_players(state(t), 2)
    out = services.tournament_readmit(tournament=t, user=gone, by=alice, expected_seq=AT_HEAD)
    assert [e.type for e in out.events] == ["player.readmitted"]
    s = state(t)
    assert s["players"][pid(gone)]["status"] == "active" and s["players"][pid(gone)]["readmitted_round"] == 3
    # Round 2 was paired without them: it stays so.
    assert pid(gone) not in round_players(s, 2)
    score_after_1 = row_of(s, gone)["score"]
    settle(t, lower_id_wins)
    pair_next(t, alice)
    s = state(t)
    assert pid(gone) in round_players(s, 3)
    # Round 2 is a zero-point unplayed round for them, as for a late entry.
    assert row_of(s, gone)["score"] == score_after_1
    assert row_of(s, gone)["played"] == 1


def test_readmitting_is_the_organisers_and_only_for_a_dropped_player(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    before = count(t)
    refused("not_dropped", services.tournament_readmit, tournament=t, user=players[0], by=alice)
    services.tournament_drop(tournament=t, user=players[0], expected_seq=AT_HEAD)
    before = count(t)
    refused("not_organiser", services.tournament_readmit, tournament=t, user=players[0], by=players[0])
    assert count(t) == before


def test_an_elimination_bracket_takes_nobody_back(alice):
    players = field(4)
    t = open_tournament(alice, "single_elimination", players, start=True)
    services.tournament_drop(tournament=t, user=players[0], expected_seq=AT_HEAD)
    before = count(t)
    refused("bracket_fixed", services.tournament_readmit, tournament=t, user=players[0], by=alice)
    assert count(t) == before


def test_readmit_over_the_api(alice, client_for):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    services.tournament_drop(tournament=t, user=players[1], expected_seq=AT_HEAD)
    r = api_command(client_for(players[1]), t, "readmit", user=players[1].username)
    assert r.status_code == 403 and r.json()["code"] == "not_organiser"
    r = api_command(client_for(alice), t, "readmit", user=players[1].username)
    assert r.status_code == 201, r.json()
    assert next(p for p in r.json()["players"] if p["name"] == players[1].username)["status"] == "active"


# --------------------------------------------------------------------------------------
# Requested byes


def test_a_requested_bye_sits_the_player_out_and_scores_the_configured_points(alice):
    players = field(5)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3, requested_bye_points="1/2")
    away = players[0]
    out = services.tournament_bye_request(tournament=t, user=away, round=2, expected_seq=AT_HEAD)
    assert [e.type for e in out.events] == ["bye.requested"]
    settle(t, lower_id_wins)
    pair_next(t, alice)
    s = state(t)
    records = [s["pairings"][k] for k in s["rounds"][1]["pairings"]]
    mine = [r for r in records if pid(away) in r["players"]]
    assert len(mine) == 1 and mine[0]["players"] == [pid(away)]
    assert mine[0]["result"] == {"bye": True, "requested": True} and mine[0]["source"] == "requested_bye"
    # The other four are paired among themselves: no pairing-allocated bye in this round.
    assert all(len(r["players"]) == 2 for r in records if r is not mine[0])
    # Worth the configured half point; and it is not the pairing's bye: the Swiss may still give one.
    assert {p.id: p.byes for p in swiss_field(s)}[pid(away)] == 0
    settle(t, lower_id_wins)
    s = state(t)
    row = row_of(s, away)
    round_1 = next(s["pairings"][k] for k in s["rounds"][0]["pairings"] if pid(away) in s["pairings"][k]["players"])
    assert row["score"] == (1 if round_1["result"].get("winner") == pid(away) else 0) + Fraction(1, 2)


def test_a_requested_bye_counts_as_an_unplayed_round_for_buchholz(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2)
    away = players[0]
    services.tournament_bye_request(tournament=t, user=away, round=2, expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    pair_next(t, alice)
    settle(t, lower_id_wins)
    s = state(t)
    scores = {r["player"]: r["score"] for r in round_standings(s)}
    [opponent] = [
        p
        for k in s["rounds"][0]["pairings"]
        for p in s["pairings"][k]["players"]
        if pid(away) in s["pairings"][k]["players"] and p != pid(away)
    ]
    # FIDE's dummy opponent: the unplayed round counts the player's own score.
    assert row_of(s, away)["tiebreaks"]["buchholz"] == scores[opponent] + scores[pid(away)]


def test_the_organiser_grants_a_bye_and_a_player_asks_only_for_themselves(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    services.tournament_bye_request(tournament=t, user=players[1], by=alice, round=3, expected_seq=AT_HEAD)
    assert state(t)["requested_byes"] == {"3": [pid(players[1])]}
    before = count(t)
    refused("not_your_place", services.tournament_bye_request, tournament=t, user=players[2], by=players[3], round=3)
    assert count(t) == before


@pytest.mark.parametrize(
    ("rounds_asked", "code"),
    [
        ([1], "round_not_future"),
        ([2, 2], "bye_already_requested"),
        ([2, 3, 4], "too_many_requested_byes"),
        ([9], "no_such_round"),
    ],
)
def test_a_bye_request_that_makes_no_sense_is_refused_and_writes_nothing(alice, rounds_asked, code):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=5)
    *fine, wrong = rounds_asked
    for n in fine:
        services.tournament_bye_request(tournament=t, user=players[0], round=n, expected_seq=AT_HEAD)
    before = count(t)
    refused(code, services.tournament_bye_request, tournament=t, user=players[0], round=wrong)
    assert count(t) == before


def test_a_fixed_schedule_or_bracket_offers_no_requested_bye(alice):
    rr = open_tournament(alice, "round_robin", field(4), start=True)
    refused("requested_bye_not_offered", services.tournament_bye_request, tournament=rr, user=alice, by=alice, round=3)
    se = open_tournament(alice, "single_elimination", field(4, prefix="se"))
    refused("requested_bye_not_offered", services.tournament_bye_request, tournament=se, user=alice, by=alice, round=2)


def test_a_bye_asked_before_the_start_applies_to_round_one(alice):
    players = field(5)
    t = open_tournament(alice, "swiss", players, rounds=3)
    services.tournament_bye_request(tournament=t, user=players[2], round=1, expected_seq=AT_HEAD)
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    records = [s["pairings"][k] for k in s["rounds"][0]["pairings"]]
    assert [r["players"] for r in records if r["source"] == "requested_bye"] == [[pid(players[2])]]
    assert all(len(r["players"]) == 2 for r in records if r["source"] != "requested_bye")


def test_a_pod_player_on_a_requested_bye_is_not_seated(alice):
    players = field(7)
    t = open_tournament(alice, "pods", players, game="wizard-dodgeball", rounds=2, requested_bye_points="1")
    services.tournament_bye_request(tournament=t, user=players[6], round=1, expected_seq=AT_HEAD)
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    pods = [s["pairings"][k]["players"] for k in s["rounds"][0]["pairings"]]
    assert [pid(players[6])] in pods and sorted(len(p) for p in pods) == [1, 3, 3]


@pytest.mark.parametrize("value", ["2", "-1", "lots"])
def test_requested_bye_points_are_validated_like_other_options(alice, value):
    refused(
        "bad_options",
        services.tournament_create,
        created_by=alice,
        name="x",
        game="dueling-wizards",
        format="swiss",
        options={"requested_bye_points": value},
    )


def test_requested_bye_points_default_to_nothing(alice):
    t = open_tournament(alice, "swiss", field(2))
    assert state(t)["options"]["requested_bye_points"] == "0"


def test_request_bye_over_the_api_and_replay(alice, client_for):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    before = count(t)
    r = api_command(client_for(players[0]), t, "request-bye", round=1)
    assert r.status_code == 409 and r.json()["code"] == "round_not_future"
    r = api_command(client_for(players[0]), t, "request-bye", round=2, expected_seq=before - 1)
    assert r.status_code == 409 and r.json()["code"] == "stale_seq"
    assert count(t) == before
    r = api_command(client_for(players[0]), t, "request-bye", round=2)
    assert r.status_code == 201, r.json()
    services.tournament_drop(tournament=t, user=players[1], expected_seq=AT_HEAD)
    services.tournament_readmit(tournament=t, user=players[1], by=alice, expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    pair_next(t, alice)
    cached = state(t)
    replayed = fold(event_dict(e) for e in Event.objects.filter(stream_id=t.stream_id).order_by("seq"))
    assert replayed == cached


def test_the_trf_report_writes_a_requested_half_point_bye_as_h(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=2, requested_bye_points="1/2")
    services.tournament_bye_request(tournament=t, user=players[0], round=2, expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    pair_next(t, alice)
    settle(t, lower_id_wins)
    lines = {line[14:47].strip(): line for line in trf_report(tournament=t).splitlines() if line.startswith("001")}
    assert lines[players[0].username].endswith("0000 - H")
    # The other three are an odd field: one of them has the pairing's own bye, written U.
    assert sum(line.endswith("0000 - U") for line in lines.values()) == 1


def test_the_new_tournament_form_sets_what_a_requested_bye_is_worth(alice):
    client = Client()
    client.force_login(alice)
    assert "Requested bye worth" in client.get("/tournaments/").content.decode()
    body = {"game": "dueling-wizards", "format": "swiss", "bye_score": "1", "seeding": "registration"}
    r = client.post("/tournaments/", {**body, "name": "Half byes", "requested_bye_points": "1/2"})
    assert r.status_code == 302
    assert Tournament.objects.get(name="Half byes").state["options"]["requested_bye_points"] == "1/2"
