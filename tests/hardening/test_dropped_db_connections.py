"""Database connections terminated in the middle of a request (issue 15, "Why": dropped database
connections gave HTML 500s, and 5 of 17 such failed actions had committed; "Deliver" 6: no committed
write answers an error).

A second connection ends the request's own PostgreSQL backend with pg_terminate_backend, as an
administrator, a failover or a proxy's idle timeout would, at three moments: before the request,
between the append and the commit, and after the commit before the answer. The client learns the
truth each time: success if the move was committed, else a JSON error with a stable code, and a
retry with the same event_id never makes a second event."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from matches import eventstore, outbox
from matches.models import Event, OutboxMessage
from tests.conftest import database_url
from tests.hardening.moves import next_move, send
from tests.matches.helpers import event_count

pytestmark = pytest.mark.django_db(transaction=True)


def terminate(pids) -> int:
    """End these backends from a connection of our own (the test database only)."""
    with psycopg.connect(database_url(), autocommit=True) as admin:
        return sum(
            1
            for (done,) in admin.execute("SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [list(pids)])
            if done
        )


def terminate_this_threads_connection() -> None:
    # The request runs in this thread (Django's test client), so this is the request's backend.
    assert terminate([connection.connection.info.backend_pid]) == 1


def terminate_every_idle_connection() -> None:
    """Every backend of the test database but the asker's: what this process holds open or pooled."""
    with psycopg.connect(database_url(), autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def fresh_connection_at_the_end(transactional_db):
    # Each test starts from a new pool, so that what it kills is what it set up: tests that ran
    # earlier in this process on threads of their own (the racing creates in test_command_guards)
    # leave the pool full. A full pool killed at once has its own test below.
    connection.close()
    if getattr(connection, "pool", None) is not None:
        connection.close_pool()
    yield
    connection.close()  # a connection a test left dead is not the one the database flush uses


def is_json_error(response, status: int, code: str) -> bool:
    return (
        response.status_code == status
        and response["Content-Type"].startswith("application/json")
        and response.json()["code"] == code
        and response.json()["detail"]
    )


def test_a_connection_dropped_between_requests_does_not_fail_the_next_one(duel):
    # The pool checks a connection before handing it out, so one PostgreSQL ended while it sat idle
    # is replaced, not given to the request.
    match, clients = duel
    before = event_count(match)
    command = next_move(clients, match)
    connection.close()  # back to the pool: the request takes a pooled connection
    terminate_every_idle_connection()
    response = send(match, command)
    connection.close()
    assert response.status_code == 201, (response.status_code, response.content[:300])
    assert event_count(match) == before + 1


def test_a_connection_dropped_before_the_commit_answers_a_json_error_and_writes_nothing(duel, monkeypatch):
    match, clients = duel
    before = event_count(match)
    append = eventstore.events_append

    def append_then_lose_the_connection(**kwargs):
        rows = append(**kwargs)
        terminate_this_threads_connection()
        return rows

    monkeypatch.setattr(eventstore, "events_append", append_then_lose_the_connection)
    command = next_move(clients, match)
    response = send(match, command)
    monkeypatch.undo()
    connection.close()  # this thread's connection is the dead one; the next query opens another
    assert is_json_error(response, 503, "database_unavailable"), (response.status_code, response.content[:300])
    assert response["Retry-After"]
    assert event_count(match) == before  # the transaction never committed
    # The client sends the same command again, as the error invites: it lands, once.
    retried = send(match, command)
    assert retried.status_code == 201, retried.content[:300]
    assert event_count(match) == before + 1


def test_a_connection_dropped_after_the_commit_still_answers_success(duel, monkeypatch):
    match, clients = duel
    before = event_count(match)
    deliver = outbox._deliver_quietly
    dropped = []

    def lose_the_connection_then_deliver(message_id, *held):
        # Runs after the commit (transaction.on_commit), before the view has answered.
        if not dropped:
            terminate_this_threads_connection()
            dropped.append(message_id)
        deliver(message_id, *held)

    monkeypatch.setattr(outbox, "_deliver_quietly", lose_the_connection_then_deliver)
    command = next_move(clients, match)
    response = send(match, command)
    monkeypatch.undo()
    connection.close()
    assert dropped, "the connection was never dropped: the test did not test anything"
    assert event_count(match) == before + 1  # committed
    assert response.status_code == 201, (response.status_code, response.content[:300])
    event = Event.objects.get(stream_id=match.stream_id, seq=before + 1)
    assert response.json()["events"][0]["seq"] == event.seq
    # The same command again returns the stored event, never a second one.
    again = send(match, command)
    assert again.status_code == 200, again.content[:300]
    assert again.json()["events"][0]["seq"] == event.seq
    assert event_count(match) == before + 1
    # Nothing lost: what the dropped connection kept from following the commit waits in the outbox,
    # and the sweeper delivers it.
    assert OutboxMessage.objects.get(pk=dropped[0]).delivered_at is None
    assert outbox.outbox_sweep() >= 1
    assert not OutboxMessage.objects.filter(delivered_at__isnull=True).exists()


@pytest.fixture
def short_pool_timeout(monkeypatch):
    # Two seconds instead of DB_POOL_TIMEOUT: a request that had to wait out the pool's backoff
    # over ten dead connections (psycopg/psycopg#709) answers 503 instead of succeeding, so
    # the outcome tells whether the pool recovered promptly, with no clock in the assert.
    options = connection.settings_dict["OPTIONS"]
    monkeypatch.setitem(options, "pool", {**options["pool"], "timeout": 2})
    connection.close()
    connection.close_pool()  # the fixtures before this one built it with the usual timeout
    yield
    connection.close()
    connection.close_pool()  # the next test builds its pool from the restored settings


def test_a_full_pool_whose_connections_all_died_serves_the_next_requests(duel, short_pool_timeout):
    # As a PostgreSQL restart does: every connection of a full pool ends at once while idle.
    match, clients = duel
    before = event_count(match)
    command = next_move(clients, match)  # so that the first query after the restart is a request's
    connection.close()
    pool = connection.pool
    assert pool.timeout == 2
    held = [pool.getconn() for _ in range(pool.max_size)]
    for conn in held:
        pool.putconn(conn)
    assert pool.get_stats()["pool_available"] == pool.max_size
    terminate_every_idle_connection()
    answered = 0
    for number in range(1, 4):
        response = send(match, command)
        connection.close()
        assert response.status_code == 201, (number, response.status_code, response.content[:300])
        answered += len(response.json()["events"])
        command = next_move(clients, match)
    assert event_count(match) == before + answered  # each answer reports what it committed
