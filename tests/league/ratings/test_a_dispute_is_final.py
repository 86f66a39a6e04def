"""A match found disputed on re-verification loses its result for good: its season retracts it
and never records it again, and the ratings likewise never take it back, even when a later
verification finds the match verified (the tampering undone). The ratings and the standings
then agree about the match, a rebuild gives what the verdicts' follow-ups gave, and the match's
page and API still show an auditor that it was disputed before."""

from __future__ import annotations

import datetime as dt
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from league.ratings.models import Rating, RatingCheckpoint, RatingPoint
from league.ratings.projection import ratings_apply, ratings_rebuild
from league.seasons import services
from league.seasons.models import Fixture
from league.seasons.tasks import requeue_followups
from matches.models import Event, Match
from matches.verification import match_verify, matches_verify
from tests.league.seasons.test_followups_sweep import season, verified_fixture_match  # noqa: F401  (fixtures)
from tests.league.seasons.test_season_audit import organiser, played  # noqa: F401  (fixtures)
from tests.matches.helpers import stored_finished_match

pytestmark = pytest.mark.django_db


def snapshot(game: str):
    return (
        list(Rating.objects.filter(game=game).order_by("competitor").values_list("competitor", "rating", "matches")),
        list(
            RatingPoint.objects.filter(game=game).order_by("sequence", "competitor").values_list("match_id", "rating")
        ),
        RatingCheckpoint.objects.get(game=game).sequence,
    )


def rebuilt(game: str):
    with transaction.atomic():
        ratings_rebuild(game=game)
        state = snapshot(game)
        transaction.set_rollback(True)
    return state


def published_score_altered(match: Match) -> None:
    altered = dict(match.result)
    altered["scores"] = list(reversed(altered["scores"]))
    if altered["scores"] == match.result["scores"]:
        altered["scores"] = [altered["scores"][0] + 1, altered["scores"][1]]
    Match.objects.filter(pk=match.pk).update(result=altered)


@pytest.mark.parametrize("verify", [match_verify, matches_verify], ids=["one verdict", "a batch"])
def test_a_match_put_right_after_a_dispute_stays_out_of_the_ratings_and_the_standings(
    played,  # noqa: F811
    client,
    django_capture_on_commit_callbacks,
    verify,
):
    played_season, fixture = played
    match = Match.objects.get(pk=fixture.match_id)
    honest = dict(match.result)
    assert RatingPoint.objects.filter(match_id=match.pk).exists() and fixture.status == Fixture.Status.PLAYED

    def verified_again() -> str:
        with django_capture_on_commit_callbacks(execute=True):
            verify(match_id=match.pk) if verify is match_verify else verify(match_ids=[match.pk])
        return Match.objects.get(pk=match.pk).verdict

    published_score_altered(match)
    assert verified_again() == Match.Verdict.DISPUTED
    assert not RatingPoint.objects.filter(match_id=match.pk).exists()  # the rating withdrawn
    withdrawn = snapshot(match.game)

    Match.objects.filter(pk=match.pk).update(result=honest)  # the tampering undone
    assert verified_again() == Match.Verdict.VERIFIED
    assert not RatingPoint.objects.filter(match_id=match.pk).exists()  # still not rated
    assert snapshot(match.game) == withdrawn == rebuilt(match.game)
    # The standings agree: the result retracted once and not recorded again.
    fixture.refresh_from_db()
    assert fixture.status != Fixture.Status.PLAYED and fixture.home_left is None
    kinds = list(
        Event.objects.filter(stream_id=played_season.stream_id, type__startswith="result.").values_list(
            "type", flat=True
        )
    )
    assert kinds == ["result.recorded", "result.retracted"]
    # Neither the follow-ups delivered once more nor the beat's sweep put it back.
    assert ratings_apply(match_id=match.pk) is False
    assert requeue_followups(now=timezone.now() + timedelta(minutes=5))["ratings"] == 0
    assert not RatingPoint.objects.filter(match_id=match.pk).exists()

    # The verdict says what the newest verification found; when it was disputed is kept.
    stored = Match.objects.get(pk=match.pk)
    verification = client.get(f"/api/matches/{match.pk}/").json()["verification"]
    assert verification["verdict"] == "verified"
    assert verification["disputed_at"] == stored.disputed_at.isoformat()
    assert stored.disputed_at < stored.verified_at
    page = client.get(f"/matches/{match.pk}/replay/").content.decode()
    assert 'data-testid="disputed-before"' in page


