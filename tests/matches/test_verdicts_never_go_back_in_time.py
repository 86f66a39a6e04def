"""Two verifications of one match that overlap (a task retried, ``verify --all`` beside the task
sent after the match's commit) can write in the opposite order to their reads. The verdict that
stands is the one whose read began later: a run that read the stream before it was tampered
with must not write its "verified" over the "disputed" of a run that read it after, and the
ratings and the standings follow the verdict that stands."""

from __future__ import annotations

import datetime as dt

import pytest

from league.ratings.models import RatingPoint
from league.seasons.models import Fixture
from matches import verification
from matches.models import Event, Match, OutboxMessage
from matches.verification import match_verify, matches_verify
from tests.league.seasons.test_season_audit import organiser, played  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def published_score_altered(match: Match) -> None:
    """A row changed behind the platform's back: the match's published result (the README's demo)."""
    altered = dict(match.result)
    altered["scores"] = list(reversed(altered["scores"]))
    if altered["scores"] == match.result["scores"]:
        altered["scores"] = [altered["scores"][0] + 1, altered["scores"][1]]
    Match.objects.filter(pk=match.pk).update(result=altered)


def verified_messages(match: Match) -> list[OutboxMessage]:
    return [
        m
        for m in OutboxMessage.objects.filter(topic__in=["match.verified", "match.verified_many"]).order_by("pk")
        if m.payload.get("match_id") == str(match.pk)
        or any(v["match_id"] == str(match.pk) for v in m.payload.get("verdicts", ()))
    ]


@pytest.mark.parametrize("stale_run", ["match_verify", "matches_verify"])
def test_a_verdict_read_before_the_stream_was_tampered_with_does_not_overwrite_the_later_dispute(
    played,  # noqa: F811
    monkeypatch,
    django_capture_on_commit_callbacks,
    stale_run,
):
    season, fixture = played
    match = Match.objects.get(pk=fixture.match_id)
    assert RatingPoint.objects.filter(match_id=match.pk).exists()  # verified, recorded and rated
    real_check = verification.matches_check

    def read_then_another_run_overtakes(*, match_ids):
        checked = real_check(match_ids=match_ids)  # run A reads: all is well
        monkeypatch.setattr(verification, "matches_check", real_check)
        published_score_altered(match)
        with django_capture_on_commit_callbacks(execute=True):
            assert not match_verify(match_id=match.pk).verified  # run B reads, writes, follows up
        return checked

    monkeypatch.setattr(verification, "matches_check", read_then_another_run_overtakes)
    before = len(verified_messages(match))
    with django_capture_on_commit_callbacks(execute=True):
        if stale_run == "match_verify":
            found = match_verify(match_id=match.pk)
        else:
            found = matches_verify(match_ids=[match.pk])[str(match.pk)]
    assert found.verified  # what run A saw, as it returns it ...
    match.refresh_from_db()
    assert match.verdict == Match.Verdict.DISPUTED  # ... but the later read's verdict stands
    assert match.disputed_at is not None and match.verified_at == match.disputed_at
    # Run A told nobody of a verdict that never stood; B's dispute had its follow-ups.
    assert len(verified_messages(match)) == before + 1
    assert not RatingPoint.objects.filter(match_id=match.pk).exists()
    fixture.refresh_from_db()
    assert fixture.status != Fixture.Status.PLAYED and fixture.home_left is None
    assert Event.objects.filter(stream_id=season.stream_id, type="result.retracted").count() == 1


def at_instant(monkeypatch, instant: dt.datetime) -> None:
    """Every read from now on begins at ``instant``: two runs whose reads the clock cannot tell apart."""
    real_read = verification._chunk_read

    def read(ids):
        found, _, streams, published = real_read(ids)
        return found, instant, streams, published

    monkeypatch.setattr(verification, "_chunk_read", read)


@pytest.mark.parametrize("dispute_first", [True, False], ids=["dispute written first", "dispute written second"])
def test_of_two_reads_at_the_same_instant_the_dispute_stands(
    played,  # noqa: F811
    monkeypatch,
    django_capture_on_commit_callbacks,
    dispute_first,
):
    _season, fixture = played
    match = Match.objects.get(pk=fixture.match_id)
    # Later than the stored verdict's read, and not ahead of the database's clock, as a read's time
    # never is (a stored time ahead of it is the old code's write time, which any verdict replaces).
    instant = Match.objects.get(pk=match.pk).verified_at + dt.timedelta(microseconds=1)
    at_instant(monkeypatch, instant)
    honest = dict(match.result)
    published_score_altered(match)
    disputed = verification.matches_check(match_ids=[match.pk])
    Match.objects.filter(pk=match.pk).update(result=honest)
    verified = verification.matches_check(match_ids=[match.pk])
    assert verified[str(match.pk)].verdict.verified and not disputed[str(match.pk)].verdict.verified
    # The two runs' writes, in either order, each with what it found (the verdict, not the row).
    for checked in [disputed, verified] if dispute_first else [verified, disputed]:
        monkeypatch.setattr(verification, "matches_check", lambda *, match_ids, checked=checked: checked)
        with django_capture_on_commit_callbacks(execute=True):
            match_verify(match_id=match.pk)
    match.refresh_from_db()
    assert (match.verdict, match.verified_at, match.disputed_at) == (Match.Verdict.DISPUTED, instant, instant)
    assert not RatingPoint.objects.filter(match_id=match.pk).exists()


def test_a_verdict_takes_its_time_from_its_read_not_from_its_write(played, monkeypatch):  # noqa: F811
    _season, fixture = played
    match = Match.objects.get(pk=fixture.match_id)
    checked = verification.matches_check(match_ids=[match.pk])
    read_at = checked[str(match.pk)].read_at
    monkeypatch.setattr(verification, "matches_check", lambda *, match_ids: checked)
    match_verify(match_id=match.pk)
    assert Match.objects.get(pk=match.pk).verified_at == read_at
