"""The platform mails a tournament's players only if they asked to be in it: they registered
themselves, or confirmed (or checked in themselves after) the entry the organiser made for them.
Anyone may organise a tournament, name it with any text and enter any account by username; the
entered still play, they are just not written to until the entry is theirs."""

from __future__ import annotations

import importlib
import uuid

import pytest
from django.apps import apps
from django.core import mail

from league.tournaments import projection, services
from league.tournaments.models import EmailOptOut, Tournament
from league.tournaments.projection import event_dict
from league.tournaments.reach.followups import fan_out
from matches import eventstore
from matches.commands import AT_HEAD
from matches.models import Event, OutboxMessage

from .helpers import open_pairings, people, pid, refused, state

pytestmark = pytest.mark.django_db


@pytest.fixture
def players():
    users = people("ann", "ben", "cat", "dan")
    for u in users:
        u.email = f"{u.username}@example.org"
        u.save()
    return users


@pytest.fixture
def organiser():
    return people("org")[0]


def swiss(organiser, own=(), entered=(), **options):
    """A Swiss event: ``own`` register themselves, the organiser enters ``entered``."""
    t = services.tournament_create(
        created_by=organiser,
        name="Free prizes: reply with your password",
        game="dueling-wizards",
        format="swiss",
        options={"rounds": 3, **options},
    )
    for u in own:
        services.tournament_register(tournament=t, user=u, expected_seq=AT_HEAD)
    for u in entered:
        services.tournament_register(tournament=t, user=u, by=organiser, expected_seq=AT_HEAD)
    return t


def start(t, organiser, capture):
    with capture(execute=True):
        services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
        if not open_pairings(t):
            services.tournament_pair_next(tournament=t, by=organiser, expected_seq=AT_HEAD)


def next_round(t, organiser, capture):
    # The organiser rules every result: a player who reported their own would have asked to play.
    for record in state(t)["pairings"].values():
        if record["status"] == "final":
            continue
        result = {"winner": min(record["players"], key=int)}
        services.tournament_rule(tournament=t, pairing=record["id"], by=organiser, result=result, expected_seq=AT_HEAD)
    mail.outbox.clear()
    with capture(execute=True):
        services.tournament_pair_next(tournament=t, by=organiser, expected_seq=AT_HEAD)


def mailed():
    return sorted(m.to[0] for m in mail.outbox)


def queued_to():
    return sorted(m.payload["to"] for m in OutboxMessage.objects.filter(topic="tournament.email"))


def events(t):
    return Event.objects.filter(stream_id=t.stream_id).count()


def test_players_the_organiser_entered_are_not_emailed_when_the_tournament_starts(
    organiser, players, django_capture_on_commit_callbacks
):
    t = swiss(organiser, entered=players)
    start(t, organiser, django_capture_on_commit_callbacks)
    assert len(open_pairings(t)) == 2  # they are paired and play all the same
    assert mailed() == [] and queued_to() == []


def test_players_who_registered_themselves_are_emailed_and_those_entered_are_not(
    organiser, players, django_capture_on_commit_callbacks
):
    ann, ben, cat, dan = players
    t = swiss(organiser, own=[ann, ben], entered=[cat, dan])
    start(t, organiser, django_capture_on_commit_callbacks)
    assert mailed() == ["ann@example.org", "ben@example.org"]
    assert queued_to() == ["ann@example.org", "ben@example.org"]
    assert all("Free prizes" in m.subject for m in mail.outbox)


def test_a_player_who_confirms_the_entry_is_emailed_from_then_on(
    organiser, players, django_capture_on_commit_callbacks
):
    ann, ben, cat, dan = players
    t = swiss(organiser, entered=players)
    start(t, organiser, django_capture_on_commit_callbacks)
    assert mailed() == []
    out = services.tournament_confirm_entry(tournament=t, user=cat, expected_seq=AT_HEAD)
    assert [e.type for e in out.events] == ["player.entry_confirmed"]
    next_round(t, organiser, django_capture_on_commit_callbacks)
    assert mailed() == ["cat@example.org"]


