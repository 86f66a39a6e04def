"""Ratings as a projection of verified results (Django side of league/ratings).

The order is the event store's: each match's closing event id, so a rebuild from scratch
replays results exactly as they were committed and gives identical numbers every time.

Two ways in, giving the same numbers (``tests/league/ratings/test_incremental.py``):

- ``ratings_apply(match_id=...)``, after each verdict: the one result folded into the stored
  current ratings of its players, one rating step and one write, whatever the history's length.
  A result older than the newest one already in (verdicts can arrive out of commit order) or a
  result withdrawn (a match found disputed on re-verification) rewinds the ratings to just
  before it, from the stored points, and replays only the results after it.

A match once found disputed (``Match.disputed_at``) stays out for good, whatever a later
verification finds, as its season and tournament retract its result for good: the ratings and
the standings never disagree about a match.
- ``ratings_rebuild(game=...)``, on demand (``manage.py ratings rebuild``) and in bulk: every
  verified result read in one query, folded while its points stream to one binary COPY.

A game's ``RatingCheckpoint`` row is locked for the length of either, so two workers update
one game's ratings one after the other.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from django.db import connection, transaction
from django.db.models import Max

from engines import registry
from matches.models import Event, Match, Seat

from . import partitions
from .glicko2 import Glicko2Rating
from .ledger import HistoryPoint, RatedResult, rate_one, system_for
from .models import Rating, RatingCheckpoint, RatingPoint
from .multi import MultiRating, sides_of

log = logging.getLogger(__name__)


def rated_games() -> list[str]:
    """Games whose engines declare a rating system (drafts have no winner to rate)."""
    return [engine.name for engine in registry.rated()]


def rating_system(game: str) -> str | None:
    """The system the game's engine declares: the results never switch it (issue 20)."""
    try:
        return registry.get(game).rating
    except registry.UnknownEngine:
        return None


def _rated_result(
    match_id,
    game: str,
    system: str | None,
    placements: list | None,
    clubs: list | None,
    seats: dict[int, Any],
    bot: bool,
    sequence: int | None,
) -> RatedResult | None:
    """A verified, finished match as a rated result, or None when it counts in no rating: no
    placements or no closing event, against a bot, or a team result of a Glicko-2 game.
    ``seats`` maps each seat to its user id; ``clubs`` are a league fixture's two clubs.
    League fixtures rate the clubs; other matches rate the people, and a person's match
    against a bot is not rated."""
    if sequence is None or placements is None:
        return None
    return _rated(match_id, game, system, _seats_by_place(placements), clubs, seats, bot, sequence)


def _seats_by_place(placements: list) -> tuple[tuple[int, ...], ...]:
    """The seats at each place, best place first, each place's seats in seat order."""
    by_place: dict[Any, list[int]] = {}
    for seat, place in enumerate(placements):
        by_place.setdefault(place, []).append(seat)
    return tuple(tuple(by_place[place]) for place in sorted(by_place))


def _rated(
    match_id,
    game: str,
    system: str | None,
    places: tuple[tuple[int, ...], ...],
    clubs: list | None,
    seats: dict[int, Any],
    bot: bool,
    sequence: int,
) -> RatedResult | None:
    """``_rated_result`` from the placements' seats by place (``_seats_by_place``), which a
    rebuild works out once per distinct placements text instead of once per result: most
    results of a game share a handful (a duel's are two), and parsing and sorting them was
    about half of the read's Python time on 10k duels (issue 17, P4b)."""
    if clubs:
        who = {0: f"club:{clubs[0]}", 1: f"club:{clubs[1]}"}
    elif bot:
        return None
    else:
        who = {seat: f"user:{user}" for seat, user in seats.items()}
    try:
        sides = [[who[seat] for seat in place] for place in places]
    except KeyError:
        # A placement with nobody behind it (a match stored without its seats and not a
        # fixture's) names no competitor to rate: left out, and said, rather than a KeyError
        # that would stop the verdict's follow-ups and every rebuild of the game.
        log.warning(
            "Ratings: match %s has placements for seats %s but no competitor there; it is not rated.",
            match_id,
            sorted(seat for place in places for seat in place if seat not in who),
        )
        return None
    if system == "glicko2" and len({key for side in sides for key in side}) != 2:
        # Glicko-2 rates one side of one against another; a team-variant result of a
        # Glicko-2 game is left out rather than moving the whole game to another scale.
        return None
    # Places best first; each place lists the sides (competitors) tied there, once each (a
    # competitor in two seats of one place: a fixture's club, or one person seated twice).
    return RatedResult(
        match_id, game, [side if len(side) == 1 else list(dict.fromkeys(side)) for side in sides], sequence
    )


