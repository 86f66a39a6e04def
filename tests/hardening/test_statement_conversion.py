"""An action POST's statement is converted for psycopg once per process, not on every POST
(config/postgresql/base.py: psycopg keeps the conversion only for statements of at most 50
parameters, and a move that appends two events or more sends more; issue 17, P5)."""

from __future__ import annotations

import psycopg._queries
import pytest
from django.db import connection

from config.postgresql.base import CONVERTED_PARAMS
from tests.matches.helpers import first_legal, fresh, new_duel, post_action

pytestmark = pytest.mark.django_db


def test_psycopg_reads_the_raised_limit():
    # If psycopg renames or drops the constant, setting it changes nothing and this says so.
    assert psycopg._queries.MAX_CACHED_STATEMENT_PARAMS == CONVERTED_PARAMS
    assert "MAX_CACHED_STATEMENT_PARAMS" in psycopg._queries.PostgresClientQuery.convert.__code__.co_names


def test_action_posts_of_more_than_fifty_parameters_are_converted_once(alice, bob, client_for, monkeypatch):
    uncached = []
    real = psycopg._queries._query2pg_client_nocache
    # The LRU wraps the function itself, so this name is called only for a statement not kept.
    monkeypatch.setattr(psycopg._queries, "_query2pg_client_nocache", lambda *a: uncached.append(a[0]) or real(*a))
    sizes = []

    def sized(execute, sql, params, many, context):
        sizes.append(len(params or ()))
        return execute(sql, params, many, context)

    clients = {0: client_for(alice), 1: client_for(bob)}
    match = new_duel(alice, bob)
    with connection.execute_wrapper(sized):
        for _ in range(12):
            match = fresh(match)
            if match.status != "live":
                break
            seat = next(s for s in clients if first_legal(clients[s], match, s))
            answer = post_action(clients[seat], match, seat, first_legal(clients[seat], match, seat)[0])
            assert answer.status_code == 201, answer.json()
    assert max(sizes) > 50, "no statement this test sent was past psycopg's own limit"
    assert uncached == []
