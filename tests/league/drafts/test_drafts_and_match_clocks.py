"""Can a draft end on time? A draft room (a season fixture's, a standalone one, a tournament's) is
opened without a match clock: its pick clock drafts for a coach who does not pick, so neither a
claim nor the platform's sweep can time it out, also in a season played on a clock (that clock
rides in the draft's origin to the match it hands off to). A bare ``iwdl-draft`` stream with a time
control (the match API refuses one now, draft_needs_a_room; one made before that, or by the services
directly) can run out of time, and has no room to hand off from: it ends with no match made, and no
follow-up fails."""

from __future__ import annotations

import datetime as dt

import pytest

from league.drafts.models import Draft
from league.seasons import services as season_services
from league.seasons.models import Fixture
from matches import services as match_services
from matches.commands import AT_HEAD
from matches.models import Match, OutboxMessage
from tests.matches.helpers import fresh
from tests.matches.test_time_controls import clock  # noqa: F401  (the database's clock, moved by hand)

pytestmark = pytest.mark.django_db

CLOCK = {"kind": "fischer", "base": 60, "increment": 0}


def test_a_fixtures_draft_in_a_season_on_a_clock_cannot_be_timed_out(make_user, clock):  # noqa: F811
    organiser, ann, ben = make_user("organiser"), make_user("ann"), make_user("ben")
    league = season_services.league_create(slug="iw", name="IW", game="wizard-dodgeball", created_by=organiser)
    for slug, coach in (("reds", ann), ("blues", ben)):
        club = season_services.club_create(league=league, user=organiser, slug=slug, name=slug.title())
        season_services.club_coach_add(club=club, user=organiser, coach=coach)
    season = season_services.season_create(
        league=league, created_by=organiser, start_date=dt.date(2027, 3, 1), double=False, time_control=CLOCK
    )
    fixture = Fixture.objects.select_related("home", "away", "season__league").get(season=season)
    draft = season_services.fixture_start(fixture=fixture, user=ann, expected_seq=AT_HEAD)
    draft_match = fresh(draft.draft_match)
    assert draft_match.time_control == {} and draft_match.origin["time_control"] == CLOCK
    clock.advance(24 * 3600)  # far past any clock the season could set
    with pytest.raises(match_services.MatchError) as refused:
        match_services.match_claim_timeout(match_id=draft_match.id, user=ben, expected_seq=draft_match.state_seq)
    assert (refused.value.code, refused.value.status) == ("untimed", 409)
    assert match_services.matches_claim_timeouts() == 0
    assert fresh(draft_match).status == Match.Status.LIVE and fresh(draft_match).state_seq == draft_match.state_seq


def test_a_bare_draft_made_with_a_match_clock_ends_on_time_with_nothing_handed_off(
    alice,
    clock,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    draft_match = match_services.match_create(
        game="iwdl-draft",
        seats=[match_services.SeatSpec(user=alice), match_services.SeatSpec(bot="auto")],
        created_by=alice,
        config={"format": "schoolyard"},
        time_control=CLOCK,
    )
    assert not Draft.objects.filter(draft_match=draft_match).exists()  # no room: no pick clock, no hand-off
    clock.advance(61)
    with django_capture_on_commit_callbacks(execute=True):
        assert match_services.matches_claim_timeouts() == 1
    ended = fresh(draft_match)
    assert ended.status == Match.Status.FINISHED and ended.result["reason"] == "timeout"
    assert ended.verdict == Match.Verdict.VERIFIED
    assert not Match.objects.filter(origin__draft=str(ended.id)).exists()
    # The finished draft's follow-ups were delivered: none is left failing, to be retried.
    assert not OutboxMessage.objects.filter(topic="match.finished", delivered_at__isnull=True).exists()
