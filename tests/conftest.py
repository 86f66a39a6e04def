from __future__ import annotations

import asyncio
import base64
import hashlib
import inspect
import itertools
import os
import uuid
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


def pytest_configure(config):
    # Tests run with DEBUG off, as production does, and production has a checkpoint signing key:
    # give the test run one of its own (tests of a missing key remove it with monkeypatch).
    os.environ.setdefault("CHECKPOINT_SIGNING_KEY", base64.b64encode(os.urandom(32)).decode("ascii"))
    refuse_workers_beyond_the_redis_databases(config)
    use_this_workers_own_redis_database()


def use_this_workers_own_redis_database() -> None:
    """Under pytest-xdist (scripts/test runs two workers) each worker gets its own Redis database:
    the base number in REDIS_URL plus the worker's index (gw0: +0, gw1: +1, ...).

    Channel groups, broker queues and the keys tests delete are all in one Redis database, so a
    shared one lets a worker's test see, consume or delete the other's. Each worker already has its
    own PostgreSQL test database (pytest-django adds _gw0, _gw1, ... to its name)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("REDIS_URL", "")
    if not worker.startswith("gw") or not url:
        return
    own = redis_url_for_worker(url, worker)
    # Processes the tests start (daphne, Celery workers) and test modules read the environment.
    os.environ["REDIS_URL"] = own
    # pytest-django loaded the settings before any conftest, from the base URL: point the ones read
    # from it at this worker's database too (nothing has opened a channel layer yet).
    from django.conf import settings

    settings.REDIS_URL = own
    for host in settings.CHANNEL_LAYERS["default"].get("CONFIG", {}).get("hosts", []):
        if isinstance(host, dict) and host.get("address") == url:
            host["address"] = own


def refuse_workers_beyond_the_redis_databases(config) -> None:
    """Stop at the start, in the process that starts the workers, when the last worker's Redis
    database does not exist: with REDIS_URL's database 15 and two workers, gw1 would ask for 16,
    which a default Redis (16 databases, 0 to 15) refuses, and every test of gw1 that touches Redis
    would fail with "DB index is out of range". Wrapping round to 0 instead would silently share
    another run's database, which is what the numbering exists to prevent."""
    url = os.environ.get("REDIS_URL", "")
    if os.environ.get("PYTEST_XDIST_WORKER") or not url or config.getoption("dist", "no") == "no":
        return
    workers = len(config.getoption("tx", None) or [])
    if workers < 2:
        return
    problem = redis_databases_missing(url, workers)
    if problem:
        raise pytest.UsageError(problem)


def redis_databases_missing(url: str, workers: int) -> str:
    """Why ``workers`` xdist workers cannot each have their own database on this Redis, or ""
    when they can (or when Redis cannot be asked: the tests that need it say so themselves)."""
    import redis

    last = redis_url_for_worker(url, f"gw{workers - 1}")
    base = int(urlsplit(url).path.strip("/") or 0)
    try:
        with redis.Redis.from_url(last, socket_connect_timeout=2) as client:
            client.ping()  # selecting a database the server does not have fails here
        return ""
    except redis.ResponseError as exc:
        if "out of range" not in str(exc) and "invalid DB index" not in str(exc):
            return ""
    except redis.RedisError:
        return ""
    try:
        with redis.Redis.from_url(url, socket_connect_timeout=2) as client:
            count = int(client.config_get("databases")["databases"])
        has = f"it has {count} (0 to {count - 1})"
        fix = f"a base of at most {count - workers}" if count >= workers else "a server with more databases"
    except (redis.RedisError, KeyError, ValueError):  # CONFIG may be disabled on a managed Redis
        has = "it refused that number"
        fix = "a lower base"
    return (
        f"REDIS_URL names Redis database {base}, and each of the {workers} xdist workers takes its own "
        f"from there (base + worker index), up to {base + workers - 1}, which this Redis does not have: "
        f"{has}. Use {fix} in REDIS_URL, or fewer workers (-n)."
    )


