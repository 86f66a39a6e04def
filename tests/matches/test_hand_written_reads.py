"""A match command reads its match, stream and seats by hand-written statements (config/rows.py;
issue 17, P5): what they give must be what the ORM gives, field for field, with the relations in
the places the ORM leaves them, so nothing after the read can tell."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from matches import services
from matches.models import Match, Seat

from .helpers import new_duel

pytestmark = pytest.mark.django_db


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def test_the_locked_match_and_its_stream_are_what_the_orm_reads(alice, bob):
    match = new_duel(alice, bob)
    with transaction.atomic():
        locked = services._match_for_update(str(match.pk))
    orm = Match.objects.select_related("stream").get(pk=match.pk)
    assert fields_of(locked) == fields_of(orm)
    assert isinstance(locked.state, dict) and locked.state == orm.state
    assert fields_of(locked.stream) == fields_of(orm.stream)
    assert locked.stream.match is locked
    assert not locked._state.adding and locked._state.db == orm._state.db


def test_a_match_that_is_not_there_is_refused_as_before(alice, bob):
    with transaction.atomic(), pytest.raises(services.MatchError) as refused:
        services._match_for_update("00000000-0000-0000-0000-000000000000")
    assert (refused.value.code, refused.value.status) == ("match_not_found", 404)


def test_the_seats_are_what_the_orm_reads_and_ask_nothing_more(alice, bob):
    match = new_duel(alice, bob, bots=["random"])
    locked = Match.objects.get(pk=match.pk)
    with CaptureQueriesContext(connection) as queries:
        seats = services.match_seats(match=locked)
        labels = [s.label for s in seats]
        held = [s.held_by(alice) for s in seats]
        again = list(locked.seats.all())
    assert len(queries) == 1
    orm = list(Seat.objects.filter(match=match).select_related("user").order_by("index"))
    assert [fields_of(s) for s in seats] == [fields_of(s) for s in orm]
    assert [fields_of(s.user) if s.user else None for s in seats] == [
        fields_of(s.user) if s.user else None for s in orm
    ]
    assert labels == ["alice", "bob", "random bot"] and held == [True, False, False]
    assert again == seats and all(s.match is locked for s in seats)
    # What is derived from the cached seats is still asked of the database for this match only.
    assert list(locked.seats.filter(index=1).values_list("user__username", flat=True)) == ["bob"]


def test_a_teams_seat_reads_its_partners_when_asked(alice, bob, carol):
    match = new_duel(alice, bob)
    Seat.objects.get(match=match, index=0).partners.add(carol)
    locked = Match.objects.get(pk=match.pk)
    team, alone = services.match_seats(match=locked)
    with CaptureQueriesContext(connection) as queries:
        assert team.label == "alice & carol"
    assert len(queries) == 1
    assert team.held_by(carol)
    with CaptureQueriesContext(connection) as queries:
        assert alone.label == "bob" and not alone.held_by(carol) and not alone.partners.exists()
    assert len(queries) == 0
    assert get_user_model().objects.filter(partner_seats=team).get() == carol


def test_the_seats_come_with_the_lock_in_one_round_trip_and_apart_where_statements_cannot_share_one(
    alice, bob, monkeypatch
):
    # One execute carries two statements only with client-side binding; with server_side_binding
    # each statement is prepared alone, so the seats are read when asked, and read the same.
    match = new_duel(alice, bob)
    with transaction.atomic(), CaptureQueriesContext(connection) as together:
        seats = [fields_of(s) for s in services.match_seats(match=services._match_for_update(match.pk))]
    monkeypatch.setitem(connection.settings_dict["OPTIONS"], "server_side_binding", True)
    with transaction.atomic(), CaptureQueriesContext(connection) as apart:
        locked = services._match_for_update(match.pk)
        assert 'FROM "matches_seat"' not in apart.captured_queries[-1]["sql"]
        assert [fields_of(s) for s in services.match_seats(match=locked)] == seats
    assert (len(together), len(apart)) == (1, 2)
