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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.models import Model


class Columns:
    """``model``'s concrete columns under the table alias ``alias``."""

    def __init__(self, model: type[Model], alias: str):
        self.model, self.alias = model, alias
        self.fields = model._meta.concrete_fields
        self._converters: dict[str, list[tuple[int, Any, list]]] = {}

    def __len__(self) -> int:
        return len(self.fields)

    def select(self, connection) -> str:
        """The select list: ``"alias"."column", ...`` in the model's field order."""
        qn = connection.ops.quote_name
        return ", ".join(f"{qn(self.alias)}.{qn(f.column)}" for f in self.fields)

    def build(self, connection, values) -> Model:
        """The instance the ORM would build from ``values`` (this select list's part of a row)."""
        values = list(values)
        for index, expression, converters in self._converters_for(connection):
            value = values[index]
            for converter in converters:
                value = converter(value, expression, connection)
            values[index] = value
        return self.model.from_db(connection.alias, None, values)

    def _converters_for(self, connection) -> list[tuple[int, Any, list]]:
        found = self._converters.get(connection.alias)
        if found is None:
            # What the SQL compiler applies to a selected column (SQLCompiler.get_converters).
            found = []
            for index, field in enumerate(self.fields):
                column = field.get_col(self.alias)
                converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
                if converters:
                    found.append((index, column, converters))
            self._converters[connection.alias] = found
        return found


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
