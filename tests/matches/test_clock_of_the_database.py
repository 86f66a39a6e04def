"""Every event is stamped by one clock, the database's, and a claim on time is judged by it.

Each web process used to stamp events with its own clock: a host whose clock ran ahead won a
timeout claim early by its skew, and a host whose clock ran behind stamped a later event before
an earlier one. Here a web process's clock (django.utils.timezone.now) is set ten minutes off and
the database's, which nobody can move, must decide. Needs PostgreSQL: on SQLite, embedded in the
one process, the process clock is the database's.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches import eventstore, services
from matches.eventstore import NewEvent
from matches.models import Event

from .helpers import event_count, fresh, post_action
from .test_time_controls import claim, timed_duel

pytestmark = pytest.mark.django_db

SKEW = dt.timedelta(minutes=10)


def database_clock() -> dt.datetime:
    with connection.cursor() as cursor:
        cursor.execute("SELECT clock_timestamp()")
        return cursor.fetchone()[0]


@pytest.fixture
def host_clock(monkeypatch):
    """This web process's clock, set off the true time by hand: ``host_clock(offset)``."""
    assert connection.vendor == "postgresql", "this test needs PostgreSQL (DATABASE_URL)"
    true_now = timezone.now

    def set_off(offset: dt.timedelta) -> None:
        monkeypatch.setattr(timezone, "now", lambda: true_now() + offset)

    return set_off


def events_of(match) -> list[Event]:
    return list(Event.objects.filter(stream_id=match.stream_id).order_by("seq"))


def test_a_host_whose_clock_runs_ahead_cannot_win_on_time_before_the_real_deadline(alice, bob, client_for, host_clock):
    match = timed_duel(alice, bob)  # bob has 60 s to defend, by the database's clock
    host_clock(SKEW)  # a second host, ten minutes ahead, takes alice's claim

    early = claim(client_for(alice), match)
    assert early.status_code == 409 and early.json()["code"] == "time_not_up"
    assert event_count(match) == 3

    before = database_clock()
    card = fresh(match).state["hands"][1][0]
    moved = post_action(client_for(bob), match, 1, {"type": "defend", "card": card})
    assert moved.status_code == 201, moved.json()
    after = database_clock()
    # Bob's move is stamped by the database's clock, not the host's (ten minutes on).
    assert before <= events_of(match)[3].recorded_at <= after


def test_a_host_whose_clock_runs_ahead_shows_the_clocks_as_the_database_counts_them(alice, bob, client_for, host_clock):
    match = timed_duel(alice, bob)
    host_clock(SKEW)
    clocks = client_for(alice).get(f"/api/matches/{match.id}/").json()["clocks"]
    assert clocks["running"] == [1] and 55 < clocks["left"][1] <= 60 and clocks["left"][0] == 60


def test_a_match_created_on_a_host_whose_clock_runs_ahead_is_stamped_by_the_database(alice, bob, host_clock):
    host_clock(SKEW)
    before = database_clock()
    match = timed_duel(alice, bob)
    after = database_clock()
    assert all(before <= event.recorded_at <= after for event in events_of(match))
    assert fresh(match).stream.created_at <= after


def test_a_later_event_from_a_host_whose_clock_runs_behind_is_never_stamped_before_an_earlier_one(
    alice, bob, client_for, host_clock
):
    match = timed_duel(alice, bob)
    host_clock(-SKEW)
    card = fresh(match).state["hands"][1][0]
    assert post_action(client_for(bob), match, 1, {"type": "defend", "card": card}).status_code == 201
    stamps = [event.recorded_at for event in events_of(match)]
    assert len(stamps) > 3 and stamps == sorted(stamps)


def test_an_append_to_any_stream_is_stamped_by_the_database_under_its_lock(host_clock):
    eventstore.stream_create(stream_id="note:1", kind="note")
    host_clock(SKEW)
    before = database_clock()
    with transaction.atomic():
        stream = eventstore.stream_lock(stream_id="note:1")
        [event] = eventstore.events_append(stream=stream, new_events=[NewEvent(type="noted", data={}, actor="system")])
    after = database_clock()
    assert before <= event.recorded_at <= after
    assert Event.objects.get(pk=event.pk).recorded_at == event.recorded_at


def test_where_statements_cannot_share_a_round_trip_the_clock_is_read_apart_under_the_lock(
    alice, bob, host_clock, monkeypatch
):
    # With server_side_binding each statement is prepared alone: the lock comes back without the
    # clock, which is read by a statement of its own when the command first needs it.
    match = timed_duel(alice, bob)
    eventstore.stream_create(stream_id="note:1", kind="note")
    host_clock(SKEW)
    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "server_side_binding", True)
    for lock in (
        lambda: services._match_for_update(match.pk).stream,
        lambda: eventstore.stream_lock(stream_id="note:1"),
    ):
        before = database_clock()
        with transaction.atomic(), CaptureQueriesContext(connection) as queries:
            stream = lock()
            assert "clock_timestamp" not in queries.captured_queries[-1]["sql"]
            now = eventstore.stream_now(stream)
            assert eventstore.stream_now(stream) == now  # one instant for the whole command
        assert before <= now <= database_clock()
        assert [q["sql"] for q in queries.captured_queries[1:]] == [eventstore.DATABASE_CLOCK]
