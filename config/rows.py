"""Models read by hand-written statements on an action POST's path (issue 17, P5).

Fifty POSTs at once run their Python one after another under the GIL, so what one costs in CPU
is what the last waits. Most of an action POST's CPU was the ORM building SQL: its reads are
fixed shapes (a match and its stream by id, a match's seats with their users, a token with its
user), yet every request compiled each anew, 0.3-1.5 ms apiece against 0.05-0.15 ms for the
statement itself. ``Columns`` writes a model's part of such a statement once and builds the
instances the ORM would from the row: every concrete field, through the same converters (jsonb
arrives as text and is parsed by the field), so nothing downstream can tell the difference.
"""

from __future__ import annotations

import functools
import hashlib
import re
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db.models import Model
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init

#: The attributes Django gives a concrete field's value (``Field.descriptor_class``) that store it
#: as it is given.
_PLAIN_ATTRIBUTES = (DeferredAttribute, ForeignKeyDeferredAttribute)


def _class_attribute(model: type[Model], name: str) -> Any:
    return next((klass.__dict__[name] for klass in model.__mro__ if name in klass.__dict__), None)


def copied(instance: Model) -> Model:
    """A shallow copy of a model instance, as ``copy.copy`` makes one: a field set on it is not
    set on the original, and it has its own state and cache of related objects; the values, the
    related objects and the prefetched lists themselves are shared. ``copy.copy`` goes through
    pickling's protocol (``__reduce_ex__``, ``model_unpickle``'s look-up of the model,
    ``__setstate__``'s version check): an action POST's broadcast makes about three, and without
    them the POST ran 1.4% fewer instructions under callgrind (issue 17, P5)."""
    clone = instance.__class__.__new__(instance.__class__)
    clone.__dict__.update(instance.__dict__)
    state = clone._state = ModelState()
    state.__dict__.update(instance._state.__dict__)
    state.fields_cache = instance._state.fields_cache.copy()
    return clone


class Values:
    """Some of ``model``'s fields (by name, in the order given) as a hand-written statement selects
    them under the table alias ``alias``, each value converted as the ORM converts it for
    ``values_list`` (jsonb arrives as text and is parsed by its field).

    Those named in ``as_text`` are selected as the text the database prints for them, and given
    as that text: for a reader that would only turn the value back into text (a record's
    ``str(event_id)``: PostgreSQL prints a uuid as ``str(UUID)`` does, and building each UUID to
    print it again was 1-2% of a verification; issue 17)."""

    def __init__(self, model: type[Model], alias: str, names: Sequence[str], *, as_text: Sequence[str] = ()):
        self.model, self.alias = model, alias
        self.fields = [model._meta.get_field(name) for name in names]
        self._as_text = {model._meta.get_field(name) for name in as_text}
        if not self._as_text <= set(self.fields):
            raise ValueError(f"Values of {model.__name__}: as_text names a field not selected")
        self._converters: dict[str, list[tuple[int, Any, list]]] = {}

    def __len__(self) -> int:
        return len(self.fields)

    def select(self, connection) -> str:
        """The select list: ``"alias"."column", ...`` in this object's field order."""
        qn = connection.ops.quote_name
        return ", ".join(
            f"CAST({qn(self.alias)}.{qn(f.column)} AS text)"
            if f in self._as_text
            else f"{qn(self.alias)}.{qn(f.column)}"
            for f in self.fields
        )

    def convert(self, connection, values) -> list:
        """``values`` (this select list's part of a row) as the ORM gives them."""
        values = list(values)
        for index, expression, converters in self._converters_for(connection):
            value = values[index]
            for converter in converters:
                value = converter(value, expression, connection)
            values[index] = value
        return values

    def _converters_for(self, connection) -> list[tuple[int, Any, list]]:
        found = self._converters.get(connection.alias)
        if found is None:
            # What the SQL compiler applies to a selected column (SQLCompiler.get_converters).
            found = []
            for index, field in enumerate(self.fields):
                if field in self._as_text:
                    continue
                column = field.get_col(self.alias)
                converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
                if converters:
                    found.append((index, column, converters))
            self._converters[connection.alias] = found
        return found


