"""Verification in batches (issue 17, P6): the beat's requeue hands a backlog of finished matches to
the workers a batch at a time, and one stream that cannot be verified does not hold back the rest of
its batch."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from matches import tasks, verification
from matches.models import Match

from .helpers import fresh

pytestmark = pytest.mark.django_db


def finished_unverified(django_capture_on_commit_callbacks, count: int) -> list[Match]:
    from matches.autoplay import autoplay_match

    matches = []
    for _ in range(count):
        with django_capture_on_commit_callbacks(execute=False):  # their verification never leaves
            matches.append(autoplay_match(game="dueling-wizards", seats=2))
    Match.objects.filter(pk__in=[m.pk for m in matches]).update(finished_at=timezone.now() - timedelta(minutes=5))
    return matches


def test_the_requeue_sends_a_backlog_in_even_batches_and_every_match_gets_its_verdict(
    django_capture_on_commit_callbacks, monkeypatch
):
    matches = finished_unverified(django_capture_on_commit_callbacks, 5)
    monkeypatch.setattr(tasks, "VERIFY_BATCH", 4)
    sent = []
    real = tasks.verify_matches.delay
    monkeypatch.setattr(tasks.verify_matches, "delay", lambda ids: (sent.append(list(ids)), real(ids))[1])
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.requeue_unverified() == 5
    # Even batches: two workers then finish together (not one batch of 4 and one of 1).
    assert [len(batch) for batch in sent] == [3, 2]
    assert sorted(m for batch in sent for m in batch) == sorted(str(m.pk) for m in matches)
    assert {fresh(m).verdict for m in matches} == {Match.Verdict.VERIFIED}
    assert tasks.requeue_unverified() == 0


def test_a_stream_that_cannot_be_verified_sends_its_batch_on_one_by_one_and_fails_alone(
    django_capture_on_commit_callbacks, monkeypatch
):
    good, bad = finished_unverified(django_capture_on_commit_callbacks, 2)
    real_verify = verification.verify_records

    def broken_for_bad(match, records, published=None):
        if match.pk == bad.pk:
            raise KeyError("a replay that crashes on this stream")
        return real_verify(match, records, published)

    monkeypatch.setattr(verification, "verify_records", broken_for_bad)
    queued = []  # what the broker would receive
    monkeypatch.setattr(tasks.verify_match, "delay", lambda match_id: queued.append(match_id))

    assert tasks.verify_matches([str(good.pk), str(bad.pk)]) == 0
    # The batch wrote nothing (all or none) and went on as single matches.
    assert fresh(good).verdict == fresh(bad).verdict == Match.Verdict.PENDING
    assert queued == [str(good.pk), str(bad.pk)]

    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.verify_match.apply(args=(queued[0],)).get() == Match.Verdict.VERIFIED
    with pytest.raises(KeyError):
        tasks.verify_match.apply(args=(queued[1],), throw=True)
    assert fresh(good).verdict == Match.Verdict.VERIFIED
    assert fresh(bad).verdict == Match.Verdict.PENDING


def test_a_batch_that_meets_a_database_outage_is_tried_again_whole_not_split(
    django_capture_on_commit_callbacks, monkeypatch
):
    from celery.exceptions import Retry
    from django.db import OperationalError

    matches = finished_unverified(django_capture_on_commit_callbacks, 2)

    def outage(*, match_ids):
        raise OperationalError("the database went away")

    monkeypatch.setattr(tasks, "matches_verify", outage)
    queued = []
    monkeypatch.setattr(tasks.verify_match, "delay", lambda match_id: queued.append(match_id))
    with pytest.raises(Retry):
        tasks.verify_matches.apply(args=([str(m.pk) for m in matches],), throw=True)
    assert queued == []  # an outage is no reason to go one by one: the retry takes the batch
    assert {fresh(m).verdict for m in matches} == {Match.Verdict.PENDING}


def test_a_batch_queued_again_verifies_only_what_is_still_unverified(django_capture_on_commit_callbacks):
    """The beat requeues every minute whatever is still pending, so a long backlog is queued
    twice; the second batch must not replay (nor follow up again) what the first has done."""
    done, left = finished_unverified(django_capture_on_commit_callbacks, 2)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.verify_matches([str(done.pk)]) == 1
    first = fresh(done).verified_at
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.verify_matches([str(done.pk), str(left.pk)]) == 1
    assert fresh(done).verified_at == first
    assert fresh(left).verdict == Match.Verdict.VERIFIED