_RATED = """
WITH rated AS MATERIALIZED (
    SELECT m.id, m.stream_id, m.result -> 'placements' AS placements, m.result -> 'unfinished' AS unfinished,
        m.origin -> 'fixture_clubs' AS clubs
    FROM {match} m WHERE m.game = %s AND m.status = %s AND m.verdict = %s AND m.disputed_at IS NULL {only}
)
SELECT r.id, closing.id, r.placements, r.unfinished, r.clubs, seats.indexes, seats.users, seats.bot
FROM rated r
LEFT JOIN (
    SELECT e.stream_id, max(e.id) AS id FROM {event} e JOIN rated ON rated.stream_id = e.stream_id
    WHERE e.type = 'match.finished' GROUP BY e.stream_id
) closing ON closing.stream_id = r.stream_id
LEFT JOIN (
    SELECT s.match_id, array_agg(s.index) AS indexes, array_agg(s.user_id) AS users, bool_or(s.bot <> '') AS bot
    FROM {seat} s JOIN rated ON rated.id = s.match_id
    GROUP BY s.match_id
) seats ON seats.match_id = r.id
ORDER BY closing.id
"""

_USERNAMES = "SELECT u.id, u.{username} FROM {user} u WHERE u.id = ANY(%s)"


def _json(value):
    # A jsonb value read by a raw cursor comes back as its text here (Django's loader).
    return json.loads(value) if isinstance(value, str) else value


def rated_results(game: str, *, match_ids: Iterable[Any] | None = None) -> tuple[list[RatedResult], dict[str, str]]:
    """The game's verified results in commit order (or only those of ``match_ids``), and labels.
    One query, then one for the rated people's names: a rebuild's read grows with the results,
    never with a query per match, and little Python runs per match (issue 17, P4b)."""
    with connection.cursor() as cursor:
        results = list(_read_results(cursor, game, match_ids))
        labels = _labels(cursor, (key for rated in results for place in rated.placements for key in place))
    return results, labels


def _read_results(cursor, game: str, match_ids: Iterable[Any] | None = None) -> Iterator[RatedResult]:
    """The game's verified results in commit order, each made as its row is iterated (the query
    runs now, so the connection is free for other statements, a COPY, while they are).

    The query picks the game's matches once and joins them to their closing events and seats
    as sets, leaving the planner to choose: a few matches (a verdict's) are index lookups, a
    whole game's are hash joins. On 10k duels the earlier form (a lookup of the closing event
    and of the seats, with their users, per match) took 0.29-0.35 s of PostgreSQL CPU, this one
    0.08-0.09 s. The rows stay in the driver's buffer until iterated, so a rebuild folding the
    results as they come keeps no Python object per result (the garbage collector's full
    passes, about 0.1 s each on 10k results, were set off by those)."""
    system = rating_system(game)
    if connection.vendor != "postgresql":
        return _made_results(_rows_portable(game, match_ids), game, system)
    params: list[Any] = [game, Match.Status.FINISHED, Match.Verdict.VERIFIED]
    only = ""
    if match_ids is not None:
        params.append([str(m) for m in match_ids])
        only = "AND m.id = ANY(%s::uuid[])"
    if connection.in_atomic_block:
        # JIT compiling pays for long scans of wide rows, not for this read of a few narrow
        # columns: on a table with statistics (10k results and up) the planner's estimates
        # passed its threshold and compiling took 2-3 s, longer than the read.
        cursor.execute("SET LOCAL jit = off")
    cursor.execute(_sql(_RATED.replace("{only}", only)), params)
    return _made_results(cursor, game, system)


