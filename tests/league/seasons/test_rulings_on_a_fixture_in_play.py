"""What the organiser may rule on a fixture whose match is being played. Not a postponement: the
fixture could then be started again, and one fixture would have two matches whose results both
land. A walkover, yes, with a reason (as the organiser's page asks for one), and it stands when
the match it replaced finishes and its verified result arrives later."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest

from league.errors import LeagueError
from league.seasons import services as season_services
from league.seasons.models import Fixture, Season
from league.seasons.verification import verify_season
from matches.commands import AT_HEAD
from matches.models import Event, Match, Stream

pytestmark = pytest.mark.django_db


@pytest.fixture
def duels(make_user):
    """A Dueling Wizards league of two clubs (a fixture starts its match at once), one fixture."""
    organiser, ann, ben = make_user("organiser"), make_user("ann"), make_user("ben")
    league = season_services.league_create(slug="duels", name="Duels", game="dueling-wizards", created_by=organiser)
    reds = season_services.club_create(league=league, user=organiser, slug="reds", name="Reds")
    blues = season_services.club_create(league=league, user=organiser, slug="blues", name="Blues")
    season_services.club_coach_add(club=reds, user=organiser, coach=ann)
    season_services.club_coach_add(club=blues, user=organiser, coach=ben)
    season = season_services.season_create(
        league=league, created_by=organiser, start_date=dt.date(2027, 3, 1), double=False
    )
    return season, {"organiser": organiser, "ann": ann, "ben": ben}


def command(client, season, body):
    """A fixture command based on the season's head as last read."""
    fixture = season.fixtures.get()
    return client.post(
        f"/api/leagues/duels/seasons/{season.number}/fixtures/{fixture.key}/",
        {**body, "expected_seq": Season.objects.get(pk=season.pk).projected_seq, "event_id": str(uuid.uuid4())},
        format="json",
    )


def in_play(season, client) -> Match:
    assert command(client, season, {"action": "start"}).status_code == 200
    assert season.fixtures.get().status == Fixture.Status.IN_PLAY
    return Match.objects.get()


def facts(season) -> list[str]:
    return list(Event.objects.filter(stream_id=season.stream_id).values_list("type", flat=True))


def test_a_fixture_in_play_cannot_be_postponed_and_so_is_not_started_twice(duels, client_for):
    season, people = duels
    in_play(season, client_for(people["ann"]))
    before = facts(season)
    refused = command(
        client_for(people["organiser"]), season, {"action": "postpone", "date": "2027-04-01", "reason": "Rain"}
    )
    assert (refused.status_code, refused.json()["code"]) == (409, "fixture_in_play"), refused.json()
    assert "walkover" in refused.json()["detail"]
    assert facts(season) == before and season.fixtures.get().status == Fixture.Status.IN_PLAY
    again = command(client_for(people["ben"]), season, {"action": "start"})
    assert (again.status_code, again.json()["code"]) == (409, "fixture_started")
    assert Match.objects.count() == 1


def test_the_service_refuses_to_postpone_a_fixture_in_play_whatever_the_fixture_it_was_handed_says(duels):
    # A postponement sent at the head (no expected_seq to go stale) by a caller holding the fixture
    # as read before the start: the status is read again under the season's lock.
    season, people = duels
    fixture = season.fixtures.select_related("season__league").get()
    season_services.fixture_start(
        fixture=season.fixtures.select_related("home", "away", "season__league").get(),
        user=people["ann"],
        expected_seq=AT_HEAD,
    )
    before = facts(season)
    with pytest.raises(LeagueError) as refused:
        season_services.fixture_postpone(
            fixture=fixture,
            user=people["organiser"],
            date=dt.date(2027, 4, 1),
            reason="Rain",
            expected_seq=AT_HEAD,
        )
    assert (refused.value.code, refused.value.status) == ("fixture_in_play", 409)
    assert facts(season) == before


def test_a_postponement_retried_after_its_fixture_was_started_is_answered_not_refused(duels, client_for):
    season, people = duels
    organiser = client_for(people["organiser"])
    fixture = season.fixtures.get()
    body = {
        "action": "postpone",
        "date": "2027-04-01",
        "reason": "Rain",
        "expected_seq": Season.objects.get(pk=season.pk).projected_seq,
        "event_id": str(uuid.uuid4()),
    }
    url = f"/api/leagues/duels/seasons/{season.number}/fixtures/{fixture.key}/"
    assert organiser.post(url, body, format="json").status_code == 200
    in_play(season, client_for(people["ann"]))
    retried = organiser.post(url, body, format="json")
    assert retried.status_code == 200, retried.json()
    assert facts(season).count("fixture.postponed") == 1


