"""The league organiser's pages (issue 18): a season, coaches, rulings and the close, without the API.
Each ruling and the close need a ticked confirmation and name their outcome; anyone else sees no
controls and is refused (403) with nothing written."""

from __future__ import annotations

import datetime as dt
import re
import uuid

import pytest
from django.test import Client

from league.seasons import services as season_services
from league.seasons.models import Fixture, Season
from matches.commands import AT_HEAD
from matches.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def league_setup(make_user):
    organiser, ann = make_user("organiser"), make_user("ann")
    league = season_services.league_create(slug="duels", name="Duels", game="dueling-wizards", created_by=organiser)
    for slug in ("reds", "blues", "greens", "golds"):
        season_services.club_create(league=league, user=organiser, slug=slug, name=slug.title())
    season_services.club_coach_add(club=league.clubs.get(slug="reds"), user=organiser, coach=ann)
    return league, organiser, ann


@pytest.fixture
def season(league_setup):
    league, organiser, _ = league_setup
    return season_services.season_create(
        league=league,
        created_by=organiser,
        start_date=dt.date(2027, 3, 1),
        double=False,
        # Names of one length: PostgreSQL's jsonb then orders them "Lower" first, whatever the order given.
        divisions={"Upper": ["reds", "blues"], "Lower": ["greens", "golds"]},
        movements={"promote": 1, "relegate": 1},
    )


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def season_url(season) -> str:
    return f"/leagues/{season.league.slug}/seasons/{season.number}/"


def events(season) -> int:
    return Event.objects.filter(stream_id=season.stream_id).count()


def guard_of(page: str) -> dict:
    return dict(re.findall(r'<input type="hidden" name="(expected_seq|event_id)" value="([^"]*)"', page)[:2])


def rule(client, season, fixture, action, **fields):
    url = f"{season_url(season)}fixtures/{fixture.key}/rule/"
    page = client.get(url).content.decode()
    return client.post(url, {"action": action, **guard_of(page), **fields})


def test_a_coach_sees_no_organiser_controls_and_the_organiser_does(season, league_setup):
    _, organiser, ann = league_setup
    coach_page = client_for(ann).get(season_url(season)).content.decode()
    assert "Rule…" not in coach_page and "organiser-links" not in coach_page and "close-season" not in coach_page
    organiser_page = client_for(organiser).get(season_url(season)).content.decode()
    assert organiser_page.count('data-testid="rule-') == season.fixtures.count()
    assert 'data-testid="close-season"' in organiser_page


@pytest.mark.parametrize("who", ["coach", "anonymous"])
def test_anyone_but_the_organiser_is_refused_every_organiser_page_and_nothing_is_written(season, league_setup, who):
    league, _, ann = league_setup
    client = client_for(ann if who == "coach" else None)
    fixture = season.fixtures.first()
    before = events(season), Season.objects.count(), list(league.clubs.get(slug="blues").coaches.all())
    guard = {"expected_seq": season.projected_seq, "event_id": str(uuid.uuid4()), "confirm": "on", "reason": "x"}
    posts = [
        ("/leagues/duels/organise/", {"club": "blues", "username": "ann"}),
        ("/leagues/duels/seasons/new/", {"event_id": str(uuid.uuid4()), "start_date": "2027-09-01"}),
        (f"{season_url(season)}close/", guard),
        (f"{season_url(season)}fixtures/{fixture.key}/rule/", {**guard, "action": "walkover", "winner": "reds"}),
        (f"{season_url(season)}fixtures/{fixture.key}/rule/", {**guard, "action": "correct", "home_left": 3}),
        (f"{season_url(season)}fixtures/{fixture.key}/rule/", {**guard, "action": "postpone", "date": "2027-05-01"}),
    ]
    for url, data in posts:
        assert client.get(url).status_code == 403, url
        assert client.post(url, data).status_code == 403, url
    assert (events(season), Season.objects.count(), list(league.clubs.get(slug="blues").coaches.all())) == before


