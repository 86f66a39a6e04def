"""A verification that meets a database outage asks to be tried again, not left for the sweep."""

from __future__ import annotations

import pytest
from celery.exceptions import Retry
from django.db import InterfaceError, OperationalError

from matches import tasks


def _failing_with(monkeypatch, error):
    calls = []

    def verify(*, match_id):
        calls.append(match_id)
        raise error("server closed the connection unexpectedly")

    monkeypatch.setattr(tasks, "match_verify", verify)
    return calls


@pytest.mark.parametrize("error", [OperationalError, InterfaceError])
def test_a_verification_that_loses_its_database_connection_is_sent_again(monkeypatch, error):
    calls = _failing_with(monkeypatch, error)
    # Eagerly (tests propagate errors) the retry a worker would queue after its backoff is raised.
    with pytest.raises(Retry):
        tasks.verify_match.apply(args=["m1"], throw=True)
    assert calls == ["m1"]


def test_a_verification_that_fails_for_another_reason_is_not_retried(monkeypatch):
    _failing_with(monkeypatch, ValueError)
    with pytest.raises(ValueError):
        tasks.verify_match.apply(args=["m1"], throw=True)