def test_a_confirmation_before_the_start_is_enough(organiser, players, django_capture_on_commit_callbacks):
    ann, ben, cat, dan = players
    t = swiss(organiser, entered=players)
    services.tournament_confirm_entry(tournament=t, user=dan, expected_seq=AT_HEAD)
    start(t, organiser, django_capture_on_commit_callbacks)
    assert mailed() == ["dan@example.org"]


def test_checking_in_oneself_confirms_the_entry_but_a_desk_check_in_does_not(
    organiser, players, django_capture_on_commit_callbacks
):
    ann, ben, cat, dan = players
    t = swiss(organiser, entered=players, check_in_required=True)
    services.tournament_check_in(tournament=t, user=ann, expected_seq=AT_HEAD)
    for u in (ben, cat, dan):
        services.tournament_check_in(tournament=t, user=u, by=organiser, expected_seq=AT_HEAD)
    start(t, organiser, django_capture_on_commit_callbacks)
    assert mailed() == ["ann@example.org"]


def test_an_opted_out_player_who_asked_to_play_still_gets_none(organiser, players, django_capture_on_commit_callbacks):
    ann, ben, cat, dan = players
    EmailOptOut.objects.create(user=ann)
    t = swiss(organiser, own=[ann, ben], entered=[cat])
    services.tournament_register(tournament=t, user=dan, by=organiser, expected_seq=AT_HEAD)
    services.tournament_confirm_entry(tournament=t, user=dan, expected_seq=AT_HEAD)
    start(t, organiser, django_capture_on_commit_callbacks)
    assert mailed() == ["ben@example.org", "dan@example.org"]


def test_an_unconfirmed_opponent_is_not_asked_by_email_to_confirm_a_reported_result(
    organiser, players, django_capture_on_commit_callbacks
):
    t = swiss(organiser, entered=players)
    start(t, organiser, django_capture_on_commit_callbacks)
    record = open_pairings(t)[0]
    users = {pid(u): u for u in players}
    reporter = users[record["players"][0]]
    with django_capture_on_commit_callbacks(execute=True):
        services.tournament_report(
            tournament=t, pairing=record["id"], user=reporter, result={"winner": pid(reporter)}, expected_seq=AT_HEAD
        )
    assert mailed() == [] and queued_to() == []


def test_a_row_queued_before_the_rule_writes_to_nobody(organiser, players, django_capture_on_commit_callbacks):
    ann, ben, cat, dan = players
    t = swiss(organiser, own=players)
    start(t, organiser, django_capture_on_commit_callbacks)
    payload = dict(OutboxMessage.objects.get(topic="tournament.reach").payload)
    OutboxMessage.objects.filter(topic="tournament.email").delete()
    del payload["write_to"]
    fan_out(payload)
    assert queued_to() == []


# --------------------------------------------------------------------------------------
# The confirmation: the player's own, once


def test_the_organiser_cannot_confirm_a_players_entry_and_nothing_is_written(organiser, players):
    ann, *_ = players
    t = swiss(organiser, entered=[ann])
    before = events(t)
    refused("not_your_entry", services.tournament_confirm_entry, tournament=t, user=ann, by=organiser)
    assert events(t) == before
    assert not projection.asked_to_play(state(t)["players"][pid(ann)])


def test_another_user_cannot_confirm_a_players_entry(organiser, players):
    ann, ben, *_ = players
    t = swiss(organiser, own=[ben], entered=[ann])
    before = events(t)
    refused("not_your_entry", services.tournament_confirm_entry, tournament=t, user=ann, by=ben)
    assert events(t) == before


def test_a_second_confirmation_is_refused_as_already_confirmed_and_writes_nothing(organiser, players):
    ann, ben, *_ = players
    t = swiss(organiser, own=[ben], entered=[ann])
    services.tournament_confirm_entry(tournament=t, user=ann, expected_seq=AT_HEAD)
    before = events(t)
    refused("already_confirmed", services.tournament_confirm_entry, tournament=t, user=ann)
    refused("already_confirmed", services.tournament_confirm_entry, tournament=t, user=ben)
    assert events(t) == before


