"""A message that goes dead is made up for by the sweep its topic names (matches/outbox.py
``if_given_up``); a sweep that looks back over a window must still see the work of a message that
died at the last moment a message can die, or that work is never done. The sweeps' windows
follow OUTBOX_MAX_ATTEMPTS: raise it, and they look back further."""

from __future__ import annotations

import functools
from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from league.drafts.services import hand_off_window
from league.drafts.tasks import hand_off_draft, hand_off_lost_drafts
from league.seasons.models import Fixture
from league.seasons.tasks import followups_window, requeue_followups
from league.tournaments.tasks import requeue_tournament_followups
from matches import outbox, tasks
from matches.models import Match, OutboxMessage
from matches.outbox import outbox_death_horizon, outbox_sweep
from tests.league.drafts.test_lost_hand_offs_sweep import bots_draft, matches_from
from tests.league.seasons.test_followups_sweep import fixture_of, season, verified_fixture_match  # noqa: F401
from tests.league.tournaments.helpers import state
from tests.league.tournaments.test_followups_sweep import paired, verdict_whose_followups_were_lost  # noqa: F401
from tests.matches.helpers import stored_finished_match

pytestmark = pytest.mark.django_db

#: The outbox sweeper's beat (config/celery.py): a due message is tried at most this late.
SWEEPER_BEAT = timedelta(seconds=10)
#: The make-up sweeps' beat: the first of them after a death runs at most this late.
SWEEP_BEAT = timedelta(minutes=1)


def backoff_schedule(attempts: int) -> timedelta:
    """From the first attempt to the last of ``attempts``: 5 s after the first failure, doubled
    after each, never more than five minutes (the outbox's backoff, as its docstring gives it)."""
    return timedelta(seconds=sum(min(300, 5 * 2 ** min(k - 1, 30)) for k in range(1, attempts)))


@functools.cache
def _how_long_a_message_takes_to_die(attempts: int) -> timedelta:
    # Measured once per setting (its 300 sweeps take seconds): every test below takes it.
    message = OutboxMessage.objects.create(topic=TOPIC, payload={}, available_at=timezone.now())
    now = message.created_at
    with mock.patch.dict(outbox._HANDLERS, {TOPIC: _fails}), mock.patch.object(timezone, "now", lambda: now):
        for _ in range(100_000):
            message.refresh_from_db()
            if message.dead_at is not None:
                assert message.attempts == attempts
                return message.dead_at - message.created_at
            now = max(now, message.available_at) + SWEEPER_BEAT
            outbox_sweep(now=now)
    raise AssertionError(f"{message} never went dead")


def how_long_a_message_takes_to_die(settings) -> timedelta:
    """From its writing to its death, for a message every attempt at which fails (its handler
    raises), each one made by the sweeper's first run after its backoff has passed: the outbox's
    own sweeps, the platform's clock moved on to each."""
    return _how_long_a_message_takes_to_die(settings.OUTBOX_MAX_ATTEMPTS)


TOPIC = "test.always_fails"


def _fails(payload: dict) -> None:
    raise RuntimeError("a receiver fell over")


def test_a_message_every_attempt_at_which_fails_dies_within_the_death_horizon(settings):
    settings.OUTBOX_MAX_ATTEMPTS = 300  # the default: its backoff alone spans 24.5 hours
    dies_after = how_long_a_message_takes_to_die(settings)
    assert timedelta(days=1) < dies_after <= outbox_death_horizon()


# The sweeps at the death horizon -----------------------------------------------------------------
# Whatever kept a verdict's follow-ups from being done all along (its message failing, and the sweep
# failing with it) is fixed right after its message went dead: the sweep's next run must redo them.


def test_a_fixture_verdict_whose_message_died_on_the_default_schedule_still_gets_its_result_and_ratings(
    settings,
    season,  # noqa: F811
):
    settings.OUTBOX_MAX_ATTEMPTS = 300
    match = verified_fixture_match(season, at=timezone.now())
    # Its match.verified message was written with the verdict; it went dead at:
    died = match.verified_at + how_long_a_message_takes_to_die(settings)
    assert fixture_of(match).status == Fixture.Status.IN_PLAY

    assert requeue_followups(now=died + SWEEP_BEAT) == {"results": 1, "retracted": 0, "ratings": 1}
    assert fixture_of(match).status == Fixture.Status.PLAYED


