"""The season page's Start button sends the guards every command carries (issue 15): the season's
head as the page showed it and a command id, so a double press opens one fixture once and a press
on a page gone stale is refused with a message, not applied at the new head."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client

from league.seasons import services as season_services
from league.seasons.models import Season
from matches.commands import AT_HEAD
from matches.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def coached_season(make_user):
    organiser, ann, ben = make_user("organiser"), make_user("ann"), make_user("ben")
    league = season_services.league_create(slug="duels", name="Duels", game="dueling-wizards", created_by=organiser)
    for slug, coach in (("reds", ann), ("blues", ben)):
        club = season_services.club_create(league=league, user=organiser, slug=slug, name=slug.title())
        season_services.club_coach_add(club=club, user=organiser, coach=coach)
    season = season_services.season_create(
        league=league, created_by=organiser, start_date=dt.date(2027, 3, 1), double=False
    )
    client = Client()
    client.force_login(ann)
    return season, organiser, client


def start_form(client, season) -> tuple[str, dict]:
    page = client.get(f"/leagues/{season.league.slug}/seasons/{season.number}/").content.decode()
    form = re.search(r'<form method="post" action="([^"]*/start/)"[^>]*>(.*?)</form>', page, re.S)
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(2)))
    return form.group(1), fields


def test_the_start_form_carries_the_head_it_showed_and_a_fresh_command_id(coached_season):
    season, _organiser, client = coached_season
    _action, fields = start_form(client, season)
    assert fields["expected_seq"] == str(Season.objects.get(pk=season.pk).projected_seq)
    assert re.fullmatch(r"[0-9a-f-]{36}", fields["event_id"])
    assert start_form(client, season)[1]["event_id"] != fields["event_id"]  # one id per page shown


def test_the_same_press_sent_twice_starts_the_fixture_once(coached_season):
    season, _organiser, client = coached_season
    action, fields = start_form(client, season)
    first = client.post(action, fields)
    again = client.post(action, fields)
    assert Match.objects.count() == 1
    assert first.status_code == again.status_code == 302 and first["Location"] == again["Location"]


def test_a_press_on_a_page_gone_stale_is_refused_and_starts_nothing(coached_season):
    season, organiser, client = coached_season
    action, fields = start_form(client, season)
    fixture = season.fixtures.select_related("home", "away", "season__league").get(key=action.split("/")[-3])
    season_services.fixture_postpone(
        fixture=fixture, user=organiser, date=dt.date(2027, 4, 1), reason="snow", expected_seq=AT_HEAD
    )
    response = client.post(action, fields, follow=True)
    assert Match.objects.count() == 0
    assert response.redirect_chain[-1][0].endswith(f"/seasons/{season.number}/")
    assert any(m.level_tag == "error" for m in response.context["messages"])


@pytest.mark.parametrize(
    "guards",
    [{"expected_seq": None}, {"expected_seq": "abc"}, {"expected_seq": "-1"}, {"event_id": None}],
    ids=["no-expected-seq", "text", "negative", "no-command-id"],
)
def test_a_press_without_readable_guards_is_refused_and_starts_nothing(coached_season, guards):
    # As every ruling's form: without the head the page showed, the press would be applied at
    # whatever the season has become since, which is what the guard is there to prevent.
    season, _organiser, client = coached_season
    action, fields = start_form(client, season)
    sent = {name: value for name, value in {**fields, **guards}.items() if value is not None}
    response = client.post(action, sent, follow=True)
    assert Match.objects.count() == 0
    assert Season.objects.get(pk=season.pk).projected_seq == int(fields["expected_seq"])
    assert response.redirect_chain[-1][0].endswith(f"/seasons/{season.number}/")
    assert any("was not started" in str(m) for m in response.context["messages"])


def test_the_leagues_organiser_is_shown_the_start_button_and_may_press_it(coached_season):
    season, organiser, _client = coached_season
    browser = Client()
    browser.force_login(organiser)
    action, fields = start_form(browser, season)
    response = browser.post(action, fields)
    assert response.status_code == 302 and response["Location"] == f"/matches/{Match.objects.get().id}/"