def test_a_confirmation_retried_with_its_event_id_is_answered_with_the_stored_one(organiser, players):
    ann, *_ = players
    t = swiss(organiser, entered=[ann])
    eid = uuid.uuid4()
    first = services.tournament_confirm_entry(tournament=t, user=ann, expected_seq=AT_HEAD, event_id=eid)
    again = services.tournament_confirm_entry(tournament=t, user=ann, expected_seq=AT_HEAD, event_id=eid)
    assert first.created and not again.created
    assert [e.seq for e in again.events] == [e.seq for e in first.events]


def test_someone_not_entered_or_withdrawn_has_nothing_to_confirm(organiser, players):
    ann, ben, *_ = players
    t = swiss(organiser, entered=[ann])
    refused("not_registered", services.tournament_confirm_entry, tournament=t, user=ben)
    services.tournament_withdraw(tournament=t, user=ann, expected_seq=AT_HEAD)
    refused("not_registered", services.tournament_confirm_entry, tournament=t, user=ann)


def test_confirm_entry_over_the_api_is_the_players_own(organiser, players, client_for):
    ann, ben, *_ = players
    t = swiss(organiser, own=[ben], entered=[ann])
    base = f"/api/tournaments/{t.id}/"

    def post(caller, **body):
        head = client_for(caller).get(base).json()["head_seq"]
        return client_for(caller).post(
            f"{base}confirm-entry/", {"expected_seq": head, "event_id": str(uuid.uuid4()), **body}, format="json"
        )

    before = events(t)
    r = post(organiser, user="ann")
    assert r.status_code == 403 and r.json()["code"] == "not_your_entry"
    assert events(t) == before
    assert client_for(ann).get(base).json()["me"]["asked_to_play"] is False
    r = post(ann)
    assert r.status_code == 201, r.json()
    assert r.json()["me"]["asked_to_play"] is True
    r = post(ann)
    assert r.status_code == 409 and r.json()["code"] == "already_confirmed"


# --------------------------------------------------------------------------------------
# Derived from the events: who made the entry


def test_who_entered_a_player_is_read_from_the_events_actor(organiser, players):
    ann, ben, cat, _ = players
    t = swiss(organiser, own=[ann], entered=[ben])
    services.tournament_withdraw(tournament=t, user=ann, expected_seq=AT_HEAD)
    services.tournament_register(tournament=t, user=ann, by=organiser, expected_seq=AT_HEAD)
    services.tournament_confirm_entry(tournament=t, user=ben, expected_seq=AT_HEAD)
    services.tournament_withdraw(tournament=t, user=ben, expected_seq=AT_HEAD)
    services.tournament_register(tournament=t, user=ben, expected_seq=AT_HEAD)
    players_now = state(t)["players"]
    # Ann withdrew; the organiser's new entry is not hers. Ben came back on his own.
    assert players_now[pid(ann)]["entered_by"] == pid(organiser)
    assert not projection.asked_to_play(players_now[pid(ann)])
    assert "entered_by" not in players_now[pid(ben)] and projection.asked_to_play(players_now[pid(ben)])
    fresh = projection.fold(event_dict(e) for e in eventstore.stream_events(stream_id=t.stream_id))
    assert fresh == state(t)


def test_a_tournament_whose_players_entered_themselves_folds_as_it_always_did(organiser, players):
    t = swiss(organiser, own=players, check_in_required=True)
    services.tournament_check_in(tournament=t, user=players[0], expected_seq=AT_HEAD)
    for p in state(t)["players"].values():
        assert not {"entered_by", "entry_confirmed"} & set(p)


def test_the_migration_refolds_caches_made_before_entries_were_noted(organiser, players):
    ann, ben, *_ = players
    entered = swiss(organiser, own=[ann], entered=[ben])
    own = swiss(organiser, own=[ann, ben])
    # The caches as the earlier fold left them: no ``entered_by``.
    old = state(entered)
    del old["players"][pid(ben)]["entered_by"]
    Tournament.objects.filter(pk=entered.pk).update(state=old)
    untouched = Tournament.objects.get(pk=own.pk).state
    migration = importlib.import_module("league.tournaments.migrations.0003_refold_entries_by_the_organiser")
    migration.refold_entries_by_the_organiser(apps, None)
    entered.refresh_from_db()
    assert entered.state["players"][pid(ben)]["entered_by"] == pid(organiser)
    assert entered.state == projection.fold(
        event_dict(e) for e in eventstore.stream_events(stream_id=entered.stream_id)
    )
    assert Tournament.objects.get(pk=own.pk).state == untouched


