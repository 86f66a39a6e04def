"""A season's fixtures projected one fact at a time (issue 17, P6).

``season_project`` in services.py refolds every fact of the season after each new one: a
552-fixture season records 552 results, each refolding ~1,700 facts, so a season's results
cost grows with the square of its length. A fact names one fixture (``data["fixture"]``) and
``season_fold`` keeps each fixture's row and its "result came from a match" mark apart from
every other fixture's, so folding the schedule and that fixture's own facts gives exactly the
row a whole refold gives. ``season_project_fixture`` does that and writes the one row.

The read of those facts goes through two partial indexes (matches migration 0011): the facts
naming a fixture, by stream and fixture, and the schedule facts, by stream. Filtering the
stream's events instead read the whole season so far, so each fact cost more than the last.

Facts that name no fixture (the season's creation, the schedule, its close) fall back to the
whole refold: they come once or twice a season.
"""

from __future__ import annotations

from django.db import connection
from django.db.models import Q, QuerySet, Subquery

from matches.models import Event, Stream

from .models import Club, Fixture, Season


def fixture_facts_query(*, stream_id: str, fixtures: list[str]) -> QuerySet[Event]:
    """The schedule and every fact naming one of ``fixtures``, in stream order: an indexed read
    each side of the OR (matches migration 0011), however long the season is."""
    # ``data__fixture`` compiles to ``data -> 'fixture'`` on PostgreSQL, the indexed expression.
    named = Q(data__fixture=fixtures[0]) if len(fixtures) == 1 else Q(data__fixture__in=fixtures)
    return Event.objects.filter(stream_id=stream_id).filter(Q(type="fixtures.scheduled") | named).order_by("seq")


def season_project_fixture(*, season: Season, fixture: str | None, head_seq: int | None = None) -> None:
    """Bring the projection up to the stream's head after a fact about ``fixture`` (None: any
    other fact, refolded whole). The caller holds the season's stream lock (its append);
    ``head_seq``, when the caller has it, is the head that fact made."""
    from .services import season_project

    if fixture is None:
        season_project(season=season)
        return
    season_project_fixtures(season=season, fixtures=[fixture], head_seq=head_seq)


def season_project_fixtures(*, season: Season, fixtures: list[str], head_seq: int | None = None) -> None:
    """``season_project_fixture`` for several fixtures at once (a batch of results): one read of
    their facts, one of their rows, one UPDATE of what changed."""
    from .services import _same, season_fold

    keys = sorted(set(fixtures))
    folded = season_fold(fixture_facts_query(stream_id=season.stream_id, fixtures=keys))
    stored = {f.key: f for f in season.fixtures.select_related("home", "away").filter(key__in=keys)}
    # The clubs are nearly always the stored rows' own (a walkover's winner is one of them):
    # read from them, not queried again per fact.
    clubs = {c.slug: c for f in stored.values() for c in (f.home, f.away)}
    rows = {key: folded[key] for key in keys}
    wanted = {row[name] for row in rows.values() for name in ("home", "away", "walkover_winner")} - {None}
    if not wanted <= clubs.keys():
        clubs.update((c.slug, c) for c in Club.objects.filter(slug__in=wanted - clubs.keys()))
    created, updated, columns = [], [], set()
    for key, row in rows.items():
        for name in ("home", "away", "walkover_winner"):
            if row[name] is not None:
                row[name] = clubs[row[name]]
        fixture = stored.get(key)
        if fixture is None:
            created.append(Fixture(season=season, key=key, **row))
            continue
        # Clubs compared by id: reading ``walkover_winner`` itself would be a query per fact.
        changed = [name for name, value in row.items() if not _same(getattr(fixture, _column(name)), value)]
        for name in changed:
            setattr(fixture, name, row[name])
        if changed:
            updated.append(fixture)
            columns.update(changed)
    if created:
        Fixture.objects.bulk_create(created)
    if updated:
        # Only what the facts changed: a result moves four columns of thirteen.
        _fixtures_write(updated, sorted(columns))
    head = (
        head_seq
        if head_seq is not None
        else Subquery(Stream.objects.filter(pk=season.stream_id).values("head_seq")[:1])
    )
    Season.objects.filter(pk=season.pk).update(projected_seq=head)


def _fixtures_write(fixtures: list[Fixture], names: list[str]) -> None:
    """The ``names`` columns of many fixtures in one statement on PostgreSQL: the rows joined to
    arrays of their new values. Django's ``bulk_update`` builds a CASE per column over every row,
    which cost 2.8 s of CPU of the 4.5 s a season's 552 results took to land (profiled)."""
    if connection.vendor != "postgresql":
        Fixture.objects.bulk_update(fixtures, names)
        return
    q = connection.ops.quote_name
    fields = [Fixture._meta.pk, *(Fixture._meta.get_field(name) for name in names)]
    columns = [q(field.column) for field in fields]
    arrays = ", ".join(f"%s::{field.db_type(connection)}[]" for field in fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {q(Fixture._meta.db_table)} AS f SET "
            + ", ".join(f"{column} = v.{column}" for column in columns[1:])
            + f" FROM unnest({arrays}) AS v({', '.join(columns)}) WHERE f.{columns[0]} = v.{columns[0]}",
            [[field.get_db_prep_save(getattr(f, field.attname), connection) for f in fixtures] for field in fields],
        )


def _column(name: str) -> str:
    return f"{name}_id" if name in ("home", "away", "walkover_winner") else name