def _rows_portable(game: str, match_ids: Iterable[Any] | None) -> list[tuple]:
    """``_RATED``'s rows through the ORM, for databases other than PostgreSQL (SQLite, the
    embedded default: the demo and a newcomer's first run rate their matches too). A few
    queries instead of one; nothing here is on a PostgreSQL deployment's path."""
    matches = Match.objects.filter(
        game=game, status=Match.Status.FINISHED, verdict=Match.Verdict.VERIFIED, disputed_at__isnull=True
    )
    if match_ids is not None:
        matches = matches.filter(pk__in=[str(m) for m in match_ids])
    found = list(matches.values_list("id", "stream_id", "result", "origin"))
    closing = dict(
        Event.objects.filter(stream_id__in=[stream for _m, stream, _r, _o in found], type="match.finished")
        .values("stream_id")
        .annotate(last=Max("id"))
        .values_list("stream_id", "last")
    )
    seats: dict[Any, list[tuple[int, Any, str]]] = {}
    for match_id, index, user_id, bot in Seat.objects.filter(match_id__in=[m for m, *_ in found]).values_list(
        "match_id", "index", "user_id", "bot"
    ):
        seats.setdefault(match_id, []).append((index, user_id, bot))
    rows = []
    for match_id, stream_id, result, origin in found:
        sat = seats.get(match_id)
        rows.append(
            (
                match_id,
                closing.get(stream_id),
                (result or {}).get("placements"),
                (result or {}).get("unfinished"),
                (origin or {}).get("fixture_clubs"),
                [index for index, _u, _b in sat] if sat else None,
                [user for _i, user, _b in sat] if sat else None,
                any(bot != "" for _i, _u, bot in sat) if sat else None,
            )
        )
    # As the query's ORDER BY closing.id: commit order, a match with no closing event last.
    rows.sort(key=lambda row: (row[1] is None, row[1] or 0))
    return rows


def _made_results(rows, game: str, system: str | None) -> Iterator[RatedResult]:
    # Each distinct placements text (what a raw cursor reads from jsonb) parsed and sorted once.
    shapes: dict[str, tuple[tuple[int, ...], ...] | None] = {}
    for match_id, sequence, placements, unfinished, clubs, indexes, users, bot in rows:
        if unfinished is not None and _json(unfinished):
            # A game ended by a bound on turns has no winner and no loser: counted nowhere
            # (engines/wizard_dodgeball/RULES.md "Unfinished games").
            continue
        if sequence is None or placements is None:
            continue
        if isinstance(placements, str):
            try:
                places = shapes[placements]
            except KeyError:
                parsed = json.loads(placements)
                places = shapes[placements] = None if parsed is None else _seats_by_place(parsed)
        else:
            places = _seats_by_place(placements)
        if places is None:
            continue
        rated = _rated(
            match_id,
            game,
            system,
            places,
            _json(clubs),
            dict(zip(indexes or (), users or ())),
            bot,
            sequence,
        )
        if rated is not None:
            yield rated


def _labels(cursor, competitors: Iterable[str]) -> dict[str, str | None]:
    """Each competitor's label, read once per competitor, not once per seat of every match: a
    club by its slug, a person by their current name (None if it cannot be read)."""
    labels = {key: key[5:] if key.startswith("club:") else None for key in competitors}
    people = [int(key[5:]) for key, label in labels.items() if label is None and key.startswith("user:")]
    if people and connection.vendor != "postgresql":
        from django.contrib.auth import get_user_model

        user = get_user_model()
        named = user.objects.filter(pk__in=people).values_list("pk", user.USERNAME_FIELD)
        labels.update((f"user:{user_id}", username) for user_id, username in named)
    elif people:
        cursor.execute(_sql(_USERNAMES), [people])
        labels.update((f"user:{user_id}", username) for user_id, username in cursor.fetchall())
    return labels


def _lock(game: str) -> RatingCheckpoint:
    """The game's checkpoint row, locked until the transaction ends (created at sequence 0)."""
    locked = RatingCheckpoint.objects.select_for_update().filter(game=game).first()
    if locked is None:
        RatingCheckpoint.objects.get_or_create(game=game)  # the game's first rating (a race: one row)
        locked = RatingCheckpoint.objects.select_for_update().get(game=game)
    return locked


def _hold_verdicts(match_ids: Iterable[Any]) -> None:
    """Keep these matches' verdicts as they are until the transaction ends (a share lock).

    A verdict's follow-up decides from what it reads, without waiting for the game's lock when
    nothing is to change. Were a verdict changed (re-verification finding the match disputed, or
    putting it right) while an update that read the old one was still writing, the new verdict's
    follow-up could read the ratings before that update committed, find nothing to do, and leave
    them wrong until the sweep. With the verdicts held, the new verdict commits after the update,
    and its follow-up, sent after that commit, sees what the update wrote. In id order, so two
    batches over the same matches queue rather than deadlock."""
    if connection.vendor != "postgresql":
        return  # SQLite writes one transaction at a time
    with connection.cursor() as cursor:
        cursor.execute(
            _sql("SELECT 1 FROM {match} WHERE id = ANY(%s::uuid[]) ORDER BY id FOR SHARE"),
            [sorted(str(m) for m in match_ids)],
        )


