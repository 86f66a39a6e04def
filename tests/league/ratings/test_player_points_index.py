"""The player page reads a competitor's rating points through an index led by the competitor:
on PostgreSQL each partition's primary key (a game's own partition and the default one)."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection

from league.ratings import partitions
from league.ratings.models import RatingPoint

pytestmark = pytest.mark.django_db


def test_a_players_points_in_every_game_are_read_through_the_competitor_index_not_a_scan():
    if connection.vendor != "postgresql":
        pytest.skip("the plan is PostgreSQL's")
    # A rated community: 400 people with 25 points each in each of two games, one of them
    # rebuilt (in its own partition, indexed after its points are in), one not (the default).
    with connection.cursor() as cursor:
        rebuilt = partitions.empty_for_rebuild(cursor, "dueling-wizards")
    RatingPoint.objects.bulk_create(
        RatingPoint(
            game=game,
            competitor=f"user:{person}",
            match_id=uuid.uuid4(),
            sequence=person * 100 + n,
            rating=1500.0,
            deviation=200.0,
        )
        for game in ("dueling-wizards", "wizard-dodgeball")
        for person in range(400)
        for n in range(25)
    )
    with connection.cursor() as cursor:
        cursor.execute(partitions.index_sql(rebuilt, one_game=True))
        cursor.execute("ANALYZE league_ratingpoint")

    # What league/players/selectors.py asks for a player's charts.
    plan = RatingPoint.objects.filter(competitor="user:7").order_by("game", "sequence").explain()

    assert f"{rebuilt}_competitor" in plan, plan
    assert f"{partitions.DEFAULT}_competitor" in plan, plan
    assert "Seq Scan" not in plan, plan
