"""A whole season's streams verified in one batch leave what verifying them one at a time leaves
(issue 17, P6).

``matches_verify`` records every verdict of a batch in one transaction and sends one
``match.verified_many`` message; the league takes the results, retractions and ratings that
follow in one task. The season's events, fixtures, standings, ratings and rating points, and the
matches' verdicts, must be exactly those of ``match_verify`` per match with its per-verdict
tasks; a disputed match gets no result; a failure leaves nothing half-written and a retry
finishes the job."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction

from league.ratings.models import RatingPoint
from league.seasons import services
from league.seasons.models import Fixture
from matches import outbox
from matches.commands import AT_HEAD
from matches.models import Event, Match, OutboxMessage
from matches.verification import match_verify, matches_verify
from tests.league.seasons.end_state import season_end_state


@pytest.fixture
def played(db, make_user, monkeypatch, django_capture_on_commit_callbacks):
    """An IWDL season of three clubs (six fixtures, a draft and a match each) played by bots
    while no verification task ran (the workers were down): every stream finished, unverified."""
    league = services.league_load_iwdl()
    clubs = list(league.clubs.order_by("slug")[:3])
    season = services.season_create(
        league=league, created_by=make_user("organiser", staff=True), start_date=dt.date(2027, 1, 2), clubs=clubs
    )
    with monkeypatch.context() as workers_down:
        workers_down.setitem(outbox._HANDLERS, "match.verify", lambda payload: None)
        for fixture in season.fixtures.order_by("round", "id"):
            with django_capture_on_commit_callbacks(execute=True):
                services.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)
    fixtures = list(season.fixtures.order_by("round", "id"))
    # A fixture's row names its match once the result lands; until then the match names its draft.
    ids = [str(i) for f in fixtures for i in (f.draft_id, Match.objects.get(origin__draft=str(f.draft_id)).pk)]
    assert len(ids) == 12 and all(ids)
    assert not Match.objects.exclude(verdict=Match.Verdict.PENDING).exists()
    assert not season.fixtures.filter(status=Fixture.Status.PLAYED).exists()
    return season, ids


def after(run, season, capture) -> dict:
    """The end state once ``run`` and everything its commits send have run; then rolled back."""
    with transaction.atomic():
        with capture(execute=True):
            run()
        state = season_end_state(season)
        transaction.set_rollback(True)
    return state


def test_a_season_verified_in_one_batch_ends_as_one_match_at_a_time(played, django_capture_on_commit_callbacks):
    season, ids = played

    def one_at_a_time():
        for match_id in ids:
            assert match_verify(match_id=match_id).verified

    def batch():
        verdicts = matches_verify(match_ids=ids)
        assert list(verdicts) == ids and all(v.verified for v in verdicts.values())

    expected = after(one_at_a_time, season, django_capture_on_commit_callbacks)
    got = after(batch, season, django_capture_on_commit_callbacks)
    assert got == expected
    assert [f[1] for f in got["fixtures"]] == [Fixture.Status.PLAYED] * 6
    assert len(got["points"]) == 2 * 6 and sum(row["played"] for row in got["standings"]) == 12
    assert got["projected_seq"] == len(got["events"])


def test_a_batch_sends_two_messages_for_all_its_verdicts(played, django_capture_on_commit_callbacks):
    season, ids = played
    before = OutboxMessage.objects.order_by("-id").values_list("id", flat=True).first()
    with django_capture_on_commit_callbacks(execute=True):
        matches_verify(match_ids=ids)
    sent = OutboxMessage.objects.filter(id__gt=before).order_by("id")
    topics = list(sent.values_list("topic", flat=True))
    # The verdicts' broadcast and follow-ups, then the one season fact of the six results (its
    # broadcast): not two messages and three tasks per verdict.
    assert topics == ["match.broadcast_many", "match.verified_many", "league.stream_broadcast"]
    assert not sent.filter(delivered_at__isnull=True).exists()
    assert season.fixtures.filter(status=Fixture.Status.PLAYED).count() == 6


def test_a_disputed_match_in_the_batch_gets_no_result_and_no_rating(played, django_capture_on_commit_callbacks):
    season, ids = played
    tampered = Match.objects.get(pk=ids[3])  # the second fixture's match
    Match.objects.filter(pk=tampered.pk).update(result={**tampered.result, "scores": [5, 5]})
    with django_capture_on_commit_callbacks(execute=True):
        verdicts = matches_verify(match_ids=ids)
    assert [v.verified for v in verdicts.values()] == [True] * 3 + [False] + [True] * 8
    assert "result published for the match differs" in verdicts[ids[3]].reason
    fixture = Fixture.objects.get(season=season, draft_id=ids[2])
    assert fixture.status == Fixture.Status.IN_PLAY and fixture.home_left is None
    assert not Event.objects.filter(stream_id=season.stream_id, data__match=str(tampered.pk)).exists()
    assert not RatingPoint.objects.filter(match_id=tampered.pk).exists()
    assert season.fixtures.filter(status=Fixture.Status.PLAYED).count() == 5
    assert RatingPoint.objects.count() == 2 * 5


def test_a_match_found_disputed_on_a_second_batch_loses_its_result_and_rating(
    played, django_capture_on_commit_callbacks
):
    season, ids = played
    with django_capture_on_commit_callbacks(execute=True):
        matches_verify(match_ids=ids)
    tampered = Match.objects.get(pk=ids[1])
    Match.objects.filter(pk=tampered.pk).update(result={**tampered.result, "scores": [5, 5]})
    with django_capture_on_commit_callbacks(execute=True):
        matches_verify(match_ids=ids)
    retracted = Event.objects.get(stream_id=season.stream_id, type="result.retracted")
    assert retracted.data["match"] == str(tampered.pk)
    assert not RatingPoint.objects.filter(match_id=tampered.pk).exists()
    assert RatingPoint.objects.count() == 2 * 5


def test_a_verification_that_fails_mid_batch_records_no_verdict_and_a_retry_finishes(
    played, monkeypatch, django_capture_on_commit_callbacks
):
    from matches import verification

    season, ids = played
    expected = after(lambda: matches_verify(match_ids=ids), season, django_capture_on_commit_callbacks)
    real, seen = verification.verify_records, []

    def breaks_on_the_seventh(match, records, published=None):
        seen.append(match.pk)
        if len(seen) == 7:
            raise ConnectionError("database gone")
        return real(match, records, published)

    monkeypatch.setattr(verification, "verify_records", breaks_on_the_seventh)
    before = OutboxMessage.objects.count()
    with pytest.raises(ConnectionError):
        matches_verify(match_ids=ids)
    assert not Match.objects.exclude(verdict=Match.Verdict.PENDING).exists()
    assert OutboxMessage.objects.count() == before
    monkeypatch.setattr(verification, "verify_records", real)
    assert after(lambda: matches_verify(match_ids=ids), season, django_capture_on_commit_callbacks) == expected


def test_follow_ups_that_fail_leave_no_result_and_the_sweeper_finishes_them(
    played, monkeypatch, django_capture_on_commit_callbacks
):
    from league.ratings import projection

    season, ids = played
    expected = after(lambda: matches_verify(match_ids=ids), season, django_capture_on_commit_callbacks)

    def ratings_down(**kwargs):
        raise ConnectionError("ratings unavailable")

    with monkeypatch.context() as down, django_capture_on_commit_callbacks(execute=True):
        down.setattr(projection, "ratings_apply_many", ratings_down)
        matches_verify(match_ids=ids)
    # The verdicts stand; the results recorded before the ratings failed went back with them.
    assert not Match.objects.exclude(verdict=Match.Verdict.VERIFIED).exists()
    assert not season.fixtures.filter(status=Fixture.Status.PLAYED).exists()
    assert not Event.objects.filter(stream_id=season.stream_id, type="result.recorded").exists()
    pending = OutboxMessage.objects.get(topic="match.verified_many", delivered_at__isnull=True)
    assert "ratings unavailable" in pending.last_error
    with django_capture_on_commit_callbacks(execute=True):
        assert outbox.outbox_deliver(message_id=pending.pk) is True
    assert season_end_state(season) == expected


def test_verifying_an_unknown_match_in_a_batch_records_nothing(played):
    season, ids = played
    with pytest.raises(Match.DoesNotExist, match="nothing was verified"):
        matches_verify(match_ids=[*ids, "00000000-0000-0000-0000-000000000000"])
    assert not Match.objects.exclude(verdict=Match.Verdict.PENDING).exists()


def test_verify_all_takes_a_seasons_finished_matches_in_one_batch(played, django_capture_on_commit_callbacks, capsys):
    from django.core.management import call_command

    from matches.checkpoints.models import StreamAudit

    season, ids = played
    before = OutboxMessage.objects.order_by("-id").values_list("id", flat=True).first()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("verify", all=True)
    assert " 0 disputed." in capsys.readouterr().out
    sent = OutboxMessage.objects.filter(id__gt=before)
    (batch,) = sent.filter(topic="match.verified_many").values_list("payload", flat=True)
    assert sorted(v["match_id"] for v in batch["verdicts"]) == sorted(ids)
    assert not sent.filter(topic="match.verified").exists()
    assert season.fixtures.filter(status=Fixture.Status.PLAYED).count() == 6
    assert RatingPoint.objects.count() == 2 * 6
    streams = Match.objects.filter(pk__in=ids).values_list("stream_id", flat=True)
    assert StreamAudit.objects.filter(stream_id__in=list(streams), ok=True).count() == 12


def test_a_season_queued_a_batch_per_task_ends_as_one_batch_and_so_do_its_batches_out_of_order(
    played, django_capture_on_commit_callbacks
):
    """Workers take a season's streams a batch per task (verify_matches_queue); two workers commit
    their batches in either order. In order they leave exactly what one batch leaves; the other way
    round only the season stream's order of results differs (the ratings rewind for the older
    ones): the same fixtures, standings, verdicts, ratings and rating points."""
    from matches.tasks import verify_matches, verify_matches_queue

    season, ids = played
    expected = after(lambda: matches_verify(match_ids=ids), season, django_capture_on_commit_callbacks)
    assert after(lambda: verify_matches_queue(ids, batch=4), season, django_capture_on_commit_callbacks) == expected

    def last_batch_first():
        for start in reversed(range(0, len(ids), 4)):
            verify_matches.delay(ids[start : start + 4])

    got = after(last_batch_first, season, django_capture_on_commit_callbacks)
    events, expected_events = got.pop("events"), expected.pop("events")
    assert [e[3] for e in events] != [e[3] for e in expected_events]  # the results did land out of order
    assert {e[3]: e[1:] for e in events} == {e[3]: e[1:] for e in expected_events}
    without_seq = [(f[:6] + f[7:]) for f in got.pop("fixtures")]
    assert without_seq == [(f[:6] + f[7:]) for f in expected.pop("fixtures")]
    assert got == expected
