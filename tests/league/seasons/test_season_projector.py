"""A season's fixtures projected fact by fact equal a whole refold (issue 17, P6).

Each fact is folded with the schedule and its own fixture's earlier facts only; after every
fact the stored fixtures must read exactly what refolding the whole season would store."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.utils import timezone

from league import streams
from league.seasons import services
from league.seasons.models import Season
from league.seasons.projector import season_project_fixture
from matches.commands import AT_HEAD
from matches.models import Match, Stream

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


def test_each_fact_projected_alone_leaves_the_fixtures_a_whole_refold_would(season):
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
        streams.stream_append(
            stream_id=season.stream_id, kind="season", type=type, data=data, actor="system", expected_seq=AT_HEAD
        )
        season_project_fixture(season=season, fixture=data["fixture"])
        incremental = stored(season)
        services.season_project(season=season)
        assert stored(season) == incremental, type
    rows = {row[0]: row for row in incremental}
    assert rows[first][6:8] == ("played", None) and rows[first][9:11] == (2, 1)
    assert rows[second][6] == "scheduled" and rows[second][12].startswith("Result retracted")
    assert rows[third][6] == "walkover" and rows[fourth][6] == "scheduled"
    season.refresh_from_db()
    assert season.projected_seq == Season.objects.get(pk=season.pk).stream.head_seq == 2 + len(facts)