def ratings_rebuild(*, game: str) -> int:
    """Recompute a game's ratings from every verified result; returns how many were used."""
    with transaction.atomic(), connection.cursor() as cursor:
        checkpoint = _lock(game)
        results = _read_results(cursor, game)
        if rating_system(game) is None:
            results = list(results)  # the system is then chosen from all of them first
        return _rebuild_from(game, results, None, checkpoint)


def _sort_key(r) -> float:
    return r.conservative if hasattr(r, "conservative") else r.ordinal


def _rebuild_from(game: str, results: Iterable[RatedResult], labels: dict[str, str] | None, checkpoint) -> int:
    """Replace the game's ratings and points with a fold of ``results`` (commit order), labelled
    by ``labels`` (None: read for the competitors rated, after the fold).

    The points go to PostgreSQL while the fold runs: each is written to one COPY as soon as
    its rating step returns, so the server stores them while Python computes the next ones
    and no list of a point per player per result is built first (issue 17, P4b). The steps
    are ``ledger.rate_one``, the same that ``ledger.rebuild`` and ``ratings_apply`` take, so the
    numbers are theirs bit for bit (``tests/league/ratings/test_incremental.py``).

    On PostgreSQL the points go to the game's own partition, emptied and without its indexes,
    which are built once the points are in (``partitions.py``)."""
    system = system_for(results, rating_system(game))
    Rating.objects.filter(game=game).delete()
    if partitions.is_partitioned():
        with connection.cursor() as cursor:
            points_table = partitions.empty_for_rebuild(cursor, game)
    else:
        RatingPoint.objects.filter(game=game).delete()
        points_table = None
    ratings: dict[str, Any] = {}
    played: dict[str, int] = {}
    used, previous = 0, None
    with _writer(RatingPoint, _POINT_COLUMNS, table=points_table) as write:
        for result in results:
            if previous is not None and not result.sequence > previous:
                raise ValueError(f"Results must come in commit order: {result.match_id!r} after sequence {previous}")
            previous = result.sequence
            used += 1
            for player, new in rate_one(ratings, result, system).items():
                ratings[player] = new
                played[player] = played.get(player, 0) + 1
                write(
                    (
                        game,
                        player,
                        result.match_id,
                        result.sequence,
                        new.rating,
                        new.deviation,
                        getattr(new, "volatility", None),
                    )
                )
    if points_table is not None:
        with connection.cursor() as cursor:
            cursor.execute(partitions.index_sql(points_table, one_game=True))
    if labels is None:
        with connection.cursor() as cursor:
            labels = _labels(cursor, ratings)
    with _writer(Rating, _RATING_COLUMNS) as write:
        for key, r in sorted(ratings.items()):
            write(
                (
                    game,
                    key,
                    labels.get(key, key),
                    system,
                    r.rating,
                    r.deviation,
                    getattr(r, "volatility", None),
                    _sort_key(r),
                    played[key],
                )
            )
    checkpoint.sequence = previous if previous is not None else 0
    checkpoint.save(update_fields=["sequence"])
    return used


_POINT_COLUMNS = (
    ("game", "varchar"),
    ("competitor", "varchar"),
    ("match_id", "uuid"),
    ("sequence", "int8"),
    ("rating", "float8"),
    ("deviation", "float8"),
    ("volatility", "float8"),
)
_RATING_COLUMNS = (
    ("game", "varchar"),
    ("competitor", "varchar"),
    ("label", "varchar"),
    ("system", "varchar"),
    ("rating", "float8"),
    ("deviation", "float8"),
    ("volatility", "float8"),
    ("sort_key", "float8"),
    ("matches", "int4"),
)