def redis_url_for_worker(url: str, worker: str) -> str:
    """redis://host:6379/12 for worker gw1 is redis://host:6379/13 (no number in the URL is 0)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{int(parts.path.strip('/') or 0) + int(worker.removeprefix('gw'))}"))


@pytest.fixture(autouse=True)
def fresh_throttle_counts():
    # Throttle counts live in the cache: each test starts with a full budget, so no test is
    # throttled by the requests of the tests before it.
    from django.core.cache import cache

    cache.clear()
    yield


@pytest.fixture(autouse=True)
def reproducible_matches(request, monkeypatch):
    # A server-dealt match's dice, draws and bot choices all follow from its id and stream secret,
    # which production draws at random. Here they follow from the test's id and a count of the
    # matches it made, so every run of a test deals the same outcomes: a test whose assertion
    # holds only for some outcomes fails every time, not one run in a hundred, and a failure in CI
    # comes back when the one test is run again. (A server process started by a fixture still
    # draws at random.) TEST_MATCH_SALT deals every test other outcomes, the same in every run with
    # that salt: a sweep over a few salts finds the tests (or the rules) that hold only for some.
    from matches import services

    made = itertools.count()
    salt = os.environ.get("TEST_MATCH_SALT", "")
    prefix = f"{salt}:{request.node.nodeid}" if salt else request.node.nodeid

    def identity() -> tuple[uuid.UUID, bytes]:
        digest = hashlib.sha256(f"{prefix}:{next(made)}".encode()).digest()
        return uuid.UUID(bytes=digest[:16], version=4), hashlib.sha256(b"secret:" + digest).digest()

    monkeypatch.setattr(services, "_new_match_identity", identity)


# Fixtures that start a server process (daphne) with the production settings: the users of their
# tests sign in there, so their passwords are hashed by the production hashers.
SERVER_FIXTURES = {"asgi_server", "server_as"}


@pytest.fixture(autouse=True)
def quick_password_hashing(request):
    # Django's PBKDF2 runs a million iterations per password (0.4 s on an idle core here, 4 s on the
    # loaded CI machine) and the suite creates thousands of users: most tests hash with MD5 instead.
    # The production hashers stay in the list, so a stored PBKDF2 password still checks.
    if SERVER_FIXTURES & set(request.fixturenames):
        yield
        return
    from django.conf import settings
    from django.test import override_settings

    with override_settings(
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher", *settings.PASSWORD_HASHERS]
    ):
        yield


@pytest.fixture
def make_user(db):
    def make(username: str, *, staff: bool = False):
        return get_user_model().objects.create_user(username=username, password="pw-" + username, is_staff=staff)

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def client_for():
    """An API client authenticated with the user's token (as a developer's script would be)."""

    def make(user=None) -> APIClient:
        client = APIClient()
        if user is not None:
            token, _ = Token.objects.get_or_create(user=user)
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


def database_url() -> str:
    """A URL for the test database, for processes other than this one (psql, daphne)."""
    from urllib.parse import quote

    from django.db import connection

    db = connection.settings_dict
    user = quote(db.get("USER") or "")
    password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
    auth = f"{user}{password}@" if user else ""
    return f"postgresql://{auth}{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


def broker_url() -> str:
    """The real broker: this worker's own Redis database (``use_this_workers_own_redis_database``;
    the test command always has Redis). Read when asked, after that has set it."""
    return os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


def reset_broker_connections() -> None:
    """Drop the connection and producer pools made for the previous broker (eager tests may have
    built them for memory://), so the next publish uses the broker set now."""
    from config.celery import app

    app.close()
    app.__dict__.pop("amqp", None)  # a cached property holding the producer pool


@pytest.fixture
def broker():
    """This process publishes to the real broker (tasks not eager), which starts empty: for tests
    with real Celery workers, in this process or in their own."""
    import redis

    from config.celery import app

    url = broker_url()
    previous = {key: app.conf[key] for key in ("task_always_eager", "broker_url")}
    app.conf.task_always_eager = False
    app.conf.broker_url = url
    reset_broker_connections()
    # Messages and unacknowledged deliveries an earlier, interrupted run left on this broker.
    redis.Redis.from_url(url).delete("celery", "unacked", "unacked_index", "unacked_mutex")
    try:
        yield redis.Redis.from_url(url)
    finally:
        app.conf.update(previous)
        reset_broker_connections()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup):
    from django.db import connection

    # Row locks, concurrent writers and the TRUNCATE trigger are PostgreSQL behaviour; tests
    # that touch the database run against the database the platform runs on in production.
    if connection.vendor != "postgresql":
        pytest.exit("Database tests run on PostgreSQL: set DATABASE_URL (bash scripts/test does it).", returncode=4)


def pytest_collection_modifyitems(items):
    # Every coroutine test ends with nothing of its own still running (the fixture below), asked
    # for by each such test; a new one that forgets it is refused here, before anything runs.
    missing = [
        item.nodeid
        for item in items
        if inspect.iscoroutinefunction(getattr(item, "function", None))
        and "no_task_outlives_its_test" not in item.fixturenames
    ]
    if missing:
        raise pytest.UsageError(
            'A coroutine test needs @pytest.mark.usefixtures("no_task_outlives_its_test"): ' + ", ".join(missing)
        )


@pytest.fixture
async def no_task_outlives_its_test(request):
    """A consumer whose socket a test never disconnected stays blocked in the channel layer's
    receive. pytest-asyncio cancels such tasks only when it closes the event loop, and a cancelled
    channels-redis receive can wait forever on its connection there: that hung an xdist worker (and
    so a whole CI run) with no test named. Here the leftover is cancelled with a bound, and the test
    that left it fails by name."""
    yield
    me = asyncio.current_task()
    left = [task for task in asyncio.all_tasks() if task is not me and not task.done()]
    if not left:
        return
    for task in left:
        task.cancel()
    _, still_running = await asyncio.wait(left, timeout=10)
    names = ", ".join(repr(task.get_coro()) for task in left)
    pytest.fail(
        f"{len(left)} task(s) outlived the test ({len(still_running)} still running 10 s after being cancelled): "
        f"{names}. Disconnect every socket the test opens, a refused one included."
    )


@pytest.fixture
async def close_thread_connections():
    """For coroutine tests on the database: ``database_sync_to_async`` runs in one shared worker
    thread whose connection outlives the test; closed here, or the test database's flush or drop
    finds a session still attached."""
    yield
    from channels.db import database_sync_to_async
    from django.db import connections

    await database_sync_to_async(connections.close_all)()
