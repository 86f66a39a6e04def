"""Settings: everything from environment variables, with defaults for a first run.

First run (nothing set): SQLite beside manage.py, Celery tasks run eagerly in-process,
in-memory channel layer. Production: DATABASE_URL (PostgreSQL), REDIS_URL (channel
layer), CELERY_BROKER_URL (the Celery broker; without it tasks run eagerly in-process), SECRET_KEY, DEBUG=false.
"""

from __future__ import annotations

from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from .env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", True)
_DEV_SECRET = "dev-only-not-secret-change-me-in-production"
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET)
if not DEBUG and SECRET_KEY == _DEV_SECRET:
    raise ImproperlyConfigured("Set SECRET_KEY when DEBUG is false.")
# Keys the ids of the platform's own facts about a match (a verified result, a retraction:
# matches.commands.platform_event_id). Event ids are unique across every stream and a client may
# choose its own, so an id anyone could work out from the match id could be taken first and the
# fact never recorded. Set it on its own, and keep it, before rotating SECRET_KEY: a fact's id
# must stay the same for a follow-up delivered again to land it once.
EVENT_ID_KEY = env_str("EVENT_ID_KEY", SECRET_KEY)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

# Deployment: behind TLS, set HTTPS=true (and BEHIND_PROXY=true when a proxy terminates TLS and
# sends X-Forwarded-Proto). Everything follows from those two; each setting can still be moved alone.
HTTPS = env_bool("HTTPS", False)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", HTTPS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", HTTPS)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", HTTPS)
BEHIND_PROXY = env_bool("BEHIND_PROXY", False)
if BEHIND_PROXY:
    # Only behind a proxy that always sets (or strips) this header; otherwise a client could claim https.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# How many proxies append to X-Forwarded-For in front of the app: the client's address (for throttles
# and the login lockout) is the one the outermost of them saw. 0 trusts no header (REMOTE_ADDR).
PROXY_COUNT = env_int("PROXY_COUNT", 1 if BEHIND_PROXY else 0)
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# Paths that stay reachable over plain HTTP behind SECURE_SSL_REDIRECT (a load balancer's probe).
SECURE_REDIRECT_EXEMPT = env_list("SECURE_REDIRECT_EXEMPT", [])

# Content-Security-Policy (django-csp): scripts, styles, images and sockets from this site only (CSP 3's
# 'self' covers its own ws:/wss:), never framed. No inline script anywhere: every page starts from a file in
# static/js (server data travels in data- attributes or json_script, which is never executed), and the Swagger
# UI page loads its start-up script from its own URL (SpectacularSwaggerSplitView), so an injected <script>
# or on*= handler cannot run. Styles keep 'unsafe-inline': pages and scripts set style= attributes.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'", "data:"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    },
}

# Request bounds (config/middleware.py): the largest body accepted (larger ones get 413 JSON) and
# the deepest JSON nesting (RecursionError used to surface as an HTML 500).
API_MAX_BODY_BYTES = env_int("API_MAX_BODY_BYTES", 256 * 1024)
API_MAX_JSON_DEPTH = env_int("API_MAX_JSON_DEPTH", 32)
DATA_UPLOAD_MAX_MEMORY_SIZE = API_MAX_BODY_BYTES

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "axes",
    "matches",
    "league",
    "league.tournaments",
    "matches.checkpoints",
    "matches.analysis",
]

