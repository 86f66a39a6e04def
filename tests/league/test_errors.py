"""league.errors: league refuses with its own type, answered like any refusal (the drafts API's
tests check the codes end to end: bad_clock, not_a_coach, clock_running)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model

from league.errors import LeagueError
from league.seasons import services as seasons
from league.tournaments import services as tournaments
from matches.api.errors import exception_handler
from matches.errors import Refusal
from matches.services import MatchError


def test_a_league_refusal_is_not_a_match_error_but_is_answered_as_code_and_detail():
    refused = LeagueError("The pick clock has not run out yet.", code="clock_running", status=409, deadline="soon")
    assert isinstance(refused, Refusal) and not isinstance(refused, MatchError)
    response = exception_handler(refused, {})
    assert response.status_code == 409
    assert response.data == {
        "code": "clock_running",
        "detail": "The pick clock has not run out yet.",
        "deadline": "soon",
    }


def test_seasons_and_tournaments_refuse_with_the_league_type(db):
    league = seasons.league_load_iwdl()
    stranger = get_user_model().objects.create_user("stranger")
    with pytest.raises(LeagueError) as refused:
        seasons.season_create(
            league=league, created_by=stranger, clubs=list(league.clubs.all()[:1]), start_date=dt.date(2027, 1, 4)
        )
    assert refused.value.code == "not_organiser" and not isinstance(refused.value, MatchError)
    with pytest.raises(LeagueError) as refused:
        tournaments.tournament_create(created_by=stranger, name="Open", game="dueling-wizards", format="no-such")
    assert not isinstance(refused.value, MatchError)
