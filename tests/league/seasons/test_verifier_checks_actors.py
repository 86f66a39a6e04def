"""The season verifier checks whose hand each organiser's and coach's fact is in (docs/AUDIT.md 8.2).

An organiser's rulings (postponement, walkover, correction) and the close are the league
organiser's or a staff user's (``check_organiser``); a fixture is started by a coach of either club,
an organiser, or the platform (a simulated season's bots); the creation and the schedule are an
organiser's, or the platform's when no user made the season. A forger who rewrites one fact's hand
and recomputes the chain has it disputed at that seq with a sentence saying whose it should be.
No fact records who is staff or coaches a club, and today's rows are not the day's: those hands
are checked as far as the stream can say (a person's; for a start, also the platform's).
(The platform's own results, unfinished results and retractions: test_who_records_a_seasons_results.py.)"""

from __future__ import annotations

import datetime as dt

import pytest

from league.seasons import services
from league.seasons.models import Season
from league.seasons.verification import verify_season
from matches.commands import AT_HEAD
from matches.models import Event
from tests.audit.helpers import alter_event, rehash_stream

from .test_season_audit import organiser, played  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def verdict(season):
    return verify_season(Season.objects.get(pk=season.pk).stream)


def forge(season, type: str, actor: str) -> int:
    """The season's first ``type`` fact rewritten into ``actor``'s hand, the chain recomputed."""
    event = Event.objects.filter(stream_id=season.stream_id, type=type).order_by("seq").first()
    alter_event(event, actor=actor)
    rehash_stream(season.stream_id, event.seq)
    return event.seq


@pytest.fixture
def ruled(played, organiser, make_user):  # noqa: F811
    """``played``'s season run to its close through the services: both clubs given a coach, the
    second fixture postponed, started by the home coach, then awarded as a walkover; the first
    fixture's result corrected by a staff user; the season closed by the league's organiser."""
    season, fixture = played
    other = season.fixtures.exclude(pk=fixture.pk).get()
    home, away = make_user("home-coach"), make_user("away-coach")
    services.club_coach_add(club=other.home, user=organiser, coach=home)
    services.club_coach_add(club=other.away, user=organiser, coach=away)
    run = {"expected_seq": AT_HEAD}
    services.fixture_postpone(fixture=other, user=organiser, date=dt.date(2027, 2, 1), reason="snow", **run)
    services.fixture_start(fixture=other, user=home, **run)
    other.refresh_from_db()
    services.fixture_walkover(fixture=other, user=organiser, winner=other.away, reason="home left the room", **run)
    staffer = make_user("staffer", staff=True)
    services.result_correct(fixture=fixture, user=staffer, home_left=3, away_left=0, reason="recount", **run)
    services.season_close(season=season, user=organiser, **run)
    return season, {"home": home, "away": away, "staffer": staffer, "stranger": make_user("stranger")}


def test_a_season_ruled_and_closed_through_the_services_verifies(ruled):
    season, _ = ruled
    kinds = set(Event.objects.filter(stream_id=season.stream_id).values_list("type", flat=True))
    assert {"fixture.postponed", "fixture.walkover", "result.corrected", "season.closed"} <= kinds
    found = verdict(season)
    assert found.ok, found.reason


def test_a_season_the_platform_created_verifies(organiser):  # noqa: F811
    """simulate-season makes a season with no user: its creation and schedule are ``system``'s."""
    league = services.league_load_iwdl()
    season = services.season_create(
        league=league, created_by=None, start_date=dt.date(2027, 1, 4), clubs=list(league.clubs.order_by("slug")[:2])
    )
    assert set(Event.objects.filter(stream_id=season.stream_id).values_list("actor", flat=True)) == {"system"}
    assert verdict(season).ok


def test_a_season_whose_coach_left_the_club_and_whose_staff_was_demoted_since_still_verifies(ruled):
    """Clubs change coaches between seasons and staff lose the role: the start the home coach made
    and the correction the staff user made were honest, and stay so (no fact records either role)."""
    season, who = ruled
    for club in who["home"].clubs.all():
        club.coaches.remove(who["home"])
    who["staffer"].is_staff = False
    who["staffer"].save(update_fields=["is_staff"])
    found = verdict(season)
    assert found.ok, found.reason


def test_a_correction_in_the_platforms_hand_is_disputed(ruled):
    season, _ = ruled
    seq = forge(season, "result.corrected", "system")
    found = verdict(season)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == "A correction is the league organiser's to make, but this one is by system."


def test_a_walkover_citing_no_draft_in_the_platforms_hand_is_disputed(ruled):
    season, _ = ruled
    seq = forge(season, "fixture.walkover", "system")
    found = verdict(season)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == "A walkover is the league organiser's to make, but this one is by system."


def test_a_postponement_in_a_bots_hand_is_disputed(ruled):
    season, _ = ruled
    seq = forge(season, "fixture.postponed", "bot:random")
    found = verdict(season)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == "A postponement is the league organiser's to make, but this one is by bot:random."


def test_a_close_in_the_platforms_hand_is_disputed(ruled):
    season, _ = ruled
    seq = forge(season, "season.closed", "system")
    found = verdict(season)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == "The season's close is the league organiser's to make, but this one is by system."


def test_a_fixture_started_in_a_bots_hand_is_disputed(ruled):
    season, _ = ruled
    seq = forge(season, "fixture.started", "bot:random")
    found = verdict(season)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == (
        "A fixture is started by a coach of either club, an organiser or the platform, but this one is by bot:random."
    )


def test_a_season_created_in_a_bots_hand_is_disputed(ruled):
    season, _ = ruled
    seq = forge(season, "season.created", "bot:random")
    found = verdict(season)
    assert (found.ok, found.seq) == (False, seq)
    assert found.reason == (
        "The season's creation is the league organiser's (or the platform's), but this one is by bot:random."
    )
