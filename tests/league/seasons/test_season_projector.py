"""A season's fixtures projected fact by fact equal a whole refold (issue 17, P6).

Each fact is folded with the schedule and its own fixture's earlier facts only; after every
fact the stored fixtures must read exactly what refolding the whole season would store."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from league import streams
from league.seasons import services
from league.seasons.models import Season
from league.seasons.projector import fixture_facts_query, season_project_fixture
from matches.commands import AT_HEAD
from matches.models import Event, Match, Stream

FIELDS = (
    "key",
    "round",
    "date",
    "division",
    "home__slug",
    "away__slug",
    "status",
    "draft_id",
    "match_id",
    "home_left",
    "away_left",
    "walkover_winner__slug",
    "ruling",
    "result_seq",
)


def stored(season):
    return list(season.fixtures.order_by("key").values_list(*FIELDS))


def played(game="wizard-dodgeball") -> str:
    stream = Stream.objects.create(id=f"match:{uuid.uuid4()}", kind="match")
    return str(
        Match.objects.create(
            stream=stream,
            game=game,
            engine_version="1",
            status=Match.Status.FINISHED,
            result={"placements": [0, 1]},
            finished_at=timezone.now(),
        ).pk
    )


@pytest.fixture
def season(db, make_user):
    league = services.league_load_iwdl()
    organiser = make_user("organiser", staff=True)
    clubs = list(league.clubs.order_by("slug")[:4])
    return services.season_create(league=league, created_by=organiser, start_date=dt.date(2027, 1, 2), clubs=clubs)


def _appended_then_projected(season, type, data):
    streams.stream_append(
        stream_id=season.stream_id, kind="season", type=type, data=data, actor="system", expected_seq=AT_HEAD
    )
    season_project_fixture(season=season, fixture=data["fixture"])


def _appended_by_the_services(season, type, data):
    # What every fixture fact of services.py goes through: the runner, the projection inside it.
    services._append(season, type, data, "system", expected_seq=AT_HEAD)


@pytest.mark.parametrize("append", [_appended_then_projected, _appended_by_the_services])
def test_each_fact_projected_alone_leaves_the_fixtures_a_whole_refold_would(season, append):
    keys = list(season.fixtures.order_by("round", "key").values_list("key", flat=True))
    first, second, third, fourth = keys[:4]
    game_one, game_two = played(), played()
    facts = [
        ("fixture.postponed", {"fixture": first, "date": "2027-03-01", "reason": "Storm over the court"}),
        ("fixture.started", {"fixture": first, "match": game_one}),
        ("result.recorded", {"fixture": first, "match": game_one, "home_left": 3, "away_left": 0, "head_hash": "h"}),
        ("fixture.started", {"fixture": second, "match": game_two}),
        ("result.recorded", {"fixture": second, "match": game_two, "home_left": 0, "away_left": 2, "head_hash": "h"}),
        # The second match is found disputed: its result comes out and the fixture reopens.
        ("result.retracted", {"fixture": second, "match": game_two, "reason": "the match was disputed"}),
        ("fixture.walkover", {"fixture": third, "winner": season.config["clubs"][0], "reason": "No show"}),
        ("result.corrected", {"fixture": first, "home_left": 2, "away_left": 1, "reason": "Miscount"}),
        # A report arriving after the organiser's correction does not overturn it.
        ("result.recorded", {"fixture": first, "match": game_one, "home_left": 3, "away_left": 0, "head_hash": "h"}),
    ]
    for type, data in facts:
        append(season, type, data)
        incremental = stored(season)
        services.season_project(season=season)
        assert stored(season) == incremental, type
    rows = {row[0]: row for row in incremental}
    assert rows[first][6:8] == ("played", None) and rows[first][9:11] == (2, 1)
    assert rows[second][6] == "scheduled" and rows[second][12].startswith("Result retracted")
    assert rows[third][6] == "walkover" and rows[fourth][6] == "scheduled"
    season.refresh_from_db()
    assert season.projected_seq == Season.objects.get(pk=season.pk).stream.head_seq == 2 + len(facts)


def test_a_fixtures_facts_are_the_schedule_and_the_facts_naming_it_in_stream_order(season):
    first, second = season.fixtures.order_by("round", "key").values_list("key", flat=True)[:2]
    game = played()
    for type, data in (
        ("fixture.started", {"fixture": first, "match": game}),
        ("fixture.postponed", {"fixture": second, "date": "2027-03-01", "reason": "Fog"}),
        ("result.recorded", {"fixture": first, "match": game, "home_left": 1, "away_left": 0, "head_hash": "h"}),
    ):
        _appended_by_the_services(season, type, data)

    facts = fixture_facts_query(stream_id=season.stream_id, fixtures=[first])

    assert [(e.seq, e.type) for e in facts] == [
        (2, "fixtures.scheduled"),
        (3, "fixture.started"),
        (5, "result.recorded"),
    ]


@pytest.mark.parametrize("how_many", [1, 3])
def test_a_fixtures_facts_are_found_through_the_fixture_and_schedule_indexes_not_a_scan_of_the_stream(season, how_many):
    if connection.vendor != "postgresql":
        pytest.skip("the plan is PostgreSQL's")
    keys = list(season.fixtures.order_by("key").values_list("key", flat=True))
    # A season's worth of facts (a big season's 1,700), stored directly: only the plan is looked at.
    now = timezone.now()
    Event.objects.bulk_create(
        Event(
            stream_id=season.stream_id,
            seq=seq,
            type="fixture.postponed",
            data={"fixture": keys[seq % len(keys)], "date": "2027-03-01"},
            actor="system",
            recorded_at=now,
            prev_hash="0" * 64,
            hash="0" * 64,
        )
        for seq in range(3, 1703)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE matches_event")

    # One fixture after a fact, several after a batch of results.
    plan = fixture_facts_query(stream_id=season.stream_id, fixtures=keys[:how_many]).explain()

    assert "matches_event_fixture_idx" in plan and "matches_event_schedule_idx" in plan, plan
    assert "event_stream_seq_unique" not in plan and "Seq Scan" not in plan, plan


def test_a_fact_costs_as_many_queries_at_the_end_of_a_season_as_at_its_start(season):
    keys = list(season.fixtures.order_by("round", "key").values_list("key", flat=True))
    counts = []
    for key in keys:
        game = played()
        _appended_by_the_services(season, "fixture.started", {"fixture": key, "match": game})
        with CaptureQueriesContext(connection) as queries:
            _appended_by_the_services(
                season,
                "result.recorded",
                {"fixture": key, "match": game, "home_left": 2, "away_left": 0, "head_hash": "h"},
            )
        counts.append(len(queries.captured_queries))

    assert len(set(counts)) == 1, counts
    incremental = stored(season)
    services.season_project(season=season)
    assert stored(season) == incremental
