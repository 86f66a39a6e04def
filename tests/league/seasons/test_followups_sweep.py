"""The beat's backstop for a verdict's follow-ups a broker lost (Redis keeps nothing on disk):
a verified fixture match still in play gets its result, a disputed one loses the result it had,
and the ratings take in (or give back) the match; once, and never while the follow-ups may still
be on their way."""

from __future__ import annotations

import datetime as dt
from datetime import timedelta

import pytest
from django.utils import timezone

from league.drafts.models import Draft
from league.ratings.models import RatingPoint
from league.ratings.projection import ratings_apply
from league.seasons import services
from league.seasons.models import Fixture
from league.seasons.tasks import record_result, requeue_followups
from matches.commands import AT_HEAD
from matches.models import Event, Match, Stream
from tests.matches.helpers import stored_finished_match

pytestmark = pytest.mark.django_db

NOTHING = {"results": 0, "retracted": 0, "ratings": 0}


@pytest.fixture
def season(make_user):
    league = services.league_load_iwdl()
    organiser = make_user("organiser", staff=True)
    clubs = list(league.clubs.order_by("slug")[:4])
    return services.season_create(league=league, created_by=organiser, start_date=dt.date(2027, 1, 2), clubs=clubs)


def verified_fixture_match(season, *, at) -> Match:
    """A fixture's match, finished and verified at ``at``, whose follow-up tasks never ran."""
    fixture = season.fixtures.select_related("home", "away").order_by("round", "key").first()
    match = stored_finished_match(
        "wizard-dodgeball",
        result={"placements": [0, 1], "scores": [3, 0]},
        verdict=Match.Verdict.VERIFIED,
        at=at,
        verified_at=at,
        head_hash="2" * 64,
        origin={
            "season": str(season.pk),
            "fixture": fixture.key,
            "fixture_clubs": [fixture.home.slug, fixture.away.slug],
        },
    )
    services._append(
        season, "fixture.started", {"fixture": fixture.key, "match": str(match.pk)}, "system", expected_seq=AT_HEAD
    )
    return match


def fixture_of(match) -> Fixture:
    return Fixture.objects.get(season_id=int(match.origin["season"]), key=match.origin["fixture"])


def test_a_verdict_whose_followups_were_lost_gets_its_result_and_ratings_once(season):
    at = timezone.now() - timedelta(minutes=10)
    match = verified_fixture_match(season, at=at)
    assert fixture_of(match).status == Fixture.Status.IN_PLAY
    assert not RatingPoint.objects.filter(match_id=match.pk).exists()

    assert requeue_followups() == {"results": 1, "retracted": 0, "ratings": 1}
    fixture = fixture_of(match)
    assert fixture.status == Fixture.Status.PLAYED and fixture.result_seq is not None
    assert RatingPoint.objects.filter(match_id=match.pk).count() == 2
    # Found again by the next sweep? No: nothing left to do, nothing appended twice.
    head = Stream.objects.get(pk=season.stream_id).head_seq
    assert requeue_followups() == NOTHING
    assert Stream.objects.get(pk=season.stream_id).head_seq == head


def test_nothing_is_swept_while_the_followups_may_still_be_on_their_way(season):
    match = verified_fixture_match(season, at=timezone.now() - timedelta(seconds=30))
    assert requeue_followups() == NOTHING
    assert fixture_of(match).status == Fixture.Status.IN_PLAY
    # Two minutes after the verdict, the sweep takes it.
    assert requeue_followups(now=timezone.now() + timedelta(minutes=2))["results"] == 1


def test_a_match_found_disputed_after_its_result_was_recorded_loses_it_and_its_ratings(season):
    at = timezone.now() - timedelta(minutes=10)
    match = verified_fixture_match(season, at=at)
    services.result_record(match_id=match.pk)
    ratings_apply(match_id=match.pk)
    assert RatingPoint.objects.filter(match_id=match.pk).exists()
    # Re-verification found it disputed; the retraction and the ratings' rewind were lost.
    Match.objects.filter(pk=match.pk).update(verdict=Match.Verdict.DISPUTED, verified_at=at + timedelta(minutes=1))

    assert requeue_followups() == {"results": 0, "retracted": 1, "ratings": 1}
    assert not RatingPoint.objects.filter(match_id=match.pk).exists()
    assert Event.objects.filter(stream_id=season.stream_id, type="result.retracted").count() == 1
    assert requeue_followups() == NOTHING


