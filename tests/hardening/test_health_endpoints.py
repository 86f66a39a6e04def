"""/healthz and /readyz, as a load balancer, an orchestrator's probes and an operator use them.

Liveness answers with the database gone (it reads nothing); readiness says 503 while the database
(also one that takes the connection and never answers), the channel layer's Redis or the cache's
Redis is unreachable and 200 once they are back, calls an old outbox backlog or an unreachable
Celery broker "degraded" (still 200), and tells only staff the details (errors, the backlog's size
and age)."""

from __future__ import annotations

import socket
import threading
import time
from datetime import timedelta

import psycopg
import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from config import health
from matches.models import OutboxMessage
from tests.hardening.test_database_outage import outage  # noqa: F401  (the proxy that cuts PostgreSQL)

CHECKS = {"database", "channel_layer", "broker", "cache", "outbox"}


@pytest.fixture(autouse=True)
def checks_run_every_time(settings):
    settings.READY_CACHE_SECONDS = 0
    health._checks.forget()
    yield
    health._checks.forget()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def redis_layer_at(address: str) -> dict:
    return {
        "default": {
            "BACKEND": "matches.layers.SharedReaderRedisChannelLayer",
            "CONFIG": {"hosts": [{"address": address}]},
        }
    }


def assert_anonymous_body(response) -> dict:
    """Each check's status word and nothing else: no error text, host, port or count."""
    assert response["Content-Type"].startswith("application/json"), response.content[:300]
    body = response.json()
    assert set(body) == {"status", "checks"}
    assert set(body["checks"]) == CHECKS
    for check in body["checks"].values():
        assert set(check) == {"status"}, body
    return body


@pytest.mark.django_db(transaction=True)
def test_liveness_answers_200_while_the_database_is_unreachable(outage, alice):  # noqa: F811
    signed_in = Client(raise_request_exception=False)
    signed_in.force_login(alice)  # a session cookie the session middleware would look up
    outage.cut()
    started = time.monotonic()
    answers = [signed_in.get("/healthz"), Client(raise_request_exception=False).get("/healthz")]
    elapsed = time.monotonic() - started
    outage.restore()

    for response in answers:
        assert response.status_code == 200, (response.status_code, response.content[:300])
        assert response.json() == {"status": "ok"}
        assert response["Cache-Control"] == "no-store"
    assert elapsed < 1.5  # nothing waited for the pool (two seconds in the outage fixture)


@pytest.mark.django_db(transaction=True)
def test_readiness_is_503_json_while_the_database_is_down_and_200_once_it_is_back(outage, settings, monkeypatch):  # noqa: F811
    from django.db import connection

    # A request would wait the pool's own timeout for a connection; the probe waits its own, shorter one.
    if connection.pool is not None:
        monkeypatch.setattr(connection.pool, "timeout", 30)
    settings.READY_DB_TIMEOUT_SECONDS = 1
    outage.cut()
    started = time.monotonic()
    down = Client(raise_request_exception=False).get("/readyz")
    elapsed = time.monotonic() - started
    outage.restore()

    assert down.status_code == 503, (down.status_code, down.content[:300])
    body = assert_anonymous_body(down)  # its own JSON, not the "Back in a moment" page
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == {"status": "unavailable"}
    assert body["checks"]["outbox"] == {"status": "unavailable"}
    assert b"Back in a moment" not in down.content
    assert elapsed < 10, elapsed

    # Back: the pool reconnects about once a second, well within this wait.
    settings.READY_DB_TIMEOUT_SECONDS = 10
    up = Client(raise_request_exception=False).get("/readyz")
    assert up.status_code == 200, (up.status_code, up.content[:300])
    assert assert_anonymous_body(up)["status"] == "ok"


def probe_within(seconds: float):
    """/readyz asked in a thread of its own: (the answer, or None if it had none after ``seconds``;
    how long it took). A probe that hangs must fail the test, not hold it."""
    answer: list = []
    started = time.monotonic()
    asking = threading.Thread(target=lambda: answer.append(Client(raise_request_exception=False).get("/readyz")))
    asking.daemon = True
    asking.start()
    asking.join(seconds)
    return (answer[0] if answer else None), time.monotonic() - started


