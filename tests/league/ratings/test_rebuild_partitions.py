"""A rebuild replaces its own game's points and nothing else (issue 17, P4b).

On PostgreSQL the points are partitioned by game (league/ratings/partitions.py): a rebuild
empties its game's partition, drops its indexes, writes the points and builds the indexes
again; a game not rebuilt yet keeps its points in the default partition until its first
rebuild moves them. These tests hold that to what the single table did: the same rows, every
other game's rows untouched, indexes in place after every rebuild (a failed one included), and
a verdict during a rebuild still ending where a rebuild ends. On SQLite they check the same
rows through the plain table."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from league.ratings import partitions, projection
from league.ratings.models import RatingPoint
from league.ratings.projection import ratings_apply, ratings_rebuild
from matches.models import Match

from .test_incremental import finished, snapshot, verdict
from .test_rebuild import FINISHES, verified

pytestmark = pytest.mark.django_db

DUELS, FOURS = "wizard-dodgeball", "annihilageddon"


@pytest.fixture
def wizards(make_user):
    return [make_user(name) for name in ("ann", "ben", "cyd", "dee", "eve", "fay")]


def where_points_are(game: str) -> dict[str, int]:
    """How many of ``game``'s points each partition holds (PostgreSQL)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT tableoid::regclass::text, count(*) FROM {partitions.PARENT} WHERE game = %s GROUP BY 1", [game]
        )
        return dict(cursor.fetchall())