class Columns(Values):
    """``model``'s concrete columns under the table alias ``alias``; with ``only`` (field names,
    the primary key's among them), those alone, the instances built with the others deferred, as
    the ORM's ``only()`` builds them."""

    def __init__(self, model: type[Model], alias: str, *, only: Sequence[str] | None = None):
        if only is None:
            fields = model._meta.concrete_fields
        else:
            # In the model's order, whatever the order given: ``from_db`` takes the values so.
            wanted = {model._meta.get_field(name) for name in only}
            fields = [f for f in model._meta.concrete_fields if f in wanted]
            if model._meta.pk not in wanted or len(fields) != len(wanted):
                raise ValueError(f"Columns of {model.__name__}: concrete fields, its primary key among them")
        super().__init__(model, alias, [f.name for f in fields])
        self._attnames = [f.attname for f in self.fields]
        self._deferring = only is not None
        # Model.__init__ does nothing for such a model but set each value on its attribute (an
        # attribute with no setter, or a foreign key's, which on a new instance only stores it).
        self._plain = (
            not self._deferring
            and model.__init__ is Model.__init__
            and model.from_db.__func__ is Model.from_db.__func__
            and all(type(_class_attribute(model, name)) in _PLAIN_ATTRIBUTES for name in self._attnames)
        )

    def by_pk(self, connection) -> str:
        """``SELECT`` of these columns from the model's table, the row whose primary key is ``%s``."""
        qn = connection.ops.quote_name
        return (
            f"SELECT {self.select(connection)} FROM {qn(self.model._meta.db_table)} {qn(self.alias)}"
            f" WHERE {qn(self.alias)}.{qn(self.model._meta.pk.column)} = %s"
        )

    def build(self, connection, values) -> Model:
        """The instance the ORM would build from ``values`` (this select list's part of a row)."""
        values = self.convert(connection, values)
        model = self.model
        if not self._plain or pre_init.has_listeners(model) or post_init.has_listeners(model):
            return model.from_db(connection.alias, self._attnames if self._deferring else None, values)
        # What from_db builds, without Model.__init__'s general path (its signals, which no one
        # listens to here, the check for deferred values, a setattr a field). An action POST
        # builds eight (a token and its user, a match, its stream, its seats and their users),
        # and runs 0.8% fewer instructions this way (issue 17, P5).
        new = model.__new__(model)
        state = ModelState()
        state.adding, state.db = False, connection.alias
        new.__dict__["_state"] = state
        new.__dict__.update(zip(self._attnames, values))
        return new


def statements_together(connection) -> bool:
    """Can one ``execute`` send several statements, each with its result (``cursor.nextset()``)?
    On PostgreSQL with Django's default client-side binding, yes: the statements go by the
    simple query protocol. With ``server_side_binding`` (an OPTIONS setting) a statement is
    prepared, and a prepared statement holds one command."""
    return (
        connection.vendor == "postgresql" and connection.settings_dict["OPTIONS"].get("server_side_binding") is not True
    )


@dataclass
class Statement:
    """A statement sent with others in one execute (``statements_together``), and what reads its
    result once it has run (the cursor is on its result set)."""

    sql: str
    params: list[Any]
    read: Callable[[Any], None]
    #: Whether it may run by its prepared form (``prepared``): only where every parameter takes its
    #: type from where it stands (a column it is compared with or written to). A bare ``SELECT %s``
    #: prepared gives its value back as text, where the literal gave the number.
    prepare: bool = False


#: The statements each database session has prepared, by the psycopg connection that is the session
#: for as long as it lives (a closed one leaves, with its session).
_PREPARED: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
#: Past this many statements prepared on one session, further ones run as they are: a bound on the
#: server's memory however many shapes the callers' statements take (an append's by its event count).
PREPARED_PER_SESSION = 200