MIDDLEWARE = [
    # First: /healthz and /readyz answer before anything reads the database, the session or the
    # Host header, and a load balancer's plain-HTTP probe is not redirected (config/health.py).
    "config.health.HealthMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Before anything reads the request: refuses NUL, bad UTF-8 and oversized bodies, and turns every
    # error under /api/ (404, 405, 413, 500, database down) into {"code", "detail"} JSON.
    "config.middleware.ApiErrorMiddleware",
    "config.middleware.AuthThrottleMiddleware",
    # django-csp's, its headers' text built once per process and setting (config/middleware.py).
    "config.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it answers a locked-out login attempt.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=env_int("DB_CONN_MAX_AGE", 0),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several processes (web, eager tasks) share one file; wait for the write lock instead of failing.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DB_POOL", True):
    # Under ASGI every request runs its ORM calls in a thread of its own, and each thread opened its own
    # connection: a burst of requests exceeded PostgreSQL's max_connections and answered 500s. A pool
    # bounds a process to DB_POOL_MAX_SIZE connections; a request beyond that waits up to
    # DB_POOL_TIMEOUT seconds for one to come back (then 503 JSON), instead of PostgreSQL refusing it.
    # Size it so that (web processes + workers) x max_size stays under the server's max_connections.
    # The pool replaces persistent connections (Django requires CONN_MAX_AGE = 0 with it).
    # The pool checks each connection as it hands it out (one round trip): a connection PostgreSQL ended
    # while it sat idle (a restart, pg_terminate_backend, a proxy's idle timeout) is replaced, not given
    # to a request that would then fail (tests/hardening/test_dropped_db_connections.py). Django turns
    # CONN_HEALTH_CHECKS into the pool's check. The backend is Django's, with one change: when the
    # check finds a dead connection, every idle one is tested at once, so after a PostgreSQL restart
    # the next request gets a new connection instead of waiting out the pool's backoff over every
    # dead one (config/postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # The pool keeps DB_POOL_MIN_SIZE connections open. Past them it grows one connection at a time,
    # and only while requests wait for one, and it closes the extra ones after ten idle minutes. So a
    # burst after a quiet spell waits for connections to open one after another. In the live fan-out
    # benchmark at 10 x 100 (ten action POSTs at once to one daphne), the slowest POSTs were the first
    # round's. Two alternating runs on a loaded machine gave p99 795 / 1,382 ms with a minimum of 1,
    # 639 / 984 with 4, and 575 / 364 with 10 (issue 17, P5). Every process holds its minimum all the
    # time, workers and short management commands included, and the machine's processes share
    # PostgreSQL's max_connections (100 by default): 4 (psycopg_pool's own default) covers the usual
    # handful of concurrent requests. A web process that takes bursts can set DB_POOL_MIN_SIZE up to
    # DB_POOL_MAX_SIZE.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": env_int("DB_POOL_MIN_SIZE", 4),
        "max_size": env_int("DB_POOL_MAX_SIZE", 10),
        "timeout": env_int("DB_POOL_TIMEOUT", 10),
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Without the pool too: its query log shows prepared statements as their text (config/rows.py).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
if DATABASES["default"]["ENGINE"] == "config.postgresql":
    # A server that takes the connection and then never answers (frozen, or a black hole after a
    # failover) held a connect for ever: a request's, or one of the pool's few workers, which then
    # opened no connection again. psycopg bounds the whole start-up, the server's answers included.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", env_int("DB_CONNECT_TIMEOUT", 5))
# The fixed statements of the hot paths (an API token's read, a match command's lock and writes, an
# append) are PREPAREd once per database session and then run by EXECUTE (config/rows.py
# ``prepared``), where sessions outlive a request (the pool, or DB_CONN_MAX_AGE): PostgreSQL then
# neither parses nor plans them again, 1.6 of an action POST's 4.6 ms of the server's CPU (issue 17,
# P5). Off for a connection pooler that shares sessions between clients (PgBouncer in transaction
# mode), where a statement prepared on one session is not there on the next.
DB_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": env_int("PASSWORD_MIN_LENGTH", 10)},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    # django-axes first: it refuses a locked-out username before any password is checked.
    "config.auth.LockoutBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# A username is locked for an address after AXES_FAILURE_LIMIT wrong passwords from it; the lock lifts
