"""A game that ends unfinished (Wizard Dodgeball's bound on turns for bot games, issue 20) is
counted nowhere: no rating, no standings; a season fixture stays open for the organiser with
the reason shown, and a tournament pairing records no result and waits for the organiser
(engines/wizard_dodgeball/RULES.md "Unfinished games")."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from engines import registry
from engines.base import CHANCE
from league.ratings.models import Rating
from league.ratings.projection import rated_results
from league.seasons import selectors, services
from league.seasons.models import Fixture
from league.seasons.table import Result, standings
from league.seasons.verification import verify_season
from league.tournaments import services as tournaments
from league.tournaments.receivers import tournament_hold_unfinished
from matches.commands import AT_HEAD
from matches.models import Event, Match, Stream
from matches.services import SeatSpec, match_act, match_create
from tests.league.tournaments.helpers import field, open_tournament, state

GAME = "wizard-dodgeball"


# -- standings (pure) ------------------------------------------------------------------------


def test_an_unfinished_result_earns_no_points_no_game_played_and_no_form():
    played = Result("a", "b", 3, 0, round=1)
    rows = {r.club: r for r in standings(["a", "b"], [played, Result("b", "a", 4, 1, round=2, unfinished=True)])}
    assert (rows["a"].played, rows["a"].won, rows["a"].points, rows["a"].form) == (1, 1, 3, "W")
    assert (rows["b"].played, rows["b"].lost, rows["b"].wizard_difference, rows["b"].form) == (1, 1, -3, "L")


# -- a season fixture ----------------------------------------------------------------------------


@pytest.fixture
def season(db, make_user):
    league = services.league_load_iwdl()
    league.created_by = make_user("organiser")
    league.save()
    return services.season_create(
        league=league,
        created_by=league.created_by,
        start_date=dt.date(2027, 1, 4),
        clubs=list(league.clubs.order_by("slug")[:2]),
    )


def start_fixture_with_bots(season, fixture, config):
    """The fixture's match between two bots, as a simulated season plays it, with the bound given."""
    origin = {"season": str(season.pk), "fixture": fixture.key, "fixture_clubs": [fixture.home.slug, fixture.away.slug]}
    match = match_create(
        game=GAME, seats=[SeatSpec(bot="random"), SeatSpec(bot="random")], created_by=None, config=config, origin=origin
    )
    services._append(
        season, "fixture.started", {"fixture": fixture.key, "match": str(match.id)}, "system", expected_seq=AT_HEAD
    )
    return match


def test_an_unfinished_fixture_match_moves_no_standings_and_no_rating_and_stays_open(
    season, django_capture_on_commit_callbacks
):
    fixture = season.fixtures.select_related("home", "away").order_by("round", "id").first()
    with django_capture_on_commit_callbacks(execute=True):
        match = start_fixture_with_bots(season, fixture, {"turn_limit": 10})
    match.refresh_from_db()
    assert match.result["unfinished"] and match.result["winners"] == []
    assert match.verdict == Match.Verdict.VERIFIED
    fixture.refresh_from_db()
    # Open again, with the reason on the fixture (the season page shows the ruling beside the status).
    assert fixture.status == Fixture.Status.SCHEDULED and fixture.match_id == match.id
    assert fixture.ruling.startswith("Unfinished: ") and "limit of 10 turns" in fixture.ruling
    assert (fixture.home_left, fixture.away_left) == (None, None)
    assert all(row["played"] == 0 and row["points"] == 0 for row in selectors.season_standings(season=season))
    assert rated_results(GAME)[0] == [] and not Rating.objects.filter(game=GAME).exists()
    # The season's facts still verify, and the fact is recorded once however often it arrives.
    assert verify_season(Stream.objects.get(id=season.stream_id)).ok
    assert services.result_record(match_id=match.id) is False
    assert Event.objects.filter(stream_id=season.stream_id, type="result.unfinished").count() == 1
    # The organiser can have it replayed: the fixture starts again and this time counts.
    with django_capture_on_commit_callbacks(execute=True):
        replay = start_fixture_with_bots(season, fixture, {"turn_limit": None})
    replay.refresh_from_db()
    fixture.refresh_from_db()
    assert not replay.result.get("unfinished") and replay.verdict == Match.Verdict.VERIFIED
    assert fixture.status == Fixture.Status.PLAYED and fixture.match_id == replay.id
    assert sum(row["played"] for row in selectors.season_standings(season=season)) == 2
    rated, _labels = rated_results(GAME)
    assert [r.match_id for r in rated] == [replay.id] and Rating.objects.filter(game=GAME).count() == 2


