"""Health endpoints for a load balancer, an orchestrator's probes and an operator.

``GET /healthz`` (liveness) answers ``{"status": "ok"}`` whenever the process can answer at all: it
touches neither the database nor Redis, so an outage of either never has every web process killed
and restarted, which would fix nothing. ``GET /readyz`` (readiness) checks what a request needs:
PostgreSQL (one ``SELECT 1`` through the pool, answered within READY_DB_TIMEOUT_SECONDS or called
down, also by a server that takes the connection and never answers), the channel layer's Redis (one
PING per host; skipped with the in-memory layer of a first run), the cache's Redis and the Celery
broker's Redis (each pinged when configured and not the channel layer's server, which is pinged
already) and the outbox's backlog. 200 when every check is ok, 503 when the database, the channel
layer or the cache is not (every throttled request reads the cache); an unreachable broker and an
outbox backlog older than READY_OUTBOX_MAX_AGE_SECONDS are "degraded" and still 200: the outbox keeps
what a request queues until the broker is back, the web process cannot deliver what a stuck worker
or beat left behind, and taking it out of rotation would only add an outage to the delay. So is a
dead outbox message (OUTBOX_MAX_ATTEMPTS ran out), until an operator retries or discards it; it is
not part of the backlog. Anonymous callers see each check's status word only; staff (signed in, or
with an API token) also see the error text, the backlog's size and age, the dead messages' count,
and the thresholds.

Both are answered by a middleware placed first, before anything that reads the database or the
request's host: the session and user are not loaded for /healthz at all, and a probe that sends the
instance's address as its Host header (Kubernetes does) is not refused by ALLOWED_HOSTS. Neither
response contains anything built from the Host header. No throttle counts them; /readyz instead
runs its checks at most once per READY_CACHE_SECONDS per process, and a caller arriving while they
run is answered with the last run's result, so a flood of probes costs the database and Redis no
more than one caller would, and holds no request turn waiting for a check's timeout.
"""

from __future__ import annotations

import logging
import threading
import time
from importlib import import_module
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connections
from django.http import JsonResponse
from django.utils import timezone

log = logging.getLogger(__name__)

LIVENESS_PATH = "/healthz"
READINESS_PATH = "/readyz"

OK = "ok"
DEGRADED = "degraded"
UNAVAILABLE = "unavailable"
SKIPPED = "skipped"


class HealthMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info.rstrip("/") or "/"
        if path not in (LIVENESS_PATH, READINESS_PATH):
            return self.get_response(request)
        if request.method not in ("GET", "HEAD"):
            return _no_store(
                JsonResponse(
                    {"code": "method_not_allowed", "detail": "This address answers GET and HEAD only."},
                    status=405,
                    headers={"Allow": "GET, HEAD"},
                )
            )
        if path == LIVENESS_PATH:
            return _no_store(JsonResponse({"status": OK}))
        return readiness(request)


def readiness(request) -> JsonResponse:
    checks = _checks.get()
    status = overall_status(checks)
    # With the database down, reading the session or token would wait out the pool's timeout.
    staff = checks["database"]["status"] == OK and _is_staff(request)
    body = {
        "status": status,
        "checks": {name: (check if staff else {"status": check["status"]}) for name, check in checks.items()},
    }
    return _no_store(JsonResponse(body, status=503 if status == UNAVAILABLE else 200))


def overall_status(checks: dict[str, dict[str, Any]]) -> str:
    statuses = {check["status"] for check in checks.values()}
    if UNAVAILABLE in statuses:
        return UNAVAILABLE
    if DEGRADED in statuses:
        return DEGRADED
    return OK


def _no_store(response: JsonResponse) -> JsonResponse:
    # A cache in front must not answer a probe with an earlier state.
    response["Cache-Control"] = "no-store"
    return response


# The checks --------------------------------------------------------------------------------------


def run_checks() -> dict[str, dict[str, Any]]:
    database = database_check()
    return {
        "database": database,
        "channel_layer": channel_layer_check(),
        "broker": broker_check(),
        "cache": cache_check(),
        # Read only when the database answered: otherwise it would wait out a second timeout to
        # say what the database check already said.
        "outbox": outbox_check() if database["status"] == OK else {"status": UNAVAILABLE, "error": "database down"},
    }