# after AXES_COOLOFF_MINUTES (or `manage.py axes_reset`). Locking a username from every address would
# let anyone lock a player out from afar, so the lock is per (username, address) pair; guesses spread
# over many usernames from one address are bounded by THROTTLE_AUTH below.
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = env_int("AXES_COOLOFF_MINUTES", 15) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# The address a lock is kept for is the one the throttles read (PROXY_COUNT trusted proxies). Left to
# itself, django-axes reads REMOTE_ADDR (its proxy settings need django-ipware, not installed): behind
# a proxy that is the proxy's address for everyone, and five wrong guesses locked a player out from
# every address.
AXES_CLIENT_IP_CALLABLE = "config.middleware.client_address"
AXES_HTTP_RESPONSE_CODE = 429
# API tokens expire this many days after they were made (the account page makes a new one).
TOKEN_MAX_AGE_DAYS = env_int("TOKEN_MAX_AGE_DAYS", 90)
# An invitation nobody has finished answering this many hours after it was sent expires: it can no
# longer be accepted, and its inviter sees it expired (matches/invitations). Three days leaves a
# weekend's players time to answer without keeping a proposal open forever.
INVITATION_TTL_HOURS = env_int("INVITATION_TTL_HOURS", 72)
# What one account may have at once; past a cap a create is 409 too_many_<things> and writes nothing.
# Generous for an organiser (a league's clubs cover a season of the most clubs one holds, 256, and
# the clubs it keeps between seasons); a bound on the rows a script with one account can make.
MAX_LEAGUES_PER_USER = env_int("MAX_LEAGUES_PER_USER", 20)
MAX_CLUBS_PER_LEAGUE = env_int("MAX_CLUBS_PER_LEAGUE", 512)
# Tournaments in registration or running; finished ones do not count.
MAX_TOURNAMENTS_PER_USER = env_int("MAX_TOURNAMENTS_PER_USER", 30)
# Match and draft invitations sent and still waiting for answers (not accepted, declined,
# cancelled or expired).
MAX_OPEN_INVITATIONS_PER_USER = env_int("MAX_OPEN_INVITATIONS_PER_USER", 30)
# Unfinished matches and drafts an account started with nobody else seated (bots, or nobody but
# itself), the ones it makes without anyone's consent: each keeps a live state and stream and a bot
# turn per move. Ten is more than one person plays at once (a practice game per game and a few
# spare) and bounds what a script can start; finishing one frees its place. Season and tournament
# fixtures are not counted (their organisers' caps bound them).
MAX_OPEN_BOT_MATCHES_PER_USER = env_int("MAX_OPEN_BOT_MATCHES_PER_USER", 10)
# How many events the server appends on its own in one command (bots' moves and the draws it deals
# between them): past it the command ends and the bots play on in later ones, each its own
# transaction (matches.tasks.bots_move), so a person who leaves a game of bots, or a game of bots
# alone, never keeps one request and the match's lock for thousands of moves (an Annihilageddon game
# played on after its one person resigned: about 3,000). Bots reply to a person's move within it
# in every engine: at most 44 events seen, 1 to 9 typically (4 random games per engine and seat count).
BOT_MOVES_PER_COMMAND = env_int("BOT_MOVES_PER_COMMAND", 200)
if BOT_MOVES_PER_COMMAND < 1:
    raise ImproperlyConfigured("BOT_MOVES_PER_COMMAND must be at least 1: with 0 no bot would ever move.")