def test_a_drafted_fixtures_match_whose_result_task_was_lost_gets_its_result(
    season, monkeypatch, django_capture_on_commit_callbacks
):
    # An IWDL fixture starts a draft, not a match: the fixture names its draft, and the match the
    # draft hands off to only once its result lands. The sweep found lost results through the
    # fixture's match, so such a fixture stayed in play for good.
    monkeypatch.setattr(record_result, "delay", lambda match_id: None)  # the broker loses it
    fixture = season.fixtures.select_related("home", "away", "season__league").order_by("round", "key").first()
    with django_capture_on_commit_callbacks(execute=True):
        draft = services.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)
    match = Draft.objects.get(pk=draft.pk).match
    assert match.verdict == Match.Verdict.VERIFIED
    assert Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.IN_PLAY

    later = match.verified_at + timedelta(minutes=5)
    assert requeue_followups(now=later)["results"] == 1
    played = Fixture.objects.get(pk=fixture.pk)
    assert (played.status, played.match_id) == (Fixture.Status.PLAYED, match.pk)
    assert requeue_followups(now=later)["results"] == 0


def test_a_match_whose_ratings_fail_holds_back_no_other_verdict(make_user, monkeypatch):
    # Two verified friendlies between people whose rating tasks were lost; the first one's
    # ratings raise (a bug, bad data): the second is still brought in, and the sweep returns.
    ann, ben = make_user("ann"), make_user("ben")
    at = timezone.now() - timedelta(minutes=10)
    broken, fine = (
        stored_finished_match(
            "dueling-wizards",
            result={"placements": [0, 1]},
            users=[ann, ben],
            verdict=Match.Verdict.VERIFIED,
            at=at + timedelta(seconds=i),
            verified_at=at + timedelta(seconds=i),
        )
        for i in range(2)
    )
    from league.seasons import tasks

    def ratings_apply(*, match_id):
        if match_id == broken.pk:
            raise KeyError("a seat the placements name")
        return real(match_id=match_id)

    def ratings_apply_many(*, match_ids):  # the batch holds the broken match: it fails as a whole
        raise KeyError("a seat the placements name")

    real = tasks.ratings_apply
    monkeypatch.setattr(tasks, "ratings_apply", ratings_apply)
    monkeypatch.setattr(tasks, "ratings_apply_many", ratings_apply_many)
    assert requeue_followups()["ratings"] == 1
    assert RatingPoint.objects.filter(match_id=fine.pk).count() == 2
    assert not RatingPoint.objects.filter(match_id=broken.pk).exists()


def test_the_sweep_brings_many_lost_ratings_in_at_once_as_one_at_a_time_would(make_user):
    ann, ben, cyd = make_user("ann"), make_user("ben"), make_user("cyd")
    at = timezone.now() - timedelta(minutes=10)
    lost = [
        stored_finished_match(
            "dueling-wizards",
            result={"placements": [0, 1] if i % 2 else [1, 0]},
            users=pair,
            verdict=Match.Verdict.VERIFIED,
            at=at + timedelta(seconds=i),
            verified_at=at + timedelta(seconds=i),
        )
        for i, pair in enumerate([(ann, ben), (ben, cyd), (cyd, ann), (ann, ben)])
    ]
    from django.db import transaction

    fields = ("competitor", "match_id", "sequence", "rating", "deviation", "volatility")
    with transaction.atomic():
        for match in lost:
            ratings_apply(match_id=match.pk)
        expected = list(RatingPoint.objects.order_by("sequence", "competitor").values_list(*fields))
        transaction.set_rollback(True)
    assert requeue_followups()["ratings"] == 4
    assert list(RatingPoint.objects.order_by("sequence", "competitor").values_list(*fields)) == expected