@pytest.mark.django_db(transaction=True)
def test_readiness_is_503_within_its_bound_when_the_database_takes_connections_and_never_answers(outage, settings):  # noqa: F811
    settings.READY_DB_TIMEOUT_SECONDS = 1
    ready, _ = probe_within(30)
    assert ready is not None and ready.status_code == 200  # the pool holds connections through the proxy
    outage.stall()
    for _ in range(2):  # and the next probe too, while the first one's query is still unanswered
        down, elapsed = probe_within(30)
        assert down is not None, "the probe had no answer after 30 seconds"
        assert down.status_code == 503, (down.status_code, down.content[:300])
        body = assert_anonymous_body(down)
        assert body["checks"]["database"] == {"status": "unavailable"}
        assert body["checks"]["outbox"] == {"status": "unavailable"}
        assert elapsed < settings.READY_DB_TIMEOUT_SECONDS + 1.5, elapsed
    outage.restore()
    settings.READY_DB_TIMEOUT_SECONDS = 10
    back, _ = probe_within(30)
    assert back is not None and back.status_code == 200, back and back.content[:300]


@pytest.mark.django_db(transaction=True)
def test_a_new_database_connection_to_a_server_that_never_answers_gives_up_within_its_connect_timeout(outage):  # noqa: F811
    params = connection.get_connection_params()
    limit = int(params.get("connect_timeout") or 0)
    assert limit > 0  # a pool's worker waiting on such a connect would wait for ever without it
    outage.stall()
    started = time.monotonic()
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(**params)
    assert time.monotonic() - started < limit + 1.5


def stuck_message(*, age: timedelta, due: bool = True) -> OutboxMessage:
    now = timezone.now()
    message = OutboxMessage.objects.create(
        topic="test.stuck", payload={}, available_at=now - timedelta(seconds=1) if due else now + timedelta(hours=1)
    )
    OutboxMessage.objects.filter(pk=message.pk).update(created_at=now - age)
    return message


@pytest.mark.django_db
def test_an_outbox_message_stuck_past_the_threshold_is_degraded_and_only_staff_see_its_age(
    settings, make_user, client_for
):
    settings.READY_OUTBOX_MAX_AGE_SECONDS = 300
    stuck_message(age=timedelta(minutes=10))
    stuck_message(age=timedelta(hours=2), due=False)  # backing off: not due yet, not counted
    delivered = stuck_message(age=timedelta(hours=3))
    OutboxMessage.objects.filter(pk=delivered.pk).update(delivered_at=timezone.now())

    anonymous = Client().get("/readyz")
    assert anonymous.status_code == 200  # a web process cannot deliver it; out of rotation helps nobody
    body = assert_anonymous_body(anonymous)
    assert body["status"] == "degraded"
    assert body["checks"]["outbox"] == {"status": "degraded"}

    staff = make_user("operator", staff=True)
    signed_in = Client()
    signed_in.force_login(staff)
    for response in (signed_in.get("/readyz"), client_for(staff).get("/readyz")):
        assert response.status_code == 200
        outbox = response.json()["checks"]["outbox"]
        assert outbox["status"] == "degraded"
        assert outbox["pending"] == 1
        assert 600 <= outbox["oldest_age_seconds"] < 700
        assert outbox["max_age_seconds"] == 300
        assert response.json()["checks"]["database"]["status"] == "ok"


@pytest.mark.django_db
def test_a_young_backlog_is_ok_and_a_signed_in_player_who_is_not_staff_sees_no_details(settings, alice):
    settings.READY_OUTBOX_MAX_AGE_SECONDS = 300
    stuck_message(age=timedelta(seconds=30))
    player = Client()
    player.force_login(alice)
    response = player.get("/readyz")
    assert response.status_code == 200
    body = assert_anonymous_body(response)
    assert body["status"] == "ok"
    assert body["checks"]["outbox"] == {"status": "ok"}


@pytest.mark.django_db
def test_a_dead_outbox_message_is_degraded_with_its_count_for_staff_and_not_as_an_old_backlog(
    settings, make_user, client_for
):
    settings.READY_OUTBOX_MAX_AGE_SECONDS = 300
    dead = stuck_message(age=timedelta(hours=5))  # due, and far past the age threshold
    OutboxMessage.objects.filter(pk=dead.pk).update(dead_at=timezone.now(), attempts=25, last_error="Boom: broken")
    stuck_message(age=timedelta(seconds=30))  # a young backlog beside it

    anonymous = Client().get("/readyz")
    assert anonymous.status_code == 200
    body = assert_anonymous_body(anonymous)
    assert body["status"] == "degraded" and body["checks"]["outbox"] == {"status": "degraded"}

    staff = client_for(make_user("operator", staff=True)).get("/readyz")
    outbox = staff.json()["checks"]["outbox"]
    assert outbox["status"] == "degraded"
    assert outbox["dead"] == 1
    # The dead row is not the backlog: only the young message is pending, and it is young.
    assert outbox["pending"] == 1 and outbox["oldest_age_seconds"] < 300


