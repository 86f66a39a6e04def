"""RatingPoint on PostgreSQL: one partition per game (issue 17, P4b).

A rebuild replaces every point of its game. In one table that meant deleting them (each old
point stays as a dead row, with its dead index entries, until a vacuum) and writing the new
ones through three secondary indexes entry by entry; building the indexes after the write
instead read the whole table, every game's points and the dead rows. With a partition per game
a rebuild empties its game's partition (TRUNCATE: a new, empty file, no dead rows), drops that
partition's indexes, writes the points, and builds the indexes over only those rows, sorted
once. On 10k duels (scratch measurements, in turns, on a loaded machine) the server's CPU for
replacing the points went from 0.41-0.54 s to 0.07-0.11 s, and for the whole rebuild from
0.47-0.61 s to 0.24-0.30 s; four-player games (40k points), 0.96-1.03 s to 0.31-0.44 s.

The parent has no index: each partition has its own. A game's partition holds one game, so its
keys leave the game out (narrower entries, cheaper to build); the default partition, which
takes the points of any game not yet rebuilt, keeps it. Every read of the model names the
competitor, the match or the sequence, each of which leads one of a partition's indexes:

- ``<table>_competitor``, the primary key: (competitor, sequence), the player's charts and
  the rewind's points before a late result;
- ``<table>_match``: (match_id), "is this match in the ratings?" (the verdict, the sweep);
- ``<table>_sequence``: (sequence), the results after a late one.

Locks: TRUNCATE holds the partition in ACCESS EXCLUSIVE mode until the rebuild commits, the
parent not at all, so a read of this game's points (or one that cannot prune partitions: the
player page, a verdict's first read) waits for the rebuild instead of reading the old points.
A rebuild takes the game's checkpoint lock first, as every other writer does, then the
partition's lock; a transaction that read the game's points and then waits for the checkpoint
(only ``ratings_apply``'s two statements inside an outer transaction do that) would deadlock
with it, and PostgreSQL would end one of the two after ``deadlock_timeout``. Outside a
transaction each statement's locks end with it.

A partition's rows are written by the rebuild's transaction: a REPEATABLE READ transaction that
began before the rebuild committed sees the partition empty (TRUNCATE is not MVCC-safe); READ
COMMITTED, Django's default, takes each statement's snapshot after its locks and sees the new
points.
"""

from __future__ import annotations

import hashlib
import re

from django.db import connection

from .models import RatingPoint

PARENT = RatingPoint._meta.db_table
DEFAULT = f"{PARENT}_default"


def partition_of(game: str) -> str:
    """The name of ``game``'s partition: readable, under PostgreSQL's 63 characters with an
    index suffix, and distinct for distinct games (a hash of the whole name)."""
    slug = re.sub(r"[^a-z0-9]+", "_", game.lower())[:20]
    return f"{PARENT}_{slug}_{hashlib.sha1(game.encode()).hexdigest()[:8]}"


def index_sql(table: str, *, one_game: bool) -> str:
    """The indexes of a partition (``one_game``: a game's own, whose keys leave the game out)."""
    game = "" if one_game else "game, "
    return (
        f"ALTER TABLE {table} ADD CONSTRAINT {table}_competitor PRIMARY KEY (competitor, {game}sequence); "
        f"CREATE INDEX {table}_match ON {table} ({game}match_id); "
        f"CREATE INDEX {table}_sequence ON {table} ({game}sequence)"
    )


def _drop_index_sql(table: str) -> str:
    return (
        f"ALTER TABLE {table} DROP CONSTRAINT IF EXISTS {table}_competitor; "
        f"DROP INDEX IF EXISTS {table}_match, {table}_sequence"
    )


def is_partitioned() -> bool:
    return connection.vendor == "postgresql"


def empty_for_rebuild(cursor, game: str) -> str:
    """Empty ``game``'s partition and drop its indexes (created first if the game has none: its
    points are then taken out of the default partition); returns the partition's name, for the
    rebuild to write into and then ``index_sql``. Inside the rebuild's transaction, so a rebuild
    that fails leaves the old points and indexes as they were; under the game's checkpoint
    lock, so two rebuilds of one game do not both create its partition."""
    table = partition_of(game)
    cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [table])
    if not cursor.fetchone()[0]:
        _create(cursor, game, table)
        return table  # new and empty, with no index yet
    cursor.execute(f"TRUNCATE {table}; {_drop_index_sql(table)}")
    return table


def _create(cursor, game: str, table: str) -> None:
    from psycopg import sql

    literal = sql.Literal(game).as_string(cursor.cursor.connection)
    # The game's points in the default partition are the ones a rebuild replaces; ATTACH checks
    # the default partition holds none of the game's rows (a scan of it, once per game).
    cursor.execute(f"DELETE FROM {DEFAULT} WHERE game = %s", [game])
    cursor.execute(
        f"CREATE TABLE {table} (LIKE {PARENT} INCLUDING DEFAULTS); "
        f"ALTER TABLE {PARENT} ATTACH PARTITION {table} FOR VALUES IN ({literal})"
    )
