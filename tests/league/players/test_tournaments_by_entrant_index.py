"""The player page lists a player's tournaments (every one whose players include them, newest
first, at most 20) through the Entrant index the command runner keeps beside each tournament's
cached projection, not by reading every tournament's JSON state."""

from __future__ import annotations

import importlib
import uuid

import pytest
from django.apps import apps as django_apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league.players.selectors import player_profile
from league.tournaments import services
from league.tournaments.models import Entrant, Tournament
from matches.commands import AT_HEAD
from tests.league.tournaments.helpers import people

pytestmark = pytest.mark.django_db


def listed(user) -> list:
    return [t["id"] for t in player_profile(username=user.username)["tournaments"]]


def in_the_cached_states(user) -> list:
    """The answer the page gave before the index: every tournament's cached players read."""
    return list(
        Tournament.objects.filter(state__players__has_key=str(user.pk))
        .order_by("-created_at")
        .values_list("id", flat=True)[:20]
    )


def test_the_page_lists_the_same_tournaments_as_the_cached_states_newest_first_at_most_twenty():
    ann, ben, organiser = people("ann", "ben", "org")
    hers = []
    for n in range(23):
        t = services.tournament_create(created_by=organiser, name=f"Open {n}", game="dueling-wizards", format="swiss")
        if n % 4 == 3:  # one in four is Ben's, not Ann's
            services.tournament_register(tournament=t, user=ben, expected_seq=AT_HEAD)
            continue
        services.tournament_register(tournament=t, user=ann, expected_seq=AT_HEAD)
        if n % 5 == 0:  # a player who withdrew is still among its players, as before
            services.tournament_withdraw(tournament=t, user=ann, expected_seq=AT_HEAD)
        hers.append(t.id)
    assert len(hers) == 18
    assert listed(ann) == in_the_cached_states(ann) == hers[::-1]
    assert listed(ben) == in_the_cached_states(ben)
    assert len(listed(ben)) == 5

    for n in range(6):
        t = services.tournament_create(created_by=ben, name=f"Late {n}", game="dueling-wizards", format="swiss")
        services.tournament_register(tournament=t, user=ann, expected_seq=AT_HEAD)
        hers.append(t.id)
    assert listed(ann) == in_the_cached_states(ann) == hers[::-1][:20]


def test_the_entrants_are_a_projection_put_back_by_a_rebuild():
    ann, organiser = people("ann", "org")
    t = services.tournament_create(created_by=organiser, name="Open", game="dueling-wizards", format="swiss")
    services.tournament_register(tournament=t, user=ann, expected_seq=AT_HEAD)
    Entrant.objects.filter(tournament=t).delete()
    assert listed(ann) == []
    services.projection_rebuild(tournament=t)
    assert listed(ann) == [t.id]


def test_the_page_reads_a_players_tournaments_through_the_entrant_index_not_a_scan_of_every_state():
    # Two thousand tournaments of sixteen players each, one of them Ann's.
    players = people(*(f"p{i:02d}" for i in range(16)))
    ann = people("ann")[0]
    rows = [
        Tournament(
            id=uuid.uuid4(),
            name=f"Open {n}",
            game="dueling-wizards",
            format="swiss",
            created_by=players[0],
            state={"players": {str(p.pk): {"id": str(p.pk), "name": p.username} for p in players}},
        )
        for n in range(2000)
    ]
    rows[1234].state["players"][str(ann.pk)] = {"id": str(ann.pk), "name": "ann"}
    Tournament.objects.bulk_create(rows)
    for t in rows:
        services.entrants_save(tournament_id=t.pk, state=t.state)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE tournaments_tournament")
        cursor.execute("ANALYZE tournaments_entrant")

    with CaptureQueriesContext(connection) as queries:
        assert listed(ann) == [rows[1234].id]
    [read] = [q["sql"] for q in queries.captured_queries if 'FROM "tournaments_tournament"' in q["sql"]]
    with connection.cursor() as cursor:
        cursor.execute("EXPLAIN " + read)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "Seq Scan on tournaments_tournament" not in plan, plan
    assert "Seq Scan on tournaments_entrant" not in plan, plan


def test_the_migration_fills_the_index_from_every_tournaments_cached_players():
    ann, ben, organiser = people("ann", "ben", "org")
    entered = []
    for user in (ann, ben, ann):
        t = services.tournament_create(created_by=organiser, name="Open", game="dueling-wizards", format="swiss")
        services.tournament_register(tournament=t, user=user, expected_seq=AT_HEAD)
        entered.append((t.id, user.pk))
    before = sorted(Entrant.objects.values_list("tournament_id", "user_id"))
    assert before == sorted(entered)
    Entrant.objects.all().delete()
    migration = importlib.import_module("league.tournaments.migrations.0004_entrants")
    migration.entrants_from_cached_states(django_apps, None)
    assert sorted(Entrant.objects.values_list("tournament_id", "user_id")) == before