def test_an_organisers_ruling_made_before_the_unfinished_report_stands(season):
    fixture = season.fixtures.select_related("home", "away").order_by("round", "id").first()
    services.fixture_walkover(
        fixture=fixture,
        user=season.league.created_by,
        winner=fixture.home,
        reason="ruled before the report arrived",
        expected_seq=AT_HEAD,
    )
    services._append(
        season,
        "result.unfinished",
        {"fixture": fixture.key, "match": "m1", "reason": "late"},
        "system",
        expected_seq=AT_HEAD,
    )
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.WALKOVER and fixture.ruling == "ruled before the report arrived"


# -- a tournament pairing ----------------------------------------------------------------------------


def play_randomly(match: Match, users) -> Match:
    engine = registry.get(match.game, match.engine_version)
    rng = random.Random(3)
    for _ in range(3000):
        match = Match.objects.get(pk=match.pk)
        if match.status == Match.Status.FINISHED:
            return match
        seat = next(s for s in engine.to_move(match.state) if s != CHANCE)
        action = engine.bot_action("random", match.state, seat, rng)
        match_act(match_id=match.id, user=users[seat], seat=seat, action=action, expected_seq=match.state_seq)
    raise AssertionError("match did not end")


def test_an_unfinished_bracket_match_records_no_result_and_waits_for_the_organiser(
    alice, django_capture_on_commit_callbacks
):
    players = field(2)
    t = open_tournament(
        alice, "single_elimination", players, start=True, game=GAME, match_config={"turn_limit": 10, "first_player": 0}
    )
    out = tournaments.tournament_match_create(tournament=t, pairing="M1", by=players[0], expected_seq=AT_HEAD)
    match = Match.objects.get(pk=out.state["pairings"]["M1"]["match_id"])
    seats = {s.index: s.user for s in match.seats.all()}
    with django_capture_on_commit_callbacks(execute=True):
        match = play_randomly(match, seats)
    match.refresh_from_db()
    assert match.result["unfinished"] and match.verdict == Match.Verdict.VERIFIED
    record = state(t)["pairings"]["M1"]
    assert record["result"] is None and record["status"] == "disputed"
    reasons = [h.get("reason", "") for h in record["history"] if h["event"] == "match_disputed"]
    assert len(reasons) == 1 and "unfinished" in reasons[0] and "organiser" in reasons[0]
    assert not Event.objects.filter(stream_id=t.stream_id, type="result.verified").exists()
    # Held once however often the verdict arrives.
    head = state(t)["seq"]
    assert tournament_hold_unfinished(match_id=match.id) == "held"
    assert state(t)["seq"] == head
    # The organiser decides, as for a drawn bracket match.
    tournaments.tournament_rule(
        tournament=t,
        pairing="M1",
        by=alice,
        result={"winner": str(players[1].pk)},
        reason="replayed over the board",
        expected_seq=AT_HEAD,
    )
    record = state(t)["pairings"]["M1"]
    assert record["status"] == "final" and record["result"] == {"winner": str(players[1].pk)}


def test_the_season_verifier_disputes_an_unfinished_fact_whose_match_has_a_result(
    season, django_capture_on_commit_callbacks
):
    fixture = season.fixtures.select_related("home", "away").order_by("round", "id").first()
    with django_capture_on_commit_callbacks(execute=True):
        match = start_fixture_with_bots(season, fixture, {"turn_limit": 10})
    fact = Event.objects.get(stream_id=season.stream_id, type="result.unfinished")
    # The match's published result is changed to a win afterwards: the fact no longer stands.
    Match.objects.filter(pk=match.pk).update(result={**match.result, "unfinished": False, "winners": [0]})
    verdict = verify_season(Stream.objects.get(id=season.stream_id))
    assert not verdict.ok and verdict.seq == fact.seq and "has a result" in verdict.reason
