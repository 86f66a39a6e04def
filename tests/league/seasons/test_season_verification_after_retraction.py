"""The season verifier and a recorded result retracted because its match was found disputed:
once retracted the result no longer counts, so the disputed match's published state is no
measure of it; but a retraction excuses only a result of its fixture and match recorded before
it, of a match that really is disputed."""

from __future__ import annotations

import pytest

from league.seasons import services
from league.seasons.models import Fixture
from matches.commands import AT_HEAD
from matches.models import Event, Match
from matches.verification import match_verify
from tests.audit.helpers import alter_event, rehash_stream

from .test_season_audit import forged, organiser, played, result_event, verify_all  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def _published_score_altered(match):
    """The README's demo: the match's published result changed, found on re-verification."""
    altered = dict(match.result)
    altered["scores"] = list(reversed(altered["scores"]))
    if altered["scores"] == match.result["scores"]:
        altered["scores"] = [altered["scores"][0] + 1, altered["scores"][1]]
    Match.objects.filter(pk=match.pk).update(result=altered)


def test_a_season_verifies_after_a_result_whose_match_result_was_altered_is_retracted(
    played,  # noqa: F811
    capsys,
    django_capture_on_commit_callbacks,
):
    season, fixture = played
    match = Match.objects.get(pk=fixture.match_id)
    _published_score_altered(match)
    with django_capture_on_commit_callbacks(execute=True):
        assert not match_verify(match_id=match.id).verified
    assert Event.objects.filter(stream_id=season.stream_id, type="result.retracted").count() == 1
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED and fixture.home_left is None
    out, code = verify_all(capsys, "season")
    assert code == 0, out
    assert "1 verified, 0 disputed. (1 season)" in out


def test_a_result_recorded_again_from_the_disputed_match_after_its_retraction_is_reported(
    played,  # noqa: F811
    capsys,
    django_capture_on_commit_callbacks,
):
    """The retraction covers the result before it, not one recorded after it from the same match."""
    season, fixture = played
    match = Match.objects.get(pk=fixture.match_id)
    recorded = result_event(season)
    _published_score_altered(match)
    with django_capture_on_commit_callbacks(execute=True):
        match_verify(match_id=match.id)
    services._append(season, "result.recorded", dict(recorded.data), "system", expected_seq=AT_HEAD)
    again = Event.objects.filter(stream_id=season.stream_id).order_by("-seq").first()
    fixture.refresh_from_db()
    assert again.type == "result.recorded" and fixture.status == Fixture.Status.PLAYED
    out, code = verify_all(capsys, "season")
    assert code == 2
    assert (
        f"DISPUTED at event {again.seq}: The match behind this result is disputed, not verified, "
        "and the result was never retracted."
    ) in out


def test_a_retraction_does_not_hide_a_forged_score_of_a_match_that_verifies(
    played,  # noqa: F811
    capsys,
):
    """A forger who changes a recorded score, rehashes the chain and appends a retraction: the
    match still verifies, so the score must still agree with it."""
    season, fixture = played
    event = result_event(season)
    alter_event(event, data=forged(event.data))
    rehash_stream(season.stream_id, event.seq)
    services._append(
        season,
        "result.retracted",
        {"fixture": fixture.key, "match": str(fixture.match_id), "reason": "r"},
        "system",
        expected_seq=AT_HEAD,
    )
    assert Match.objects.get(pk=fixture.match_id).verdict == Match.Verdict.VERIFIED
    out, code = verify_all(capsys, "season")
    assert code == 2
    assert f"DISPUTED at event {event.seq}: The score recorded differs" in out


def test_a_retraction_for_another_fixture_does_not_excuse_the_result(
    played,  # noqa: F811
    capsys,
):
    season, fixture = played
    match = Match.objects.get(pk=fixture.match_id)
    _published_score_altered(match)
    Match.objects.filter(pk=match.pk).update(verdict=Match.Verdict.DISPUTED)
    other = season.fixtures.exclude(pk=fixture.pk).first()
    services._append(
        season,
        "result.retracted",
        {"fixture": other.key, "match": str(match.id), "reason": "r"},
        "system",
        expected_seq=AT_HEAD,
    )
    out, code = verify_all(capsys, "season")
    assert code == 2
    assert (
        f"DISPUTED at event {result_event(season).seq}: The match behind this result is disputed, not verified, "
        "and the result was never retracted."
    ) in out