# --------------------------------------------------------------------------------------
# Where the player finds it


def test_the_account_page_lists_the_organisers_entries_and_confirms_one(organiser, players, client):
    ann, ben, *_ = players
    t = swiss(organiser, entered=[ann])
    own = swiss(organiser, own=[ann])
    client.force_login(ann)
    page = client.get("/accounts/").content.decode()
    assert 'data-testid="entries-to-confirm"' in page
    assert f'data-tournament="{t.id}"' in page and f'data-tournament="{own.id}"' not in page
    r = client.post(f"/tournaments/{t.id}/confirm-entry/")
    assert r.status_code == 302
    assert projection.asked_to_play(state(t)["players"][pid(ann)])
    page = client.get("/accounts/").content.decode()
    assert 'data-testid="entries-to-confirm"' not in page


def test_the_confirm_form_refuses_with_its_sentence_and_writes_nothing(organiser, players, client):
    ann, *_ = players
    t = swiss(organiser, own=[ann])
    before = events(t)
    client.force_login(ann)
    r = client.post(f"/tournaments/{t.id}/confirm-entry/", follow=True)
    assert "already your own" in r.content.decode()
    assert events(t) == before


# --------------------------------------------------------------------------------------
# Reporting one's own result is asking to play


def report_over_api(client, t, record, verb, **body):
    head = client.get(f"/api/tournaments/{t.id}/").json()["head_seq"]
    body = {"expected_seq": head, "event_id": str(uuid.uuid4()), **body}
    return client.post(f"/api/tournaments/{t.id}/pairings/{record['id']}/{verb}/", body, format="json")


def entered_and_paired(organiser, players, capture):
    """Everyone entered by the organiser, round 1 paired; the first pairing's players, reporter first."""
    t = swiss(organiser, entered=players)
    start(t, organiser, capture)
    record = open_pairings(t)[0]
    users = {pid(u): u for u in players}
    return t, record, users[record["players"][0]], users[record["players"][1]]


def test_a_player_who_reports_their_own_result_over_the_api_confirms_their_entry_in_the_same_command(
    organiser, players, client_for, django_capture_on_commit_callbacks
):
    t, record, reporter, opponent = entered_and_paired(organiser, players, django_capture_on_commit_callbacks)
    assert client_for(reporter).get(f"/api/tournaments/{t.id}/").json()["me"]["asked_to_play"] is False
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        r = report_over_api(client_for(reporter), t, record, "report", result={"winner": pid(reporter)})
    assert r.status_code == 201, r.json()
    assert [e["type"] for e in r.json()["events"]] == ["result.reported", "player.entry_confirmed"]
    assert r.json()["me"]["asked_to_play"] is True
    assert not projection.asked_to_play(state(t)["players"][pid(opponent)])
    # The confirmation sends nothing of its own, and the reporter is not asked to confirm their own
    # report; the opponent, whose entry is still the organiser's, is not written to either.
    assert mailed() == [] and queued_to() == []
    fresh = projection.fold(event_dict(e) for e in eventstore.stream_events(stream_id=t.stream_id))
    assert fresh == state(t)


def test_a_reporter_is_emailed_from_then_on(organiser, players, client_for, django_capture_on_commit_callbacks):
    t, record, reporter, opponent = entered_and_paired(organiser, players, django_capture_on_commit_callbacks)
    r = report_over_api(client_for(reporter), t, record, "report", result={"winner": pid(reporter)})
    assert r.status_code == 201, r.json()
    next_round(t, organiser, django_capture_on_commit_callbacks)  # the organiser rules the reported one too
    assert mailed() == [reporter.email]


