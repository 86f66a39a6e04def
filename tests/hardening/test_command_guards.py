"""Every command guarded (issue 15, "Commands without guards"): a command that appends to a
tournament's stream needs the head it was based on and an id of its own, and creates are
idempotent: a retried create returns what the first one made, never a second one or a 409."""

from __future__ import annotations

import datetime as dt
import inspect
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from league import streams
from league.drafts import services as draft_services
from league.drafts.models import Draft
from league.drafts.services import draft_clock_expire, draft_create, draft_create_or_get
from league.seasons import services as season_services
from league.seasons.models import Season
from league.tournaments import services as tournament_services
from league.tournaments.models import Tournament
from matches.commands import AT_HEAD, GuardMissing
from matches.eventstore import StaleSequence
from matches.models import Event, Match
from matches.services import SeatSpec
from tests.matches.helpers import fresh, new_duel


def tournament_events(tid, type=None):
    events = Event.objects.filter(stream_id=f"tournament:{tid}")
    return events.filter(type=type).count() if type else events.count()


def a_paired_tournament(organiser, a, b):
    """Two players registered and started: one pairing waiting for its result."""
    t = tournament_services.tournament_create(
        created_by=organiser, name="Guarded Open", game="dueling-wizards", format="single_elimination"
    )
    for p in (a, b):
        tournament_services.tournament_register(tournament=t, user=p, expected_seq=AT_HEAD)
    tournament_services.tournament_start(tournament=t, by=organiser, expected_seq=AT_HEAD)
    t.refresh_from_db()
    [pairing] = [r for r in t.state["pairings"].values() if r["status"] == "pending"]
    return t, pairing


def report(client, t, pairing, **guards):
    return client.post(
        f"/api/tournaments/{t.id}/pairings/{pairing['id']}/report/",
        {"result": {"winner": pairing["players"][0]}, **guards},
        format="json",
    )


@pytest.mark.django_db
@pytest.mark.parametrize("missing", ["expected_seq", "event_id"])
def test_a_tournament_command_without_its_guards_is_refused_and_writes_nothing(alice, bob, client_for, missing):
    t = tournament_services.tournament_create(created_by=alice, name="Open", game="dueling-wizards", format="swiss")
    guards = {"expected_seq": 1, "event_id": str(uuid.uuid4())}
    del guards[missing]
    r = client_for(bob).post(f"/api/tournaments/{t.id}/register/", guards, format="json")
    assert r.status_code == 400 and r.json()["code"] == "invalid_request" and missing in r.json()["fields"]
    assert tournament_events(t.id) == 1  # only its creation


@pytest.mark.django_db
def test_a_stale_report_is_409_and_a_retried_one_returns_the_stored_event(alice, bob, carol, client_for):
    t, pairing = a_paired_tournament(alice, bob, carol)
    head = t.state_seq
    eid = str(uuid.uuid4())
    first = report(client_for(bob), t, pairing, expected_seq=head, event_id=eid)
    assert first.status_code == 201, first.json()
    again = report(client_for(bob), t, pairing, expected_seq=head, event_id=eid)
    assert again.status_code == 200 and again.json()["events"] == first.json()["events"]
    stale = report(client_for(bob), t, pairing, expected_seq=head, event_id=str(uuid.uuid4()))
    assert stale.status_code == 409 and stale.json()["code"] == "stale_seq"
    assert tournament_events(t.id, "result.reported") == 1


@pytest.mark.django_db(transaction=True)
def test_fifty_reports_sent_at_once_without_expected_seq_write_nothing_and_at_one_head_write_one(client_for, make_user):
    # The attack in issue 15: one player appended 50 reports to one pairing by leaving expected_seq out.
    organiser, ann, ben = make_user("organiser"), make_user("ann"), make_user("ben")
    t, pairing = a_paired_tournament(organiser, ann, ben)
    head = t.state_seq

    def send(guards):
        from django.db import connection

        try:
            return report(client_for(ann), t, pairing, event_id=str(uuid.uuid4()), **guards).status_code
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=10) as pool:
        unguarded = list(pool.map(send, [{}] * 50))
    assert unguarded == [400] * 50
    assert tournament_events(t.id, "result.reported") == 0

    with ThreadPoolExecutor(max_workers=10) as pool:
        at_head = list(pool.map(send, [{"expected_seq": head}] * 50))
    assert at_head.count(201) == 1 and at_head.count(409) == 49
    assert tournament_events(t.id, "result.reported") == 1


