"""Django's PostgreSQL backend, with a pool that recovers at once when all its connections died,
a query log that shows a prepared statement (config/rows.py ``prepared``) as its text, and
psycopg's own timestamp loader, written in C, in place of Django's in Python (below).

Django hands psycopg_pool a check that tests each connection before a request gets it (one round
trip), so a connection PostgreSQL ended while it sat idle is replaced rather than used. One dead
connection usually means all of them died together: PostgreSQL restarted or failed over, or an
administrator ended the backends. psycopg_pool then tries the idle connections one by one and
backs off exponentially between failed checks (1 s, 2 s, 4 s ...: psycopg/psycopg#709), so with
ten dead connections a request waited out the pool timeout and answered 503 although the server
was back (tests/hardening/test_dropped_db_connections.py). Here a failed check first has the pool
test every idle connection (``ConnectionPool.check``, which replaces the dead ones through the
pool's own workers), so the pool's next try, made at once, gets a new connection.

Django always passes the pool its own ``check`` argument, so the pool is built here rather than
given the check through OPTIONS; everything else is Django's.

While the server is down the pool retries a connection about every second rather than with a
doubling backoff, so requests are served again within a second or so of its return, however long
the outage lasted.
"""

from __future__ import annotations

import datetime
from functools import lru_cache

import psycopg
import psycopg._queries
from django.core.exceptions import ImproperlyConfigured
from django.db.backends.postgresql import base, operations
from django.db.backends.postgresql.psycopg_any import BaseTzLoader
from psycopg import adapt
from psycopg.abc import AdaptContext
from psycopg.pq import Format
from psycopg_pool import ConnectionPool
from psycopg_pool.base import AttemptWithBackoff

from config.rows import unprepared

#: The most parameters of a statement whose conversion psycopg keeps (its own limit is 50).
CONVERTED_PARAMS = 256

# psycopg turns a statement's %s placeholders into the text it sends by a tokenising pass (a
# regular expression over the whole statement), and keeps the result in an LRU of 128 statements
# only for statements of at most 4,096 bytes and 50 parameters. An action POST's one statement
# (its events' append, the match's update and the outbox's insert, each an EXECUTE of its
# prepared form, config/rows.py) is a few hundred bytes but 50 to 140 parameters once a move
# appends two events or more, so it was converted anew on every POST: 3.7% of its instructions
# (issue 17, P5). Raised here, for every statement of at most 256 parameters: the 4,096 bytes
# still bound what the LRU holds, and a shape not used again is only evicted.
# tests/hardening/test_statement_conversion.py fails if psycopg stops reading this constant.
psycopg._queries.MAX_CACHED_STATEMENT_PARAMS = max(psycopg._queries.MAX_CACHED_STATEMENT_PARAMS, CONVERTED_PARAMS)


class DatabaseOperations(operations.DatabaseOperations):
    def last_executed_query(self, cursor, sql, params):
        # What the query log (DEBUG, a test's CaptureQueriesContext) shows of a statement run by
        # EXECUTE of its prepared form (config/rows.py ``prepared``): the statement as it would
        # have been sent, its parameters in place, not the name of the server's copy.
        if sql and "EXECUTE wd_" in sql:
            return self.compose_sql(unprepared(sql), params)
        return super().last_executed_query(cursor, sql, params)


#: psycopg's timestamptz loader as it ships: the C one where psycopg's binary build is installed.
_PSYCOPG_TIMESTAMPTZ = psycopg.adapters.get_loader(psycopg.postgres.types["timestamptz"].oid, Format.TEXT)


class _DjangoUtcLoader(BaseTzLoader):
    timezone = datetime.UTC


