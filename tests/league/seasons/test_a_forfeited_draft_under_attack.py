"""A fixture's draft resigned while the other coach picks, while the pick clock runs out, or
after its last pick: exactly one command is written, and the season ends with a walkover or a
match, never both, never neither. A fixture replayed after its forfeit was retracted forfeits
again under the new draft's id. The season verifier disputes a forged forfeit at its seq."""

from __future__ import annotations

import datetime as dt
import uuid
from types import SimpleNamespace
from unittest import mock

import pytest
from django.utils import timezone

from engines import registry
from league.drafts import services as draft_services
from league.drafts.models import Draft
from league.errors import LeagueError
from league.seasons import services as season_services
from league.seasons.models import Fixture, Season
from league.seasons.verification import verify_season
from matches import services as match_services
from matches.commands import AT_HEAD
from matches.eventstore import StaleSequence
from matches.models import Event, Match
from matches.services import MatchError
from matches.verification import match_verify
from tests.matches.helpers import fresh

pytestmark = pytest.mark.django_db

DRAFT = registry.get("iwdl-draft")


@pytest.fixture
def iwdl(make_user):
    """A Wizard Dodgeball league of three clubs: ann coaches the Reds, ben the Blues, cal the Greens."""
    organiser, ann, ben, cal = make_user("organiser"), make_user("ann"), make_user("ben"), make_user("cal")
    league = season_services.league_create(slug="iw", name="IW", game="wizard-dodgeball", created_by=organiser)
    for slug, coach in (("reds", ann), ("blues", ben), ("greens", cal)):
        club = season_services.club_create(league=league, user=organiser, slug=slug, name=slug.title())
        season_services.club_coach_add(club=club, user=organiser, coach=coach)
    season = season_services.season_create(
        league=league, created_by=organiser, start_date=dt.date(2027, 3, 1), double=False
    )
    coach = {"reds": ann, "blues": ben, "greens": cal}
    return {"organiser": organiser, "season": season, "coach": coach}


def fixtures(season) -> list[Fixture]:
    return list(Fixture.objects.select_related("home", "away", "season__league").filter(season=season).order_by("key"))


def refetch(fixture) -> Fixture:
    return Fixture.objects.select_related("home", "away", "season__league", "walkover_winner").get(pk=fixture.pk)


def start(iwdl, fixture) -> Draft:
    return season_services.fixture_start(fixture=fixture, user=iwdl["coach"][fixture.home.slug], expected_seq=AT_HEAD)


def seat_user(iwdl, fixture, seat):
    return iwdl["coach"][(fixture.home.slug, fixture.away.slug)[seat]]


def auto_act(iwdl, fixture, draft_match, *, expected_seq=None):
    m = fresh(draft_match)
    seat = DRAFT.to_move(m.state)[0]
    action = {k: v for k, v in DRAFT.auto_action(m.state, seat).items() if k != "auto"}
    return match_services.match_act(
        match_id=m.id,
        user=seat_user(iwdl, fixture, seat),
        seat=seat,
        action=action,
        expected_seq=m.state_seq if expected_seq is None else expected_seq,
    )


def season_facts(season, type) -> list[Event]:
    return list(Event.objects.filter(stream_id=season.stream_id, type=type).order_by("seq"))


def test_a_resignation_and_a_pick_sent_at_the_same_head_write_one_and_the_season_gets_one_outcome(
    iwdl, django_capture_on_commit_callbacks
):
    fixture = fixtures(iwdl["season"])[0]
    draft = start(iwdl, fixture)
    auto_act(iwdl, fixture, draft.draft_match)  # player 2 takes or passes the first pick
    head = fresh(draft.draft_match).state_seq
    with django_capture_on_commit_callbacks(execute=True):
        auto_act(iwdl, fixture, draft.draft_match, expected_seq=head)
        with pytest.raises(StaleSequence) as stale:
            match_services.match_resign(
                match_id=draft.draft_match_id, user=seat_user(iwdl, fixture, 0), expected_seq=head
            )
    assert stale.value.code == "stale_seq"
    assert fresh(draft.draft_match).status == Match.Status.LIVE
    assert season_facts(iwdl["season"], "fixture.walkover") == []
    # At the new head the resignation lands; the season gets the walkover, and no match.
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_resign(
            match_id=draft.draft_match_id,
            user=seat_user(iwdl, fixture, 0),
            expected_seq=fresh(draft.draft_match).state_seq,
        )
    row = refetch(fixture)
    assert (row.status, row.walkover_winner_id, row.match_id) == (Fixture.Status.WALKOVER, fixture.away_id, None)
    assert verify_season(Season.objects.get(pk=iwdl["season"].pk).stream).ok


