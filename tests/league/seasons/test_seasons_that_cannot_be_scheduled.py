"""A season whose schedule cannot be made is refused with a stable code and a sentence, from the
API, the service and the new-season page alike, and nothing is written: a last round past the
calendar's end (31 December 9999), a club listed twice, a division of one club."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.test import Client

from league.errors import LeagueError
from league.seasons import services as season_services
from league.seasons.models import Fixture, Season
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