# A match whose bots are left to play on and that has not moved for this long lost its queued
# command (a broker that dropped it, a message given up on): matches.bots_move_stalled queues it again.
BOTS_STALLED_SECONDS = env_int("BOTS_STALLED_SECONDS", 60)

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
SERVE_STATIC = env_bool("SERVE_STATIC", DEBUG)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "config.auth.ExpiringTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "matches.api.errors.exception_handler",
    # DRF's, its choice of renderer kept for the usual Accept headers (config/middleware.py).
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "config.middleware.ApiContentNegotiation",
    "NUM_PROXIES": PROXY_COUNT,
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_PARSER_CLASSES": [
        # JSON with a nesting limit and no NUL or lone surrogates (config/middleware.py).
        "config.middleware.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Anonymous callers by address, signed-in ones by account; expensive reads (a past state replayed,
    # an event feed) have their own, stricter rate (matches.api.views.ExpensiveReadThrottle). Rates are "N/second|minute|
    # hour|day" and come from the environment so a deployment (or a load test) can move them.
    "DEFAULT_THROTTLE_CLASSES": [
        "rest_framework.throttling.AnonRateThrottle",
        "rest_framework.throttling.UserRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        # A page (live match, tournament, replay) makes a request or two per update or step; these
        # leave a person ample room and cut a script's flood to a bounded rate.
        "anon": env_str("THROTTLE_ANON", "1200/minute"),
        "user": env_str("THROTTLE_USER", "2400/minute"),
        "expensive": env_str("THROTTLE_EXPENSIVE", "300/minute"),
        # Pages that replay or analyse matches per request (matches/throttles.py): a person opens a
        # few a minute; each is an analysis, so a script's flood stops sooner than on the API.
        "expensive_page": env_str("THROTTLE_EXPENSIVE_PAGES", "60/minute"),
    },
}
# DRF keeps throttle history (and django-axes nothing: it keeps failures in the database) in the
# cache. Set CACHE_URL to a Redis database so every web process shares one history; without it each
# process counts alone (a first run, the tests).
CACHE_URL = env_str("CACHE_URL", "")
if CACHE_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}}
# Sign-in, sign-up and password-change forms: attempts per address (AuthThrottleMiddleware), on top
# of the lockout.
# Generous enough for a club's players signing in from one venue's address.
THROTTLE_AUTH = env_str("THROTTLE_AUTH", "120/minute")
# Websocket opens per address (config.middleware.SocketOpenThrottle): each reads and sends a match's
# whole view. A page reconnects at most every 0.6 s, and a venue's players share one address.
THROTTLE_SOCKETS = env_str("THROTTLE_SOCKETS", "300/minute")
SPECTACULAR_SETTINGS = {
    "TITLE": "Wizard Duels API",
    "DESCRIPTION": "Matches as append-only, hash-chained event streams; every finished match is verifiable.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc served from our own static files, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The draft's and the tournament draft's pick order are one choice set, under one name.
    "ENUM_NAME_OVERRIDES": {
        "PickOrderEnum": ["snake", "straight"],
        # The response bodies' choice sets (matches/api/responses.py), each under one name.
        "MatchStatusEnum": ["live", "finished"],
        "InvitationStatusEnum": "matches.invitations.selectors.STATUSES",
        "InviteeResponseEnum": ["pending", "accepted", "declined"],
    },
    # The API's bodies are JSON: its objects and lists have no faithful form encoding, so the schema
    # offers no form or multipart body (the parsers still read a form some page may post).
    "PARSER_WHITELIST": ["config.middleware.BoundedJSONParser"],
    # A text field the serializer refuses blank says so (minLength: 1), so a client built from the
    # schema never sends "" where it is refused; a response field that can be empty says allow_blank.
    "ENFORCE_NON_BLANK_FIELDS": True,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "config.openapi.add_error_responses",
    ],
}

# /readyz (config/health.py): how long its database and Redis checks wait before calling either
# down, how old the oldest due outbox message may be before the outbox is "degraded" (still 200),
# and how long a process reuses its last checks (probes are not throttled; this bounds their cost).
READY_DB_TIMEOUT_SECONDS = env_int("READY_DB_TIMEOUT_SECONDS", 2)
READY_REDIS_TIMEOUT_SECONDS = env_int("READY_REDIS_TIMEOUT_SECONDS", 2)
READY_OUTBOX_MAX_AGE_SECONDS = env_int("READY_OUTBOX_MAX_AGE_SECONDS", 300)
READY_CACHE_SECONDS = env_int("READY_CACHE_SECONDS", 1)

# The outbox (matches/outbox.py): a message whose handler has failed this many times is dead, not
# tried again until an operator retries it (manage.py outbox retry); /readyz is degraded meanwhile.
# With the backoff (5 s doubling to a 5 min cap) the 300th and last attempt of the default comes
# about 24.5 hours after the first: no message is given up on because Redis or the broker was down
# over a night. The sweeps that make up for a dead message look back past the latest it can die
# (matches/outbox.py ``outbox_death_horizon``), so raising this widens them. A poisoned message
# costs one attempt every five minutes until then, and /readyz says "degraded" from the backlog's
# age meanwhile.
OUTBOX_MAX_ATTEMPTS = env_int("OUTBOX_MAX_ATTEMPTS", 300)

REDIS_URL = env_str("REDIS_URL", "")
#: Seconds a request waits for its broadcast's sends after its commit (matches/live.py ``run_sends``);
#: past it the outbox keeps the broadcast and its sweeper sends it later.
LIVE_BROADCAST_TIMEOUT = env_int("LIVE_BROADCAST_TIMEOUT", 5)

