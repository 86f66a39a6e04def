"""A coach who resigns a fixture's draft forfeits the fixture: no match can be made from the picks,
so once the draft is verified the season records a walkover for the other club (a
``fixture.walkover`` by the platform, citing the draft), as an organiser would award one. An
organiser's ruling made first stands; a draft found disputed later has its walkover retracted; the
season's verifier checks the walkover against the draft; the follow-ups sweep records one whose
task was lost."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from league.drafts.models import Draft
from league.seasons import services as season_services
from league.seasons.models import Fixture, Season
from league.seasons.tasks import requeue_followups
from league.seasons.verification import verify_season
from matches import services as match_services
from matches.commands import AT_HEAD
from matches.models import Event, Match
from matches.verification import match_verify
from tests.matches.helpers import fresh

pytestmark = pytest.mark.django_db


@pytest.fixture
def iwdl(make_user):
    """A Wizard Dodgeball league (its fixtures open a draft): ann coaches the Reds, ben the Blues."""
    organiser, ann, ben = make_user("organiser"), make_user("ann"), make_user("ben")
    league = season_services.league_create(slug="iw", name="IW", game="wizard-dodgeball", created_by=organiser)
    for slug, coach in (("reds", ann), ("blues", ben)):
        club = season_services.club_create(league=league, user=organiser, slug=slug, name=slug.title())
        season_services.club_coach_add(club=club, user=organiser, coach=coach)
    season = season_services.season_create(
        league=league, created_by=organiser, start_date=dt.date(2027, 3, 1), double=False
    )
    return {"organiser": organiser, "ann": ann, "ben": ben, "season": season}


def fixture_of(season) -> Fixture:
    return Fixture.objects.select_related("home", "away", "season__league").get(season=season)


def start_draft(iwdl) -> Draft:
    fixture = fixture_of(iwdl["season"])
    return season_services.fixture_start(fixture=fixture, user=iwdl["ann"], expected_seq=AT_HEAD)


def resign(draft: Draft, user) -> None:
    match_services.match_resign(
        match_id=draft.draft_match_id, user=user, expected_seq=fresh(draft.draft_match).state_seq
    )


def walkovers(season) -> list[Event]:
    return list(Event.objects.filter(stream_id=season.stream_id, type="fixture.walkover").order_by("seq"))


def test_a_coach_who_resigns_the_fixtures_draft_gives_the_other_club_a_walkover(
    iwdl, django_capture_on_commit_callbacks
):
    draft = start_draft(iwdl)
    with django_capture_on_commit_callbacks(execute=True):  # verification, then the season's follow-up
        resign(draft, iwdl["ann"])
    assert fresh(draft.draft_match).verdict == Match.Verdict.VERIFIED
    fixture = fixture_of(iwdl["season"])
    assert fixture.status == Fixture.Status.WALKOVER and fixture.walkover_winner.slug == "blues"
    assert fixture.ruling == "The Reds coach resigned the draft."
    [fact] = walkovers(iwdl["season"])
    assert fact.actor == "system" and fact.data["draft"] == str(draft.draft_match_id)
    assert fact.data["head_hash"] == fresh(draft.draft_match).head_hash
    assert not Match.objects.filter(origin__draft=str(draft.draft_match_id)).exists()
    assert verify_season(Season.objects.get(pk=iwdl["season"].pk).stream).ok
    # A repeated follow-up lands nothing more.
    assert season_services.result_record(match_id=draft.draft_match_id) is False
    assert len(walkovers(iwdl["season"])) == 1


def test_either_coach_may_resign_and_the_other_club_gets_the_walkover(iwdl, django_capture_on_commit_callbacks):
    draft = start_draft(iwdl)
    with django_capture_on_commit_callbacks(execute=True):
        resign(draft, iwdl["ben"])
    fixture = fixture_of(iwdl["season"])
    assert (fixture.status, fixture.walkover_winner.slug) == (Fixture.Status.WALKOVER, "reds")


def test_a_batch_of_verdicts_records_a_resigned_drafts_walkover(iwdl):
    draft = start_draft(iwdl)
    resign(draft, iwdl["ben"])  # no follow-ups run: the batch below brings them
    match_verify(match_id=draft.draft_match_id)
    verdicts = [{"match_id": str(draft.draft_match_id), "game": "iwdl-draft", "verdict": "verified"}]
    assert season_services.verdicts_followups_apply(verdicts=verdicts)["results"] == 1
    assert fixture_of(iwdl["season"]).walkover_winner.slug == "reds"


def test_the_followups_sweep_records_a_walkover_whose_task_was_lost(iwdl):
    draft = start_draft(iwdl)
    resign(draft, iwdl["ann"])
    match_verify(match_id=draft.draft_match_id)  # its follow-up messages are never delivered
    assert fixture_of(iwdl["season"]).status == Fixture.Status.IN_PLAY
    later = fresh(draft.draft_match).verified_at + dt.timedelta(minutes=5)
    assert requeue_followups(now=later)["results"] == 1
    assert fixture_of(iwdl["season"]).walkover_winner.slug == "blues"


def test_an_organisers_walkover_awarded_while_the_draft_ran_stands_over_the_forfeit(
    iwdl, django_capture_on_commit_callbacks
):
    draft = start_draft(iwdl)
    fixture = fixture_of(iwdl["season"])
    reds = next(c for c in (fixture.home, fixture.away) if c.slug == "reds")
    season_services.fixture_walkover(
        fixture=fixture,
        user=iwdl["organiser"],
        winner=reds,
        reason="Blues did not turn up",
        expected_seq=AT_HEAD,
    )
    with django_capture_on_commit_callbacks(execute=True):
        resign(draft, iwdl["ann"])  # the Reds' coach, after the ruling for the Reds
    fixture = fixture_of(iwdl["season"])
    assert (fixture.walkover_winner.slug, fixture.ruling) == ("reds", "Blues did not turn up")
    assert verify_season(Season.objects.get(pk=iwdl["season"].pk).stream).ok


def test_a_resigned_draft_found_disputed_later_has_its_walkover_retracted(iwdl, django_capture_on_commit_callbacks):
    draft = start_draft(iwdl)
    with django_capture_on_commit_callbacks(execute=True):
        resign(draft, iwdl["ann"])
    Match.objects.filter(pk=draft.draft_match_id).update(
        verdict=Match.Verdict.DISPUTED, verdict_reason="altered", disputed_at=fresh(draft.draft_match).verified_at
    )
    assert season_services.result_retract(match_id=draft.draft_match_id) is True
    fixture = fixture_of(iwdl["season"])
    assert fixture.status == Fixture.Status.SCHEDULED and fixture.walkover_winner is None
    assert fixture.ruling.startswith("Result retracted")
    assert verify_season(Season.objects.get(pk=iwdl["season"].pk).stream).ok


def test_the_season_verifier_catches_a_forfeit_walkover_given_to_the_club_that_resigned(iwdl):
    draft = start_draft(iwdl)
    resign(draft, iwdl["ann"])
    match_verify(match_id=draft.draft_match_id)
    season = iwdl["season"]
    fixture = fixture_of(season)
    forged = {
        "fixture": fixture.key,
        "winner": "reds",  # the resigning club's
        "reason": "The Blues coach resigned the draft.",
        "draft": str(draft.draft_match_id),
        "head_hash": fresh(draft.draft_match).head_hash,
    }
    season_services._append(season, "fixture.walkover", forged, "system", expected_seq=AT_HEAD, event_id=uuid.uuid4())
    verdict = verify_season(Season.objects.get(pk=season.pk).stream)
    assert not verdict.ok and "forfeited the draft" in verdict.reason


def test_a_draft_that_ran_to_its_end_gives_no_walkover(iwdl, django_capture_on_commit_callbacks):
    fixture = fixture_of(iwdl["season"])
    with django_capture_on_commit_callbacks(execute=True):
        draft = season_services.fixture_start(fixture=fixture, bots=True, expected_seq=AT_HEAD)
    assert fresh(draft.draft_match).verdict == Match.Verdict.VERIFIED
    assert season_services.result_record(match_id=draft.draft_match_id) is False
    assert walkovers(iwdl["season"]) == []
