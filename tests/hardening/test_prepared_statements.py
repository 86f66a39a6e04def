"""Statements prepared once per database session and run by EXECUTE (config/rows.py ``prepared``;
issue 17, P5: PostgreSQL parsed and planned every statement of an action POST anew, a third of
the server's CPU in it). What must hold: the answers are the ones the plain statements gave, a
session prepares a statement once whatever its transactions did, a new session prepares again,
nothing prepares where sessions last a request or the setting is off, and the query log still
shows each statement as its text."""

from __future__ import annotations

import types

import psycopg
import pytest
from django.db import DatabaseError, DataError, connection, transaction
from django.test.utils import CaptureQueriesContext, override_settings

from config import rows
from config.auth import _token_sql
from config.rows import prepared, unprepared
from engines import registry
from matches import eventstore, services
from matches.eventstore import NewEvent
from tests.conftest import database_url
from tests.matches.helpers import first_legal, fresh, new_duel, post_action

USERNAME = 'SELECT "username" FROM "auth_user" WHERE "id" = %s'


def session_prepared() -> set[str]:
    """The names of the statements this connection's session has prepared, as the server has them."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        return {name for (name,) in cursor.fetchall()}


def run(sql: str, params: list) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(prepared(cursor, sql), params)
        return cursor.fetchall()


def test_a_statement_runs_by_its_prepared_form_with_the_answer_of_its_text(alice):
    name, _, execute = rows._prepared_forms(USERNAME)
    with connection.cursor() as cursor:
        assert prepared(cursor, USERNAME) == execute == f"EXECUTE {name}(%s)"
        cursor.execute(USERNAME, [alice.pk])
        plain = cursor.fetchall()
    assert run(USERNAME, [alice.pk]) == plain == [("alice",)]
    assert name in session_prepared()


def test_a_session_prepares_a_statement_once(alice, monkeypatch):
    run(USERNAME, [alice.pk])
    sent = []
    real = rows._PREPARED[connection.connection]
    monkeypatch.setitem(rows._PREPARED, connection.connection, _Watched(real, sent))
    for _ in range(3):
        assert run(USERNAME, [alice.pk]) == [("alice",)]
    assert sent == [], "a statement prepared on this session was prepared again"


class _Watched(set):
    """A session's names that records every name added to them after the first use."""

    def __init__(self, names, added):
        super().__init__(names)
        self.added = added

    def add(self, name):
        self.added.append(name)
        super().add(name)


def test_a_statement_prepared_in_a_rolled_back_transaction_is_still_there_after_it(alice):
    # PREPARE is no part of a transaction: were it undone with the rollback, the session's names
    # would say "prepared" and the next EXECUTE would fail the request that sent it.
    with pytest.raises(RuntimeError), transaction.atomic():
        assert run(USERNAME, [alice.pk]) == [("alice",)]
        raise RuntimeError("rolled back")
    with transaction.atomic():
        assert run(USERNAME, [alice.pk]) == [("alice",)]
    assert rows._prepared_forms(USERNAME)[0] in session_prepared()


def test_a_later_statement_failing_leaves_the_session_able_to_run_the_prepared_one(alice):
    with pytest.raises(DataError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"{prepared(cursor, USERNAME)}; SELECT 1 / 0", [alice.pk])
    assert run(USERNAME, [alice.pk]) == [("alice",)]