def test_a_player_who_confirms_or_disputes_the_reported_result_confirms_their_entry_too(
    organiser, players, client_for, django_capture_on_commit_callbacks
):
    t, record, reporter, opponent = entered_and_paired(organiser, players, django_capture_on_commit_callbacks)
    report_over_api(client_for(reporter), t, record, "report", result={"winner": pid(reporter)})
    r = report_over_api(client_for(opponent), t, record, "confirm")
    assert r.status_code == 201, r.json()
    assert [e["type"] for e in r.json()["events"]] == ["result.confirmed", "player.entry_confirmed"]
    assert r.json()["me"]["asked_to_play"] is True

    other = open_pairings(t)[0]
    users = {pid(u): u for u in players}
    r = report_over_api(client_for(users[other["players"][1]]), t, other, "dispute", reason="We never played.")
    assert r.status_code == 201, r.json()
    assert [e["type"] for e in r.json()["events"]] == ["result.disputed", "player.entry_confirmed"]


def test_a_player_whose_entry_is_their_own_reports_with_no_second_fact(
    organiser, players, client_for, django_capture_on_commit_callbacks
):
    ann, ben, cat, dan = players
    t = swiss(organiser, own=players)
    start(t, organiser, django_capture_on_commit_callbacks)
    record = open_pairings(t)[0]
    reporter = {pid(u): u for u in players}[record["players"][0]]
    r = report_over_api(client_for(reporter), t, record, "report", result={"winner": pid(reporter)})
    assert r.status_code == 201, r.json()
    assert [e["type"] for e in r.json()["events"]] == ["result.reported"]


def test_a_refused_report_confirms_nothing_and_writes_nothing(
    organiser, players, client_for, django_capture_on_commit_callbacks
):
    t, record, reporter, opponent = entered_and_paired(organiser, players, django_capture_on_commit_callbacks)
    before = events(t)
    r = report_over_api(client_for(reporter), t, record, "report", result={"winner": "nobody"})
    assert r.status_code == 400 and r.json()["code"] == "bad_result"
    assert events(t) == before
    assert client_for(reporter).get(f"/api/tournaments/{t.id}/").json()["me"]["asked_to_play"] is False


def test_a_report_retried_with_its_event_id_confirms_the_entry_once(
    organiser, players, client_for, django_capture_on_commit_callbacks
):
    t, record, reporter, opponent = entered_and_paired(organiser, players, django_capture_on_commit_callbacks)
    client = client_for(reporter)
    head = client.get(f"/api/tournaments/{t.id}/").json()["head_seq"]
    body = {"expected_seq": head, "event_id": str(uuid.uuid4()), "result": {"winner": pid(reporter)}}
    url = f"/api/tournaments/{t.id}/pairings/{record['id']}/report/"
    first = client.post(url, body, format="json")
    again = client.post(url, body, format="json")
    assert first.status_code == 201 and again.status_code == 200, again.json()
    assert Event.objects.filter(stream_id=t.stream_id, type="player.entry_confirmed").count() == 1
    # The same id with another result is another command: refused, nothing written.
    before = events(t)
    other = client.post(url, {**body, "result": {"winner": pid(opponent)}}, format="json")
    assert other.status_code == 409 and other.json()["code"] == "event_id_reused"
    assert events(t) == before


def test_a_confirmation_that_ends_the_tournament_confirms_no_entry_as_confirm_entry_would_refuse(
    organiser, players, client_for
):
    ann, ben, *_ = players
    t = services.tournament_create(
        created_by=organiser, name="Cup", game="dueling-wizards", format="single_elimination"
    )
    services.tournament_register(tournament=t, user=ann, expected_seq=AT_HEAD)
    services.tournament_register(tournament=t, user=ben, by=organiser, expected_seq=AT_HEAD)
    services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
    [record] = open_pairings(t)
    services.tournament_report(
        tournament=t, pairing=record["id"], user=ann, result={"winner": pid(ann)}, expected_seq=AT_HEAD
    )
    r = report_over_api(client_for(ben), t, record, "confirm")
    assert r.status_code == 201, r.json()
    assert r.json()["progress"]["finished"] is True
    assert [e["type"] for e in r.json()["events"]] == ["result.confirmed"]
    assert r.json()["me"]["asked_to_play"] is False
