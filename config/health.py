"""Health endpoints for a load balancer, an orchestrator's probes and an operator.

``GET /healthz`` (liveness) answers ``{"status": "ok"}`` whenever the process can answer at all: it
touches neither the database nor Redis, so an outage of either never has every web process killed
and restarted, which would fix nothing. ``GET /readyz`` (readiness) checks what a request needs:
PostgreSQL (one ``SELECT 1`` through the pool, waiting at most READY_DB_TIMEOUT_SECONDS), the
channel layer's Redis (one PING per host; skipped with the in-memory layer of a first run) and the
outbox's backlog. 200 when every check is ok, 503 when the database or Redis is not; an outbox
backlog older than READY_OUTBOX_MAX_AGE_SECONDS is "degraded" and still 200: the web process cannot
deliver what a stuck worker or beat left behind, and taking it out of rotation would only add an
outage to the delay. So is a dead outbox message (OUTBOX_MAX_ATTEMPTS ran out), until an operator
retries or discards it; it is not part of the backlog. Anonymous callers see each check's status
word only; staff (signed in, or with an API token) also see the error text, the backlog's size and
age, the dead messages' count, and the thresholds.

Both are answered by a middleware placed first, before anything that reads the database or the
request's host: the session and user are not loaded for /healthz at all, and a probe that sends the
instance's address as its Host header (Kubernetes does) is not refused by ALLOWED_HOSTS. Neither
response contains anything built from the Host header. No throttle counts them; /readyz instead
runs its checks at most once per READY_CACHE_SECONDS per process, and concurrent callers share a
run, so a flood of probes costs the database and Redis no more than one caller would.
"""

from __future__ import annotations

import logging
import threading
import time
from importlib import import_module
from typing import Any

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
        # Read only when the database answered: otherwise it would wait out a second timeout to
        # say what the database check already said.
        "outbox": outbox_check() if database["status"] == OK else {"status": UNAVAILABLE, "error": "database down"},
    }


def database_check() -> dict[str, Any]:
    timeout = settings.READY_DB_TIMEOUT_SECONDS
    started = time.monotonic()
    connection = connections["default"]
    try:
        pool = getattr(connection, "pool", None)
        if pool is not None:
            # Through the pool, as a request's queries go, but waiting seconds rather than the
            # DB_POOL_TIMEOUT a request waits: a probe that took a request's wait during an outage
            # would hold one of the process's request turns (WEB_REQUEST_THREADS) for it.
            pool.open()
            with pool.connection(timeout=timeout) as raw, raw.transaction():
                raw.execute(f"SET LOCAL statement_timeout = {int(timeout * 1000)}")
                raw.execute("SELECT 1")
        else:
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
    except Exception as exc:  # any failure is the answer, not an error of the probe
        return {"status": UNAVAILABLE, "error": _describe(exc), "elapsed_ms": _ms_since(started)}
    return {"status": OK, "elapsed_ms": _ms_since(started)}


def channel_layer_check() -> dict[str, Any]:
    layer = settings.CHANNEL_LAYERS.get("default", {})
    backend = layer.get("BACKEND", "")
    hosts = layer.get("CONFIG", {}).get("hosts")
    if not hosts:
        return {"status": SKIPPED, "detail": f"{backend.rsplit('.', 1)[-1] or 'no layer'}: nothing to reach"}
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
        return {"status": UNAVAILABLE, "error": _describe(exc), "elapsed_ms": _ms_since(started)}
    return {"status": OK, "elapsed_ms": _ms_since(started)}


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
    """The last run's result, reused for READY_CACHE_SECONDS; callers arriving during a run wait
    for it instead of starting their own."""

    def __init__(self):
        self.lock = threading.Lock()
        self.result: dict[str, dict[str, Any]] | None = None
        self.at = 0.0

    def get(self) -> dict[str, dict[str, Any]]:
        with self.lock:
            if self.result is None or time.monotonic() - self.at >= settings.READY_CACHE_SECONDS:
                self.result = run_checks()
                self.at = time.monotonic()
                for name, check in self.result.items():
                    if check["status"] == UNAVAILABLE:
                        log.warning("readyz: %s unavailable: %s", name, check.get("error", ""))
            return self.result

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