@pytest.mark.django_db(transaction=True)
def test_a_new_session_prepares_again_and_answers_the_same(alice):
    assert run(USERNAME, [alice.pk]) == [("alice",)]
    first = connection.connection
    # The server ends the session (a restart, an administrator): the pool's check replaces it.
    with psycopg.connect(database_url(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [first.info.backend_pid])
    connection.close()
    assert run(USERNAME, [alice.pk]) == [("alice",)]
    assert connection.connection is not first
    assert rows._prepared_forms(USERNAME)[0] in session_prepared()


def test_a_second_action_post_prepares_nothing_and_runs_the_sessions_statements(alice, bob, client_for, monkeypatch):
    match = new_duel(alice, bob)
    clients = {0: client_for(alice), 1: client_for(bob)}

    def post_next() -> None:
        state = fresh(match)
        seat = registry.get(state.game, state.engine_version).to_move(state.state)[0]
        response = post_action(clients[seat], match, seat, first_legal(clients[seat], match, seat)[0])
        assert response.status_code == 201, response.json()

    post_next()
    added = []
    monkeypatch.setitem(rows._PREPARED, connection.connection, _Watched(rows._PREPARED[connection.connection], added))
    post_next()
    assert added == [], "the second POST prepared statements the first had"
    reads = (_token_sql, services._lock_sql, services._seats_sql)
    assert {rows._prepared_forms(sql(connection.alias))[0] for sql in reads} <= session_prepared()


def test_the_query_log_shows_a_prepared_statement_as_its_text(alice):
    run(USERNAME, [alice.pk])
    with CaptureQueriesContext(connection) as queries:
        run(USERNAME, [alice.pk])
    [query] = queries.captured_queries
    assert query["sql"] == f'SELECT "username" FROM "auth_user" WHERE "id" = {alice.pk}'
    assert unprepared(f"{rows._prepared_forms(USERNAME)[2]}; SELECT 1") == f"{USERNAME}; SELECT 1"


@override_settings(DB_PREPARED_STATEMENTS=False)
def test_with_the_setting_off_statements_run_as_they_are(alice):
    with connection.cursor() as cursor:
        assert prepared(cursor, USERNAME) == USERNAME
    assert run(USERNAME, [alice.pk]) == [("alice",)]


@pytest.mark.parametrize(
    ("options", "max_age", "prepares"),
    [({"pool": {"min_size": 1}}, 0, True), ({}, 60, True), ({}, None, True), ({}, 0, False)],
)
def test_only_sessions_that_outlive_a_request_prepare(options, max_age, prepares):
    # Where every request opens a session of its own, a PREPARE would be a round trip more in each.
    alike = types.SimpleNamespace(vendor="postgresql", settings_dict={"OPTIONS": options, "CONN_MAX_AGE": max_age})
    assert rows._prepares(alike) is prepares


def test_server_side_binding_prepares_by_itself_and_is_left_alone():
    alike = types.SimpleNamespace(
        vendor="postgresql", settings_dict={"OPTIONS": {"pool": True, "server_side_binding": True}, "CONN_MAX_AGE": 0}
    )
    assert rows._prepares(alike) is False


def test_past_the_cap_a_session_runs_further_statements_as_they_are(alice, monkeypatch):
    run(USERNAME, [alice.pk])
    monkeypatch.setattr(rows, "PREPARED_PER_SESSION", len(rows._PREPARED[connection.connection]))
    other = 'SELECT "email" FROM "auth_user" WHERE "id" = %s'
    with connection.cursor() as cursor:
        assert prepared(cursor, other) == other
    assert run(other, [alice.pk]) == [("",)]


@pytest.mark.parametrize("sql", ["SELECT 1; SELECT 2", "SELECT '%%'", "SELECT %(a)s"])
def test_only_single_statements_with_plain_parameters_are_prepared(sql):
    with pytest.raises(ValueError):
        rows._prepared_forms(sql)


def test_a_prepare_the_server_refuses_is_djangos_error_and_is_tried_again_next_time(alice):
    # In a transaction an earlier statement broke, the PREPARE itself fails: the caller sees the
    # error Django's own statements raise there, and the name is not kept as prepared (its next
    # use would EXECUTE a statement the session does not have). A text of this test's own, so no
    # earlier test has prepared it on this pooled session.
    sql = 'SELECT "username" AS "refused_once" FROM "auth_user" WHERE "id" = %s'
    name = rows._prepared_forms(sql)[0]
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        try:
            cursor.execute("SELECT 1 / 0")
        except DataError:
            pass
        prepared(cursor, sql)
    assert name not in rows._PREPARED.get(connection.connection, set())
    assert name not in session_prepared()
    assert run(sql, [alice.pk]) == [("alice",)]
    assert name in session_prepared()


@pytest.mark.parametrize(
    ("events", "prepares"), [(eventstore.PREPARED_ROWS, True), (eventstore.PREPARED_ROWS + 1, False)]
)
@pytest.mark.django_db
def test_an_append_of_a_few_events_is_prepared_and_a_batch_runs_as_text(events, prepares, monkeypatch):
    asked = []

    def watched(cursor, sql):
        asked.append(sql)
        return prepared(cursor, sql)

    monkeypatch.setattr(eventstore, "prepared", watched)
    eventstore.stream_create(stream_id="note:1", kind="note")
    with transaction.atomic():
        stream = eventstore.stream_lock(stream_id="note:1")
        eventstore.events_append(
            stream=stream, new_events=[NewEvent(type="noted", data={"n": i}, actor="system") for i in range(events)]
        )
    assert any("INSERT INTO matches_event" in sql for sql in asked) is prepares
    assert [e.seq for e in eventstore.stream_events(stream_id="note:1")] == list(range(1, events + 1))