def create_tournament(client, event_id, **body):
    body = {"name": "Spring Open", "game": "dueling-wizards", "format": "swiss", "event_id": event_id, **body}
    return client.post("/api/tournaments/", body, format="json")


@pytest.mark.django_db
def test_a_retried_tournament_create_returns_the_tournament_the_first_made(alice, client_for):
    eid = str(uuid.uuid4())
    first = create_tournament(client_for(alice), eid)
    again = create_tournament(client_for(alice), eid)
    assert first.status_code == 201 and again.status_code == 200
    assert again.json()["id"] == first.json()["id"] and Tournament.objects.count() == 1
    # The same id for a different create is a mistake, not a retry: refused, nothing made.
    other = create_tournament(client_for(alice), eid, name="Autumn Open")
    assert other.status_code == 409 and other.json()["code"] == "event_id_reused"
    assert Tournament.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_twenty_retries_of_one_tournament_create_racing_make_one_tournament(client_for, make_user):
    organiser = make_user("organiser")
    eid = str(uuid.uuid4())

    def send(_):
        from django.db import connection

        try:
            r = create_tournament(client_for(organiser), eid)
            return r.status_code, r.json().get("id")
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=10) as pool:
        answers = list(pool.map(send, range(20)))
    assert Tournament.objects.count() == 1
    [made] = Tournament.objects.all()
    assert answers.count((201, str(made.id))) == 1
    assert answers.count((200, str(made.id))) == 19


@pytest.mark.django_db
def test_a_retried_draft_create_returns_the_room_the_first_opened(alice, bob):
    eid = uuid.uuid4()
    seats = [SeatSpec(user=alice), SeatSpec(user=bob)]
    first, made = draft_create_or_get(seats=seats, created_by=alice, config={"format": "schoolyard"}, event_id=eid)
    again, made_again = draft_create_or_get(
        seats=seats, created_by=alice, config={"format": "schoolyard"}, event_id=eid
    )
    assert made and not made_again and again.pk == first.pk and Draft.objects.count() == 1
    assert draft_create(seats=seats, created_by=alice, event_id=eid).pk == first.pk


@pytest.mark.django_db
def test_a_retried_season_create_returns_the_season_the_first_scheduled(client_for, make_user):
    league = season_services.league_load_iwdl()
    league.created_by = make_user("organiser")
    league.save()
    eid = str(uuid.uuid4())
    clubs = list(league.clubs.order_by("slug").values_list("slug", flat=True)[:4])
    body = {"start_date": "2027-01-04", "clubs": clubs, "event_id": eid}
    first = client_for(league.created_by).post("/api/leagues/iwdl/seasons/", body, format="json")
    again = client_for(league.created_by).post("/api/leagues/iwdl/seasons/", body, format="json")
    assert first.status_code == 201 and again.status_code == 200, (first.json(), again.json())
    assert again.json()["stream"] == first.json()["stream"] and Season.objects.count() == 1


@pytest.mark.django_db
def test_a_season_service_create_with_an_event_id_is_idempotent(make_user):
    league = season_services.league_load_iwdl()
    organiser = make_user("organiser")
    league.created_by = organiser
    league.save()
    clubs = list(league.clubs.order_by("slug")[:4])
    eid = uuid.uuid4()
    first = season_services.season_create(
        league=league, created_by=organiser, start_date=dt.date(2027, 1, 4), clubs=clubs, event_id=eid
    )
    again, made = season_services.season_create_or_get(
        league=league, created_by=organiser, start_date=dt.date(2027, 1, 4), clubs=clubs, event_id=eid
    )
    assert not made and again.pk == first.pk and Season.objects.count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("missing", ["expected_seq", "event_id"])
def test_a_match_move_or_draft_pick_without_its_guards_is_refused_and_writes_nothing(alice, bob, client_for, missing):
    match = new_duel(alice, bob)
    draft = draft_create(
        seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice, config={"format": "schoolyard"}
    )
    before = Event.objects.count()
    guards = {"expected_seq": fresh(match).state_seq, "event_id": str(uuid.uuid4())}
    del guards[missing]
    # Refused on its shape, before anyone asks whether the move is legal.
    move = client_for(alice).post(
        f"/api/matches/{match.id}/actions/", {"seat": 0, "action": {"type": "attack"}, **guards}, format="json"
    )
    assert move.status_code == 400 and missing in move.json()["fields"]
    take = client_for(bob).post(f"/api/drafts/{draft.draft_match_id}/take/", guards, format="json")
    assert take.status_code == 400 and missing in take.json()["fields"]
    clock = client_for(bob).post(f"/api/drafts/{draft.draft_match_id}/clock/", guards, format="json")
    assert clock.status_code == 400 and missing in clock.json()["fields"]
    assert Event.objects.count() == before


