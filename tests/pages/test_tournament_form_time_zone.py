"""The new-tournament form takes its check-in times in the organiser's time zone (issue 18):
the page's script sends the zone along, and the tournament stores the UTC instant."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from league.tournaments.models import Tournament
from league.tournaments.selectors import tournament_state

pytestmark = pytest.mark.django_db

FORM = {"game": "dueling-wizards", "format": "swiss", "bye_score": "1", "seeding": "registration"}


def create(user, **fields):
    client = Client()
    client.force_login(user)
    r = client.post("/tournaments/", {**FORM, **fields})
    assert r.status_code == 302
    return tournament_state(tournament=Tournament.objects.get(name=fields["name"]))["options"]


def test_check_in_times_typed_in_tokyo_are_stored_as_utc_instants(alice):
    options = create(
        alice,
        name="Tokyo Night",
        time_zone="Asia/Tokyo",
        check_in_opens="2027-03-05T18:30",
        check_in_closes="2027-03-05T19:45",
    )
    assert dt.datetime.fromisoformat(options["check_in_opens"]) == dt.datetime(2027, 3, 5, 9, 30, tzinfo=dt.UTC)
    assert dt.datetime.fromisoformat(options["check_in_closes"]) == dt.datetime(2027, 3, 5, 10, 45, tzinfo=dt.UTC)


def test_without_a_known_zone_the_times_are_read_as_utc(alice):
    options = create(alice, name="No Zone", time_zone="Mars/Olympus", check_in_opens="2027-03-05T18:30")
    assert dt.datetime.fromisoformat(options["check_in_opens"]) == dt.datetime(2027, 3, 5, 18, 30, tzinfo=dt.UTC)


def test_the_form_page_loads_the_script_that_fills_in_the_zone(alice):
    client = Client()
    client.force_login(alice)
    html = client.get("/tournaments/").content.decode()
    assert 'name="time_zone"' in html and "js/pages/tournament-list.js" in html
