"""A match found disputed after its season closed. The ruling: a closed season's table is final
(its promotions and relegations have been announced, and the next season is built from them), so
the fixture is not reopened; but nothing is silent: the retraction is still recorded in the
season's stream, and the fixture says "result disputed after the season closed" on every page.
While the season is open a dispute reopens the fixture as before."""

from __future__ import annotations

import uuid
from types import SimpleNamespace

import pytest

from league.seasons import selectors, services
from league.seasons.models import Fixture, Season
from league.seasons.verification import verify_season
from matches.commands import AT_HEAD
from matches.models import Event, Match
from matches.verification import match_verify

from .test_season_audit import organiser, played  # noqa: F401  (fixtures)
from .test_season_verification_after_retraction import _published_score_altered

pytestmark = pytest.mark.django_db

CLOSED_RULING = "Result disputed after the season closed: "


def close(season, by):
    """Every other fixture ruled, then the season closed."""
    for f in season.fixtures.select_related("home", "away").exclude(status=Fixture.Status.PLAYED):
        services.fixture_walkover(fixture=f, user=by, winner=f.home, reason="ruling", expected_seq=AT_HEAD)
    return services.season_close(season=season, user=by, expected_seq=AT_HEAD)


def dispute(fixture, capture):
    match = Match.objects.get(pk=fixture.match_id)
    _published_score_altered(match)
    with capture(execute=True):
        assert not match_verify(match_id=match.id).verified


def retractions(season) -> list[Event]:
    return list(Event.objects.filter(stream_id=season.stream_id, type="result.retracted"))


def test_a_result_disputed_after_the_season_closed_is_recorded_and_shown_but_the_closed_table_is_not_reopened(
    played,  # noqa: F811
    organiser,  # noqa: F811
    django_capture_on_commit_callbacks,
    client,
):
    season, fixture = played
    closing = close(season, organiser)
    table = selectors.season_standings(season=season)
    score = (fixture.home_left, fixture.away_left)

    dispute(fixture, django_capture_on_commit_callbacks)

    [retraction] = retractions(season)
    assert retraction.data["season_closed"] is True and retraction.actor == "system"
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED and (fixture.home_left, fixture.away_left) == score
    assert fixture.ruling.startswith(CLOSED_RULING) and "disputed" in fixture.ruling
    assert selectors.season_standings(season=season) == table
    assert selectors.season_closing(season=season) == closing
    page = client.get(f"/leagues/{season.league.slug}/seasons/{season.number}/").content.decode()
    assert "Result disputed after the season closed" in page
    assert verify_season(Season.objects.get(pk=season.pk).stream).ok

    # The verdict delivered again (a sweep) records nothing more.
    assert services.result_retract(match_id=fixture.match_id) is False
    assert len(retractions(season)) == 1


def test_a_result_disputed_while_the_season_is_open_still_reopens_the_fixture(
    played,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    season, fixture = played
    dispute(fixture, django_capture_on_commit_callbacks)
    [retraction] = retractions(season)
    assert "season_closed" not in retraction.data
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED and fixture.ruling.startswith("Result retracted: ")


def test_the_verifier_disputes_a_retraction_that_claims_a_close_that_had_not_happened(
    played,  # noqa: F811
):
    # Such a fact would keep a disputed result in an open season's table.
    season, fixture = played
    Match.objects.filter(pk=fixture.match_id).update(verdict=Match.Verdict.DISPUTED, verdict_reason="altered")
    data = {"fixture": fixture.key, "match": str(fixture.match_id), "reason": "altered", "season_closed": True}
    services._append(season, "result.retracted", data, "system", expected_seq=AT_HEAD, event_id=uuid.uuid4())
    seq = Event.objects.filter(stream_id=season.stream_id).order_by("-seq").first().seq
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.PLAYED
    verdict = verify_season(Season.objects.get(pk=season.pk).stream)
    assert (verdict.ok, verdict.seq) == (False, seq) and "season had closed, but it had not" in verdict.reason


def fact(seq, type, data, actor="system"):
    return SimpleNamespace(seq=seq, type=type, data=data, actor=actor)


def test_a_forfeit_disputed_after_the_season_closed_keeps_its_walkover_and_says_so():
    fixtures = [{"key": "r1-a-b", "round": 1, "date": "2027-03-01", "division": "", "home": "a", "away": "b"}]
    walkover = {"fixture": "r1-a-b", "winner": "b", "reason": "The A coach resigned the draft.", "draft": "d1"}
    events = [
        fact(1, "fixtures.scheduled", {"fixtures": fixtures}),
        fact(2, "fixture.started", {"fixture": "r1-a-b", "draft": "d1"}, "user:2"),
        fact(3, "fixture.walkover", walkover),
        fact(4, "season.closed", {"final": {"": ["b", "a"]}, "movements": []}, "user:1"),
        fact(5, "result.retracted", {"fixture": "r1-a-b", "match": "d1", "reason": "altered", "season_closed": True}),
    ]
    row = services.season_fold(events)["r1-a-b"]
    assert (row["status"], row["walkover_winner"]) == (Fixture.Status.WALKOVER, "b")
    assert row["ruling"] == f"{CLOSED_RULING}altered"
