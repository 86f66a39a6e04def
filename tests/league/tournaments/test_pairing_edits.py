"""The organiser edits the current round's pairings before its results (issue 16): swaps two
players, gives a player the round's bye, un-pairs and re-pairs the round. Each edit is a fact
with a reason, refusals write nothing, and the Swiss, the standings and the page follow the
edited pairings."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest

from league.tournaments import services
from league.tournaments.projection import event_dict, fold
from league.tournaments.standings import round_standings, swiss_field
from matches.commands import AT_HEAD
from matches.models import Event

from .helpers import api_command, field, lower_id_wins, open_tournament, pid, refused, settle, state

pytestmark = pytest.mark.django_db


def round_records(s, n):
    return [s["pairings"][p] for p in s["rounds"][n - 1]["pairings"]]


def two_player(s, n):
    return [r for r in round_records(s, n) if len(r["players"]) == 2]


def count(t):
    return Event.objects.filter(stream_id=t.stream_id).count()


def swap(t, by, a, b, rnd=1, reason="Brothers should not meet in round 1"):
    return services.tournament_pairing_swap(
        tournament=t, by=by, round=rnd, players=[a, b], reason=reason, expected_seq=AT_HEAD
    )


def test_a_swap_exchanges_two_players_between_pairings_and_says_why_on_both(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    first, second = two_player(state(t), 1)
    a, b = first["players"][0], second["players"][1]
    out = swap(t, alice, a, b)
    assert [e.type for e in out.events] == ["pairing.swapped"]
    s = state(t)
    new_first, new_second = s["pairings"][first["id"]], s["pairings"][second["id"]]
    assert new_first["players"] == [b, first["players"][1]]
    assert new_second["players"] == [second["players"][0], a]
    line = new_first["history"][-1]
    assert line["event"] == "swapped" and line["reason"] == "Brothers should not meet in round 1"
    assert s["edits"] == [
        {
            "seq": s["seq"],
            "round": 1,
            "event": "swapped",
            "actor": f"user:{alice.pk}",
            "reason": "Brothers should not meet in round 1",
            "players": [a, b],
        }
    ]


def test_a_swapped_pairing_counts_as_played_between_the_new_opponents(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    first, second = two_player(state(t), 1)
    a, b = first["players"][0], second["players"][1]
    swap(t, alice, a, b)
    settle(t, lower_id_wins)
    s = state(t)
    opponents = {p.id: p.opponents for p in swiss_field(s)}
    assert opponents[b] == (first["players"][1],)
    assert opponents[a] == (second["players"][0],)
    # Buchholz reads the edited pairing too: b's one opponent is a's old one.
    rows = {r["player"]: r for r in round_standings(s)}
    assert rows[b]["tiebreaks"]["buchholz"] == rows[first["players"][1]]["score"]
    assert rows[a]["tiebreaks"]["buchholz"] == rows[second["players"][0]]["score"]
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    s = state(t)
    met_in_1 = {frozenset(r["players"]) for r in two_player(s, 1)}
    met_in_2 = {frozenset(r["players"]) for r in two_player(s, 2)}
    # The Swiss avoids rematches of the pairings as edited, not as first generated.
    assert not met_in_1 & met_in_2


def test_a_player_given_the_bye_by_edit_is_not_given_the_pairing_bye_again(alice):
    players = field(5)
    t = open_tournament(alice, "swiss", players, start=True, rounds=4)
    s = state(t)
    [bye] = [r for r in round_records(s, 1) if len(r["players"]) == 1]
    holder = bye["players"][0]
    pairing = two_player(s, 1)[0]
    chosen, opponent = pairing["players"]
    out = services.tournament_bye_set(
        tournament=t, by=alice, round=1, player=chosen, reason="Has to leave early", expected_seq=AT_HEAD
    )
    assert [e.type for e in out.events] == ["pairing.bye_set"]
    s = state(t)
    assert s["pairings"][bye["id"]]["players"] == [chosen]
    assert sorted(s["pairings"][pairing["id"]]["players"]) == sorted([holder, opponent])
    assert s["pairings"][bye["id"]]["history"][-1]["reason"] == "Has to leave early"
    for _round in range(2, 5):
        settle(t, lower_id_wins)
        services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    s = state(t)
    byes = Counter(r["players"][0] for r in s["pairings"].values() if len(r["players"]) == 1)
    assert byes[chosen] == 1 and max(byes.values()) == 1 and len(byes) == 4


def test_an_even_round_has_no_bye_to_give_and_a_pod_none_either(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    before = count(t)
    refused(
        "no_bye_in_round",
        services.tournament_bye_set,
        tournament=t,
        by=alice,
        round=1,
        player=pid(players[0]),
        reason="late",
    )
    assert count(t) == before


def test_re_pairing_the_round_takes_in_a_late_entry_and_is_explained(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    [late] = field(1, prefix="late")
    services.tournament_join_late(tournament=t, user=late, expected_seq=AT_HEAD)
    assert all(pid(late) not in r["players"] for r in round_records(state(t), 1))
    out = services.tournament_round_repair(
        tournament=t, by=alice, round=1, reason="A late check-in", expected_seq=AT_HEAD
    )
    assert [e.type for e in out.events] == ["round.unpaired", "round.paired"]
    s = state(t)
    assert len(s["rounds"]) == 1
    seated = sorted(p for r in round_records(s, 1) for p in r["players"])
    assert seated == sorted([*map(pid, players), pid(late)])
    assert s["edits"][-1]["event"] == "unpaired" and s["edits"][-1]["reason"] == "A late check-in"


def test_re_pairing_is_refused_once_a_result_is_reported(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    first = two_player(state(t), 1)[0]
    a, b = first["players"]
    by = next(u for u in players if pid(u) == a)
    services.tournament_report(tournament=t, pairing=first["id"], user=by, result={"winner": a}, expected_seq=AT_HEAD)
    before = count(t)
    refused("result_recorded", services.tournament_round_repair, tournament=t, by=alice, round=1, reason="x")
    other = two_player(state(t), 1)[1]["players"][0]
    refused("result_recorded", swap, t=t, by=alice, a=a, b=other)
    assert count(t) == before


def test_a_pairing_with_a_platform_match_is_not_edited(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    first, second = two_player(state(t), 1)
    services.tournament_match_create(tournament=t, pairing=first["id"], by=alice, expected_seq=AT_HEAD)
    before = count(t)
    refused("match_created", swap, t=t, by=alice, a=first["players"][0], b=second["players"][0])
    refused("match_created", services.tournament_round_repair, tournament=t, by=alice, round=1, reason="x")
    assert count(t) == before


@pytest.mark.parametrize(
    ("players_of", "code"),
    [
        (lambda a, b, same: [a, a], "same_player"),
        (lambda a, b, same: [a, "nobody-here"], "player_not_found"),
        (lambda a, b, same: [a, same], "same_pairing"),
    ],
)
def test_a_swap_that_makes_no_sense_is_refused_and_writes_nothing(alice, players_of, code):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    first, second = two_player(state(t), 1)
    before = count(t)
    refused(
        code,
        services.tournament_pairing_swap,
        tournament=t,
        by=alice,
        round=1,
        players=players_of(first["players"][0], second["players"][0], first["players"][1]),
        reason="x",
    )
    assert count(t) == before


def test_only_the_current_round_is_edited(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    settle(t, lower_id_wins)
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    first, second = two_player(state(t), 1)
    before = count(t)
    refused("not_current_round", swap, t=t, by=alice, a=first["players"][0], b=second["players"][0], rnd=1)
    assert count(t) == before


def test_brackets_and_round_robin_schedules_are_fixed(alice):
    players = field(4)
    t = open_tournament(alice, "single_elimination", players, start=True)
    refused("bracket_fixed", swap, t=t, by=alice, a=pid(players[0]), b=pid(players[1]))
    rr = open_tournament(alice, "round_robin", field(4, prefix="rr"), start=True)
    first, second = two_player(state(rr), 1)
    refused("schedule_fixed", swap, t=rr, by=alice, a=first["players"][0], b=second["players"][0])


def test_only_the_organiser_edits_and_a_reason_is_required(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    first, second = two_player(state(t), 1)
    a, b = first["players"][0], second["players"][0]
    before = count(t)
    refused("not_organiser", swap, t=t, by=players[0], a=a, b=b)
    refused("reason_required", swap, t=t, by=alice, a=a, b=b, reason="  ")
    assert count(t) == before


def test_over_the_api_a_swap_is_the_organisers_and_a_stale_one_is_refused(alice, client_for):
    players = field(4)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    first, second = two_player(state(t), 1)
    names = {pid(u): u.username for u in players}
    body = {"round": 1, "players": [names[first["players"][0]], names[second["players"][0]]], "reason": "Clubmates"}
    before = count(t)
    r = api_command(client_for(players[0]), t, "swap", **body)
    assert r.status_code == 403 and r.json()["code"] == "not_organiser"
    r = api_command(client_for(alice), t, "swap", **body, expected_seq=before - 1)
    assert r.status_code == 409 and r.json()["code"] == "stale_seq"
    r = api_command(client_for(alice), t, "swap", round=1, players=["x"], reason="y")
    assert r.status_code == 400
    assert count(t) == before
    eid = str(uuid.uuid4())
    r = api_command(client_for(alice), t, "swap", **body, event_id=eid, expected_seq=before)
    assert r.status_code == 201, r.json()
    rec = next(p for rnd in r.json()["rounds"] for p in rnd["pairings"] if p["id"] == first["id"])
    assert rec["names"][0] == names[second["players"][0]]
    line = r.json()["edits"][-1]
    assert line["names"] == body["players"] and line["reason"] == "Clubmates"
    # A retry with the same event id returns the stored edit: the players are not swapped back.
    again = api_command(client_for(alice), t, "swap", **body, event_id=eid, expected_seq=before)
    assert again.status_code == 200 and again.json()["events"] == r.json()["events"]
    assert count(t) == before + 1
    r = api_command(client_for(alice), t, "set-bye", round=1, player=names[first["players"][1]], reason="x")
    assert r.status_code == 409 and r.json()["code"] == "no_bye_in_round"
    assert count(t) == before + 1


def test_replaying_the_stream_gives_the_edited_state(alice):
    players = field(5)
    t = open_tournament(alice, "swiss", players, start=True, rounds=3)
    pairing = two_player(state(t), 1)[0]
    services.tournament_bye_set(
        tournament=t, by=alice, round=1, player=pairing["players"][0], reason="Leaves early", expected_seq=AT_HEAD
    )
    first, second = two_player(state(t), 1)
    swap(t, alice, first["players"][0], second["players"][1])
    services.tournament_round_repair(tournament=t, by=alice, round=1, reason="Start again", expected_seq=AT_HEAD)
    cached = state(t)
    replayed = fold(event_dict(e) for e in Event.objects.filter(stream_id=t.stream_id).order_by("seq"))
    assert replayed == cached
    assert services.projection_rebuild(tournament=t) == cached


def test_two_players_swap_pods_and_a_pod_round_has_no_bye_to_give(alice):
    players = field(6)
    t = open_tournament(alice, "pods", players, start=True, game="wizard-dodgeball", rounds=2, pod_size=3)
    first, second = round_records(state(t), 1)
    a, b = first["players"][0], second["players"][2]
    swap(t, alice, a, b, reason="Same club")
    s = state(t)
    assert s["pairings"][first["id"]]["players"] == [b, *first["players"][1:]]
    assert s["pairings"][second["id"]]["players"] == [*second["players"][:2], a]
    refused("no_bye_in_round", services.tournament_bye_set, tournament=t, by=alice, round=1, player=a, reason="x")
