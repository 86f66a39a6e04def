"""Find a match's closing event without reading its whole stream (issue 17, P4a/P4b).

A verdict's ratings step and a ratings rebuild take each match's order from its closing event,
``max(id) WHERE stream_id = … AND type = 'match.finished'``. Through the (stream, seq) index that
read every event of the match (hundreds in a long game: 0.6 ms a match on a loaded machine, with
about 410 rows removed by the filter). A partial index holds one row per finished match, so the
lookup is one index probe and appends of every other event cost no index write.

Raw SQL and CONCURRENTLY for the same reasons as 0011.
"""

from django.db import migrations

FINISHED = "matches_event_finished_idx"
SQL = "ON matches_event (stream_id, id) WHERE type = 'match.finished'"


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {FINISHED} {SQL}")
    elif vendor == "sqlite":
        schema_editor.execute(f"CREATE INDEX IF NOT EXISTS {FINISHED} {SQL}")


def drop(apps, schema_editor):
    concurrently = "CONCURRENTLY " if schema_editor.connection.vendor == "postgresql" else ""
    schema_editor.execute(f"DROP INDEX {concurrently}IF EXISTS {FINISHED}")


class Migration(migrations.Migration):
    # CREATE INDEX CONCURRENTLY cannot run inside a transaction.
    atomic = False

    dependencies = [("matches", "0011_event_fixture_indexes")]
    operations = [migrations.RunPython(create, drop)]
