"""What the organiser may rule on a fixture whose match is being played. Not a postponement: the
fixture could then be started again, and one fixture would have two matches whose results both
land."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from league.errors import LeagueError
from league.seasons import services as season_services
from league.seasons.models import Fixture, Season
from matches.commands import AT_HEAD
from matches.models import Event, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def duels(make_user):
    """A Dueling Wizards league of two clubs (a fixture starts its match at once), one fixture."""
    organiser, ann, ben = make_user("organiser"), make_user("ann"), make_user("ben")
    league = season_services.league_create(slug="duels", name="Duels", game="dueling-wizards", created_by=organiser)
    reds = season_services.club_create(league=league, user=organiser, slug="reds", name="Reds")
    blues = season_services.club_create(league=league, user=organiser, slug="blues", name="Blues")
    season_services.club_coach_add(club=reds, user=organiser, coach=ann)
    season_services.club_coach_add(club=blues, user=organiser, coach=ben)
    season = season_services.season_create(
        league=league, created_by=organiser, start_date=dt.date(2027, 3, 1), double=False
    )
    return season, {"organiser": organiser, "ann": ann, "ben": ben}


def command(client, season, body):
    """A fixture command based on the season's head as last read."""
    fixture = season.fixtures.get()
    return client.post(
        f"/api/leagues/duels/seasons/{season.number}/fixtures/{fixture.key}/",
        {**body, "expected_seq": Season.objects.get(pk=season.pk).projected_seq, "event_id": str(uuid.uuid4())},
        format="json",
    )


def in_play(season, client) -> Match:
    assert command(client, season, {"action": "start"}).status_code == 200
    assert season.fixtures.get().status == Fixture.Status.IN_PLAY
    return Match.objects.get()


def facts(season) -> list[str]:
    return list(Event.objects.filter(stream_id=season.stream_id).values_list("type", flat=True))


def test_a_fixture_in_play_cannot_be_postponed_and_so_is_not_started_twice(duels, client_for):
    season, people = duels
    in_play(season, client_for(people["ann"]))
    before = facts(season)
    refused = command(
        client_for(people["organiser"]), season, {"action": "postpone", "date": "2027-04-01", "reason": "Rain"}
    )
    assert (refused.status_code, refused.json()["code"]) == (409, "fixture_in_play"), refused.json()
    assert "walkover" in refused.json()["detail"]
    assert facts(season) == before and season.fixtures.get().status == Fixture.Status.IN_PLAY
    again = command(client_for(people["ben"]), season, {"action": "start"})
    assert (again.status_code, again.json()["code"]) == (409, "fixture_started")
    assert Match.objects.count() == 1


def test_the_service_refuses_to_postpone_a_fixture_in_play_whatever_the_fixture_it_was_handed_says(duels):
    # A postponement sent at the head (no expected_seq to go stale) by a caller holding the fixture
    # as read before the start: the status is read again under the season's lock.
    season, people = duels
    fixture = season.fixtures.select_related("season__league").get()
    season_services.fixture_start(
        fixture=season.fixtures.select_related("home", "away", "season__league").get(),
        user=people["ann"],
        expected_seq=AT_HEAD,
    )
    before = facts(season)
    with pytest.raises(LeagueError) as refused:
        season_services.fixture_postpone(
            fixture=fixture,
            user=people["organiser"],
            date=dt.date(2027, 4, 1),
            reason="Rain",
            expected_seq=AT_HEAD,
        )
    assert (refused.value.code, refused.value.status) == ("fixture_in_play", 409)
    assert facts(season) == before


def test_a_postponement_retried_after_its_fixture_was_started_is_answered_not_refused(duels, client_for):
    season, people = duels
    organiser = client_for(people["organiser"])
    fixture = season.fixtures.get()
    body = {
        "action": "postpone",
        "date": "2027-04-01",
        "reason": "Rain",
        "expected_seq": Season.objects.get(pk=season.pk).projected_seq,
        "event_id": str(uuid.uuid4()),
    }
    url = f"/api/leagues/duels/seasons/{season.number}/fixtures/{fixture.key}/"
    assert organiser.post(url, body, format="json").status_code == 200
    in_play(season, client_for(people["ann"]))
    retried = organiser.post(url, body, format="json")
    assert retried.status_code == 200, retried.json()
    assert facts(season).count("fixture.postponed") == 1
