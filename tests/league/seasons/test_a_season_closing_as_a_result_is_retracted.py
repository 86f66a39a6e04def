"""A close made at the head (AT_HEAD: the platform's own code, not a client's, which sends the head
it read and is refused when it is stale) that races a retraction reopening a fixture. The close
must read what it checks (no fixture left open, not closed already) under the season's lock, the
one its append takes, or it closes a season with a fixture open again and a table missing it."""

from __future__ import annotations

import pytest
from django.utils import timezone

from league.errors import LeagueError
from league.seasons import services
from league.seasons.models import Fixture, Season
from league.seasons.verification import verify_season
from matches.commands import AT_HEAD
from matches.models import Event, Match

from .test_season_audit import organiser, played  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def test_a_close_at_the_head_refuses_a_fixture_a_retraction_reopened_between_its_reads_and_its_lock(
    played,  # noqa: F811
    organiser,  # noqa: F811
    monkeypatch,
):
    season, fixture = played
    other = season.fixtures.select_related("home").exclude(pk=fixture.pk).get()
    services.fixture_walkover(fixture=other, user=organiser, winner=other.home, reason="No show", expected_seq=AT_HEAD)
    Match.objects.filter(pk=fixture.match_id).update(
        verdict=Match.Verdict.DISPUTED, verdict_reason="an altered event", disputed_at=timezone.now()
    )
    # The retraction lands after whatever the close read before taking the season's lock, and
    # before that lock: the close's own command is the next one to run on the stream.
    run = services.command_run
    raced = []

    def retraction_first(**kwargs):
        if not raced:
            raced.append(True)
            assert services.result_retract(match_id=fixture.match_id)
        return run(**kwargs)

    monkeypatch.setattr(services, "command_run", retraction_first)

    with pytest.raises(LeagueError) as refused:
        services.season_close(season=season, user=organiser, expected_seq=AT_HEAD)

    assert raced and (refused.value.code, refused.value.status) == ("season_unfinished", 409)
    assert "1 fixture(s) still to play or rule on." in refused.value.message
    assert not Event.objects.filter(stream_id=season.stream_id, type="season.closed").exists()
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED and fixture.ruling.startswith("Result retracted: ")
    assert verify_season(Season.objects.get(pk=season.pk).stream).ok


def test_two_closes_at_the_head_record_one_close(played, organiser, monkeypatch):  # noqa: F811
    season, fixture = played
    other = season.fixtures.select_related("home").exclude(pk=fixture.pk).get()
    services.fixture_walkover(fixture=other, user=organiser, winner=other.home, reason="No show", expected_seq=AT_HEAD)
    run = services.command_run
    raced = []

    def other_close_first(**kwargs):
        if not raced:
            raced.append(True)
            services.season_close(season=season, user=organiser, expected_seq=AT_HEAD)
        return run(**kwargs)

    monkeypatch.setattr(services, "command_run", other_close_first)

    with pytest.raises(LeagueError) as refused:
        services.season_close(season=season, user=organiser, expected_seq=AT_HEAD)

    assert raced and (refused.value.code, refused.value.status) == ("season_closed", 409)
    assert Event.objects.filter(stream_id=season.stream_id, type="season.closed").count() == 1