def test_the_organiser_schedules_a_season_with_divisions_from_the_page(league_setup):
    league, organiser, _ = league_setup
    client = client_for(organiser)
    page = client.get("/leagues/duels/seasons/new/").content.decode()
    event_id = re.search(r'name="event_id" value="([^"]+)"', page).group(1)
    form = {
        "event_id": event_id,
        "division_names": "Upper, Lower",
        "start_date": "2027-09-01",
        "days_between_rounds": 14,
        "double": "on",
        "promote": 1,
        "relegate": 1,
        "playoff_spots": 0,
        "club_reds": "1",
        "club_blues": "1",
        "club_greens": "2",
        "club_golds": "2",
    }
    response = client.post("/leagues/duels/seasons/new/", form)
    season = Season.objects.get(league=league)
    assert response.status_code == 302 and response["Location"] == season_url(season)
    assert season.config["divisions"] == {"Upper": ["blues", "reds"], "Lower": ["golds", "greens"]}
    assert season.config["double"] is True and season.config["days_between_rounds"] == 14
    assert season.fixtures.count() == 4  # two clubs a division, home and away
    assert client.post("/leagues/duels/seasons/new/", form).status_code == 302  # the same press again
    assert Season.objects.count() == 1


def test_the_organiser_gives_the_season_a_clock_that_every_fixtures_match_plays_with(league_setup):
    league, organiser, _ = league_setup
    client = client_for(organiser)
    page = client.get("/leagues/duels/seasons/new/").content.decode()
    assert "15 minutes + 10 s a move" in page  # offered as on the new-match form
    event_id = re.search(r'name="event_id" value="([^"]+)"', page).group(1)
    form = {
        "event_id": event_id,
        "start_date": "2027-09-01",
        "days_between_rounds": 7,
        "promote": 0,
        "relegate": 0,
        "playoff_spots": 0,
        "clock": "fischer-15-10",
        **{f"club_{slug}": "1" for slug in ("reds", "blues", "greens", "golds")},
    }
    assert client.post("/leagues/duels/seasons/new/", form).status_code == 302
    season = Season.objects.get(league=league)
    assert season.config["time_control"] == {"kind": "fischer", "base": 900, "increment": 10}
    # A clock the form does not offer is refused in words, and nothing is scheduled.
    again = {**form, "event_id": str(uuid.uuid4()), "clock": "blitz-1-0"}
    response = client.post("/leagues/duels/seasons/new/", again)
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    assert Season.objects.count() == 1


def test_a_season_form_with_a_lone_club_in_a_division_is_refused_in_words(league_setup):
    _, organiser, _ = league_setup
    response = client_for(organiser).post(
        "/leagues/duels/seasons/new/",
        {
            "event_id": str(uuid.uuid4()),
            "start_date": "2027-09-01",
            "days_between_rounds": 7,
            "promote": 1,
            "relegate": 1,
            "playoff_spots": 0,
            "club_reds": "1",
            "club_blues": "1",
            "club_greens": "1",
            "club_golds": "2",
        },
    )
    assert response.status_code == 200 and Season.objects.count() == 0
    assert "Each division needs at least two clubs." in response.content.decode()


def test_the_organiser_names_a_coach_and_an_unknown_name_is_refused_in_words(league_setup, make_user):
    league, organiser, _ = league_setup
    make_user("cleo")
    client = client_for(organiser)
    assert client.post("/leagues/duels/organise/", {"club": "blues", "username": "cleo"}).status_code == 302
    assert [u.username for u in league.clubs.get(slug="blues").coaches.all()] == ["cleo"]
    page = client.post("/leagues/duels/organise/", {"club": "golds", "username": "nobody"}).content.decode()
    assert "There is no account called &#x27;nobody&#x27;." in page
    assert not league.clubs.get(slug="golds").coaches.exists()


def test_a_ruling_without_the_ticked_confirmation_records_nothing_and_says_so(season, league_setup):
    _, organiser, _ = league_setup
    fixture = season.fixtures.first()
    before = events(season)
    response = rule(client_for(organiser), season, fixture, "walkover", winner="reds", reason="no show")
    assert response.status_code == 200 and events(season) == before
    assert "Tick the confirmation box to record the ruling." in response.content.decode()


def test_a_walkover_has_no_default_winner_and_one_without_a_winner_records_nothing(season, league_setup):
    _, organiser, _ = league_setup
    client = client_for(organiser)
    fixture = season.fixtures.first()
    page = client.get(f"{season_url(season)}fixtures/{fixture.key}/rule/").content.decode()
    assert not re.search(r"<input[^>]*\bchecked", page)  # neither club, nor the confirmation, is preselected
    before = events(season)
    response = rule(client, season, fixture, "walkover", reason="no show", confirm="on")
    assert events(season) == before
    assert "Choose which club the walkover goes to." in response.content.decode()