def database_check() -> dict[str, Any]:
    timeout = settings.READY_DB_TIMEOUT_SECONDS
    started = time.monotonic()
    # Asked in a thread of its own and waited for at most the timeout: neither the pool's check of
    # the connection it hands out nor the query has a bound of its own on the client's side (a
    # statement_timeout is the server's, and a server that never answers never applies it).
    with _database_probe.lock:
        waiting = _database_probe.thread
        if waiting is not None and waiting.is_alive():
            # The last check is still unanswered: another would only wait beside it, holding a
            # second connection. So at most one probe thread is ever left waiting on the server;
            # this one waits for it (within its own bound) and then asks afresh.
            waiting.join(timeout)
            if waiting.is_alive():
                since = round(time.monotonic() - _database_probe.since)
                error = f"the check sent {since} s ago has had no answer"
                return {"status": UNAVAILABLE, "error": error, "elapsed_ms": _ms_since(started)}
        outcome: list[Exception | None] = []
        pool = getattr(connections["default"], "pool", None)
        thread = threading.Thread(
            target=_database_query, args=(pool, timeout, outcome), name="readyz-database", daemon=True
        )
        _database_probe.thread, _database_probe.since = thread, started
        thread.start()
    thread.join(max(0.0, started + timeout - time.monotonic()))
    if not outcome:
        return {"status": UNAVAILABLE, "error": f"no answer within {timeout} s", "elapsed_ms": _ms_since(started)}
    if outcome[0] is not None:
        return {"status": UNAVAILABLE, "error": _describe(outcome[0]), "elapsed_ms": _ms_since(started)}
    return {"status": OK, "elapsed_ms": _ms_since(started)}


class _DatabaseProbe:
    def __init__(self):
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.since = 0.0


_database_probe = _DatabaseProbe()


def _database_query(pool, timeout: int, outcome: list) -> None:
    try:
        if pool is not None:
            # Through the pool, as a request's queries go, but waiting seconds rather than the
            # DB_POOL_TIMEOUT a request waits: a probe that took a request's wait during an outage
            # would hold one of the process's request turns (WEB_REQUEST_THREADS) for it.
            pool.open()
            with pool.connection(timeout=timeout) as raw, raw.transaction():
                raw.execute(f"SET LOCAL statement_timeout = {int(timeout * 1000)}")
                raw.execute("SELECT 1")
        else:
            try:
                with connections["default"].cursor() as cursor:
                    cursor.execute("SELECT 1")
            finally:
                connections["default"].close()  # this thread's own; it ends here
    except Exception as exc:  # any failure is the answer, not an error of the probe
        outcome.append(exc)
    else:
        outcome.append(None)


def channel_layer_check() -> dict[str, Any]:
    layer = settings.CHANNEL_LAYERS.get("default", {})
    backend = layer.get("BACKEND", "")
    hosts = layer.get("CONFIG", {}).get("hosts")
    if not hosts:
        return {"status": SKIPPED, "detail": f"{backend.rsplit('.', 1)[-1] or 'no layer'}: nothing to reach"}
    return _ping_all(hosts, down=UNAVAILABLE)


def broker_check() -> dict[str, Any]:
    """The Celery broker, when it is a Redis of its own. Down, it is "degraded", not a 503: a request
    records the tasks it queues in the outbox, whose sweeper sends them once the broker is back."""
    urls = [u for u in settings.CELERY_BROKER_URL.split(";") if u]
    schemes = {urlsplit(u).scheme for u in urls}
    if not urls or not schemes <= {"redis", "rediss"}:
        what = ", ".join(sorted(schemes)) or "no broker"
        return {"status": SKIPPED, "detail": f"{what}: {'nothing to reach' if what == 'memory' else 'not a Redis'}"}
    return _ping_apart(urls, down=DEGRADED)


def cache_check() -> dict[str, Any]:
    """The cache, when it is a Redis: throttles and sign-in limits read it on every request."""
    cache = settings.CACHES.get("default", {})
    backend = cache.get("BACKEND", "")
    if not backend.endswith(".RedisCache"):
        return {"status": SKIPPED, "detail": f"{backend.rsplit('.', 1)[-1] or 'no cache'}: nothing to reach"}
    location = cache.get("LOCATION") or []
    urls = [u.strip() for u in (location.split(",") if isinstance(location, str) else location) if u.strip()]
    return _ping_apart(urls, down=UNAVAILABLE)


def _ping_apart(urls: list[str], *, down: str) -> dict[str, Any]:
    """PING each Redis in ``urls`` that is not the channel layer's (its check pinged that one)."""
    layer = settings.CHANNEL_LAYERS.get("default", {}).get("CONFIG", {}).get("hosts") or []
    pinged = {_server(host) for host in layer}
    apart = [u for u in urls if _server(u) not in pinged]
    if not apart:
        return {"status": SKIPPED, "detail": "the channel layer's Redis, checked there"}
    return _ping_all(apart, down=down)