@contextmanager
def _writer(
    model, columns: tuple[tuple[str, str], ...], *, table: str | None = None
) -> Iterator[Callable[[tuple], None]]:
    """A function that stores one row of ``columns`` (field, PostgreSQL type): PostgreSQL's
    binary COPY (a rebuild writes a point per player per result, 200,000 rows for 100,000
    duels; binary, so no float is formatted as text and parsed back) into the model's table or
    ``table`` (one of its partitions), else rows kept and bulk-created at the end."""
    fields = [field for field, _type in columns]
    if connection.vendor != "postgresql":
        rows: list[tuple] = []
        yield rows.append
        model.objects.bulk_create([model(**dict(zip(fields, row))) for row in rows], batch_size=2000)
        return
    names = ", ".join(connection.ops.quote_name(model._meta.get_field(f).column) for f in fields)
    table = connection.ops.quote_name(table or model._meta.db_table)
    with (
        connection.cursor() as cursor,
        cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN (FORMAT BINARY)") as copy,
    ):
        copy.set_types([pg_type for _field, pg_type in columns])
        yield copy.write_row


def _stored_rating(system: str, rating: float, deviation: float, volatility: float | None):
    if system == "glicko2":
        return Glicko2Rating(rating, deviation, volatility)
    return MultiRating(rating, deviation)


def _fold(game: str, system: str, results: list[RatedResult], labels: dict[str, str]) -> None:
    """Fold ``results`` (commit order, all after everything stored) into the stored ratings:
    one read of their players' current ratings, one upsert, one insert of the new points."""
    players = sorted({p for r in results for team, _rank in sides_of(r.placements) for p in team})
    stored = {row.competitor: row for row in Rating.objects.filter(game=game, competitor__in=players)}
    current = {key: _stored_rating(system, row.rating, row.deviation, row.volatility) for key, row in stored.items()}
    played = {key: row.matches for key, row in stored.items()}
    points = []
    for result in results:
        for player, new in rate_one(current, result, system).items():
            current[player] = new
            played[player] = played.get(player, 0) + 1
            points.append(
                RatingPoint(
                    game=game,
                    competitor=player,
                    match_id=result.match_id,
                    sequence=result.sequence,
                    rating=new.rating,
                    deviation=new.deviation,
                    volatility=getattr(new, "volatility", None),
                )
            )
    touched = sorted({p.competitor for p in points})
    Rating.objects.bulk_create(
        [
            Rating(
                game=game,
                competitor=key,
                label=labels.get(key) or getattr(stored.get(key), "label", key),
                system=system,
                rating=current[key].rating,
                deviation=current[key].deviation,
                volatility=getattr(current[key], "volatility", None),
                sort_key=_sort_key(current[key]),
                matches=played[key],
            )
            for key in touched
        ],
        update_conflicts=True,
        unique_fields=["game", "competitor"],
        update_fields=["label", "system", "rating", "deviation", "volatility", "sort_key", "matches"],
    )
    RatingPoint.objects.bulk_create(points)


def _rewind(game: str, system: str, since: int) -> list[Any] | None:
    """Put the ratings back as they were before result ``since``; returns the match ids of the
    results taken out (to replay), or None when the stored points cannot say (then rebuild)."""
    later = list(
        RatingPoint.objects.filter(game=game, sequence__gte=since).values_list("competitor", "match_id", "sequence")
    )
    players = sorted({c for c, _, _ in later})
    before: dict[str, RatingPoint] = {}
    counts: dict[str, int] = {}
    for point in RatingPoint.objects.filter(game=game, competitor__in=players, sequence__lt=since).order_by(
        "competitor", "sequence"
    ):
        before[point.competitor] = point
        counts[point.competitor] = counts.get(point.competitor, 0) + 1
    if system == "glicko2" and any(p.volatility is None for p in before.values()):
        return None  # points written before volatility was kept
    RatingPoint.objects.filter(game=game, sequence__gte=since).delete()
    Rating.objects.filter(game=game, competitor__in=[p for p in players if p not in before]).delete()
    for key, point in before.items():
        restored = _stored_rating(system, point.rating, point.deviation, point.volatility)
        Rating.objects.filter(game=game, competitor=key).update(
            rating=point.rating,
            deviation=point.deviation,
            volatility=point.volatility,
            sort_key=_sort_key(restored),
            matches=counts[key],
        )
    return sorted({m for _, m, _ in later}, key=str)