def test_the_pick_clock_run_out_after_a_resignation_picks_nothing(iwdl, django_capture_on_commit_callbacks):
    fixture = fixtures(iwdl["season"])[0]
    draft = start(iwdl, fixture)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_resign(
            match_id=draft.draft_match_id,
            user=seat_user(iwdl, fixture, 1),
            expected_seq=fresh(draft.draft_match).state_seq,
        )
    ended = fresh(draft.draft_match)
    later = timezone.now() + dt.timedelta(hours=1)
    stale_room = Draft.objects.select_related("draft_match").get(pk=draft.pk)
    for seq in (ended.state_seq - 2, ended.state_seq):
        with (
            mock.patch("matches.eventstore.database_now", return_value=later),
            pytest.raises((LeagueError, MatchError, StaleSequence)) as refused,
        ):
            draft_services.draft_clock_expire(draft=stale_room, expected_seq=seq)
        assert refused.value.code in ("match_finished", "stale_seq")
    assert fresh(ended).state_seq == ended.state_seq
    row = refetch(fixture)
    assert (row.status, row.walkover_winner_id) == (Fixture.Status.WALKOVER, fixture.home_id)


def test_a_draft_resigned_once_its_picks_are_done_is_refused_and_its_match_is_the_outcome(
    iwdl, django_capture_on_commit_callbacks
):
    fixture = fixtures(iwdl["season"])[0]
    draft = start(iwdl, fixture)
    with django_capture_on_commit_callbacks(execute=True):
        while DRAFT.to_move(fresh(draft.draft_match).state):
            auto_act(iwdl, fixture, draft.draft_match)
    ended = fresh(draft.draft_match)
    with pytest.raises(MatchError) as late:
        match_services.match_resign(match_id=ended.id, user=seat_user(iwdl, fixture, 0), expected_seq=ended.state_seq)
    assert late.value.code == "match_finished"
    assert Draft.objects.get(pk=draft.pk).match_id is not None
    assert season_services.result_record(match_id=ended.id) is False
    assert season_facts(iwdl["season"], "fixture.walkover") == []


def test_a_fixture_replayed_after_its_forfeit_was_retracted_forfeits_again_to_the_right_club(
    iwdl, django_capture_on_commit_callbacks
):
    fixture = fixtures(iwdl["season"])[0]
    first = start(iwdl, fixture)
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_resign(
            match_id=first.draft_match_id,
            user=seat_user(iwdl, fixture, 0),
            expected_seq=fresh(first.draft_match).state_seq,
        )
    Match.objects.filter(pk=first.draft_match_id).update(
        verdict=Match.Verdict.DISPUTED, verdict_reason="altered", disputed_at=fresh(first.draft_match).verified_at
    )
    assert season_services.result_retract(match_id=first.draft_match_id) is True
    assert refetch(fixture).status == Fixture.Status.SCHEDULED
    second = start(iwdl, refetch(fixture))
    with django_capture_on_commit_callbacks(execute=True):
        match_services.match_resign(
            match_id=second.draft_match_id,
            user=seat_user(iwdl, fixture, 1),
            expected_seq=fresh(second.draft_match).state_seq,
        )
    row = refetch(fixture)
    assert (row.status, row.walkover_winner_id, row.draft_id) == (
        Fixture.Status.WALKOVER,
        fixture.home_id,
        second.draft_match_id,
    )
    assert len(season_facts(iwdl["season"], "fixture.walkover")) == 2
    assert verify_season(Season.objects.get(pk=iwdl["season"].pk).stream).ok


def forged_walkover(iwdl, fixture, draft_match, actor="system", **changes):
    season = iwdl["season"]
    data = {
        "fixture": fixture.key,
        "winner": fixture.away.slug,
        "reason": f"The {fixture.home.name} coach resigned the draft.",
        "draft": str(draft_match.id),
        "head_hash": fresh(draft_match).head_hash,
        **changes,
    }
    season_services._append(season, "fixture.walkover", data, actor, expected_seq=AT_HEAD, event_id=uuid.uuid4())
    return Event.objects.filter(stream_id=season.stream_id).order_by("-seq").first().seq


