"""Pods never seat more players than the game does (issue 16): the pod size is checked
against the engine's ``max_seats``, seating asks the engine, every pod gets a platform
match, and the first seat moves round the pod from round to round."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.auth import get_user_model

from engines import registry
from league.tournaments import services
from league.tournaments.brackets import pod_sizes
from league.tournaments.standings import pod_standings
from matches.commands import AT_HEAD
from matches.errors import Refusal

from .helpers import field, open_tournament, state

pytestmark = pytest.mark.django_db


def pods_of(s, number):
    return [s["pairings"][p]["players"] for p in s["rounds"][number - 1]["pairings"]]


def finish_in_seat_order(t):
    """Every open pod finishes in seat order (the organiser rules it)."""
    s = state(t)
    for record in s["pairings"].values():
        if record["status"] == "pending":
            services.tournament_rule(
                tournament=t,
                pairing=record["id"],
                by=t.created_by,
                result={"finish": [[p] for p in record["players"]]},
                expected_seq=AT_HEAD,
            )


@pytest.mark.parametrize(
    "game, players",
    [("dueling-wizards", 10), ("wizard-dodgeball", 9), ("dueling-wizards", 7), ("wizard-dodgeball", 10)],
)
def test_no_pod_holds_more_players_than_the_game_seats(alice, game, players):
    # Today's code gave Dueling Wizards (3 seats) pods of [4, 3, 3] and Wizard Dodgeball
    # (4 seats) pods of [5, 4]: the big pod could never be played on the platform.
    seats = registry.get(game).max_seats
    t = open_tournament(alice, "pods", field(players), start=True, game=game, rounds=2)
    s = state(t)
    pods = pods_of(s, 1)
    assert sum(len(p) for p in pods) == players
    assert max(len(p) for p in pods) <= seats
    assert min(len(p) for p in pods) >= registry.get(game).min_seats
    finish_in_seat_order(t)
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    assert max(len(p) for p in pods_of(state(t), 2)) <= seats


def test_every_pod_of_a_three_seat_game_gets_a_platform_match(alice):
    players = field(10)
    t = open_tournament(alice, "pods", players, start=True, game="dueling-wizards")
    s = state(t)
    assert sorted(len(p) for p in pods_of(s, 1)) == [2, 2, 3, 3]
    for pairing in s["rounds"][0]["pairings"]:
        out = services.tournament_match_create(tournament=t, pairing=pairing, by=alice, expected_seq=AT_HEAD)
        assert out.state["pairings"][pairing]["match_id"]


def test_a_pod_of_two_reports_its_finish_and_scores_placement_points(alice):
    players = field(4)
    t = open_tournament(alice, "pods", players, start=True, game="dueling-wizards", placement_points=[3, 1, 0])
    s = state(t)
    two = next(r for r in s["pairings"].values() if len(r["players"]) == 2)
    a, b = two["players"]
    User = get_user_model()
    with pytest.raises(Refusal) as exc:
        services.tournament_report(
            tournament=t,
            pairing=two["id"],
            user=User.objects.get(pk=int(a)),
            result={"winner": a},
            expected_seq=AT_HEAD,
        )
    assert exc.value.code == "bad_result"
    services.tournament_rule(
        tournament=t, pairing=two["id"], by=alice, result={"finish": [[b], [a]]}, expected_seq=AT_HEAD
    )
    rows = {r["player"]: r["score"] for r in pod_standings(state(t))}
    assert rows[b] == 3 and rows[a] == 1


@pytest.mark.parametrize("game, size", [("dueling-wizards", 4), ("dueling-wizards", 5), ("wizard-dodgeball", 5)])
def test_a_pod_size_larger_than_the_game_seats_is_refused(alice, game, size):
    with pytest.raises(Refusal) as exc:
        services.tournament_create(created_by=alice, name="x", game=game, format="pods", options={"pod_size": size})
    assert exc.value.code == "pod_larger_than_game"
    assert str(registry.get(game).max_seats) in str(exc.value)


def test_the_pod_size_defaults_to_what_the_game_seats(alice):
    t = services.tournament_create(created_by=alice, name="x", game="dueling-wizards", format="pods")
    assert state(t)["options"]["pod_size"] == 3


def test_the_first_seat_moves_round_the_pod_each_round(alice):
    # Four players in one pod of four, four rounds: the leader used to take the first
    # seat every round; now each player sits first exactly once.
    players = field(4)
    t = open_tournament(alice, "pods", players, start=True, game="wizard-dodgeball", rounds=4)
    firsts = []
    for number in range(1, 5):
        if number > 1:
            services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
        (pod,) = pods_of(state(t), number)
        firsts.append(pod[0])
        finish_in_seat_order(t)
    assert sorted(Counter(firsts).values()) == [1, 1, 1, 1]
    assert all(a != b for a, b in zip(firsts, firsts[1:]))


def test_pod_sizes_can_split_a_field_of_ten_for_a_three_seat_game():
    assert pod_sizes(10, preferred=3, smallest=2, largest=3) == [3, 3, 2, 2]
    with pytest.raises(ValueError):
        pod_sizes(10, preferred=3, smallest=3, largest=3)


def test_a_pod_of_two_played_on_the_platform_records_a_finish_that_the_verifier_accepts(
    alice, capsys, django_capture_on_commit_callbacks
):
    from django.core.management import call_command

    from matches.models import Match

    from .test_tournament_platform_matches import play_out

    players = field(4)
    t = open_tournament(alice, "pods", players, start=True, game="dueling-wizards")
    s = state(t)
    record = s["pairings"][s["rounds"][0]["pairings"][0]]
    assert len(record["players"]) == 2
    out = services.tournament_match_create(tournament=t, pairing=record["id"], by=alice, expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"][record["id"]]["match_id"])
    seats = {seat.index: seat.user for seat in match.seats.all()}
    with django_capture_on_commit_callbacks(execute=True):
        match = play_out(match, seats)
    match.refresh_from_db()
    assert match.verdict == Match.Verdict.VERIFIED
    done = state(t)["pairings"][record["id"]]
    assert done["status"] == "final" and "finish" in done["result"]
    assert sorted(p for place in done["result"]["finish"] for p in place) == sorted(record["players"])
    capsys.readouterr()
    call_command("verify", all=True, kind=["tournament"])  # raises CommandError (exit 2) if disputed
    assert "1 verified, 0 disputed" in capsys.readouterr().out