def prepared(cursor, sql: str) -> str:
    """``sql`` (a single statement, its parameters ``%s``) as this connection's session runs it
    cheapest: ``EXECUTE`` of a statement the session has PREPAREd, the parameters the same ``%s``
    in the same order, so the caller passes the same list. PostgreSQL then neither parses nor
    plans the statement again: an API token's read took 215 µs of the server's CPU as text, 76 µs
    by EXECUTE, and an action POST's statements together 4.6 ms against 3.0 ms (issue 17, P5).

    For fixed statements, few in shape: every one a process prepares is kept by name (``unprepared``).
    Every parameter must take its type from where it stands (a column it is compared with or
    written to, or a cast): the server infers the prepared statement's parameter types from
    there, and one that has none comes back as text.

    The PREPARE goes first, once per session, in a statement of its own on the driver's cursor:
    like Django's own set-up of a new connection (its time zone), not a query of the caller's,
    which would otherwise count it in whichever request came first. A prepared statement is no
    part of a transaction: neither the rollback of the one it was made in, nor a later statement's
    failure, undoes it, so a name is kept only once its PREPARE has returned. The server keeps the
    parsed statement and plans it anew when a table it reads changes.

    ``sql`` as it is where preparing cannot pay or cannot work: not PostgreSQL with client-side
    binding (``statements_together``: server-side binding prepares by itself), a session that
    lasts only a request (no pool, CONN_MAX_AGE 0: a round trip more in each), DB_PREPARED_STATEMENTS
    off (a pooler that shares sessions), or a session that has prepared PREPARED_PER_SESSION."""
    # The cursor's own wrapper, not django.db.connection, a proxy that looks the wrapper up in a
    # context-local for each attribute read (issue 17, P5).
    connection = cursor.db
    if not _prepares(connection):
        return sql
    name, prepare, execute = _prepared_forms(sql)
    session = connection.connection
    done = _PREPARED.get(session)
    if done is None:  # setdefault would make a weak reference in every call, on the hot path
        done = _PREPARED[session] = set()
    if name not in done:
        if len(done) >= PREPARED_PER_SESSION:
            return sql
        with connection.wrap_database_errors:
            cursor.cursor.execute(prepare)
        done.add(name)
    return execute


def _prepares(connection) -> bool:
    options = connection.settings_dict
    return (
        settings.DB_PREPARED_STATEMENTS
        and statements_together(connection)
        and bool(options["OPTIONS"].get("pool") or options.get("CONN_MAX_AGE") != 0)
    )


@functools.lru_cache(maxsize=1024)
def _prepared_forms(sql: str) -> tuple[str, str, str]:
    """(name, ``PREPARE``, ``EXECUTE``) of ``sql``: its name a hash of its text, so every process
    names one statement alike and two statements never share a name."""
    if "%%" in sql or "%(" in sql or ";" in sql:
        raise ValueError("prepared() takes one statement whose parameters are all %s")
    head, *rest = sql.split("%s")
    body = head + "".join(f"${number}{text}" for number, text in enumerate(rest, 1))
    name = "wd_" + hashlib.blake2b(sql.encode(), digest_size=10).hexdigest()
    arguments = f"({', '.join(['%s'] * len(rest))})" if rest else ""
    _TEXTS[name] = sql
    return name, f"PREPARE {name} AS {body}", f"EXECUTE {name}{arguments}"


#: Each prepared statement's text by its name, for ``unprepared``.
_TEXTS: dict[str, str] = {}
_EXECUTE = re.compile(r"EXECUTE (wd_[0-9a-f]{20})(?:\((?:%s, )*%s\))?")


def unprepared(sql: str) -> str:
    """``sql`` as its caller would have sent it without ``prepared``: each ``EXECUTE name(%s,
    ...)`` of a statement this process prepared back to the statement's text, its ``%s`` where the
    arguments' were, so the same parameters fill it. What Django logs of a query
    (config/postgresql/base.py), and what tests read in it, is then the statement itself."""
    return _EXECUTE.sub(lambda found: _TEXTS.get(found[1], found[0]), sql)