def test_the_organiser_postpones_awards_a_walkover_and_corrects_a_result(season, league_setup):
    _, organiser, _ = league_setup
    client = client_for(organiser)
    first, second = season.fixtures.select_related("home", "away").order_by("id")
    response = rule(client, season, first, "postpone", date="2027-04-01", reason="snow", confirm="on")
    assert response.status_code == 302
    first.refresh_from_db()
    assert first.status == Fixture.Status.POSTPONED and first.date == dt.date(2027, 4, 1)
    assert (
        rule(client, season, first, "walkover", winner=first.away.slug, reason="no show", confirm="on").status_code
        == 302
    )
    first.refresh_from_db()
    assert first.status == Fixture.Status.WALKOVER and first.walkover_winner == first.away
    response = rule(client, season, second, "correct", home_left=2, away_left=0, reason="misreported", confirm="on")
    second.refresh_from_db()
    assert (second.status, second.home_left, second.away_left) == (Fixture.Status.PLAYED, 2, 0)
    shown = client.get(response["Location"]).content.decode()
    assert "Result corrected to 2–0." in shown


def test_the_same_ruling_sent_twice_is_recorded_once(season, league_setup):
    _, organiser, _ = league_setup
    client = client_for(organiser)
    fixture = season.fixtures.select_related("home", "away").first()
    url = f"{season_url(season)}fixtures/{fixture.key}/rule/"
    form = {
        "action": "walkover",
        **guard_of(client.get(url).content.decode()),
        "winner": fixture.home.slug,
        "reason": "no show",
        "confirm": "on",
    }
    before = events(season)
    assert client.post(url, form).status_code == 302
    assert client.post(url, form).status_code == 302
    assert events(season) == before + 1


def test_a_ruling_from_a_page_gone_stale_is_refused_in_words(season, league_setup):
    _, organiser, _ = league_setup
    client = client_for(organiser)
    first, second = season.fixtures.select_related("home", "away", "season__league").order_by("id")
    url = f"{season_url(season)}fixtures/{first.key}/rule/"
    stale = guard_of(client.get(url).content.decode())
    # Another organiser's ruling lands first, so the page's head is one behind.
    season_services.fixture_postpone(
        fixture=second, user=organiser, date=dt.date(2027, 4, 1), reason="snow", expected_seq=AT_HEAD
    )
    before = events(season)
    response = client.post(
        url, {"action": "walkover", **stale, "winner": first.home.slug, "reason": "no show", "confirm": "on"}
    )
    assert response.status_code == 200 and events(season) == before
    assert re.search(r'<p class="error" role="alert">[A-Z][^<]+\.', response.content.decode())
    # The page now carries the current head: the organiser's next press goes through.
    assert guard_of(response.content.decode())["expected_seq"] == str(Season.objects.get(pk=season.pk).projected_seq)


def test_closing_needs_confirmation_refuses_an_unfinished_season_in_words_then_promotes_and_relegates(
    season, league_setup
):
    _, organiser, _ = league_setup
    client = client_for(organiser)
    close = f"{season_url(season)}close/"
    page = client.get(close).content.decode()
    assert "2 fixtures still to play or rule on" in page
    assert client.post(close, guard_of(page)).status_code == 200  # no confirmation ticked
    response = client.post(close, {**guard_of(page), "confirm": "on"})
    assert "2 fixture(s) still to play or rule on." in response.content.decode()
    assert not Event.objects.filter(stream_id=season.stream_id, type="season.closed").exists()
    top, bottom = (season.fixtures.select_related("home", "away").get(division=d) for d in ("Upper", "Lower"))
    for fixture, winner in ((top, "blues"), (bottom, "golds")):
        assert rule(client, season, fixture, "walkover", winner=winner, reason="ruled", confirm="on").status_code == 302
    page = client.get(close).content.decode()
    assert "the top 1 of each lower division go up and the bottom 1 of each upper division go down" in page
    assert client.post(close, {**guard_of(page), "confirm": "on"}).status_code == 302
    closed = Event.objects.get(stream_id=season.stream_id, type="season.closed").data
    assert closed["movements"] == [
        {"upper": "Upper", "lower": "Lower", "promoted": ["golds"], "relegated": ["reds"], "playoff": []}
    ]
    # The next season's form starts from those movements.
    new = client.get("/leagues/duels/seasons/new/").content.decode()
    assert re.search(r'name="club_golds"[^>]*>(?:(?!</select>).)*<option value="1" selected>', new, re.S)
    assert re.search(r'name="club_reds"[^>]*>(?:(?!</select>).)*<option value="2" selected>', new, re.S)
