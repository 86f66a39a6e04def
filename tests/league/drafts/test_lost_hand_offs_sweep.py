"""The beat's backstop for a finished draft whose hand-off was lost (its ``match.finished`` outbox
message went dead, or the broker dropped the queued ``league.hand_off_draft``): nothing else makes
its match, so a season fixture drafted that way would wait for ever. The sweep makes it, once,
never while the normal hand-off may still be on its way, and never for a draft that makes none."""

from __future__ import annotations

import logging
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from league.drafts import services as draft_services
from league.drafts.models import Draft
from league.drafts.tasks import hand_off_draft, hand_off_lost_drafts
from matches import services as match_services
from matches.models import Match, OutboxMessage
from matches.services import SeatSpec
from tests.matches.helpers import fresh

pytestmark = pytest.mark.django_db

#: Well past the grace in which the normal hand-off may still be on its way.
LATER = timedelta(minutes=5)


@pytest.fixture
def broker_loses_hand_offs(monkeypatch):
    """Every ``league.hand_off_draft`` queued is lost: the draft finishes, its match is never made."""
    monkeypatch.setattr(hand_off_draft, "delay", lambda draft_match_id: None)


def bots_draft(capture, *, coaches: int = 2) -> Draft:
    """A draft between bots, played to its end (the bots pick as the clock would)."""
    with capture(execute=True):
        draft = draft_services.draft_create(
            seats=[SeatSpec(bot="auto")] * coaches,
            created_by=None,
            config={"format": "schoolyard" if coaches == 2 else "tournament"},
        )
    assert fresh(draft.draft_match).status == Match.Status.FINISHED
    return Draft.objects.get(pk=draft.pk)


def matches_from(draft: Draft) -> list[Match]:
    return list(Match.objects.filter(origin__draft=str(draft.draft_match_id)))


def sweep(**kwargs) -> int:
    return hand_off_lost_drafts(now=timezone.now() + LATER, **kwargs)


def test_a_finished_draft_whose_hand_off_the_broker_lost_gets_its_match_from_the_sweep_once(
    broker_loses_hand_offs, django_capture_on_commit_callbacks
):
    draft = bots_draft(django_capture_on_commit_callbacks)
    assert draft.match is None and matches_from(draft) == []

    assert sweep() == 1
    made = matches_from(draft)
    assert len(made) == 1 and made[0].game == "wizard-dodgeball"
    assert Draft.objects.get(pk=draft.pk).match_id == made[0].pk
    # The teams drafted are the teams that play.
    teams = fresh(draft.draft_match).result["teams"]
    assert [t["wizards"] for t in made[0].config["teams"]] == [t["wizards"] for t in teams]
    # Found again by the next sweep? No: its match is made, nothing is made twice.
    assert sweep() == 0
    assert len(matches_from(draft)) == 1


