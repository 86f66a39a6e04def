"""The instances ``config.rows.Columns`` builds from a hand-written statement's row are the ones
the ORM builds from the same row (issue 17, P5: an action POST builds eight, and Model.__init__'s
general path was 1-2% of its instructions), and a model that needs that path still gets it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db import connection
from django.db.models import Model
from django.db.models.signals import post_init, pre_init
from rest_framework.authtoken.models import Token

from config.rows import Columns, Values
from matches import eventstore
from matches.eventstore import _RECORD_COLUMNS
from matches.models import Event, Match, Seat, Stream
from tests.matches.helpers import new_duel

pytestmark = pytest.mark.django_db


def row_of(instance, columns: Columns) -> list:
    """The instance's row as its table holds it, read back in the select list's order."""
    with connection.cursor() as cursor:
        cursor.execute(columns.by_pk(connection), [instance.pk])
        return list(cursor.fetchone())


def as_the_orm_builds(instance):
    return type(instance).objects.get(pk=instance.pk)


def test_each_model_read_by_hand_is_built_as_the_orm_builds_it(alice, bob):
    match = new_duel(alice, bob)
    token = Token.objects.create(user=alice)
    for instance in (match, Stream.objects.get(pk=match.stream_id), match.seats.first(), alice, token):
        columns = Columns(type(instance), "t")
        model = type(instance)
        assert columns._plain and not (pre_init.has_listeners(model) or post_init.has_listeners(model)), (
            f"{model.__name__} takes the general path"
        )
        built, orm = columns.build(connection, row_of(instance, columns)), as_the_orm_builds(instance)
        assert type(built) is type(orm)
        assert vars(built).keys() == vars(orm).keys()
        assert {k: v for k, v in vars(built).items() if k != "_state"} == {
            k: v for k, v in vars(orm).items() if k != "_state"
        }
        assert (built._state.adding, built._state.db) == (False, orm._state.db) == (False, "default")
        assert built._state.fields_cache == {} and built.pk == instance.pk
        built.save()  # saved as an existing row: an UPDATE, not an INSERT of a second one
        assert type(instance).objects.filter(pk=instance.pk).count() == 1


def test_a_model_whose_instances_have_listeners_is_built_through_its_init(alice, bob):
    seen = []

    def listened(sender, instance, **kwargs):
        seen.append(instance)

    columns = Columns(get_user_model(), "t")
    post_init.connect(listened, sender=get_user_model())
    try:
        built = columns.build(connection, row_of(alice, columns))
    finally:
        post_init.disconnect(listened, sender=get_user_model())
    assert seen == [built] and built.username == "alice"
    built_matches = []

    def before(sender, **kwargs):
        built_matches.append(sender)

    pre_init.connect(before, sender=Match)
    try:
        match = new_duel(alice, bob)
        built_matches.clear()
        Columns(Match, "t").build(connection, row_of(match, Columns(Match, "t")))
    finally:
        pre_init.disconnect(before, sender=Match)
    assert built_matches == [Match]


class _Storing:
    """An attribute that does something with what is set on it (as a FileField's does)."""

    def __get__(self, instance, owner=None):
        return self if instance is None else instance.__dict__["index"]

    def __set__(self, instance, value):
        instance.__dict__["index"] = int(value)


def test_a_model_with_its_own_init_or_an_attribute_that_stores_differently_is_built_through_its_init(monkeypatch):
    assert Columns(Seat, "t")._plain
    with monkeypatch.context() as patched:
        patched.setattr(Seat, "__init__", lambda self, *args, **kwargs: Model.__init__(self, *args, **kwargs))
        assert not Columns(Seat, "t")._plain
    with monkeypatch.context() as patched:
        patched.setattr(Seat, "index", _Storing())
        assert not Columns(Seat, "t")._plain
    assert Columns(Seat, "t")._plain


def test_some_columns_build_the_instance_only_builds_with_the_rest_deferred(alice, bob):
    match = new_duel(alice, bob)
    Match.objects.filter(pk=match.pk).update(origin={"tournament": 7}, result={"placements": [1, 0]})
    # Given in another order than the model's: the select list and the values follow the model's.
    columns = Columns(Match, "t", only=("result", "id", "origin", "status"))
    built = columns.build(connection, row_of(match, columns))
    orm = Match.objects.only("result", "id", "origin", "status").get(pk=match.pk)
    assert built.get_deferred_fields() == orm.get_deferred_fields() and "state" in built.get_deferred_fields()
    assert (built.pk, built.result, built.origin, built.status) == (orm.pk, orm.result, orm.origin, orm.status)
    assert built.origin == {"tournament": 7} and built._state.adding is False
    assert built.game == match.game  # a deferred field is read when asked for, as the ORM's is


def test_columns_refuse_a_subset_without_the_primary_key_or_with_a_name_that_is_no_column():
    with pytest.raises(ValueError):
        Columns(Match, "t", only=("result", "status"))
    with pytest.raises(FieldDoesNotExist):
        Columns(Match, "t", only=("id", "no_such_field"))


def test_values_read_as_text_are_the_text_str_gives_of_what_the_orm_reads(alice, bob):
    # A record holds an event's id as str(UUID): the verification's statement reads it as the
    # database prints it, nothing is built to be printed again, and the records are the ones the
    # ORM's values make.
    match = new_duel(alice, bob)
    with connection.cursor() as cursor:
        cursor.execute(eventstore.streams_records_sql(connection.alias, "%s"), [match.stream_id])
        rows = [eventstore.RECORD_VALUES.convert(connection, row) for row in cursor.fetchall()]
    event_id, data = _RECORD_COLUMNS.index("event_id"), _RECORD_COLUMNS.index("data")
    assert rows and all(type(row[event_id]) is str for row in rows)
    assert all(isinstance(row[data], dict) for row in rows)  # the other columns still converted
    assert eventstore.records_by_stream(rows) == eventstore.streams_records(stream_ids=[match.stream_id])


def test_values_refuse_as_text_for_a_field_not_selected():
    with pytest.raises(ValueError):
        Values(Event, "e", ("seq", "data"), as_text=("event_id",))
