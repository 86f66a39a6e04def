"""Let the beat's sweeps read the matches they look for, not the whole table, every minute.

``league.requeue_followups`` and ``tournaments.requeue_followups`` take the verdicts of their window
(``verified_at`` in a range: a day and a half by default, league/seasons/tasks.py
``followups_window``), and ``matches.requeue_unverified`` the finished matches still unverified.
No index held either: each ran a sequential scan of every match there is, every minute (200,000
matches: 150 to 540 ms each on a loaded two-core machine). With these, each reads its own rows:

- the matches by ``verified_at``, for the verdicts of a window;
- the finished matches whose verdict is pending, by ``finished_at`` (a partial index: a match
  leaves it once verified, so it holds the few waiting for their verification).

Raw SQL and CONCURRENTLY for the same reasons as 0011: the matches table is large and the writes
of live play must not wait on the build.
"""

from django.db import migrations

VERIFIED = "matches_match_verified_at_idx"
UNVERIFIED = "matches_match_unverified_idx"
INDEXES = (
    (VERIFIED, "ON matches_match (verified_at)"),
    (UNVERIFIED, "ON matches_match (finished_at) WHERE status = 'finished' AND verdict = 'pending'"),
)


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor not in ("postgresql", "sqlite"):
        return
    concurrently = "CONCURRENTLY " if vendor == "postgresql" else ""
    for name, sql in INDEXES:
        schema_editor.execute(f"CREATE INDEX {concurrently}IF NOT EXISTS {name} {sql}")


def drop(apps, schema_editor):
    concurrently = "CONCURRENTLY " if schema_editor.connection.vendor == "postgresql" else ""
    for name, _sql in INDEXES:
        schema_editor.execute(f"DROP INDEX {concurrently}IF EXISTS {name}")


class Migration(migrations.Migration):
    # CREATE INDEX CONCURRENTLY cannot run inside a transaction.
    atomic = False

    dependencies = [("matches", "0016_match_left")]
    operations = [migrations.RunPython(create, drop)]
