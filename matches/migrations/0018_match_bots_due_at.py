"""``Match.bots_due_at``: when the bots' next command was queued (``_Writes.bots_due``), read by the
sweep that makes up for a lost one (``matches_bots_move_stalled``, every minute).

The column is nullable, so adding it rewrites nothing. Its index is partial (only the few matches
whose bots are due hold a value) and built CONCURRENTLY, as 0011 and 0017 are: the matches table is
large and the writes of live play must not wait on the build.
"""

from django.db import migrations, models

INDEX = "matches_match_bots_due_idx"


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor not in ("postgresql", "sqlite"):
        return
    concurrently = "CONCURRENTLY " if vendor == "postgresql" else ""
    schema_editor.execute(
        f"CREATE INDEX {concurrently}IF NOT EXISTS {INDEX} ON matches_match (bots_due_at) WHERE bots_due_at IS NOT NULL"
    )


def drop(apps, schema_editor):
    concurrently = "CONCURRENTLY " if schema_editor.connection.vendor == "postgresql" else ""
    schema_editor.execute(f"DROP INDEX {concurrently}IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    # CREATE INDEX CONCURRENTLY cannot run inside a transaction.
    atomic = False

    dependencies = [("matches", "0017_match_sweep_indexes")]
    operations = [
        migrations.AddField(
            model_name="match",
            name="bots_due_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(create, drop),
    ]
