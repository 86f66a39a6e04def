"""A season sets the clock of every fixture's match (issue 20: leagues set a default)."""

from __future__ import annotations

import datetime as dt

import pytest

from league.seasons import services
from league.seasons.models import Club, League
from matches.commands import AT_HEAD
from matches.errors import Refusal
from matches.models import Match

pytestmark = pytest.mark.django_db

CLOCK = {"kind": "correspondence", "days_per_move": 2}


def duel_league(make_user):
    league = League.objects.create(
        slug="duel-league",
        name="Duel League",
        game="dueling-wizards",
        points=[3, 1, 0],
        tiebreaks=["wins", "lot"],
        created_by=make_user("host"),
    )
    clubs = []
    for i in range(2):
        club = Club.objects.create(league=league, slug=f"duel-club-{i}", name=f"Duel Club {i}", colours=["#123456"])
        club.coaches.add(make_user(f"coach{i}"))
        clubs.append(club)
    return league, clubs


def test_a_fixture_started_in_a_timed_season_is_played_on_the_seasons_clock(make_user):
    league, clubs = duel_league(make_user)
    season = services.season_create(
        league=league,
        created_by=league.created_by,
        clubs=clubs,
        double=False,
        start_date=dt.date(2027, 2, 1),
        time_control=CLOCK,
    )
    fixture = season.fixtures.select_related("home", "away").first()
    match = services.fixture_start(fixture=fixture, user=fixture.home.coaches.first(), expected_seq=AT_HEAD)
    assert Match.objects.get(pk=match.pk).time_control == CLOCK


def test_an_iwdl_fixtures_draft_hands_the_seasons_clock_to_the_match(make_user, django_capture_on_commit_callbacks):
    from league.seasons.services import league_load_iwdl

    iwdl = league_load_iwdl()
    iwdl.created_by = make_user("organiser")
    iwdl.save()
    clubs = list(iwdl.clubs.order_by("slug")[:2])
    season = services.season_create(
        league=iwdl,
        created_by=iwdl.created_by,
        clubs=clubs,
        double=False,
        start_date=dt.date(2027, 2, 1),
        time_control=CLOCK,
    )
    fixture = season.fixtures.select_related("home", "away").first()
    with django_capture_on_commit_callbacks(execute=True):  # the hand-off follows the draft's end
        draft = services.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)
    played = Match.objects.filter(origin__draft=str(draft.draft_match_id)).first()
    assert played is not None and played.time_control == CLOCK


def test_a_bad_season_clock_is_refused(make_user):
    league, clubs = duel_league(make_user)
    with pytest.raises(Refusal) as refused:
        services.season_create(
            league=league,
            created_by=league.created_by,
            clubs=clubs,
            start_date=dt.date(2027, 2, 1),
            time_control={"kind": "sundial"},
        )
    assert refused.value.code == "bad_time_control"
    assert not league.seasons.exists()
