"""Database triggers that make the events table append-only.

The application never updates or deletes an event; these triggers make sure nothing
else can either, short of a superuser disabling them on purpose (which the verifier
then catches through the hash chain).
"""

TABLE = "matches_event"

POSTGRES_INSTALL = [
    f"""
    CREATE OR REPLACE FUNCTION {TABLE}_refuse_change() RETURNS trigger AS $$
    BEGIN
        RAISE EXCEPTION 'events are immutable: % on {TABLE} is refused', TG_OP
            USING ERRCODE = 'insufficient_privilege';
    END;
    $$ LANGUAGE plpgsql;
    """,
    f"""
    CREATE TRIGGER {TABLE}_no_update_delete
        BEFORE UPDATE OR DELETE ON {TABLE}
        FOR EACH ROW EXECUTE FUNCTION {TABLE}_refuse_change();
    """,
    f"""
    CREATE TRIGGER {TABLE}_no_truncate
        BEFORE TRUNCATE ON {TABLE}
        FOR EACH STATEMENT EXECUTE FUNCTION {TABLE}_refuse_change();
    """,
]
POSTGRES_REMOVE = [
    f"DROP TRIGGER IF EXISTS {TABLE}_no_truncate ON {TABLE};",
    f"DROP TRIGGER IF EXISTS {TABLE}_no_update_delete ON {TABLE};",
    f"DROP FUNCTION IF EXISTS {TABLE}_refuse_change();",
]

SQLITE_INSTALL = [
    f"""
    CREATE TRIGGER IF NOT EXISTS {TABLE}_no_update BEFORE UPDATE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, 'events are immutable: UPDATE on {TABLE} is refused'); END;
    """,
    f"""
    CREATE TRIGGER IF NOT EXISTS {TABLE}_no_delete BEFORE DELETE ON {TABLE}
    BEGIN SELECT RAISE(ABORT, 'events are immutable: DELETE on {TABLE} is refused'); END;
    """,
]
SQLITE_REMOVE = [
    f"DROP TRIGGER IF EXISTS {TABLE}_no_update;",
    f"DROP TRIGGER IF EXISTS {TABLE}_no_delete;",
]


def install(schema_editor) -> None:
    for sql in _statements(schema_editor.connection.vendor, install=True):
        schema_editor.execute(sql, params=None)


def remove(schema_editor) -> None:
    for sql in _statements(schema_editor.connection.vendor, install=False):
        schema_editor.execute(sql, params=None)


def _statements(vendor: str, *, install: bool) -> list[str]:
    if vendor == "postgresql":
        return POSTGRES_INSTALL if install else POSTGRES_REMOVE
    if vendor == "sqlite":
        return SQLITE_INSTALL if install else SQLITE_REMOVE
    raise RuntimeError(f"No immutability triggers written for the {vendor} database.")


def suspended_statements(vendor: str) -> tuple[list[str], list[str]]:
    """(disable, enable) SQL for an operator's deliberate purge, e.g. test-database flush."""
    if vendor == "postgresql":
        return ([f"ALTER TABLE {TABLE} DISABLE TRIGGER USER;"], [f"ALTER TABLE {TABLE} ENABLE TRIGGER USER;"])
    if vendor == "sqlite":
        return (SQLITE_REMOVE, SQLITE_INSTALL)
    raise RuntimeError(f"No immutability triggers written for the {vendor} database.")
