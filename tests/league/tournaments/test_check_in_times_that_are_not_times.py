"""A check-in time the server cannot keep is refused with a sentence and changes nothing: shaped
like a time but not one (month 13, an offset of 99 hours) through the API, or at the calendar's
edge once the new-tournament page moves it from the organiser's time zone to UTC. Never a 500."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client

from league.tournaments.models import Tournament
from matches.models import Event

from .helpers import api_command, open_tournament, state

pytestmark = pytest.mark.django_db


def events(t):
    return Event.objects.filter(stream_id=f"tournament:{t.id}").count()


@pytest.mark.parametrize("option", ["check_in_opens", "check_in_closes"])
@pytest.mark.parametrize("value", ["2026-13-45T99:99", "2026-01-01T00:00+99:00"], ids=["month-13", "offset-99h"])
def test_a_check_in_time_that_is_not_a_time_is_refused_when_configured(alice, client_for, option, value):
    t = open_tournament(alice, "swiss")
    before = events(t)
    r = api_command(client_for(alice), t, "configure", **{option: value})
    assert (r.status_code, r.json()["code"]) == (400, "bad_options"), r.status_code
    assert r.json()["detail"] == f"Option '{option}' must be a date and time (ISO 8601)."
    assert events(t) == before and state(t)["options"][option] is None


def test_a_check_in_time_that_is_not_a_time_is_refused_at_creation(alice, client_for):
    r = client_for(alice).post(
        "/api/tournaments/",
        {
            "name": "Open",
            "game": "dueling-wizards",
            "format": "swiss",
            "options": {"check_in_opens": "2026-13-45T99:99"},
            "event_id": str(uuid.uuid4()),
        },
        format="json",
    )
    assert (r.status_code, r.json()["code"]) == (400, "bad_options")
    assert Tournament.objects.count() == 0


def test_a_window_written_with_two_offsets_is_ordered_by_the_instants(alice, client_for):
    # 10:00 at UTC+5 is 05:00 UTC, an hour before 06:00 UTC: a window, though its text sorts after.
    t = open_tournament(alice, "swiss")
    r = api_command(
        client_for(alice), t, "configure", check_in_opens="2027-05-01T10:00+05:00", check_in_closes="2027-05-01T06:00Z"
    )
    assert r.status_code == 201, r.json()
    r = api_command(
        client_for(alice), t, "configure", check_in_opens="2027-05-02T06:00Z", check_in_closes="2027-05-02T10:00+05:00"
    )
    assert (r.status_code, r.json()["code"]) == (400, "bad_options")
    assert r.json()["detail"] == "The check-in window must close after it opens."


@pytest.mark.parametrize(
    "extra, field",
    [
        ({"check_in_opens": "0001-01-01 00:00", "time_zone": "Asia/Tokyo"}, "check_in_opens"),
        ({"check_in_closes": "9999-12-31 23:59", "time_zone": "America/Los_Angeles"}, "check_in_closes"),
    ],
    ids=["year-1-east-of-utc", "year-9999-west-of-utc"],
)
def test_a_check_in_time_off_the_calendar_in_utc_is_refused_on_the_form(alice, extra, field):
    browser = Client(raise_request_exception=False)
    browser.force_login(alice)
    form = {
        "name": "Edge Open",
        "game": "dueling-wizards",
        "format": "swiss",
        "bye_score": "1",
        "seeding": "registration",
    }
    r = browser.post("/tournaments/", {**form, **extra, "event_id": str(uuid.uuid4())})
    assert r.status_code == 200, r.status_code
    assert r.context["form"].errors[field] == ["Choose a real date: this one falls outside the years 1 to 9999 in UTC."]
    assert Tournament.objects.count() == 0
