"""A season whose schedule cannot be made is refused with a stable code and a sentence, from the
API, the service and the new-season page alike, and nothing is written: a last round past the
calendar's end (31 December 9999), a club listed twice, a division of one club, more clubs than a
season holds (however the clubs are chosen)."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.test import Client

from league.errors import LeagueError
from league.seasons import services as season_services
from league.seasons.models import Club, Fixture, Season
from matches.models import Event, Stream

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(alice):
    league = season_services.league_create(slug="duels", name="Duels", game="dueling-wizards", created_by=alice)
    for slug in ("reds", "blues", "greens"):
        season_services.club_create(league=league, user=alice, slug=slug, name=slug.title())
    return league


def written():
    return Event.objects.count(), Stream.objects.count(), Season.objects.count(), Fixture.objects.count()


@pytest.mark.parametrize(
    "body, code",
    [
        ({"start_date": "9999-12-31"}, "dates_out_of_range"),
        ({"start_date": "9999-12-01", "days_between_rounds": 60, "double": False}, "dates_out_of_range"),
        ({"start_date": "2027-01-01", "clubs": ["reds", "reds"]}, "club_listed_twice"),
        (
            # No promotions or relegations, so only the division's size is wrong.
            {
                "start_date": "2027-01-01",
                "divisions": {"a": ["reds", "blues"], "b": ["greens"]},
                "promote": 0,
                "relegate": 0,
            },
            "division_too_small",
        ),
    ],
    ids=["last-round-after-9999", "sixty-days-apart-after-9999", "club-twice", "one-club-division"],
)
def test_a_season_the_api_cannot_schedule_is_400_with_its_code_and_writes_nothing(
    alice, client_for, league, body, code
):
    before = written()
    client = client_for(alice)
    client.raise_request_exception = False
    answer = client.post("/api/leagues/duels/seasons/", {**body, "event_id": str(uuid.uuid4())}, format="json")
    assert answer.status_code == 400, answer.content[:300]
    assert answer.json()["code"] == code and answer.json()["detail"]
    assert written() == before


def test_a_season_of_every_club_of_a_league_of_257_is_400_too_many_clubs_and_writes_nothing(alice, client_for):
    # Leaving out the list takes every club of the league, and any signed-in user may start a
    # league and add clubs to it: 257 clubs would be 32,896 fixtures scheduled in one event.
    league = season_services.league_create(slug="big", name="Big", game="dueling-wizards", created_by=alice)
    Club.objects.bulk_create(
        Club(league=league, slug=f"c{i:03d}", name=f"Club {i}", colours=["#000000", "#ffffff"]) for i in range(257)
    )
    before = written()
    answer = client_for(alice).post(
        "/api/leagues/big/seasons/",
        {"start_date": "2027-01-04", "double": False, "event_id": str(uuid.uuid4())},
        format="json",
    )
    assert (answer.status_code, answer.json()["code"]) == (400, "too_many_clubs"), answer.json()
    assert str(season_services.MAX_SEASON_CLUBS) in answer.json()["detail"]
    assert written() == before
    # Listed, the same clubs are refused as before, by the same bound.
    listed = client_for(alice).post(
        "/api/leagues/big/seasons/",
        {"start_date": "2027-01-04", "double": False, "clubs": [f"c{i:03d}" for i in range(257)]},
        format="json",
    )
    assert listed.status_code == 400 and "clubs" in listed.json()["fields"]
    assert written() == before


def test_a_season_may_have_as_many_clubs_as_the_bound_and_not_one_more(alice, league, monkeypatch):
    # The bound lowered to the fixture's three clubs: 256 would schedule 32,640 fixtures per run.
    monkeypatch.setattr(season_services, "MAX_SEASON_CLUBS", 3)
    season = season_services.season_create(league=league, created_by=alice, start_date=dt.date(2027, 1, 4))
    assert len(season.config["clubs"]) == 3
    season_services.club_create(league=league, user=alice, slug="golds", name="Golds")
    before = written()
    with pytest.raises(LeagueError) as refused:
        season_services.season_create(league=league, created_by=alice, start_date=dt.date(2027, 1, 4))
    assert refused.value.code == "too_many_clubs" and "at most 3 clubs" in refused.value.message
    assert written() == before


def test_the_service_refuses_a_division_of_one_club_naming_it(alice, league):
    clubs = list(league.clubs.order_by("slug"))
    with pytest.raises(LeagueError) as refused:
        season_services.season_create(
            league=league,
            created_by=alice,
            start_date=dt.date(2027, 1, 1),
            clubs=clubs,
            divisions={"Premier": ["blues", "greens"], "Second": ["reds"]},
            movements={"promote": 0, "relegate": 0},
        )
    assert refused.value.code == "division_too_small" and "Second" in refused.value.message
    assert Season.objects.count() == 0


def test_a_season_whose_last_round_fits_on_the_last_day_is_scheduled(alice, league):
    # Two clubs, one round: the first round may be on the calendar's last day.
    clubs = list(league.clubs.filter(slug__in=["reds", "blues"]))
    season = season_services.season_create(
        league=league, created_by=alice, start_date=dt.date(9999, 12, 31), clubs=clubs, double=False
    )
    assert [f.date for f in season.fixtures.all()] == [dt.date(9999, 12, 31)]


def test_the_new_season_page_with_a_last_round_after_9999_shows_the_refusal(alice, league):
    browser = Client(raise_request_exception=False)
    browser.force_login(alice)
    before = written()
    answer = browser.post(
        "/leagues/duels/seasons/new/",
        {
            "event_id": str(uuid.uuid4()),
            "start_date": "9999-12-31",
            "days_between_rounds": "7",
            "double": "on",
            "promote": "2",
            "relegate": "2",
            "playoff_spots": "0",
            "clock": "",
            "club_reds": "1",
            "club_blues": "1",
            "club_greens": "1",
        },
    )
    assert answer.status_code == 200, answer.status_code  # the form again, saying why
    assert "would end after 31 December 9999" in answer.content.decode()
    assert written() == before
