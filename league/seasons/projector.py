"""A season's fixtures projected one fact at a time (issue 17, P6).

``season_project`` in services.py refolds every fact of the season after each new one: a
552-fixture season records 552 results, each refolding ~1,700 facts, so a season's results
cost grows with the square of its length. A fact names one fixture (``data["fixture"]``) and
``season_fold`` keeps each fixture's row and its "result came from a match" mark apart from
every other fixture's, so folding the schedule and that fixture's own facts gives exactly the
row a whole refold gives. ``season_project_fixture`` does that and writes the one row.

Facts that name no fixture (the season's creation, the schedule, its close) fall back to the
whole refold: they come once or twice a season.
"""

from __future__ import annotations

from django.db.models import Q, Subquery

from matches.models import Event, Stream

from .models import Club, Fixture, Season


def season_project_fixture(*, season: Season, fixture: str | None) -> None:
    """Bring the projection up to the stream's head after a fact about ``fixture`` (None: any
    other fact, refolded whole). The caller holds the season's stream lock (its append)."""
    from .services import _same, season_fold, season_project

    if fixture is None:
        season_project(season=season)
        return
    facts = list(
        Event.objects.filter(stream_id=season.stream_id)
        .filter(Q(type="fixtures.scheduled") | Q(data__fixture=fixture))
        .order_by("seq")
    )
    row = season_fold(facts)[fixture]
    stored = season.fixtures.select_related("home", "away").filter(key=fixture).first() or Fixture(
        season=season, key=fixture
    )
    # The clubs are nearly always the stored row's own two (a walkover's winner is one of
    # them): read from it, not queried again per fact.
    clubs = {c.slug: c for c in (getattr(stored, "home", None), getattr(stored, "away", None)) if c is not None}
    wanted = {row["home"], row["away"], row["walkover_winner"]} - {None}
    if not wanted <= clubs.keys():
        clubs.update((c.slug, c) for c in Club.objects.filter(slug__in=wanted - clubs.keys()))
    for name in ("home", "away", "walkover_winner"):
        if row[name] is not None:
            row[name] = clubs[row[name]]
    if stored.pk is None or not all(_same(getattr(stored, name), value) for name, value in row.items()):
        for name, value in row.items():
            setattr(stored, name, value)
        stored.save()
    # The season is projected up to its stream's head: one statement, the head read inside it.
    Season.objects.filter(pk=season.pk).update(
        projected_seq=Subquery(Stream.objects.filter(pk=season.stream_id).values("head_seq")[:1])
    )
