"""The project's Celery app as a test's worker subprocess runs it (``celery -A tests.hardening.celery_worker_app``).

Two test-only changes, both from the environment:

- ``WD_TEST_STALL_FILE``: the worker replays a match, then writes its pid to this file and waits
  before recording the verdict, so a test can kill it at a known point in the middle of the task;
- the broker re-checks unacknowledged messages every second (Kombu's default is every ten seconds,
  scanning one call in ten), so a message left by a killed worker comes back as soon as the short
  visibility timeout the test gives (``CELERY_VISIBILITY_TIMEOUT``) has passed.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from config.celery import app

app.conf.broker_transport_options = {
    **(app.conf.broker_transport_options or {}),
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}

STALL_FILE = os.environ.get("WD_TEST_STALL_FILE")

if STALL_FILE:
    import django

    django.setup()
    from matches import verification

    replay = verification.verify_records

    def replay_then_stall(match, records, published):
        verdict = replay(match, records, published)  # the whole replay is done; the verdict is not yet written
        Path(STALL_FILE).write_text(str(os.getpid()))
        time.sleep(3600)
        return verdict

    verification.verify_records = replay_then_stall
