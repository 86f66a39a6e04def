"""Who may start a fixture: any coach of either club or an organiser of the league ("Only the two
coaches or an organiser may start the fixture."), and nobody else, also not by resending a start's
event_id (ids are public: the season's events list them)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from league.seasons import services as season_services
from league.seasons.models import Season
from matches.models import Event, Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def duels(make_user):
    """A Dueling Wizards league (a fixture starts its match at once); the Reds have two coaches."""
    organiser = make_user("organiser")
    ann, ann2, ben = make_user("ann"), make_user("ann2"), make_user("ben")
    league = season_services.league_create(slug="duels", name="Duels", game="dueling-wizards", created_by=organiser)
    reds = season_services.club_create(league=league, user=organiser, slug="reds", name="Reds")
    blues = season_services.club_create(league=league, user=organiser, slug="blues", name="Blues")
    season_services.club_coach_add(club=reds, user=organiser, coach=ann)
    season_services.club_coach_add(club=reds, user=organiser, coach=ann2)
    season_services.club_coach_add(club=blues, user=organiser, coach=ben)
    season = season_services.season_create(
        league=league, created_by=organiser, start_date=dt.date(2027, 3, 1), double=False
    )
    return season, {"organiser": organiser, "ann": ann, "ann2": ann2, "ben": ben}


def start(client, season, event_id=None):
    fixture = season.fixtures.get()
    return client.post(
        f"/api/leagues/duels/seasons/{season.number}/fixtures/{fixture.key}/",
        {
            "action": "start",
            "expected_seq": Season.objects.get(pk=season.pk).projected_seq,
            "event_id": event_id or str(uuid.uuid4()),
        },
        format="json",
    )


def started(season) -> int:
    return Event.objects.filter(stream_id=season.stream_id, type="fixture.started").count()


def seated(match) -> dict[str, str]:
    return {s.user.username: ("home" if s.index == 0 else "away") for s in match.seats.select_related("user")}


def test_the_leagues_organiser_may_start_a_fixture_and_its_first_coaches_play_it(duels, client_for):
    season, people = duels
    answer = start(client_for(people["organiser"]), season)
    assert answer.status_code == 200, answer.json()
    assert started(season) == 1
    fixture = season.fixtures.select_related("home").get()
    home_first = "ann" if fixture.home.slug == "reds" else "ben"
    assert seated(Match.objects.get()) == {home_first: "home", ({"ann", "ben"} - {home_first}).pop(): "away"}


def test_a_clubs_second_coach_may_start_its_fixture_and_plays_for_the_club(duels, client_for):
    season, people = duels
    answer = start(client_for(people["ann2"]), season)
    assert answer.status_code == 200, answer.json()
    assert started(season) == 1
    seats = seated(Match.objects.get())
    assert set(seats) == {"ann2", "ben"}  # the coach who pressed Start plays, not the Reds' first coach


def test_a_stranger_may_not_start_a_fixture_and_nothing_is_written(duels, client_for, make_user):
    season, _people = duels
    answer = start(client_for(make_user("mallory")), season)
    assert (answer.status_code, answer.json()["code"]) == (403, "not_a_coach")
    assert started(season) == 0 and Match.objects.count() == 0


def test_a_stranger_resending_a_coachs_start_event_id_is_refused_not_told_it_was_done(duels, client_for, make_user):
    season, people = duels
    eid = str(uuid.uuid4())
    assert start(client_for(people["ann"]), season, eid).status_code == 200
    answer = start(client_for(make_user("mallory")), season, eid)
    assert (answer.status_code, answer.json()["code"]) == (403, "not_a_coach")
    assert started(season) == 1 and Match.objects.count() == 1


def test_the_other_coach_resending_a_coachs_start_event_id_is_409_event_id_reused(duels, client_for):
    season, people = duels
    eid = str(uuid.uuid4())
    first = start(client_for(people["ann"]), season, eid)
    assert first.status_code == 200
    answer = start(client_for(people["ben"]), season, eid)
    assert (answer.status_code, answer.json()["code"]) == (409, "event_id_reused"), answer.json()
    assert started(season) == 1 and Match.objects.count() == 1
    # The coach who sent it first is still answered with what the first start opened.
    again = start(client_for(people["ann"]), season, eid)
    assert again.status_code == 200 and again.json() == first.json()


def test_the_organiser_may_start_an_iwdl_fixture_whose_draft_seats_the_two_clubs_coaches(make_user):
    # The IWDL's fixtures open a draft, and a draft room is opened by one of its coaches: the
    # organiser who does not play starts it all the same, and the season records who started it.
    organiser, ann, ben = make_user("organiser"), make_user("ann"), make_user("ben")
    league = season_services.league_create(slug="iw", name="IW", game="wizard-dodgeball", created_by=organiser)
    for slug, coach in (("reds", ann), ("blues", ben)):
        club = season_services.club_create(league=league, user=organiser, slug=slug, name=slug.title())
        season_services.club_coach_add(club=club, user=organiser, coach=coach)
    season = season_services.season_create(
        league=league, created_by=organiser, start_date=dt.date(2027, 3, 1), double=False
    )
    fixture = season.fixtures.select_related("home", "away", "season__league").get()
    draft = season_services.fixture_start(
        fixture=fixture,
        user=organiser,
        expected_seq=Season.objects.get(pk=season.pk).projected_seq,
        event_id=uuid.uuid4(),
    )
    assert sorted(s.user.username for s in draft.draft_match.seats.select_related("user")) == ["ann", "ben"]
    [fact] = Event.objects.filter(stream_id=season.stream_id, type="fixture.started")
    assert fact.actor == f"user:{organiser.pk}" and fact.data["draft"] == str(draft.draft_match_id)
