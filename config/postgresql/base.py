"""Django's PostgreSQL backend, with a pool that recovers at once when all its connections died.

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
"""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self):
        options = self.settings_dict["OPTIONS"].get("pool")
        if not options or not self.settings_dict["CONN_HEALTH_CHECKS"] or self.alias in self._connection_pools:
            return super().pool
        if self.settings_dict.get("CONN_MAX_AGE", 0) != 0:
            raise ImproperlyConfigured("Pooling doesn't support persistent connections.")
        connect_kwargs = self.get_connection_params()
        connect_kwargs["autocommit"] = True  # as Django does: it sets the mode it wants later
        pool = ConnectionPool(
            kwargs=connect_kwargs,
            open=False,
            configure=self._configure_connection,
            check=_check_then_sweep,
            **({} if options is True else options),
        )
        # As in Django: threads racing to build the first pool keep whichever was stored first.
        return self._connection_pools.setdefault(self.alias, pool)


def _check_then_sweep(conn) -> None:
    try:
        ConnectionPool.check_connection(conn)
    except Exception:
        # The pool sets itself on a connection it hands out (Django relies on it too, to give
        # the connection back).
        conn._pool.check()
        raise
