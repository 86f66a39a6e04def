"""The beat's backstop for a tournament match's verdict whose follow-up tasks a broker lost (Redis
keeps nothing on disk: a restart drops every queued task). The verdict committed, its outbox
message was delivered (the tasks were queued), and then the tasks were gone: the pairing must
still get its verified result, or lose a result whose match was later found disputed; once,
and never while the follow-ups may still be on their way."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from league.tournaments import services
from league.tournaments.tasks import requeue_tournament_followups
from matches.commands import AT_HEAD
from matches.models import Match

from .helpers import field, open_tournament, state

pytestmark = pytest.mark.django_db


@pytest.fixture
def paired(alice):
    """A knock-out tournament's first pairing with its platform match, and the two players."""
    players = field(2)
    t = open_tournament(alice, "single_elimination", players, start=True)
    out = services.tournament_match_create(tournament=t, pairing="M1", by=players[0], expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"]["M1"]["match_id"])
    return t, match, {s.index: s.user for s in match.seats.all()}


def verdict_whose_followups_were_lost(match: Match, verdict: str, *, ago: timedelta) -> None:
    """The match finished, seat 0 winning, and its verdict recorded ``ago``; no follow-up ran."""
    at = timezone.now() - ago
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED,
        result={"placements": [1, 2], "winners": [0]},
        finished_at=at,
        verdict=verdict,
        verified_at=at,
        verdict_reason="" if verdict == Match.Verdict.VERIFIED else "The published result differs.",
    )


def test_a_verified_pairing_match_whose_followups_were_lost_gets_its_result_once(paired):
    t, match, seats = paired
    verdict_whose_followups_were_lost(match, Match.Verdict.VERIFIED, ago=timedelta(minutes=10))
    assert state(t)["pairings"]["M1"]["status"] == "pending"

    assert requeue_tournament_followups() == 1
    record = state(t)["pairings"]["M1"]
    assert record["status"] == "final" and record["source"] == "match"
    assert record["result"] == {"winner": str(seats[0].pk)}
    # The next sweep finds nothing left to do and appends nothing.
    head = state(t)["seq"]
    assert requeue_tournament_followups() == 0
    assert state(t)["seq"] == head


def test_a_pairing_match_found_disputed_after_its_result_was_recorded_loses_it(paired):
    t, match, _ = paired
    verdict_whose_followups_were_lost(match, Match.Verdict.VERIFIED, ago=timedelta(minutes=30))
    assert services.tournament_record_match(match_id=match.pk) == "recorded"
    assert state(t)["pairings"]["M1"]["status"] == "final"
    # Re-verification found it disputed; the retraction it sent was lost.
    Match.objects.filter(pk=match.pk).update(
        verdict=Match.Verdict.DISPUTED,
        verdict_reason="The published result differs.",
        verified_at=timezone.now() - timedelta(minutes=10),
    )

    assert requeue_tournament_followups() == 1
    record = state(t)["pairings"]["M1"]
    assert record["status"] == "disputed" and record["result"] is None
    assert requeue_tournament_followups() == 0


def test_nothing_is_swept_while_the_followups_may_still_be_on_their_way(paired):
    t, match, _ = paired
    verdict_whose_followups_were_lost(match, Match.Verdict.VERIFIED, ago=timedelta(seconds=30))
    assert requeue_tournament_followups() == 0
    assert state(t)["pairings"]["M1"]["status"] == "pending"
    # Two minutes after the verdict, the sweep takes it.
    assert requeue_tournament_followups(now=timezone.now() + timedelta(minutes=2)) == 1
    assert state(t)["pairings"]["M1"]["status"] == "final"


def test_the_beat_runs_the_sweep_every_minute():
    from config.celery import app

    assert {"task": "tournaments.requeue_followups", "schedule": 60.0} in app.conf.beat_schedule.values()


def test_a_result_whose_match_was_verified_again_after_a_dispute_is_retracted(paired):
    # The dispute's retraction was lost, and the match was verified again before the sweep came
    # round: the newest verdict says verified, but a dispute is final (Match.disputed_at).
    t, match, _ = paired
    verdict_whose_followups_were_lost(match, Match.Verdict.VERIFIED, ago=timedelta(minutes=30))
    assert services.tournament_record_match(match_id=match.pk) == "recorded"
    Match.objects.filter(pk=match.pk).update(
        disputed_at=timezone.now() - timedelta(minutes=20), verified_at=timezone.now() - timedelta(minutes=10)
    )

    assert requeue_tournament_followups() == 1
    record = state(t)["pairings"]["M1"]
    assert record["status"] == "disputed" and record["result"] is None
    assert requeue_tournament_followups() == 0
