"""Real Celery worker processes for the hardening tests, on the test database and the real broker:
the ``broker`` and ``workers`` fixtures (tests/hardening/conftest.py) and what their tests wait with."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
import redis

from config.celery import app
from tests.conftest import database_url

ROOT = Path(__file__).resolve().parents[2]
# The test command always has Redis (REDIS_URL); the broker's visibility timeout is Redis's behaviour.
BROKER = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


@pytest.fixture
def broker():
    """This process publishes to the real broker (tasks not eager), which starts empty."""
    previous = {key: app.conf[key] for key in ("task_always_eager", "broker_url")}
    app.conf.task_always_eager = False
    app.conf.broker_url = BROKER
    reset_broker_connections()
    # Messages and unacknowledged deliveries an earlier, interrupted run left on this broker.
    redis.Redis.from_url(BROKER).delete("celery", "unacked", "unacked_index", "unacked_mutex")
    try:
        yield redis.Redis.from_url(BROKER)
    finally:
        app.conf.update(previous)
        reset_broker_connections()


def reset_broker_connections():
    app.close()
    app.__dict__.pop("amqp", None)  # a cached property holding the producer pool


@pytest.fixture
def workers(tmp_path):
    """Start worker processes on the test database and the broker (``pool``: Celery's, solo by
    default); every one is stopped at the end."""
    started: list[subprocess.Popen] = []

    def start(name: str, pool: str = "solo", **env: str) -> subprocess.Popen:
        full = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": BROKER,
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "CELERY_VISIBILITY_TIMEOUT": "2",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            **env,
        }
        with open(tmp_path / f"{name}.log", "w") as log:  # the child keeps its own copy of the descriptor
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "tests.hardening.celery_worker_app",
                    "worker",
                    f"--pool={pool}",
                    "--concurrency=1",
                    "--without-heartbeat",
                    "--without-gossip",
                    "--without-mingle",
                    "-n",
                    f"{name}@%h",
                    "--loglevel=INFO",
                ],
                cwd=ROOT,
                env=full,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        proc.log_path = tmp_path / f"{name}.log"
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def wait_until(condition, timeout: float, what: str, worker: subprocess.Popen | None = None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        if worker is not None and worker.poll() is not None:
            raise AssertionError(f"the worker exited while waiting for {what}:\n{worker_log(worker)}")
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}" + (f":\n{worker_log(worker)}" if worker else ""))


def worker_log(worker: subprocess.Popen) -> str:
    return Path(worker.log_path).read_text()[-3000:]