@pytest.mark.django_db
def test_a_discarded_outbox_message_no_longer_degrades_readiness(settings, make_user, client_for):
    settings.READY_OUTBOX_MAX_AGE_SECONDS = 300
    given_up = stuck_message(age=timedelta(hours=5))
    OutboxMessage.objects.filter(pk=given_up.pk).update(
        dead_at=timezone.now(), discarded_at=timezone.now(), discard_reason="its match was deleted"
    )
    assert assert_anonymous_body(Client().get("/readyz"))["status"] == "ok"
    outbox = client_for(make_user("operator", staff=True)).get("/readyz").json()["checks"]["outbox"]
    assert outbox == {**outbox, "status": "ok", "dead": 0, "pending": 0}


@pytest.mark.django_db
def test_readiness_is_503_when_the_channel_layers_redis_is_unreachable_and_says_why_only_to_staff(settings, make_user):
    port = closed_port()
    settings.CHANNEL_LAYERS = redis_layer_at(f"redis://127.0.0.1:{port}/0")
    settings.READY_REDIS_TIMEOUT_SECONDS = 1

    anonymous = Client().get("/readyz")
    assert anonymous.status_code == 503
    body = assert_anonymous_body(anonymous)
    assert body["status"] == "unavailable"
    assert body["checks"]["channel_layer"] == {"status": "unavailable"}
    assert body["checks"]["database"] == {"status": "ok"}
    assert str(port).encode() not in anonymous.content
    assert b"127.0.0.1" not in anonymous.content

    signed_in = Client()
    signed_in.force_login(make_user("operator", staff=True))
    staff = signed_in.get("/readyz")
    assert staff.status_code == 503
    assert str(port) in staff.json()["checks"]["channel_layer"]["error"]


@pytest.mark.django_db
def test_a_reachable_redis_is_ok_and_the_in_memory_layer_is_skipped_and_ready(settings):
    settings.CHANNEL_LAYERS = redis_layer_at(settings.REDIS_URL or "redis://127.0.0.1:6379/0")
    reachable = Client().get("/readyz")
    assert reachable.status_code == 200, reachable.content
    assert reachable.json()["checks"]["channel_layer"] == {"status": "ok"}

    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    in_memory = Client().get("/readyz")
    assert in_memory.status_code == 200
    assert in_memory.json()["checks"]["channel_layer"] == {"status": "skipped"}
    assert in_memory.json()["status"] == "ok"


@pytest.mark.django_db
def test_a_celery_broker_on_a_redis_of_its_own_is_checked_and_when_down_is_degraded_not_503(settings, make_user):
    port = closed_port()
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{port}/0"
    settings.READY_REDIS_TIMEOUT_SECONDS = 1
    anonymous = Client().get("/readyz")
    # The outbox keeps every task a request queues until the broker is back: a web process serves
    # without it, and taking every one out of rotation would add an outage to the delay.
    assert anonymous.status_code == 200, anonymous.content
    body = assert_anonymous_body(anonymous)
    assert body["status"] == "degraded" and body["checks"]["broker"] == {"status": "degraded"}
    assert str(port).encode() not in anonymous.content
    signed_in = Client()
    signed_in.force_login(make_user("operator", staff=True))
    assert str(port) in signed_in.get("/readyz").json()["checks"]["broker"]["error"]

    settings.CELERY_BROKER_URL = redis_url_of_another_database()
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    reachable = Client().get("/readyz")
    assert reachable.status_code == 200 and reachable.json()["checks"]["broker"] == {"status": "ok"}


@pytest.mark.django_db
def test_a_cache_on_an_unreachable_redis_is_503_and_says_why_only_to_staff(settings, make_user):
    port = closed_port()
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": f"redis://127.0.0.1:{port}/0"}
    }
    settings.READY_REDIS_TIMEOUT_SECONDS = 1
    anonymous = Client().get("/readyz")
    assert anonymous.status_code == 503  # every throttled request reads the cache
    body = assert_anonymous_body(anonymous)
    assert body["checks"]["cache"] == {"status": "unavailable"} and body["checks"]["database"] == {"status": "ok"}
    assert str(port).encode() not in anonymous.content
    staff = make_user("operator", staff=True)
    signed_in = Client()
    signed_in.force_login(staff)
    assert str(port) in signed_in.get("/readyz").json()["checks"]["cache"]["error"]


