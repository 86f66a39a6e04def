"""The pick clock runs out by the database's clock, which stamped the pick its deadline runs from.

A web process compared its own clock with that stamp: a host whose clock ran ahead let anyone's page
call the clock and auto-pick for a coach before their time was up. Needs PostgreSQL (on SQLite the
process clock is the database's).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.utils import timezone

from .test_draft_api import clock, draft_state, events, open_draft

pytestmark = pytest.mark.django_db


def test_a_host_whose_clock_runs_ahead_cannot_run_a_coachs_pick_clock_out_early(alice, bob, client_for, monkeypatch):
    assert connection.vendor == "postgresql", "this test needs PostgreSQL (DATABASE_URL)"
    draft = open_draft(client_for(alice), clock_seconds=30)["id"]
    before = events(draft)
    true_now = timezone.now
    monkeypatch.setattr(timezone, "now", lambda: true_now() + dt.timedelta(minutes=10))

    early = clock(client_for(bob), draft, draft_state(draft).state_seq)
    assert early.status_code == 409 and early.json()["code"] == "clock_running"
    assert events(draft) == before
    # And the room's pages count down by the same clock.
    shown = client_for(alice).get(f"/api/drafts/{draft}/").json()
    assert dt.datetime.fromisoformat(shown["server_time"]) < dt.datetime.fromisoformat(shown["deadline"])