def test_a_match_disputed_before_its_result_was_ever_recorded_is_not_recorded_or_rated_when_put_right(
    season,  # noqa: F811
):
    at = timezone.now() - dt.timedelta(minutes=10)
    match = verified_fixture_match(season, at=at)
    # An earlier verification found it disputed (nothing recorded yet to retract); this one, verified.
    Match.objects.filter(pk=match.pk).update(disputed_at=at - dt.timedelta(hours=1))
    assert services.result_record(match_id=match.pk) is False
    assert ratings_apply(match_id=match.pk) is False
    assert requeue_followups(now=timezone.now()) == {"results": 0, "retracted": 0, "ratings": 0}
    assert not RatingPoint.objects.filter(match_id=match.pk).exists()
    fixture = Fixture.objects.get(season_id=season.pk, key=match.origin["fixture"])
    assert fixture.status == Fixture.Status.IN_PLAY
    assert not Event.objects.filter(stream_id=season.stream_id, type="result.recorded").exists()


def test_a_rebuild_leaves_out_a_match_once_disputed_as_the_incremental_update_does(make_user):
    ann, ben, cyd = make_user("ann"), make_user("ben"), make_user("cyd")
    verified = Match.Verdict.VERIFIED
    game = "wizard-dodgeball"
    first = stored_finished_match(game, result={"placements": [0, 1]}, users=[ann, ben], verdict=verified)
    later = stored_finished_match(game, result={"placements": [1, 0]}, users=[ben, cyd], verdict=verified)
    for m in (first, later):
        ratings_apply(match_id=m.pk)
    Match.objects.filter(pk=first.pk).update(verdict=Match.Verdict.DISPUTED, disputed_at=timezone.now())
    assert ratings_apply(match_id=first.pk) is True  # withdrawn: rewound, the later one replayed
    Match.objects.filter(pk=first.pk).update(verdict=verified)  # put right
    assert ratings_apply(match_id=first.pk) is False
    assert [m for m, _ in snapshot(game)[1]] == [later.pk, later.pk]
    assert snapshot(game) == rebuilt(game)


@pytest.mark.parametrize("verify", [match_verify, matches_verify], ids=["one verdict", "a batch"])
def test_a_result_whose_retraction_was_lost_is_retracted_when_the_match_is_verified_again(
    played,  # noqa: F811
    django_capture_on_commit_callbacks,
    verify,
):
    played_season, fixture = played
    match = Match.objects.get(pk=fixture.match_id)
    honest = dict(match.result)
    published_score_altered(match)
    # The dispute is written, but its follow-ups (the retraction) are lost on their way.
    verify(match_id=match.pk) if verify is match_verify else verify(match_ids=[match.pk])
    assert Match.objects.get(pk=match.pk).disputed_at is not None
    assert Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.PLAYED
    Match.objects.filter(pk=match.pk).update(result=honest)  # the tampering undone
    with django_capture_on_commit_callbacks(execute=True):
        verify(match_id=match.pk) if verify is match_verify else verify(match_ids=[match.pk])
    assert Match.objects.get(pk=match.pk).verdict == Match.Verdict.VERIFIED
    # A dispute is final: the verified verdict's follow-ups retract what the lost one did not.
    fixture.refresh_from_db()
    assert fixture.status != Fixture.Status.PLAYED and fixture.home_left is None
    kinds = list(
        Event.objects.filter(stream_id=played_season.stream_id, type__startswith="result.").values_list(
            "type", flat=True
        )
    )
    assert kinds == ["result.recorded", "result.retracted"]
    # Delivered once more, or swept, nothing more is written.
    with django_capture_on_commit_callbacks(execute=True):
        verify(match_id=match.pk) if verify is match_verify else verify(match_ids=[match.pk])
    requeue_followups(now=timezone.now() + timedelta(minutes=5))
    assert Event.objects.filter(stream_id=played_season.stream_id, type="result.retracted").count() == 1


def test_the_sweep_retracts_a_result_whose_retraction_was_lost_before_a_new_verdict(
    played,  # noqa: F811
):
    played_season, fixture = played
    match = Match.objects.get(pk=fixture.match_id)
    # Found disputed and then verified again, each verdict's follow-ups lost on their way.
    Match.objects.filter(pk=match.pk).update(
        verdict=Match.Verdict.VERIFIED,
        disputed_at=timezone.now() - timedelta(minutes=4),
        verified_at=timezone.now() - timedelta(minutes=3),
    )
    assert requeue_followups(now=timezone.now())["retracted"] == 1
    fixture.refresh_from_db()
    assert fixture.status != Fixture.Status.PLAYED
