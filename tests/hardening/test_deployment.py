"""Deployment settings come from the environment (issue 15, "Why": no setting for secure cookies,
HSTS, SSL redirect or the proxy header, `check --deploy` warned four times, no CSP)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": "a-production-key-" + "q8Zr2vLx" * 8,
    "ALLOWED_HOSTS": "duels.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://duels.example.org",
    "HTTPS": "true",
    "BEHIND_PROXY": "true",
}


def run_manage(*args: str, env: dict) -> subprocess.CompletedProcess:
    full = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "HTTPS", "BEHIND_PROXY"}}
    full.update(env)
    full["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=full, capture_output=True, text=True, timeout=180
    )


def test_check_deploy_is_clean_with_production_settings_from_the_environment():
    result = run_manage("check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_without_the_production_variables_check_deploy_still_warns():
    # The same check has teeth: a first run's settings are not a deployment's.
    result = run_manage(
        "check", "--deploy", "--fail-level", "WARNING", env={**PRODUCTION, "HTTPS": "false", "BEHIND_PROXY": "false"}
    )
    assert result.returncode != 0
    for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert warning in result.stdout + result.stderr


def test_production_settings_mark_cookies_secure_and_trust_the_proxy_header():
    script = (
        "from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS, s.SECURE_PROXY_SSL_HEADER)"
    )
    result = run_manage("shell", "-c", script, env=PRODUCTION)
    assert result.stdout.strip().splitlines()[-1].split() == [
        "True",
        "True",
        "True",
        "31536000",
        "('HTTP_X_FORWARDED_PROTO',",
        "'https')",
    ], result.stdout + result.stderr


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_and_refuse_framing():
    response = Client().get("/")
    policy = response["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"


def new_server_process(probe: str, **env: str) -> subprocess.CompletedProcess:
    """Runs ``probe`` in a new Python process, as a web process starts (``import config.asgi``);
    it passes when the probe exits with 0."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", **env}
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def test_a_new_server_process_has_its_urls_loaded_before_its_first_request():
    # Left to the first request, loading the URLconf (every view module) took 1.2-1.5 s of it and
    # of the requests arriving with it (the live fan-out benchmark's first round, issue 17 P5).
    probe = (
        "import config.asgi, sys\n"
        "from django.urls import get_resolver\n"
        "sys.exit(0 if get_resolver()._populated and 'matches.api.views' in sys.modules else 3)\n"
    )
    new_server_process(probe)


def test_a_new_server_process_leaves_what_it_loaded_out_of_its_garbage_collections():
    # A full collection walks every tracked object with the GIL held: in daphne with 1,000 sockets
    # that was 230-350 ms, the slowest round of the live fan-out benchmark (issue 17 P5).
    probe = (
        "import gc, sys\n"
        "import config.asgi\n"
        "from django.urls import get_resolver\n"
        "walked = gc.get_objects()\n"
        "loaded = get_resolver().url_patterns\n"
        "frozen = not any(o is loaded for o in walked) and gc.get_freeze_count() > len(walked)\n"
        "sys.exit(0 if frozen and gc.get_threshold()[0] == config.asgi.GC_YOUNG_THRESHOLD > 700 else 3)\n"
    )
    new_server_process(probe)


def test_a_new_worker_process_leaves_what_it_loaded_out_of_its_garbage_collections():
    # A Celery worker (built as ``celery worker`` builds it, not started): the task modules and
    # everything they import are frozen before the pool starts, so a verifier's full collection
    # no longer walks them (240-380 ms -> 2 ms) and prefork's children keep sharing their pages.
    probe = (
        "import gc, sys\n"
        "from config.celery import app\n"
        "from celery.worker import WorkController\n"
        "WorkController(app=app, pool_cls='solo', concurrency=1, without_heartbeat=True,\n"
        "               without_mingle=True, without_gossip=True)\n"
        "import matches.tasks\n"
        "walked = gc.get_objects()\n"
        "loaded = matches.tasks.__dict__\n"
        "frozen = not any(o is loaded for o in walked) and gc.get_freeze_count() > len(walked)\n"
        "sys.exit(0 if frozen else 3)\n"
    )
    new_server_process(probe)


#: Exits 0 when every engine is imported and Wizarding Duels' packs and boards, which a game would
#: load on first use, are loaded and frozen (no garbage collection walks them).
_ENGINE_DATA_FROZEN = (
    "from engines import registry\n"
    "from engines.wizarding_duels import content\n"
    "walked = gc.get_objects()\n"
    "data = [content._LOADED['original-v1'].characters, content._BOARDS['original-v1']]\n"
    "frozen = registry._loaded and not any(o is d for o in walked for d in data)\n"
    "sys.exit(0 if frozen else 3)\n"
)


def test_a_new_server_process_loads_every_engine_and_its_data_before_it_freezes():
    # Left to the first request of a game, the engines' imports and Wizarding Duels' pack and
    # boards were loaded then, as part of that request, and walked by every full collection.
    new_server_process("import gc, sys\nimport config.asgi\n" + _ENGINE_DATA_FROZEN)


def test_a_new_worker_process_loads_every_engine_and_its_data_before_its_pool_forks():
    # Left to each prefork child's first task, every child imported the engines and loaded the
    # data again, each into pages of its own.
    probe = (
        "import gc, sys\n"
        "from config.celery import app\n"
        "from celery.worker import WorkController\n"
        "WorkController(app=app, pool_cls='solo', concurrency=1, without_heartbeat=True,\n"
        "               without_mingle=True, without_gossip=True)\n"
    )
    new_server_process(probe + _ENGINE_DATA_FROZEN)


def test_a_new_server_process_loads_its_urls_without_leaving_their_state_in_its_context():
    # Every task (each socket's) inherits the process's context, and each sync_to_async that
    # returns to a task re-makes there every asgiref Local value the context holds: the 22
    # resolvers' loading flags were ~70 objects kept per open socket for the collector to walk.
    probe = (
        "import contextvars, sys\n"
        "import config.asgi\n"
        "from asgiref.local import _Storage\n"
        "from django.urls import get_resolver\n"
        "held = [v for v in contextvars.copy_context().values() if isinstance(v, _Storage)]\n"
        "sys.exit(0 if get_resolver()._populated and not held else 3)\n"
    )
    new_server_process(probe)


def test_a_new_server_process_starts_with_the_database_and_redis_unreachable():
    # Its warm-up (the URLconf, the collector, the broadcast sender's Redis connections) must
    # neither fail the import nor wait on a service: the sender's connections open in the background.
    probe = "import time\nstarted = time.monotonic()\nimport config.asgi\nprint(time.monotonic() - started)\n"
    done = new_server_process(
        probe, DATABASE_URL="postgresql://postgres@127.0.0.1:1/nowhere", REDIS_URL="redis://127.0.0.1:1/0"
    )
    assert float(done.stdout.split()[-1]) < 30
