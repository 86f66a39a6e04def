"""league.errors: league refuses with its own type, answered like any refusal (the drafts API's
tests check the codes end to end: bad_clock, not_a_coach, clock_running)."""

from __future__ import annotations

from league.errors import LeagueError
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