# -- One new result, the usual case: two statements, no lock wait (issue 17, P4a) ----------------
#
# A verdict's update used to be about a dozen small queries (the match, its seats, its closing
# event, the lock, whether it is in, the stored ratings, the upsert, the points, the checkpoint).
# The usual case, the newest result of a game whose ratings already exist, now takes two:
#
# 1. one read of everything the step needs: the match, its seats and closing event, whether the
#    match is in the ratings, the stored ratings of every competitor it could rate, and the
#    game's checkpoint with its row version (PostgreSQL's ``xmin``, which every update of the
#    row changes);
# 2. one write that moves the checkpoint only if its row is still that version, and in the same
#    statement upserts the ratings and inserts the points (nothing, if the checkpoint moved).
#
# Every path that changes a game's ratings updates its checkpoint row in the same transaction,
# so a checkpoint still at the version read means the ratings read are still the ratings: the
# write is the step the locked path would have taken. If another update got there first (or the
# row is locked by one still running: the write waits for it, then sees the new version), the
# write changes nothing and the locked path below runs instead. The write also holds the match's
# verdict still (``_hold_verdicts``) and changes nothing if it is no longer verified. Each
# statement is atomic on its own, so outside a transaction there is no BEGIN or COMMIT to wait for
# either.

_READ_ONE = """
SELECT m.game, m.status, m.verdict, m.disputed_at IS NOT NULL, m.result, m.origin,
    (SELECT array_agg(ARRAY[s.index::text, s.user_id::text, s.bot, u.{username}] ORDER BY s.index)
        FROM {seat} s LEFT JOIN {user} u ON u.id = s.user_id WHERE s.match_id = m.id),
    (SELECT max(e.id) FROM {event} e WHERE e.stream_id = m.stream_id AND e.type = 'match.finished'),
    c.sequence, c.xmin::text,
    EXISTS (SELECT 1 FROM {point} p WHERE p.game = m.game AND p.match_id = m.id),
    (SELECT array_agg(ARRAY[r.competitor, r.label, r.rating::text, r.deviation::text,
                            r.volatility::text, r.matches::text])
        FROM {rating} r WHERE r.game = m.game AND r.competitor = ANY(
            ARRAY(SELECT 'user:' || s.user_id FROM {seat} s WHERE s.match_id = m.id)
            || ARRAY['club:' || (m.origin -> 'fixture_clubs' ->> 0), 'club:' || (m.origin -> 'fixture_clubs' ->> 1)]))
FROM {match} m LEFT JOIN {checkpoint} c ON c.game = m.game
WHERE m.id = %s
"""

_WRITE_ONE = """
WITH moved AS (
    UPDATE {checkpoint} SET sequence = %(sequence)s
    WHERE game = %(game)s AND xmin::text = %(version)s
        AND EXISTS (SELECT 1 FROM {match} m WHERE m.id = %(match_id)s::uuid AND m.status = %(finished)s
                    AND m.verdict = %(verified)s AND m.disputed_at IS NULL FOR SHARE)
    RETURNING game
), rated AS (
    INSERT INTO {rating} (game, competitor, label, system, rating, deviation, volatility, sort_key, matches)
    SELECT moved.game, r.competitor, r.label, %(system)s, r.rating, r.deviation, r.volatility, r.sort_key, r.matches
    FROM moved, unnest(%(keys)s::varchar[], %(labels)s::varchar[], %(ratings)s::float8[], %(deviations)s::float8[],
                       %(volatilities)s::float8[], %(sort_keys)s::float8[], %(played)s::integer[])
        AS r(competitor, label, rating, deviation, volatility, sort_key, matches)
    ON CONFLICT (game, competitor) DO UPDATE SET
        label = EXCLUDED.label, system = EXCLUDED.system, rating = EXCLUDED.rating,
        deviation = EXCLUDED.deviation, volatility = EXCLUDED.volatility,
        sort_key = EXCLUDED.sort_key, matches = EXCLUDED.matches
), pointed AS (
    INSERT INTO {point} (game, competitor, match_id, sequence, rating, deviation, volatility)
    SELECT moved.game, p.competitor, %(match_id)s::uuid, %(sequence)s, p.rating, p.deviation, p.volatility
    FROM moved, unnest(%(keys)s::varchar[], %(ratings)s::float8[], %(deviations)s::float8[],
                       %(volatilities)s::float8[]) AS p(competitor, rating, deviation, volatility)
)
SELECT count(*) FROM moved
"""


