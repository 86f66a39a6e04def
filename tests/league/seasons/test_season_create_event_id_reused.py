"""A season create's event_id stands for the whole create: resent with the same settings it returns
the season the first one scheduled; under the same id with any setting changed it is 409
``event_id_reused`` and nothing is made, never 200 with the first season (the client would believe
its settings were taken)."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from league.seasons import services as season_services
from league.seasons.models import Season
from matches.forms import EVENT_ID_REUSED

pytestmark = pytest.mark.django_db

FIRST = {
    "start_date": "2027-03-01",
    "double": False,
    "days_between_rounds": 7,
    "promote": 1,
    "relegate": 1,
    "divisions": {"Premier": ["blues", "reds"], "Second": ["golds", "greens"]},
}


@pytest.fixture
def league(alice):
    league = season_services.league_create(slug="duels", name="Duels", game="dueling-wizards", created_by=alice)
    for slug in ("reds", "blues", "greens", "golds"):
        season_services.club_create(league=league, user=alice, slug=slug, name=slug.title())
    return league


def create(client, body):
    return client.post("/api/leagues/duels/seasons/", body, format="json")


def test_the_same_create_resent_returns_the_first_season(alice, client_for, league):
    body = {**FIRST, "event_id": str(uuid.uuid4())}
    first, again = create(client_for(alice), body), create(client_for(alice), body)
    assert (first.status_code, again.status_code) == (201, 200), again.json()
    assert again.json() == first.json() and Season.objects.count() == 1


@pytest.mark.parametrize(
    "change",
    [
        {"double": True},
        {"days_between_rounds": 14},
        {"divisions": {"Premier": ["blues", "golds"], "Second": ["reds", "greens"]}},
        {"divisions": {"Top": ["blues", "reds"], "Bottom": ["golds", "greens"]}},
        {"promote": 0},
        {"time_control": {"kind": "fischer", "base": 300, "increment": 5}},
    ],
    ids=["double", "days-apart", "who-is-in-which-division", "division-names", "movements", "clock"],
)
def test_another_create_under_a_used_event_id_is_409_and_makes_nothing(alice, client_for, league, change):
    eid = str(uuid.uuid4())
    assert create(client_for(alice), {**FIRST, "event_id": eid}).status_code == 201
    other = create(client_for(alice), {**FIRST, **change, "event_id": eid})
    assert (other.status_code, other.json()["code"]) == (409, "event_id_reused"), other.json()
    assert Season.objects.count() == 1
    [season] = Season.objects.all()
    assert season.config["double"] is False and season.config["days_between_rounds"] == 7


def test_the_new_season_page_sent_again_with_other_settings_says_so_and_offers_a_new_id(alice, league):
    browser = Client()
    browser.force_login(alice)
    form = {
        "event_id": str(uuid.uuid4()),
        "start_date": "2027-03-01",
        "days_between_rounds": "7",
        "promote": "0",
        "relegate": "0",
        "playoff_spots": "0",
        "clock": "",
        **{f"club_{slug}": "1" for slug in ("reds", "blues", "greens", "golds")},
    }
    assert browser.post("/leagues/duels/seasons/new/", form).status_code == 302
    # Back to the form, the double round robin ticked this time, sent again.
    answer = browser.post("/leagues/duels/seasons/new/", {**form, "double": "on"})
    page = answer.content.decode()
    assert answer.status_code == 200 and EVENT_ID_REUSED in page
    assert Season.objects.count() == 1
    assert form["event_id"] not in page  # sending the form shown now makes a new season