def _ping_all(hosts: list, *, down: str) -> dict[str, Any]:
    """PING each Redis in ``hosts`` (channel layer hosts or URLs); ``down`` if one does not answer."""
    timeout = settings.READY_REDIS_TIMEOUT_SECONDS
    started = time.monotonic()
    try:
        for host in hosts:
            # A connection of its own, closed at once: the layer's pools belong to the event loop
            # and its sockets, and a readiness probe must not take one of theirs.
            client = _redis_client(host, timeout)
            try:
                client.ping()
            finally:
                client.close()
    except Exception as exc:
        return {"status": down, "error": _describe(exc), "elapsed_ms": _ms_since(started)}
    return {"status": OK, "elapsed_ms": _ms_since(started)}


def _server(host) -> tuple:
    """Which Redis server a channel layer host or a URL names: its database number aside, one
    server answers a PING for all of them."""
    if isinstance(host, dict):
        host = host.get("address") or (host.get("host", "localhost"), host.get("port", 6379))
    if isinstance(host, (tuple, list)):
        return (str(host[0]), int(host[1]))
    parts = urlsplit(host)
    if parts.scheme == "unix":
        return ("unix", parts.path)
    return (parts.hostname or "localhost", parts.port or 6379)


def _redis_client(host, timeout: int):
    import redis

    if isinstance(host, str):
        return redis.Redis.from_url(host, socket_timeout=timeout, socket_connect_timeout=timeout)
    if isinstance(host, (tuple, list)):
        return redis.Redis(host=host[0], port=host[1], socket_timeout=timeout, socket_connect_timeout=timeout)
    options = {key: value for key, value in host.items() if key in ("username", "password")}
    if "address" in host:
        return redis.Redis.from_url(host["address"], socket_timeout=timeout, socket_connect_timeout=timeout, **options)
    return redis.Redis(
        host=host.get("host", "localhost"),
        port=host.get("port", 6379),
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        **options,
    )


def outbox_check() -> dict[str, Any]:
    from matches.outbox import outbox_backlog

    now = timezone.now()
    limit = settings.READY_OUTBOX_MAX_AGE_SECONDS
    try:
        pending, oldest, dead = outbox_backlog(now=now)
    except Exception as exc:
        return {"status": UNAVAILABLE, "error": _describe(exc)}
    age = max(0, int((now - oldest).total_seconds())) if oldest is not None else 0
    # A dead message (its attempts ran out) waits for an operator, not for a worker: degraded
    # until it is retried or discarded (manage.py outbox), and apart from the backlog's age.
    return {
        "status": DEGRADED if age > limit or dead else OK,
        "pending": pending,
        "oldest_age_seconds": age,
        "max_age_seconds": limit,
        "dead": dead,
    }


def _describe(exc: Exception) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}"[:300]


def _ms_since(started: float) -> int:
    return round((time.monotonic() - started) * 1000)


class _SharedChecks:
    """The last run's result, reused for READY_CACHE_SECONDS; callers arriving during a run are
    answered with the last run's result instead of starting their own (only a process's first
    callers, with no result yet, wait for the run)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.result: dict[str, dict[str, Any]] | None = None
        self.at = 0.0

    def get(self) -> dict[str, dict[str, Any]]:
        last = self.result
        # Not waiting for a run under way: a check can take its timeout (a Redis or a database that
        # takes the connection and never answers), and every caller waiting on it held one of the
        # process's few request turns (WEB_REQUEST_THREADS), so a flood of anonymous probes held
        # them all, also while the site still served (a broker down is only "degraded"). The last
        # result is at most one run older than the one under way.
        if not self.lock.acquire(blocking=last is None):
            return last
        try:
            if self.result is None or time.monotonic() - self.at >= settings.READY_CACHE_SECONDS:
                self.result = run_checks()
                self.at = time.monotonic()
                for name, check in self.result.items():
                    if check["status"] == UNAVAILABLE:
                        log.warning("readyz: %s unavailable: %s", name, check.get("error", ""))
            return self.result
        finally:
            self.lock.release()

    def forget(self) -> None:
        with self.lock:
            self.result = None


_checks = _SharedChecks()


# Who is asking -----------------------------------------------------------------------------------


def _is_staff(request) -> bool:
    """Staff, by session or API token, read here because no middleware has run yet. Any failure
    (the database down, a bad token) makes the caller anonymous: the answer must not depend on it."""
    try:
        from django.contrib.auth import get_user

        engine = import_module(settings.SESSION_ENGINE)
        request.session = engine.SessionStore(request.COOKIES.get(settings.SESSION_COOKIE_NAME))
        user = get_user(request)
        if not user.is_authenticated:
            from config.auth import ExpiringTokenAuthentication

            found = ExpiringTokenAuthentication().authenticate(request)
            user = found[0] if found else user
        return bool(user.is_active and user.is_staff)
    except Exception:
        return False