def _sql(template: str) -> str:
    from django.contrib.auth import get_user_model

    user = get_user_model()
    q = connection.ops.quote_name
    return template.format(
        match=q(Match._meta.db_table),
        seat=q(Seat._meta.db_table),
        event=q(Event._meta.db_table),
        user=q(user._meta.db_table),
        username=q(user._meta.get_field(user.USERNAME_FIELD).column),
        rating=q(Rating._meta.db_table),
        point=q(RatingPoint._meta.db_table),
        checkpoint=q(RatingCheckpoint._meta.db_table),
    )


def _float(text: str | None) -> float | None:
    # PostgreSQL (12+) writes a float8 as text in the shortest form that reads back exactly.
    return None if text is None else float(text)


def _apply_newest(match_id) -> bool | None:
    """The usual case in two statements (see above): returns whether the ratings changed, or
    None when this is not the usual case, or another update came first (the locked path then)."""
    with connection.cursor() as cursor:
        cursor.execute(_sql(_READ_ONE), [match_id])
        row = cursor.fetchone()
        if row is None:
            return False  # no such match
        game, status, verdict, disputed, result, origin, seats, closing, last, version, included, stored = row
        system = rating_system(game)
        if not system:
            return False
        if isinstance(result, str):  # a JSON column read raw may come back as text
            result = json.loads(result)
        if isinstance(origin, str):
            origin = json.loads(origin)
        verified = status == Match.Status.FINISHED and verdict == Match.Verdict.VERIFIED and not disputed
        seats = seats or []
        rated = None
        if verified and closing is not None and result and not result.get("unfinished"):  # as _made_results
            rated = _rated_result(
                match_id,
                game,
                system,
                result["placements"],
                (origin or {}).get("fixture_clubs"),
                {int(index): int(user) if user is not None else None for index, user, _bot, _name in seats},
                any(bot for _index, _user, bot, _name in seats),
                closing,
            )
        names = {f"user:{user}": name for _index, user, _bot, name in seats if user is not None}
        labels = {
            key: key[5:] if key.startswith("club:") else names.get(key)
            for place in (rated.placements if rated is not None else ())
            for key in place
        }
        if (rated is not None) == included:
            return False  # already in, or rightly out
        if rated is None or last is None or rated.sequence <= last:
            return None  # a withdrawal, a late result or the game's first: the locked path
        current, played, known = {}, {}, {}
        for key, label, rating, deviation, volatility, matches in stored or []:
            current[key] = _stored_rating(system, float(rating), float(deviation), _float(volatility))
            played[key], known[key] = int(matches), label
        new = rate_one(current, rated, system)
        keys = sorted(new)
        cursor.execute(
            _sql(_WRITE_ONE),
            {
                "sequence": rated.sequence,
                "game": game,
                "finished": Match.Status.FINISHED,
                "verified": Match.Verdict.VERIFIED,
                "version": version,
                "system": system,
                "match_id": rated.match_id,
                "keys": keys,
                "labels": [labels.get(k) or known.get(k, k) for k in keys],
                "ratings": [new[k].rating for k in keys],
                "deviations": [new[k].deviation for k in keys],
                "volatilities": [getattr(new[k], "volatility", None) for k in keys],
                "sort_keys": [_sort_key(new[k]) for k in keys],
                "played": [played.get(k, 0) + 1 for k in keys],
            },
        )
        (moved,) = cursor.fetchone()
    return True if moved else None


def ratings_apply(*, match_id) -> bool:
    """Bring one match's verdict into its game's ratings (idempotent; after every verdict).
    Returns whether the ratings changed."""
    if connection.vendor == "postgresql":
        changed = _apply_newest(match_id)
        if changed is not None:
            return changed
    game = Match.objects.filter(pk=match_id).values_list("game", flat=True).first()
    system = rating_system(game) if game else None
    if not system:
        return False
    with transaction.atomic():
        checkpoint = _lock(game)
        _hold_verdicts([match_id])
        found, labels = rated_results(game, match_ids=[match_id])
        result = found[0] if found else None
        included = RatingPoint.objects.filter(game=game, match_id=match_id).values_list("sequence", flat=True).first()
        if (result is not None) == (included is not None):
            return False  # already in, or rightly out
        if result is not None and result.sequence > checkpoint.sequence:
            _fold(game, system, [result], labels)  # the usual case: the newest result
            checkpoint.sequence = result.sequence
            checkpoint.save(update_fields=["sequence"])
            return True
        # A result older than one already in, or one withdrawn: rewind and replay what follows.
        since = result.sequence if result is not None else included
        replay_ids = _rewind(game, system, since)
        if replay_ids is None:
            results, labels = rated_results(game)
            _rebuild_from(game, results, labels, checkpoint)
            return True
        replay, more = rated_results(game, match_ids=[*replay_ids, match_id])
        labels.update(more)
        if replay:
            _fold(game, system, replay, labels)
        last = RatingPoint.objects.filter(game=game).order_by("-sequence").values_list("sequence", flat=True).first()
        checkpoint.sequence = last or 0
        checkpoint.save(update_fields=["sequence"])
        return True