def indexes_of(table: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = %s ORDER BY 1", [table])
        return [name for (name,) in cursor.fetchall()]


def own_indexes(game: str) -> list[str]:
    table = partitions.partition_of(game)
    return sorted(f"{table}_{suffix}" for suffix in ("competitor", "match", "sequence"))


def postgresql() -> bool:
    return connection.vendor == "postgresql"


@pytest.mark.django_db(transaction=True)
def test_a_rebuild_leaves_every_other_games_points_untouched(wizards):
    # Each statement commits on its own: a row written again would carry a new xmin.
    verified(DUELS, wizards)
    verified(FOURS, wizards)
    ratings_rebuild(game=FOURS)
    for match in (finished(FOURS, wizards[:4], [1, 0, 2, 3]), finished(FOURS, wizards[2:], [0, 1, 1, 2])):
        assert verdict(match) is True  # two points sets through ratings_apply, after the rebuild

    def others():
        if postgresql():
            with connection.cursor() as cursor:
                cursor.execute(
                    f"SELECT tableoid::regclass::text, ctid::text, xmin::text, competitor, sequence, rating "
                    f"FROM {partitions.PARENT} WHERE game = %s ORDER BY sequence, competitor",
                    [FOURS],
                )
                return cursor.fetchall()
        return list(
            RatingPoint.objects.filter(game=FOURS)
            .order_by("sequence", "competitor")
            .values_list("competitor", "sequence", "rating")
        )

    before, four_player = others(), snapshot(FOURS)
    assert len(before) == 4 * (len(FINISHES[FOURS]) + 2)
    ratings_rebuild(game=DUELS)  # the duels' first: their partition is made
    ratings_rebuild(game=DUELS)
    assert others() == before
    assert snapshot(FOURS) == four_player


def test_a_second_rebuild_stores_what_the_first_did_and_the_indexes_again(wizards):
    verified(DUELS, wizards)
    ratings_rebuild(game=DUELS)
    first = snapshot(DUELS)
    assert len(first[1]) == 2 * len(FINISHES[DUELS])
    ratings_rebuild(game=DUELS)
    assert snapshot(DUELS) == first
    if postgresql():
        table = partitions.partition_of(DUELS)
        assert where_points_are(DUELS) == {table: len(first[1])}
        assert indexes_of(table) == own_indexes(DUELS)


@pytest.mark.parametrize("game", sorted(FINISHES))
def test_a_games_first_rebuild_moves_its_points_from_the_default_partition(game, wizards):
    # Rated verdict by verdict from the start: every point went through the parent to the
    # default partition. The first rebuild gives the game its partition, with the same rows.
    width = 2 if game == DUELS else 4
    for n, places in enumerate(FINISHES[game]):
        verdict(finished(game, [wizards[(n + k) % len(wizards)] for k in range(width)], places))
    incremental = snapshot(game)
    if postgresql():
        assert where_points_are(game) == {partitions.DEFAULT: len(incremental[1])}
        assert not indexes_of(partitions.partition_of(game))

    ratings_rebuild(game=game)
    assert snapshot(game) == incremental
    if postgresql():
        assert where_points_are(game) == {partitions.partition_of(game): len(incremental[1])}
        assert indexes_of(partitions.partition_of(game)) == own_indexes(game)

    # Later verdicts go through the parent to the game's partition, as a rebuild would leave them.
    assert verdict(finished(game, wizards[:width], list(range(width)))) is True
    incremental = snapshot(game)
    ratings_rebuild(game=game)
    assert snapshot(game) == incremental


@pytest.mark.parametrize("first", [True, False], ids=["first-rebuild", "later-rebuild"])
def test_a_rebuild_that_fails_leaves_the_points_where_they_were_with_their_indexes(first, wizards, monkeypatch):
    for n, places in enumerate(FINISHES[DUELS][:4]):
        verdict(finished(DUELS, [wizards[n], wizards[n + 1]], places))
    if not first:
        ratings_rebuild(game=DUELS)
    verified(DUELS, wizards)
    before = snapshot(DUELS)
    placed = where_points_are(DUELS) if postgresql() else None
    real, calls = projection.rate_one, []

    def breaks_on_the_sixth(*args):
        calls.append(1)
        if len(calls) == 6:
            raise RuntimeError("worker lost")
        return real(*args)

    monkeypatch.setattr(projection, "rate_one", breaks_on_the_sixth)
    with pytest.raises(RuntimeError):
        ratings_rebuild(game=DUELS)
    assert snapshot(DUELS) == before
    if postgresql():
        assert where_points_are(DUELS) == placed
        assert indexes_of(partitions.partition_of(DUELS)) == ([] if first else own_indexes(DUELS))


@pytest.mark.django_db(transaction=True)
def test_a_verdict_during_a_rebuild_waits_for_it_and_ends_where_a_rebuild_ends(make_user, monkeypatch):
    # Each in its own thread and connection, as two workers: the rebuild stops in its fold (its
    # game's points emptied, its checkpoint locked), a verdict the rebuild did not read arrives,
    # and must wait rather than write into the half-made points; once the rebuild commits, the
    # verdict's result is folded in after it.
    ann, ben, cyd, dee = (make_user(n) for n in ("ann", "ben", "cyd", "dee"))
    for x, y, places in ((ann, ben, [0, 1]), (cyd, dee, [1, 0]), (ben, cyd, [0, 0])):
        verdict(finished(DUELS, [x, y], places))
    ratings_rebuild(game=DUELS)
    late = finished(DUELS, [ann, cyd], [1, 0])

    real = projection.rate_one
    in_fold, go_on = threading.Event(), threading.Event()

    def pauses_in_the_rebuild(*args, **kwargs):
        if threading.current_thread().name == "rebuild" and not in_fold.is_set():
            in_fold.set()
            assert go_on.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(projection, "rate_one", pauses_in_the_rebuild)
    outcome: dict[str, object] = {}

    def run(name, fn):
        try:
            outcome[name] = fn()
        except Exception as error:  # noqa: BLE001 - reported by the assertions below
            outcome[name] = error
        finally:
            connection.close()

    rebuild = threading.Thread(name="rebuild", target=run, args=("rebuild", lambda: ratings_rebuild(game=DUELS)))
    rebuild.start()
    assert in_fold.wait(30)
    Match.objects.filter(pk=late.pk).update(verdict=Match.Verdict.VERIFIED)
    apply = threading.Thread(name="apply", target=run, args=("apply", lambda: ratings_apply(match_id=late.pk)))
    apply.start()
    waited = waits_on_a_lock(apply) if postgresql() else (time.sleep(0.5) or apply.is_alive())
    go_on.set()
    rebuild.join(30)
    apply.join(30)
    assert outcome == {"rebuild": 3, "apply": True}
    assert waited
    incremental = snapshot(DUELS)
    assert [m for _c, m, *_ in incremental[1]].count(late.pk) == 2
    ratings_rebuild(game=DUELS)
    assert snapshot(DUELS) == incremental


def waits_on_a_lock(thread: threading.Thread, timeout: float = 30) -> bool:
    """Whether another connection to this database is seen waiting for a lock while ``thread``
    runs: the verdict blocked by the rebuild, not merely slow (a sleep and is_alive could not
    tell the two apart on a slow machine)."""
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while thread.is_alive() and time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.02)
    return False