class UtcTimestamptzLoader:
    """A timestamptz column's loader for connections whose zone is UTC: psycopg's own.

    Django registers a loader of its own, a subclass of psycopg's pure-Python one that parses
    the text in Python and then names Django's zone on the result. That is about 9 us a value
    against under 1 us for psycopg's C loader, and a match's stream carries a timestamp per
    event: reading a 125-event stream spent about 1.1 ms on them, a twentieth of a verification's
    CPU (issue 17, P6 and P7; every page and API answer that lists times pays it too).

    psycopg's loader gives each value the session's TimeZone, and Django's gives it Django's
    zone by ``replace``. The two are the same value, ``datetime.timezone.utc`` itself, when the
    session is in UTC, which Django sets on every connection it opens (``_configure_timezone``)
    when USE_TZ is on and the database names no zone of its own; only then is this registered
    (``DatabaseWrapper.get_connection_params``). A session moved to another zone afterwards (a
    ``SET TIME ZONE`` of someone's) gets Django's loader back, value for value as before.

    Built as a factory, not a subclass (psycopg's C classes cannot be subclassed): the instance
    handed to psycopg is its C loader's own, so psycopg calls it with no Python frame a value.
    ``timezone`` is what Django's ``create_cursor`` compares with its own zone before it would
    register its loader again on each cursor."""

    timezone = datetime.UTC
    format = Format.TEXT

    def __new__(cls, oid: int, context: AdaptContext | None = None):
        # Asked each time a cursor's result needs a loader, so a session back in UTC gets psycopg's
        # again. Without a connection psycopg's loader takes UTC too.
        connection = context.connection if context is not None else None
        if connection is None or connection.info.timezone is datetime.UTC:
            return _PSYCOPG_TIMESTAMPTZ(oid, context)
        return _DjangoUtcLoader(oid, context)


@lru_cache
def _with_utc_loader(template: adapt.AdaptersMap) -> adapt.AdaptersMap:
    # One map per Django template (itself cached), as Django keeps one: each connection copies
    # the map it is given on write, never this one.
    adapters = adapt.AdaptersMap(template)
    adapters.register_loader("timestamptz", UtcTimestamptzLoader)
    return adapters


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    def get_connection_params(self):
        params = super().get_connection_params()
        if "context" in params and self.timezone is datetime.UTC:
            params["context"] = _with_utc_loader(params["context"])
        return params

    @property
    def pool(self):
        options = self.settings_dict["OPTIONS"].get("pool")
        if not options or not self.settings_dict["CONN_HEALTH_CHECKS"] or self.alias in self._connection_pools:
            return super().pool
        if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
            raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
        connect_kwargs = self.get_connection_params()
        connect_kwargs["autocommit"] = True  # as Django does: it sets the mode it wants later
        pool = RecoveringPool(
            kwargs=connect_kwargs,
            open=False,
            configure=self._configure_connection,
            check=_check_then_sweep,
            **({} if options is True else options),
        )
        # As in Django: threads racing to build the first pool keep whichever was stored first.
        return self._connection_pools.setdefault(self.alias, pool)


class _SteadyRetry(AttemptWithBackoff):
    # A new try about every second (with psycopg_pool's jitter) until reconnect_timeout, instead of
    # 1, 2, 4, 8 ... seconds apart: after an outage of T seconds the doubling waited up to T more
    # with the server back, and every request in that wait answered 503
    # (tests/hardening/test_database_outage.py). One failed connect a second is cheap for a server
    # that is down, and a pool makes at most one such try at a time per connection it lacks.
    DELAY_BACKOFF = 1.0


class RecoveringPool(ConnectionPool):
    def _add_connection(self, attempt, growing=False):
        # psycopg_pool starts each reconnection with a fresh AttemptWithBackoff and passes the same
        # object to every later try of it: starting with ours keeps the whole chain steady.
        return super()._add_connection(attempt or _SteadyRetry(timeout=self.reconnect_timeout), growing)


def _check_then_sweep(conn) -> None:
    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        # The pool sets itself on a connection it hands out (Django relies on it too, to give
        # the connection back).
        conn._pool.check()
        raise