@pytest.mark.django_db
def test_a_retried_clock_call_reports_what_the_first_did_and_acts_once(alice, bob):
    draft = draft_create(
        seats=[SeatSpec(user=alice), SeatSpec(user=bob)],
        created_by=alice,
        config={"format": "schoolyard"},
        clock_seconds=30,
    )
    head = draft.draft_match.state_seq
    eid = uuid.uuid4()
    later = timezone.now() + timedelta(seconds=31)
    with mock.patch("matches.eventstore.database_now", return_value=later):
        first = draft_clock_expire(draft=draft, expected_seq=head, event_id=eid)
    # The reply was lost; the page retries at once, before the next coach's clock has run out.
    again = draft_clock_expire(draft=draft, expected_seq=head, event_id=eid)
    assert first == again and len(first) == 1
    assert Event.objects.filter(stream_id=draft.draft_match.stream_id, actor="clock").count() == 1


@pytest.fixture
def duels_season(make_user):
    """A league of Dueling Wizards (fixtures start their match at once) with two coached clubs."""
    organiser, ann, ben = make_user("organiser"), make_user("ann"), make_user("ben")
    league = season_services.league_create(slug="duels", name="Duels", game="dueling-wizards", created_by=organiser)
    for slug, coach in (("reds", ann), ("blues", ben)):
        club = season_services.club_create(league=league, user=organiser, slug=slug, name=slug.title())
        season_services.club_coach_add(club=club, user=organiser, coach=coach)
    season = season_services.season_create(
        league=league, created_by=organiser, start_date=dt.date(2027, 3, 1), double=False
    )
    return season, organiser, ann


@pytest.mark.django_db
def test_a_fixture_start_at_a_stale_head_opens_nothing_and_a_retried_one_returns_the_first_match(duels_season):
    season, _organiser, ann = duels_season
    fixture = season.fixtures.select_related("home", "away", "season__league").first()
    head = Season.objects.get(pk=season.pk).projected_seq
    with pytest.raises(StaleSequence):
        season_services.fixture_start(fixture=fixture, user=ann, expected_seq=head - 1, event_id=uuid.uuid4())
    assert Match.objects.count() == 0
    eid = uuid.uuid4()
    first = season_services.fixture_start(fixture=fixture, user=ann, expected_seq=head, event_id=eid)
    again = season_services.fixture_start(fixture=fixture, user=ann, expected_seq=head, event_id=eid)
    assert again.pk == first.pk and Match.objects.count() == 1
    assert Event.objects.filter(stream_id=season.stream_id, type="fixture.started").count() == 1


@pytest.mark.django_db
def test_a_retried_season_close_returns_what_the_first_recorded(duels_season):
    season, organiser, _ann = duels_season
    for fixture in season.fixtures.select_related("home", "away", "season__league"):
        season_services.fixture_walkover(
            fixture=fixture, user=organiser, winner=fixture.home, reason="ruling", expected_seq=AT_HEAD
        )
    head = Season.objects.get(pk=season.pk).projected_seq
    eid = uuid.uuid4()
    first = season_services.season_close(season=season, user=organiser, expected_seq=head, event_id=eid)
    again = season_services.season_close(season=season, user=organiser, expected_seq=head, event_id=eid)
    assert again == first
    assert Event.objects.filter(stream_id=season.stream_id, type="season.closed").count() == 1


@pytest.mark.django_db
def test_the_new_tournament_form_sent_twice_makes_one_tournament(alice):
    from django.test import Client

    browser = Client()
    browser.force_login(alice)
    page = browser.get("/tournaments/").content.decode()
    assert 'name="event_id"' in page  # each form shown carries an id of its own
    form = {
        "name": "Double click Open",
        "game": "dueling-wizards",
        "format": "swiss",
        "bye_score": "1",
        "seeding": "registration",
        "event_id": str(uuid.uuid4()),
    }
    first, again = browser.post("/tournaments/", form), browser.post("/tournaments/", form)
    assert first.status_code == again.status_code == 302 and first["Location"] == again["Location"]
    assert Tournament.objects.filter(name="Double click Open").count() == 1


