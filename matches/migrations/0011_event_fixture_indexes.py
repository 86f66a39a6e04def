"""Find one fixture's facts in a season stream without reading the whole stream (issue 17, P6).

The season projector folds the schedule and the facts that name one fixture after each new fact.
Filtering the stream's events for them read every event of the season (about 1,700 by its end),
so each fact cost more than the one before. Two partial indexes make that read flat:

- the events whose data names a fixture, by stream and fixture (``data -> 'fixture'`` is the
  expression Django's ``data__fixture=`` lookup compares; the row is only indexed when the key is
  there, so a match's events, which never name one, cost no index write);
- the schedule facts, by stream.

Raw SQL because a partial expression index over a JSON key is written differently by each
database, and ``matches/models.py`` (Event's Meta) is not this change's to edit. PostgreSQL builds
them CONCURRENTLY: the events table is the largest there is and appends must not wait on the build.
"""

from django.db import migrations

FIXTURE = "matches_event_fixture_idx"
SCHEDULE = "matches_event_schedule_idx"

POSTGRES = (
    f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {FIXTURE} ON matches_event (stream_id, (data -> 'fixture')) "
    "WHERE (data -> 'fixture') IS NOT NULL",
    f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {SCHEDULE} ON matches_event (stream_id) "
    "WHERE type = 'fixtures.scheduled'",
)
SQLITE = (
    f"CREATE INDEX IF NOT EXISTS {FIXTURE} ON matches_event (stream_id, json_extract(data, '$.\"fixture\"')) "
    "WHERE json_extract(data, '$.\"fixture\"') IS NOT NULL",
    f"CREATE INDEX IF NOT EXISTS {SCHEDULE} ON matches_event (stream_id) WHERE type = 'fixtures.scheduled'",
)


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    statements = POSTGRES if vendor == "postgresql" else SQLITE if vendor == "sqlite" else ()
    for sql in statements:
        schema_editor.execute(sql)


def drop(apps, schema_editor):
    concurrently = "CONCURRENTLY " if schema_editor.connection.vendor == "postgresql" else ""
    for name in (FIXTURE, SCHEDULE):
        schema_editor.execute(f"DROP INDEX {concurrently}IF EXISTS {name}")


class Migration(migrations.Migration):
    # CREATE INDEX CONCURRENTLY cannot run inside a transaction.
    atomic = False

    dependencies = [("matches", "0010_invitation_invitee")]
    operations = [migrations.RunPython(create, drop)]
