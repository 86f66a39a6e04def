"""A real Celery worker verifies finished matches (ARCHITECTURE.md "Verification")."""

from __future__ import annotations

import gc
import threading
import time

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun

from config.celery import app
from matches.autoplay import autoplay_match
from matches.models import Match


@pytest.fixture
def real_worker(broker):
    """A worker thread in this process consuming from the real broker, tasks no longer eager."""
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
            yield app
    finally:
        # A worker freezes what it loaded at start-up (config/celery.py); this one ran in the test
        # process, whose objects go on being collected as before.
        gc.unfreeze()


@pytest.mark.django_db(transaction=True)
def test_a_finished_match_is_verified_by_a_real_worker(real_worker):
    ran_in = []

    def record(sender=None, **kwargs):
        ran_in.append((sender.name, threading.current_thread() is threading.main_thread()))

    task_postrun.connect(record, weak=False)
    try:
        match = autoplay_match(game="dueling-wizards", seats=2)
        verdict = wait_for_verdict(match)
        # The verdict is written inside the task; task_postrun fires a moment later.
        deadline = time.monotonic() + 30
        while ("matches.verify_match", False) not in ran_in and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        task_postrun.disconnect(record)
    assert verdict == Match.Verdict.VERIFIED
    assert match.verified_at is not None
    # It ran in the worker's thread, having travelled through the broker, not eagerly here
    # (the verified result then queues the league's ratings refresh, also on the worker).
    assert ("matches.verify_match", False) in ran_in
    assert all(not in_main_thread for _, in_main_thread in ran_in)


def wait_for_verdict(match: Match) -> str:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        match.refresh_from_db()
        if match.verdict != Match.Verdict.PENDING:
            break
        time.sleep(0.1)
    return match.verdict