def ratings_apply_many(*, match_ids: Iterable[Any]) -> int:
    """Bring many verdicts into the ratings at once (a season's verification run, a catch-up):
    per game, one transaction under its checkpoint lock, one read of the results, one fold of
    every new one in commit order into the stored ratings, one upsert and one insert of the
    points (issue 17, P6). What it leaves is what ``ratings_apply`` leaves for each match in turn,
    and what ``ratings rebuild`` leaves, bit for bit (``tests/league/ratings/test_apply_many.py``):
    a result older than one already in, or one withdrawn (a match found disputed), rewinds to
    just before the earliest of them and replays what follows, as ``ratings_apply`` does.
    Idempotent; returns how many of the matches changed the ratings."""
    wanted = list(dict.fromkeys(str(m) for m in match_ids))
    by_game: dict[str, list[str]] = {}
    for match_id, game in Match.objects.filter(pk__in=wanted).values_list("pk", "game"):
        by_game.setdefault(game, []).append(str(match_id))
    changed = 0
    for game in sorted(by_game):
        system = rating_system(game)
        if system:
            changed += _apply_many(game, system, by_game[game])
    return changed


def _apply_many(game: str, system: str, match_ids: list[str]) -> int:
    with transaction.atomic():
        checkpoint = _lock(game)
        _hold_verdicts(match_ids)
        found, labels = rated_results(game, match_ids=match_ids)
        included = dict(
            (str(m), s)
            for m, s in RatingPoint.objects.filter(game=game, match_id__in=match_ids)
            .values_list("match_id", "sequence")
            .distinct()
        )
        new = [r for r in found if str(r.match_id) not in included]
        rated = {str(r.match_id) for r in found}
        withdrawn = [s for m, s in included.items() if m not in rated]
        if not new and not withdrawn:
            return 0  # every one already in, or rightly out
        if not withdrawn and new[0].sequence > checkpoint.sequence:
            _fold(game, system, new, labels)  # the usual case: all newer than everything stored
            checkpoint.sequence = new[-1].sequence
            checkpoint.save(update_fields=["sequence"])
            return len(new)
        # Some older than a result already in, or withdrawn: rewind to the earliest, replay after.
        since = min([r.sequence for r in new] + withdrawn)
        replay_ids = _rewind(game, system, since)
        if replay_ids is None:
            results, labels = rated_results(game)
            _rebuild_from(game, results, labels, checkpoint)
            return len(new) + len(withdrawn)
        replay, more = rated_results(game, match_ids=[*replay_ids, *(str(r.match_id) for r in new)])
        labels.update(more)
        if replay:
            _fold(game, system, replay, labels)
        last = RatingPoint.objects.filter(game=game).order_by("-sequence").values_list("sequence", flat=True).first()
        checkpoint.sequence = last or 0
        checkpoint.save(update_fields=["sequence"])
        return len(new) + len(withdrawn)


def ratings_refresh(*, game: str) -> bool:
    """Rebuild if a verified result is missing from the ratings, or a withdrawn one is still in
    (idempotent; a full scan, for the on-demand check, not for every verdict)."""
    if not rating_system(game):
        return False
    with transaction.atomic():
        checkpoint = _lock(game)
        results, labels = rated_results(game)
        wanted = sorted((str(r.match_id), r.sequence) for r in results)
        have = sorted(
            {(str(m), s) for m, s in RatingPoint.objects.filter(game=game).values_list("match_id", "sequence")}
        )
        if wanted == have and checkpoint.sequence == (results[-1].sequence if results else 0):
            return False
        _rebuild_from(game, results, labels, checkpoint)  # the results just read: no second scan
        return True


__all__ = [
    "HistoryPoint",
    "rated_games",
    "rated_results",
    "rating_system",
    "ratings_apply",
    "ratings_apply_many",
    "ratings_rebuild",
    "ratings_refresh",
]
