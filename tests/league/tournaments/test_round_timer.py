"""Issue 16 (the organiser's day): the round timer. The organiser starts the current round's
clock (the tournament's ``round_minutes``, 50 by default), pauses, resumes and extends it;
each is a fact in the stream carrying the server's time, so the fold knows the deadline (or
what is left while paused) without reading the clock. Only the organiser runs it; a refusal
has a stable code and writes nothing."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from league.tournaments import services, timer_services
from league.tournaments.models import Tournament
from league.tournaments.projection import fold
from league.tournaments.services import event_dict
from league.tournaments.timer import seconds_left
from league.tournaments.verification import verify_tournament
from matches import eventstore
from matches.commands import AT_HEAD
from matches.models import Stream

from .helpers import api_command, field, lower_id_wins, open_tournament, refused, settle, state

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 11, 26, 10, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def started_swiss(organiser, n=4, **options):
    players = field(n)
    return open_tournament(organiser, "swiss", players, start=True, rounds=3, **options), players


def test_the_timer_starts_at_the_tournaments_round_length_and_knows_its_deadline(alice):
    t, _ = started_swiss(alice, round_minutes=40)
    out = timer_services.tournament_timer_start(tournament=t, by=alice, now=at(0), expected_seq=AT_HEAD)
    assert [(e.type, e.data["round"], e.data["seconds"]) for e in out.events] == [("round.timer_started", 1, 2400)]
    timer = state(t)["timer"]
    assert datetime.fromisoformat(timer["ends_at"]) == at(40)
    assert seconds_left(timer, at(15)) == 25 * 60


def test_fifty_minutes_is_the_default_round_length_and_the_organiser_may_choose_another(alice):
    t, _ = started_swiss(alice)
    assert state(t)["options"]["round_minutes"] == 50
    timer_services.tournament_timer_start(tournament=t, by=alice, minutes=30, now=at(0), expected_seq=AT_HEAD)
    assert datetime.fromisoformat(state(t)["timer"]["ends_at"]) == at(30)


def test_pausing_freezes_the_time_left_and_resuming_sets_a_new_deadline(alice):
    t, _ = started_swiss(alice)
    timer_services.tournament_timer_start(tournament=t, by=alice, now=at(0), expected_seq=AT_HEAD)
    timer_services.tournament_timer_pause(tournament=t, by=alice, now=at(10), expected_seq=AT_HEAD)
    paused = state(t)["timer"]
    # Twenty minutes of a pause cost the players nothing: 40 minutes are left before and after.
    assert paused["paused"] and seconds_left(paused, at(10)) == seconds_left(paused, at(30)) == 40 * 60
    timer_services.tournament_timer_resume(tournament=t, by=alice, now=at(30), expected_seq=AT_HEAD)
    running = state(t)["timer"]
    assert not running["paused"] and datetime.fromisoformat(running["ends_at"]) == at(70)


def test_an_extension_moves_the_deadline_running_or_paused(alice):
    t, _ = started_swiss(alice)
    timer_services.tournament_timer_start(tournament=t, by=alice, now=at(0), expected_seq=AT_HEAD)
    timer_services.tournament_timer_extend(tournament=t, by=alice, minutes=5, now=at(1), expected_seq=AT_HEAD)
    assert datetime.fromisoformat(state(t)["timer"]["ends_at"]) == at(55)
    timer_services.tournament_timer_pause(tournament=t, by=alice, now=at(5), expected_seq=AT_HEAD)
    timer_services.tournament_timer_extend(tournament=t, by=alice, minutes=10, now=at(6), expected_seq=AT_HEAD)
    timer = state(t)["timer"]
    assert timer["remaining"] == 60 * 60 and timer["extended"] == 15 * 60


def test_a_fresh_fold_of_the_stream_gives_the_same_timer_whenever_it_is_replayed(alice):
    # The fold reads the time from the events, never the clock: a replay agrees with the cache.
    t, _ = started_swiss(alice)
    timer_services.tournament_timer_start(tournament=t, by=alice, now=at(0), expected_seq=AT_HEAD)
    timer_services.tournament_timer_pause(tournament=t, by=alice, now=at(12), expected_seq=AT_HEAD)
    replayed = fold(event_dict(e) for e in eventstore.stream_events(stream_id=t.stream_id))
    assert replayed["timer"] == state(t)["timer"]


def test_a_tournament_with_a_timer_passes_the_tournament_verifier(alice):
    t, _ = started_swiss(alice)
    timer_services.tournament_timer_start(tournament=t, by=alice, now=at(0), expected_seq=AT_HEAD)
    timer_services.tournament_timer_pause(tournament=t, by=alice, now=at(3), expected_seq=AT_HEAD)
    timer_services.tournament_timer_extend(tournament=t, by=alice, minutes=2, now=at(4), expected_seq=AT_HEAD)
    timer_services.tournament_timer_resume(tournament=t, by=alice, now=at(5), expected_seq=AT_HEAD)
    verdict = verify_tournament(Stream.objects.get(pk=t.stream_id))
    assert verdict.ok, verdict


def test_only_the_organiser_runs_the_timer(alice):
    t, players = started_swiss(alice)
    refused("not_organiser", timer_services.tournament_timer_start, tournament=t, by=players[0])
    timer_services.tournament_timer_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    for fn in (timer_services.tournament_timer_pause, timer_services.tournament_timer_resume):
        refused("not_organiser", fn, tournament=t, by=players[0])
    refused("not_organiser", timer_services.tournament_timer_extend, tournament=t, by=players[0], minutes=5)


def test_the_timer_refuses_what_does_not_fit_its_state_and_writes_nothing(alice):
    players = field(4)
    t = open_tournament(alice, "swiss", players, rounds=2)
    refused("not_started", timer_services.tournament_timer_start, tournament=t, by=alice)
    services.tournament_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    refused("timer_not_started", timer_services.tournament_timer_pause, tournament=t, by=alice)
    refused("timer_not_started", timer_services.tournament_timer_extend, tournament=t, by=alice, minutes=5)
    refused("bad_minutes", timer_services.tournament_timer_start, tournament=t, by=alice, minutes=0)
    timer_services.tournament_timer_start(tournament=t, by=alice, expected_seq=AT_HEAD)
    refused("timer_already_started", timer_services.tournament_timer_start, tournament=t, by=alice)
    refused("timer_not_paused", timer_services.tournament_timer_resume, tournament=t, by=alice)
    refused("bad_minutes", timer_services.tournament_timer_extend, tournament=t, by=alice, minutes=-5)
    timer_services.tournament_timer_pause(tournament=t, by=alice, expected_seq=AT_HEAD)
    head = state(t)["seq"]
    refused("timer_paused", timer_services.tournament_timer_pause, tournament=t, by=alice)
    assert state(t)["seq"] == head


def test_a_new_round_needs_its_own_timer(alice):
    t, _ = started_swiss(alice)
    timer_services.tournament_timer_start(tournament=t, by=alice, now=at(0), expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    services.tournament_pair_next(tournament=t, by=alice, expected_seq=AT_HEAD)
    # Round 1's clock is not round 2's: pausing waits for the organiser to start the new one.
    refused("timer_not_started", timer_services.tournament_timer_pause, tournament=t, by=alice)
    timer_services.tournament_timer_start(tournament=t, by=alice, now=at(60), expected_seq=AT_HEAD)
    assert state(t)["timer"]["round"] == 2


def test_a_bad_round_length_option_is_refused_at_creation(alice):
    refused(
        "bad_options",
        services.tournament_create,
        created_by=alice,
        name="x",
        game="dueling-wizards",
        format="swiss",
        options={"round_minutes": 0},
    )


def test_the_api_runs_the_timer_for_the_organiser_and_shows_it_to_everyone(alice, client_for):
    t, players = started_swiss(alice)
    organiser, player = client_for(alice), client_for(players[0])
    r = api_command(player, t, "timer-start")
    assert (r.status_code, r.json()["code"]) == (403, "not_organiser")
    assert api_command(organiser, t, "timer-start", minutes=45).status_code == 201
    seen = player.get(f"/api/tournaments/{t.id}/").json()["timer"]
    assert seen["round"] == 1 and not seen["paused"] and 44 * 60 < seen["seconds_left"] <= 45 * 60
    assert api_command(organiser, t, "timer-pause").status_code == 201
    r = api_command(organiser, t, "timer-pause")
    assert (r.status_code, r.json()["code"]) == (409, "timer_paused")
    r = api_command(organiser, t, "timer-extend")
    assert r.status_code == 400  # an extension names its minutes
    assert api_command(organiser, t, "timer-extend", minutes=5).status_code == 201
    seen = client_for().get(f"/api/tournaments/{t.id}/").json()["timer"]
    assert seen["paused"] and 49 * 60 < seen["seconds_left"] <= 50 * 60


def test_a_timer_command_needs_its_guards_and_a_retry_acts_once(alice, client_for):
    t, _ = started_swiss(alice)
    organiser = client_for(alice)
    r = organiser.post(f"/api/tournaments/{t.id}/timer-start/", {}, format="json")
    assert r.status_code == 400
    head = organiser.get(f"/api/tournaments/{t.id}/").json()["head_seq"]
    stale = api_command(organiser, t, "timer-start", expected_seq=head - 1)
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_seq")
    event_id = str(uuid.uuid4())
    first = api_command(organiser, t, "timer-extend", minutes=5, event_id=event_id)
    assert first.status_code == 409  # no timer yet: refused, nothing written
    assert api_command(organiser, t, "timer-start", event_id=event_id).status_code == 201
    again = api_command(organiser, t, "timer-start", event_id=event_id, expected_seq=head)
    assert again.status_code == 200 and state(t)["seq"] == head + 1


def test_the_new_tournament_form_sets_the_round_length(alice):
    client = Client()
    client.force_login(alice)
    r = client.post(
        "/tournaments/",
        {
            "name": "Quick rounds",
            "game": "dueling-wizards",
            "format": "swiss",
            "bye_score": "1",
            "seeding": "registration",
            "round_minutes": 25,
        },
    )
    assert r.status_code == 302
    assert Tournament.objects.get(name="Quick rounds").state["options"]["round_minutes"] == 25


def test_a_brackets_next_wave_of_matches_gets_a_new_clock(alice):
    # A bracket is one round whose matches become ready as results come in: the semi-finals
    # need their own clock, not what is left of the quarter-finals'.
    t = open_tournament(alice, "single_elimination", field(8), start=True)
    timer_services.tournament_timer_start(tournament=t, by=alice, now=at(0), expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    timer_services.tournament_timer_start(tournament=t, by=alice, minutes=20, now=at(45), expected_seq=AT_HEAD)
    assert datetime.fromisoformat(state(t)["timer"]["ends_at"]) == at(65)


def test_a_finished_tournament_runs_no_timer(alice):
    t = open_tournament(alice, "single_elimination", field(2), start=True)
    timer_services.tournament_timer_start(tournament=t, by=alice, now=at(0), expected_seq=AT_HEAD)
    settle(t, lower_id_wins)
    head = state(t)["seq"]
    for command, extra in [
        (timer_services.tournament_timer_start, {}),
        (timer_services.tournament_timer_pause, {}),
        (timer_services.tournament_timer_extend, {"minutes": 5}),
    ]:
        refused("tournament_finished", command, tournament=t, by=alice, **extra)
    assert state(t)["seq"] == head