def test_the_season_verifier_disputes_a_walkover_citing_another_fixtures_draft(iwdl):
    one, other = fixtures(iwdl["season"])[:2]
    theirs = start(iwdl, other)
    match_services.match_resign(
        match_id=theirs.draft_match_id, user=seat_user(iwdl, other, 0), expected_seq=fresh(theirs.draft_match).state_seq
    )
    start(iwdl, one)
    seq = forged_walkover(iwdl, one, theirs.draft_match)
    verdict = verify_season(Season.objects.get(pk=iwdl["season"].pk).stream)
    assert (verdict.ok, verdict.seq) == (False, seq) and "not made for this fixture" in verdict.reason


def test_the_season_verifier_disputes_a_walkover_citing_a_draft_still_running(iwdl):
    fixture = fixtures(iwdl["season"])[0]
    draft = start(iwdl, fixture)
    Match.objects.filter(pk=draft.draft_match_id).update(verdict=Match.Verdict.VERIFIED)
    seq = forged_walkover(iwdl, fixture, draft.draft_match)
    verdict = verify_season(Season.objects.get(pk=iwdl["season"].pk).stream)
    assert (verdict.ok, verdict.seq) == (False, seq) and "not forfeited" in verdict.reason


def test_the_season_verifier_disputes_a_forfeit_whose_reason_blames_the_club_that_won(iwdl):
    # The ruling every page shows is the walkover's reason: one naming the winner as the club
    # that resigned tells everyone the wrong story, though the table is right.
    fixture = fixtures(iwdl["season"])[0]
    draft = start(iwdl, fixture)
    match_services.match_resign(
        match_id=draft.draft_match_id, user=seat_user(iwdl, fixture, 0), expected_seq=fresh(draft.draft_match).state_seq
    )
    match_verify(match_id=draft.draft_match_id)
    seq = forged_walkover(iwdl, fixture, draft.draft_match, reason=f"The {fixture.away.name} coach resigned the draft.")
    verdict = verify_season(Season.objects.get(pk=iwdl["season"].pk).stream)
    assert (verdict.ok, verdict.seq) == (False, seq) and "reason" in verdict.reason


def test_the_season_verifier_disputes_a_draft_forfeit_written_by_anyone_but_the_platform(iwdl):
    # Everything as the platform would write it (a verified draft the home coach resigned, the
    # right winner, reason and head), but in the organiser's hand: only a rewritten stream holds it.
    fixture = fixtures(iwdl["season"])[0]
    draft = start(iwdl, fixture)
    match_services.match_resign(
        match_id=draft.draft_match_id, user=seat_user(iwdl, fixture, 0), expected_seq=fresh(draft.draft_match).state_seq
    )
    assert match_verify(match_id=draft.draft_match_id).verified
    seq = forged_walkover(iwdl, fixture, draft.draft_match, actor=f"user:{iwdl['organiser'].pk}")
    verdict = verify_season(Season.objects.get(pk=iwdl["season"].pk).stream)
    assert (verdict.ok, verdict.seq) == (False, seq)
    assert "platform" in verdict.reason and f"user:{iwdl['organiser'].pk}" in verdict.reason


def fact(seq, type, data, actor="system"):
    return SimpleNamespace(seq=seq, type=type, data=data, actor=actor)


@pytest.mark.parametrize("actor", ["user:1", "", "clock"])
def test_the_season_fold_takes_a_draft_forfeit_as_the_platforms_only_from_the_platform(actor):
    # The platform's forfeit is retracted when its draft is found disputed; one in any other hand
    # is no platform fact, so the platform's retraction does not reopen the fixture it decided.
    scheduled = fact(
        1,
        "fixtures.scheduled",
        {"fixtures": [{"key": "r1-a-b", "round": 1, "date": "2027-03-01", "division": "", "home": "a", "away": "b"}]},
    )
    started = fact(2, "fixture.started", {"fixture": "r1-a-b", "draft": "d1"}, "user:2")
    walkover = {"fixture": "r1-a-b", "winner": "b", "reason": "The A coach resigned the draft.", "draft": "d1"}
    retracted = fact(4, "result.retracted", {"fixture": "r1-a-b", "match": "d1", "reason": "the draft was disputed"})

    platforms = season_services.season_fold([scheduled, started, fact(3, "fixture.walkover", walkover), retracted])
    assert platforms["r1-a-b"]["status"] == Fixture.Status.SCHEDULED

    forged = season_services.season_fold([scheduled, started, fact(3, "fixture.walkover", walkover, actor), retracted])
    assert forged["r1-a-b"]["status"] == Fixture.Status.WALKOVER
    assert forged["r1-a-b"]["ruling"] == "The A coach resigned the draft."