@pytest.mark.django_db(transaction=True)
def test_twenty_retries_of_one_match_create_racing_make_one_match(client_for, make_user):
    player = make_user("racer")
    body = {
        "game": "dueling-wizards",
        "seats": [{"username": "racer"}, {"bot": "random"}],
        "event_id": str(uuid.uuid4()),
    }

    def send(_):
        from django.db import connection

        try:
            r = client_for(player).post("/api/matches/", body, format="json")
            return r.status_code, r.json().get("id")
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=10) as pool:
        answers = list(pool.map(send, range(20)))
    [made] = Match.objects.all()
    assert answers.count((201, str(made.id))) == 1 and answers.count((200, str(made.id))) == 19


@pytest.mark.django_db
def test_the_command_runner_refuses_a_command_with_no_expected_seq(alice, bob, carol):
    # A client's missing expected_seq reaches a service as None: refused there too, not read as "at the head".
    t, pairing = a_paired_tournament(alice, bob, carol)
    before = tournament_events(t.id)
    with pytest.raises(GuardMissing) as refused:
        tournament_services.tournament_report(
            tournament=t, pairing=pairing["id"], user=bob, result={"winner": pairing["players"][0]}, expected_seq=None
        )
    assert refused.value.status == 400 and refused.value.code == "guard_missing"
    assert tournament_events(t.id) == before


@pytest.mark.django_db
def test_an_event_id_reused_by_another_player_on_a_tournament_is_409_not_a_replay(alice, bob, carol, client_for):
    # Every event_id is public (GET /api/tournaments/{id}/events/): another player sending one must
    # not be told their own command was stored (200 created False), nor the same id by anyone else.
    t, pairing = a_paired_tournament(alice, bob, carol)
    head = t.state_seq
    eid = str(uuid.uuid4())
    assert report(client_for(bob), t, pairing, expected_seq=head, event_id=eid).status_code == 201
    other = client_for(carol).post(
        f"/api/tournaments/{t.id}/pairings/{pairing['id']}/confirm/",
        {"expected_seq": head + 1, "event_id": eid},
        format="json",
    )
    assert other.status_code == 409 and other.json()["code"] == "event_id_reused", other.json()
    assert tournament_events(t.id, "result.confirmed") == 0


@pytest.mark.parametrize(
    "service",
    [
        season_services.fixture_postpone,
        season_services.fixture_walkover,
        season_services.result_correct,
        season_services.fixture_start,
        season_services.season_close,
        draft_services.draft_clock_expire,
        streams.stream_append,
    ],
    ids=lambda service: service.__name__,
)
def test_in_process_callers_of_season_and_draft_commands_state_the_head_they_decided_on(service):
    # No default: a management command, a receiver or a test passes the head it read, or AT_HEAD
    # on purpose, instead of appending at whatever the head has become without saying so.
    parameter = inspect.signature(service).parameters["expected_seq"]
    assert parameter.kind is inspect.Parameter.KEYWORD_ONLY
    assert parameter.default is inspect.Parameter.empty


@pytest.mark.django_db
def test_a_sent_tournament_form_changed_and_sent_again_is_told_so_in_words_and_can_then_be_sent(alice):
    # Back to a form already sent, its name changed: the id made the first tournament, so the form
    # says so in words (not the API's sentence for scripts) and comes back with a new id.
    import re

    from django.test import Client

    from matches.forms import EVENT_ID_REUSED

    browser = Client()
    browser.force_login(alice)
    form = {
        "name": "First Open",
        "game": "dueling-wizards",
        "format": "swiss",
        "bye_score": "1",
        "seeding": "registration",
        "event_id": str(uuid.uuid4()),
    }
    assert browser.post("/tournaments/", form).status_code == 302
    changed = browser.post("/tournaments/", {**form, "name": "Second Open"})
    page = changed.content.decode()
    assert changed.status_code == 200 and EVENT_ID_REUSED in page
    renewed = re.search(r'<input type="hidden" name="event_id" value="([^"]+)"', page).group(1)
    assert renewed != form["event_id"]
    assert browser.post("/tournaments/", {**form, "name": "Second Open", "event_id": renewed}).status_code == 302
    assert sorted(Tournament.objects.values_list("name", flat=True)) == ["First Open", "Second Open"]