def test_a_finished_draft_whose_hand_off_message_went_dead_gets_its_match_from_the_sweep(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.OUTBOX_MAX_ATTEMPTS = 1

    def broker_down(draft_match_id):
        raise ConnectionError("the broker is down")

    monkeypatch.setattr(hand_off_draft, "delay", broker_down)
    draft = bots_draft(django_capture_on_commit_callbacks)
    dead = OutboxMessage.objects.get(topic="match.finished", payload__match_id=str(draft.draft_match_id))
    assert dead.dead_at is not None and draft.match is None

    assert sweep() == 1
    assert len(matches_from(draft)) == 1 and Draft.objects.get(pk=draft.pk).match is not None


def test_a_draft_handed_off_the_normal_way_is_not_handed_off_again(django_capture_on_commit_callbacks):
    draft = bots_draft(django_capture_on_commit_callbacks)
    assert draft.match is not None
    assert sweep() == 0
    assert matches_from(draft) == [draft.match]


def test_nothing_is_swept_while_the_normal_hand_off_may_still_be_on_its_way(
    broker_loses_hand_offs, django_capture_on_commit_callbacks
):
    draft = bots_draft(django_capture_on_commit_callbacks)
    assert hand_off_lost_drafts() == 0
    assert matches_from(draft) == []
    # Two minutes after the draft ended, the sweep takes it.
    assert hand_off_lost_drafts(now=timezone.now() + timedelta(minutes=2)) == 1


def test_a_resigned_draft_and_an_unfinished_one_are_left_alone(alice, bob, carol, broker_loses_hand_offs):
    resigned = draft_services.draft_create(seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
    match_services.match_resign(
        match_id=resigned.draft_match_id, user=bob, expected_seq=fresh(resigned.draft_match).state_seq
    )
    assert fresh(resigned.draft_match).status == Match.Status.FINISHED
    unfinished = draft_services.draft_create(seats=[SeatSpec(user=alice), SeatSpec(user=carol)], created_by=alice)

    assert sweep() == 0
    for draft in (resigned, unfinished):
        assert Draft.objects.get(pk=draft.pk).match is None and matches_from(draft) == []


def test_a_draft_that_makes_no_match_does_not_hold_back_a_lost_hand_off_behind_it(
    alice, bob, broker_loses_hand_offs, django_capture_on_commit_callbacks
):
    # The sweep takes the oldest first, a batch at a time: resigned drafts ahead of a lost
    # hand-off must not fill every batch, minute after minute.
    for _ in range(3):
        resigned = draft_services.draft_create(seats=[SeatSpec(user=alice), SeatSpec(user=bob)], created_by=alice)
        match_services.match_resign(
            match_id=resigned.draft_match_id, user=bob, expected_seq=fresh(resigned.draft_match).state_seq
        )
    lost = bots_draft(django_capture_on_commit_callbacks)

    assert sweep(batch=2) == 1
    assert len(matches_from(lost)) == 1


def test_a_draft_that_hands_off_nothing_is_left_alone(broker_loses_hand_offs, django_capture_on_commit_callbacks):
    # A draft of four coaches: its teams meet in a tournament's pairings, not in one match.
    draft = bots_draft(django_capture_on_commit_callbacks, coaches=4)
    assert draft.hand_off is False
    assert sweep() == 0
    assert matches_from(draft) == []


def test_a_sweep_hands_off_a_batch_at_a_time_oldest_first(broker_loses_hand_offs, django_capture_on_commit_callbacks):
    drafts = [bots_draft(django_capture_on_commit_callbacks) for _ in range(3)]
    assert sweep(batch=2) == 2
    assert [Draft.objects.get(pk=d.pk).match_id is not None for d in drafts] == [True, True, False]
    assert sweep(batch=2) == 1
    assert all(Draft.objects.get(pk=d.pk).match_id is not None for d in drafts)


def test_the_beat_runs_the_sweep_every_minute():
    from config.celery import app

    assert {"task": "league.hand_off_lost_drafts", "schedule": 60.0} in app.conf.beat_schedule.values()


def wait_until(condition, *, seconds: float = 10.0) -> None:
    """Polls ``condition`` (what another thread has reached) until it holds, or fails."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.01)


def someone_waits_on_a_row_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


@pytest.fixture
def held_hand_off(monkeypatch):
    """The first hand-off to reach ``match_create`` stops there, the draft's row locked, until
    released: what a second sweeper or the normal task meets in the meantime."""
    inside, release = threading.Event(), threading.Event()
    create = draft_services.match_services.match_create
    calls = []

    def held(**kwargs):
        calls.append(kwargs)
        if len(calls) == 1:
            inside.set()
            assert release.wait(10)
        return create(**kwargs)

    monkeypatch.setattr(draft_services.match_services, "match_create", held)
    return inside, release


def in_thread(fn, results: dict, key: str) -> threading.Thread:
    def run():
        try:
            results[key] = fn()
        except Exception as exc:  # the test reports it
            results[key] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.django_db(transaction=True)
def test_two_sweeps_at_once_make_one_match(broker_loses_hand_offs, held_hand_off, django_capture_on_commit_callbacks):
    draft = bots_draft(django_capture_on_commit_callbacks)
    inside, release = held_hand_off
    results: dict = {}
    first = in_thread(sweep, results, "first")
    assert inside.wait(10)
    # The second sweep finds the same draft still without a match while the first makes it.
    second = in_thread(sweep, results, "second")
    wait_until(lambda: "second" in results or someone_waits_on_a_row_lock())
    release.set()
    first.join(10)
    second.join(10)
    assert (results["first"], results["second"]) == (1, 0)
    assert len(matches_from(draft)) == 1


@pytest.mark.django_db(transaction=True)
def test_a_sweep_and_the_late_normal_hand_off_at_once_make_one_match(
    broker_loses_hand_offs, held_hand_off, django_capture_on_commit_callbacks
):
    draft = bots_draft(django_capture_on_commit_callbacks)
    inside, release = held_hand_off
    results: dict = {}
    swept = in_thread(sweep, results, "sweep")
    assert inside.wait(10)
    # The queued task arrives late, while the sweep is making the match: it waits for the draft's
    # row, then finds the match made.
    task = in_thread(lambda: hand_off_draft(str(draft.draft_match_id)), results, "task")
    wait_until(lambda: "task" in results or someone_waits_on_a_row_lock())
    release.set()
    swept.join(10)
    task.join(10)
    made = matches_from(draft)
    assert results["sweep"] == 1 and len(made) == 1
    assert results["task"] == str(made[0].pk)


@pytest.mark.django_db(transaction=True)
def test_a_hand_off_does_not_wait_behind_a_write_to_the_finished_draft_match(
    broker_loses_hand_offs, django_capture_on_commit_callbacks
):
    # The verifier writes its verdict to the draft match's row; the hand-off reads that row but
    # changes only the draft's, so it must not queue behind the verdict's transaction.
    draft = bots_draft(django_capture_on_commit_callbacks)
    holding, release = threading.Event(), threading.Event()

    def verifier_writing():
        from django.db import connections, transaction

        try:
            with transaction.atomic():
                Match.objects.select_for_update().get(pk=draft.draft_match_id)
                holding.set()
                release.wait(30)
        finally:
            connections.close_all()

    other = threading.Thread(target=verifier_writing)
    other.start()
    try:
        assert holding.wait(30)
        done: list = []

        def handing_off():
            from django.db import connections

            try:
                done.append(draft_services.draft_hand_off(draft_match_id=draft.draft_match_id))
            finally:
                connections.close_all()

        hand_off = threading.Thread(target=handing_off)
        hand_off.start()
        hand_off.join(20)
        assert done and done[0] is not None, "the hand-off waited for the draft match's row"
    finally:
        release.set()
        other.join(30)
    assert len(matches_from(draft)) == 1


@pytest.fixture
def match_creation_refused(monkeypatch):
    """Making the match of the drafts named in the returned set fails every time (a bad config, a
    bug): a permanent failure the sweep meets again each time it tries."""
    refused: set[str] = set()
    create = draft_services.match_services.match_create

    def refusing(**kwargs):
        if kwargs["origin"]["draft"] in refused:
            raise ValueError("the drafted teams make no valid Wizard Dodgeball config")
        return create(**kwargs)

    monkeypatch.setattr(draft_services.match_services, "match_create", refusing)
    return refused


def test_a_draft_whose_match_can_never_be_made_does_not_hold_back_a_lost_hand_off_behind_it(
    broker_loses_hand_offs, match_creation_refused, django_capture_on_commit_callbacks
):
    broken = bots_draft(django_capture_on_commit_callbacks)
    match_creation_refused.add(str(broken.draft_match_id))
    lost = bots_draft(django_capture_on_commit_callbacks)

    assert sweep(batch=1) == 0  # the oldest, which fails
    # The next minute's sweep takes the one behind it, not the same failure again.
    assert hand_off_lost_drafts(now=timezone.now() + LATER + timedelta(minutes=1), batch=1) == 1
    assert len(matches_from(lost)) == 1 and matches_from(broken) == []


def test_a_draft_whose_match_can_never_be_made_is_tried_and_logged_less_and_less_often(
    broker_loses_hand_offs, match_creation_refused, django_capture_on_commit_callbacks, caplog
):
    broken = bots_draft(django_capture_on_commit_callbacks)
    match_creation_refused.add(str(broken.draft_match_id))
    start = timezone.now() + LATER
    with caplog.at_level(logging.WARNING, logger="league.drafts.services"):
        for minute in range(120):  # two hours of the beat's sweeps
            assert hand_off_lost_drafts(now=start + timedelta(minutes=minute)) == 0
    told = [r for r in caplog.records if r.name == "league.drafts.services" and "hand-off" in r.getMessage()]
    # Not 120 tracebacks: tried again after 5, 10, 20 ... minutes, at most an hour apart.
    assert 1 < len(told) <= 8, len(told)
    assert told[0].exc_info is not None  # the first says what failed and where
    assert "the drafted teams make no valid" in told[-1].getMessage()
    # It is still tried: once its cause is fixed, the next try makes its match.
    match_creation_refused.clear()
    assert hand_off_lost_drafts(now=start + timedelta(hours=3)) == 1
    assert len(matches_from(broken)) == 1