# How many HTTP requests of one web process run their view code at once (config/asgi.py); the rest
# wait their turn on the event loop. Python runs one thread's code at a time, so past a few the
# extra threads only interleave: raise it when views wait mostly on the database or other services.
WEB_REQUEST_THREADS = env_int("WEB_REQUEST_THREADS", 4)

if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # channels-redis' RedisChannelLayer with one reader per process handing messages to
            # the sockets (matches/layers.py): the same Redis lists, a cheaper hand-over.
            "BACKEND": "matches.layers.SharedReaderRedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        # channels-redis waits for a socket's next message with a blocking pop of
                        # brpop_timeout (5 s) and loops. redis-py 8 defaults socket_timeout to 5 s too,
                        # so every idle wait ended in a TimeoutError that closed the websocket with
                        # 1011 after 5.2 s. The socket timeout must stay above the blocking pop's; it
                        # is still finite, so a Redis that vanished is noticed within it.
                        "socket_timeout": env_int("CHANNELS_SOCKET_TIMEOUT", 30),
                        "socket_connect_timeout": env_int("CHANNELS_CONNECT_TIMEOUT", 5),
                        "socket_keepalive": True,
                        "health_check_interval": 15,
                        # One connection per websocket waits in that blocking pop, so the pool bounds
                        # how many sockets one process can serve (redis-py's default is 100).
                        "max_connections": env_int("CHANNELS_MAX_CONNECTIONS", 1000),
                    }
                ],
                "prefix": env_str("CHANNELS_PREFIX", "wizard-duels"),
                # A socket that vanishes without its disconnect (a killed process, a closed pool
                # that dropped its group_discard) stays a group member until this expiry. The
                # default is a day; group_send then skips it after its channel fills (capacity).
                # Ten minutes bounds the stale entries, and no live socket is hurt: the consumer
                # renews its membership well within it (MatchConsumer.GROUP_RENEW_SECONDS).
                "group_expiry": env_int("CHANNELS_GROUP_EXPIRY", 600),
                "capacity": env_int("CHANNELS_CAPACITY", 200),
                "expiry": 60,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "memory://localhost/")
# Without an explicit broker, tasks run in-process as they are called: a first run needs no worker.
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", CELERY_BROKER_URL.startswith("memory://"))
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# A message a worker took but never acknowledged (acks late: the worker was killed mid-task) goes
# back to the queue after this many seconds. Redis's default is an hour, so a match whose verifier
# died stayed "pending" that long. Every task here is idempotent and takes seconds, so five minutes
# brings a lost one back soon without handing a merely slow one to a second worker.
# Kombu looks for such messages only now and then (a check every 10 s that scans on about one in
# ten), so in practice a lost task returns 300 s plus up to a couple of minutes after it was taken;
# the periodic matches.requeue_unverified task covers anything the broker lost outright.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 300)}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fix-up closes a prefork child's database connection pool before and after every
# task (celery 5.7; celery/celery#10554), so each task opened a new pool: about five PostgreSQL
# sessions a verification, whose start-ups cost PostgreSQL more CPU than the verification cost the
# worker, and two workers verified only 1.1-1.5x as many streams a second as one (issue 17, P7).
# Given a reuse count the fix-up closes them only every that many tasks; between, each task hands
# its connection back to the pool and takes a checked one, as a request does (config/celery.py).
CELERY_DB_REUSE_MAX = env_int("CELERY_DB_REUSE_MAX", 1000)
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True

# Email (Django's mail framework): tournament notifications (league/tournaments/reach/). The embedded
# default prints each message to the console; production names an SMTP server.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Wizard Duels <noreply@localhost>")
# The address links in emails start with (no trailing slash).
SITE_URL = env_str("SITE_URL", "http://localhost:8000").rstrip("/")
# Organisers' webhooks: a URL whose host resolves to a loopback, private, link-local or reserved
# address is refused (it would let anyone make the server call its own network) unless this is true.
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE", False)
WEBHOOKS_TIMEOUT = env_int("WEBHOOKS_TIMEOUT", 10)
WEBHOOKS_MAX_ATTEMPTS = env_int("WEBHOOKS_MAX_ATTEMPTS", 6)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "WARNING")},
}