def test_a_tournament_verdict_whose_message_died_on_the_default_schedule_still_gets_its_result(
    settings,
    paired,  # noqa: F811
):
    settings.OUTBOX_MAX_ATTEMPTS = 300
    t, match, seats = paired
    verdict_whose_followups_were_lost(match, Match.Verdict.VERIFIED, ago=timedelta(0))
    match.refresh_from_db()
    died = match.verified_at + how_long_a_message_takes_to_die(settings)
    assert state(t)["pairings"]["M1"]["status"] == "pending"

    assert requeue_tournament_followups(now=died + SWEEP_BEAT) == 1
    record = state(t)["pairings"]["M1"]
    assert record["status"] == "final" and record["result"] == {"winner": str(seats[0].pk)}


def test_a_draft_whose_hand_off_message_died_on_the_default_schedule_still_gets_its_match(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.OUTBOX_MAX_ATTEMPTS = 300

    def broker_down(draft_match_id):
        raise ConnectionError("the broker is down")

    monkeypatch.setattr(hand_off_draft, "delay", broker_down)
    draft = bots_draft(django_capture_on_commit_callbacks)
    # Its match.finished message, written as the draft finished, failed then; it went dead at:
    message = OutboxMessage.objects.get(topic="match.finished", payload__match_id=str(draft.draft_match_id))
    assert message.attempts == 1
    died = draft.draft_match.finished_at + how_long_a_message_takes_to_die(settings)
    assert matches_from(draft) == []

    assert hand_off_lost_drafts(now=died + SWEEP_BEAT) == 1
    assert len(matches_from(draft)) == 1


# The windows follow the setting ------------------------------------------------------------------


@pytest.mark.parametrize("window", [followups_window, hand_off_window], ids=["followups", "hand_off"])
@pytest.mark.parametrize("attempts", [300, 1_000, 10_000])
def test_every_windowed_sweep_looks_back_past_the_last_moment_a_message_can_die(settings, window, attempts):
    # However many attempts a message is given, the sweep that makes up for it still runs once
    # after its death with its work in the window: each attempt up to a sweeper's beat late.
    settings.OUTBOX_MAX_ATTEMPTS = attempts
    dies_at_the_latest = backoff_schedule(attempts) + attempts * SWEEPER_BEAT
    assert window() >= dies_at_the_latest + SWEEP_BEAT
    assert window() >= outbox_death_horizon()


def test_the_death_horizon_grows_with_the_attempts_allowed(settings):
    settings.OUTBOX_MAX_ATTEMPTS = 300
    default = outbox_death_horizon()
    assert backoff_schedule(300) < default <= backoff_schedule(300) + timedelta(hours=12)
    settings.OUTBOX_MAX_ATTEMPTS = 600
    assert outbox_death_horizon() - default >= timedelta(seconds=300 * 300)  # 300 more five-minute waits


def test_a_lowered_setting_never_narrows_a_sweep_below_what_a_lost_task_needs(settings):
    # The same sweeps find tasks a broker lost after their message was delivered: a day back for a
    # verdict's follow-ups, a week for a draft's hand-off, however soon messages die.
    settings.OUTBOX_MAX_ATTEMPTS = 1
    assert followups_window() == timedelta(days=1)
    assert hand_off_window() == timedelta(days=7)


def test_a_finished_match_unverified_for_longer_than_any_message_lives_is_still_requeued(monkeypatch):
    # A dead match.verify is made up for by matches.requeue_unverified, which has no window: it
    # takes every finished match still unverified, however old.
    queued = []
    monkeypatch.setattr(tasks, "verify_matches_queue", lambda ids: queued.extend(ids))
    old = stored_finished_match("wizard-dodgeball", result={}, at=timezone.now() - 3 * outbox_death_horizon())
    assert tasks.requeue_unverified() == 1 and queued == [str(old.pk)]


def test_the_sweeps_checked_here_are_every_sweep_a_topic_names_as_its_make_up():
    # A topic that comes to name a sweep (and a window) must be checked here as the ones above are:
    # requeue_followups and tournaments.requeue_followups (followups_window), hand_off_lost_drafts
    # (hand_off_window), requeue_unverified (no window), tournaments.webhooks_retry_due, which
    # takes every pending delivery whose time has come, however old (no window either), and
    # matches.bots_move_stalled, every live match whose bots have waited, however long (none).
    named = {topic for topic, text in outbox._IF_GIVEN_UP.items() if "(every " in text}
    assert named == {
        "match.verify",
        "match.finished",
        "match.verified",
        "match.verified_many",
        "tournament.webhook",
        "match.bots_move",
    }