def test_a_walkover_without_a_reason_is_400_reason_required_and_writes_nothing(duels, client_for):
    season, people = duels
    before = facts(season)
    for body in ({"action": "walkover", "winner": "reds"}, {"action": "walkover", "winner": "reds", "reason": "  "}):
        refused = command(client_for(people["organiser"]), season, body)
        assert (refused.status_code, refused.json()["code"]) == (400, "reason_required"), refused.json()
        assert refused.json()["detail"]
    assert facts(season) == before and season.fixtures.get().status == Fixture.Status.SCHEDULED


def test_a_postponement_without_a_reason_is_400_reason_required_and_writes_nothing(duels, client_for):
    season, people = duels
    fixture = season.fixtures.get()
    before = facts(season), fixture.status, fixture.date
    for body in (
        {"action": "postpone", "date": "2027-04-01"},
        {"action": "postpone", "date": "2027-04-01", "reason": " \n "},
    ):
        refused = command(client_for(people["organiser"]), season, body)
        assert (refused.status_code, refused.json()["code"]) == (400, "reason_required"), refused.json()
        assert refused.json()["detail"]
    fixture.refresh_from_db()
    assert (facts(season), fixture.status, fixture.date) == before
    assert fixture.status == Fixture.Status.SCHEDULED


def test_a_walkover_awarded_in_play_stands_when_the_replaced_matchs_result_arrives(duels, client_for):
    season, people = duels
    match = in_play(season, client_for(people["ann"]))
    fixture = season.fixtures.select_related("home", "away").get()
    awarded = command(
        client_for(people["organiser"]), season, {"action": "walkover", "winner": fixture.away.slug, "reason": "Brawl"}
    )
    assert awarded.status_code == 200, awarded.json()
    # The match goes on to finish, the home club winning, and is verified: its result arrives.
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, verdict=Match.Verdict.VERIFIED, result={"placements": [0, 1]}
    )
    assert season_services.result_record(match_id=match.pk)
    after = season.fixtures.get()
    assert (after.status, after.walkover_winner_id, after.ruling) == (Fixture.Status.WALKOVER, fixture.away_id, "Brawl")
    assert verify_season(Stream.objects.get(id=season.stream_id)).ok


class _Fact:
    # In the platform's hand unless said: the fold takes a result, or its retraction, from no other.
    def __init__(self, seq, type, data, actor="system"):
        self.seq, self.type, self.data, self.actor = seq, type, data, actor


SCHEDULED = _Fact(
    2,
    "fixtures.scheduled",
    {"fixtures": [{"key": "r1:a:b", "round": 1, "date": "2027-01-04", "home": "a", "away": "b", "division": ""}]},
)
STARTED = _Fact(3, "fixture.started", {"fixture": "r1:a:b", "match": "m1"})
RECORDED = _Fact(
    5, "result.recorded", {"fixture": "r1:a:b", "match": "m1", "home_left": 1, "away_left": 0, "head_hash": "h"}
)
UNFINISHED = _Fact(5, "result.unfinished", {"fixture": "r1:a:b", "match": "m1", "reason": "Too many turns."})


@pytest.mark.parametrize("late", [RECORDED, UNFINISHED], ids=["result", "unfinished"])
def test_an_organisers_walkover_stands_over_the_replaced_matchs_late_report_in_the_fold(late):
    walkover = _Fact(4, "fixture.walkover", {"fixture": "r1:a:b", "winner": "b", "reason": "Brawl"})
    row = season_services.season_fold([SCHEDULED, STARTED, walkover, late])["r1:a:b"]
    assert (row["status"], row["walkover_winner"], row["result_seq"]) == (Fixture.Status.WALKOVER, "b", 4)


def test_a_walkover_recorded_without_a_reason_before_one_was_required_folds_as_it_was_projected():
    # The API once took a walkover with no reason, and the fold let the replaced match's result
    # overturn it. Seasons recorded so are stored with that result; a refold must give the same
    # rows, or the season verifier reports each of them as differing from its facts. The
    # organiser may rule again (with a reason) to put the walkover back.
    walkover = _Fact(4, "fixture.walkover", {"fixture": "r1:a:b", "winner": "b", "reason": ""})
    row = season_services.season_fold([SCHEDULED, STARTED, walkover, RECORDED])["r1:a:b"]
    assert (row["status"], row["walkover_winner"], row["home_left"], row["result_seq"]) == (
        Fixture.Status.PLAYED,
        "b",
        1,
        5,
    )