@pytest.mark.django_db
def test_a_broker_or_cache_on_the_channel_layers_redis_is_not_pinged_twice_and_a_local_one_is_skipped(settings):
    settings.CHANNEL_LAYERS = redis_layer_at(settings.REDIS_URL or "redis://127.0.0.1:6379/0")
    same_server = redis_url_of_another_database()
    settings.CELERY_BROKER_URL = same_server
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": same_server}}
    shared = Client().get("/readyz")
    assert shared.status_code == 200, shared.content
    assert shared.json()["checks"]["broker"] == shared.json()["checks"]["cache"] == {"status": "skipped"}

    settings.CELERY_BROKER_URL = "memory://localhost/"
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    local = Client().get("/readyz")
    assert local.status_code == 200 and local.json()["status"] == "ok"
    assert local.json()["checks"]["broker"] == local.json()["checks"]["cache"] == {"status": "skipped"}


def redis_url_of_another_database() -> str:
    """The tests' Redis server, another database number: the same server as the channel layer's."""
    from django.conf import settings

    base = (settings.REDIS_URL or "redis://127.0.0.1:6379/0").rsplit("/", 1)[0]
    return f"{base}/15"


@pytest.mark.django_db
def test_probes_are_answered_for_any_host_header_and_over_plain_http_behind_the_https_redirect(settings):
    settings.SECURE_SSL_REDIRECT = True
    settings.ALLOWED_HOSTS = ["duels.example"]
    probe = Client()
    for path in ("/healthz", "/readyz"):
        # Kubernetes sends the pod's address as the Host; no answer is built from it.
        response = probe.get(path, HTTP_HOST="10.1.2.3:8000")
        assert response.status_code == 200, (path, response.status_code, response.content[:300])
    assert probe.head("/healthz", HTTP_HOST="10.1.2.3:8000").status_code == 200
    # Everything else still redirects and checks its host.
    assert probe.get("/", HTTP_HOST="duels.example").status_code == 301


def test_only_get_and_head_are_answered():
    response = Client().post("/healthz")
    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"
    assert response.json()["code"] == "method_not_allowed"


@pytest.mark.django_db
def test_a_flood_of_probes_runs_the_checks_once_per_interval(settings, monkeypatch):
    settings.READY_CACHE_SECONDS = 60
    runs = []
    run = health.run_checks
    monkeypatch.setattr(health, "run_checks", lambda: runs.append(1) or run())
    probe = Client()
    for _ in range(20):
        assert probe.get("/readyz").status_code == 200
    assert len(runs) == 1


@pytest.mark.django_db(transaction=True)
def test_a_probe_arriving_while_a_slow_check_runs_is_answered_with_the_last_result_at_once(settings, monkeypatch):
    # A request waiting for a check that waits out its timeout (a broker's Redis that takes the
    # connection and never answers is "degraded": the site still serves) holds one of the process's
    # few request turns meanwhile (WEB_REQUEST_THREADS): a flood of anonymous probes would hold them
    # all and starve the players' requests. Only the probe that runs the checks waits for them.
    assert Client().get("/readyz").status_code == 200
    inside, release = threading.Event(), threading.Event()

    def stalled_broker():
        inside.set()
        release.wait(30)
        return {"status": health.DEGRADED, "error": "TimeoutError: no answer"}

    monkeypatch.setattr(health, "broker_check", stalled_broker)

    def run_the_checks():
        try:
            Client().get("/readyz")
        finally:
            connection.close()

    running = threading.Thread(target=run_the_checks, daemon=True)
    running.start()
    try:
        assert inside.wait(10)
        meanwhile, elapsed = probe_within(5)
        assert meanwhile is not None, "the probe waited for the check another was running"
        assert elapsed < 1, elapsed
        assert meanwhile.status_code == 200
        assert assert_anonymous_body(meanwhile)["status"] == "ok"  # the last run's answer
    finally:
        release.set()
        running.join(10)
    after = Client().get("/readyz")
    assert assert_anonymous_body(after)["checks"]["broker"] == {"status": "degraded"}
