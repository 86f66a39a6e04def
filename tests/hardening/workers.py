"""Real Celery worker processes for the hardening tests, on the test database and the real broker
(tests/conftest.py's ``broker``): the ``workers`` fixture (tests/hardening/conftest.py) and what
their tests wait with."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import broker_url, database_url

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def workers(tmp_path):
    """Start worker processes on the test database and the broker (``pool``: Celery's, solo by
    default); every one is stopped at the end."""
    started: list[subprocess.Popen] = []

    def start(name: str, pool: str = "solo", **env: str) -> subprocess.Popen:
        full = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": broker_url(),
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
                # Its own process group, so the end of the test stops a prefork worker's children
                # too: an orphaned child still in a task would keep its database session, and the
                # test database's flush would wait on that session's locks with no end.
                start_new_session=True,
            )
        proc.log_path = tmp_path / f"{name}.log"
        started.append(proc)
        return proc

    yield start
    for proc in started:
        if proc.poll() is None:
            _signal_group(proc, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pass
        # Whatever of the group is left (the main process past its warm shutdown's grace, or a
        # child that outlived a main process the test killed) ends here.
        _signal_group(proc, signal.SIGKILL)
        proc.wait()


def _signal_group(proc: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(proc.pid, sig)
    except ProcessLookupError:
        pass


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
