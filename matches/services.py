"""Writes for matches: create, act, record chance. Checks first, then one append.

Every command runs in one transaction holding the stream's lock: permission checks,
the idempotency lookup, the expected-seq check and the engine's legality check all
happen before anything is written, so a refusal writes nothing.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import secrets
import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, connections, router
from django.db.models import QuerySet, prefetch_related_objects

from audit.chain import SALTED_SCHEME
from audit.clocks import SECOND, BadTimeControl, Clocks, check_time_control, micros
from config.rows import Columns, Statement, prepared, statements_together
from engines import registry
from engines.base import (
    CHANCE,
    Engine,
    EngineError,
    IllegalAction,
    chance_enterable,
    check_action_numbers,
    quoted,
)
from engines.chance import check_outcome, derive, indices_for_cards, seed_commitment

from . import eventstore, live, selectors
from .commands import Appender, command_create, command_run
from .errors import Refusal
from .eventstore import NewEvent
from .models import Event, Match, MatchLog, Seat, Stream
from .outbox import outbox_add_all, outbox_add_all_statement
from .replay import engine_event, engine_events, replay_stream


class MatchError(Refusal):
    """A refused match command: HTTP status, stable code and a sentence for people."""


@dataclass(frozen=True)
class SeatSpec:
    user: AbstractBaseUser | None = None
    bot: str = ""
    partners: tuple = ()  # more people who play this seat with ``user`` (a team)


@dataclass
class CommandOutcome:
    match: Match
    events: list[Event]
    created: bool  # False when an idempotent retry returned the stored event


def user_actor(user) -> str:
    return f"user:{user.pk}"


# -- create ------------------------------------------------------------------


def match_create(
    *,
    game: str,
    seats: list[SeatSpec],
    created_by: AbstractBaseUser | None,
    mode: str = Match.Mode.SERVER,
    config: dict[str, Any] | None = None,
    origin: dict[str, Any] | None = None,
    event_id: uuid.UUID | None = None,
    time_control: dict[str, Any] | None = None,
) -> Match:
    """Create a match. With ``event_id`` (the id its creation event takes) a retried create
    returns the match the first one made instead of making a second (``match_create_or_get``)."""
    return match_create_or_get(
        game=game,
        seats=seats,
        created_by=created_by,
        mode=mode,
        config=config,
        origin=origin,
        event_id=event_id,
        time_control=time_control,
    )[0]


def _new_match_identity() -> tuple[uuid.UUID, bytes]:
    """A new match's id and its stream secret. The secret seeds a server-dealt match's outcomes
    and salts every event's hash (docs/AUDIT.md), so a tabletop match has one too; it is committed
    at the start and revealed at the end. The test suite replaces this function
    (tests/conftest.py) so that each test's matches deal the same outcomes in every run."""
    return uuid.uuid4(), secrets.token_bytes(32)


def match_create_or_get(
    *,
    game: str,
    seats: list[SeatSpec],
    created_by: AbstractBaseUser | None,
    mode: str = Match.Mode.SERVER,
    config: dict[str, Any] | None = None,
    origin: dict[str, Any] | None = None,
    event_id: uuid.UUID | None = None,
    time_control: dict[str, Any] | None = None,
) -> tuple[Match, bool]:
    """``match_create``, saying whether this call made the match (False: a retry with the
    ``event_id`` of an earlier create, which gets the match that one made; also when the two race)."""
    # No lookup of event_id first: command_create finds a retry when its insert meets the stored id.
    try:
        engine, normalised, state, clock = _checked_setup(
            game=game, seats=seats, mode=mode, config=config, time_control=time_control
        )
    except MatchError:
        # A retry is answered as one even if the server would now refuse the create itself.
        existing = match_create_retry(
            event_id=event_id,
            game=game,
            seats=seats,
            created_by=created_by,
            mode=mode,
            config=config,
            origin=origin,
            time_control=time_control,
        )
        if existing is None:
            raise
        return existing, False
    match_id, seed = _new_match_identity()
    commitment = seed_commitment(seed)

    def execute(appender: Appender) -> Match:
        stream = appender.stream
        match = Match.objects.create(
            id=match_id,
            stream=stream,
            game=engine.name,
            engine_version=engine.version,
            mode=mode,
            config=normalised,
            created_by=created_by,
            seed_hex=seed.hex(),
            seed_commitment=commitment,
            hash_scheme=SALTED_SCHEME,
            time_control=clock,
            origin=origin or {},
            state=state,
        )
        made = Seat.objects.bulk_create(
            [Seat(match=match, index=i, user=s.user, bot=s.bot) for i, s in enumerate(seats)]
        )
        for seat, spec in zip(made, seats):
            if spec.partners:
                seat.partners.set(spec.partners)
        created = NewEvent(
            type="match.created",
            event_id=event_id,
            actor=user_actor(created_by) if created_by else "system",
            data={
                "game": engine.name,
                "engine_version": engine.version,
                "mode": mode,
                "config": normalised,
                "seats": [
                    {
                        "seat": i,
                        "user_id": s.user.pk if s.user else None,
                        "username": s.user.get_username() if s.user else None,
                        "bot": s.bot or None,
                        # Names for people, ids for the verifier: an account may be renamed,
                        # and an id never changes (user ids are public already: this seat's
                        # holder's above, every acting partner's in its events' actor).
                        **(
                            {
                                "partners": [p.get_username() for p in s.partners],
                                "partner_ids": [p.pk for p in s.partners],
                            }
                            if s.partners
                            else {}
                        ),
                    }
                    for i, s in enumerate(seats)
                ],
                "seed_commitment": commitment,
                "hash_scheme": SALTED_SCHEME,
                **({"time_control": clock} if clock else {}),
                **({"entry_clocks": True} if entry_clocks(match) else {}),
                "origin": origin or {},
            },
        )
        writes = _Writes(match, appender)
        writes.add(created, "Match created.", engine=engine, after=state)
        _after_append(match, _advance(match=match, writes=writes, engine=engine, state=state), bots_due=writes.bots_due)
        return match

    try:
        return command_create(
            stream_id=f"match:{match_id}",
            kind="match",
            event_id=event_id,
            execute=execute,
            found=lambda event: Match.objects.get(stream_id=event.stream_id),
            same=lambda event: _same_create(
                event,
                game=game,
                seats=seats,
                created_by=created_by,
                mode=mode,
                origin=origin,
                config=normalised,
                clock=clock,
                checked=True,
            ),
        )
    except eventstore.EventIdReused:
        raise _event_id_reused() from None


def bot_match_cap_check(
    *, created_by: AbstractBaseUser | None, seats: list[SeatSpec], event_id: uuid.UUID | None
) -> None:
    """Refuse (409 ``too_many_bot_matches``) a match or draft that seats no other person than
    ``created_by`` when it already has ``MAX_OPEN_BOT_MATCHES_PER_USER`` of them unfinished.
    Call it inside the transaction that creates the match: it locks the creator's row, so two
    creates at once count one after the other and cannot both take the last place. A retry of a
    stored create (the same ``event_id``) is not refused: it gets what the first one made."""
    if created_by is None or not created_by.is_authenticated:
        return
    people = [u for s in seats for u in ((s.user,) if s.user else ()) + tuple(s.partners)]
    if any(u.pk != created_by.pk for u in people):
        return
    get_user_model().objects.select_for_update().get(pk=created_by.pk)
    if event_id is not None and eventstore.event_find(event_id=event_id) is not None:
        return
    cap = settings.MAX_OPEN_BOT_MATCHES_PER_USER
    if selectors.open_bot_match_count(user=created_by) >= cap:
        noun = "match or draft" if cap == 1 else "matches and drafts"
        raise MatchError(
            f"You have {cap} {noun} against bots that have not finished, as many as one account may: "
            "finish or resign one before you start another (a game you left counts until its bots have finished it).",
            code="too_many_bot_matches",
            status=409,
        )


def match_create_check(
    *,
    game: str,
    seats: list[SeatSpec],
    mode: str = Match.Mode.SERVER,
    config: dict[str, Any] | None = None,
    time_control: dict[str, Any] | None = None,
) -> None:
    """Every check ``match_create`` makes before it writes, writing nothing: an invitation asks
    this before anyone is invited, so a match nobody could start is refused at once."""
    _checked_setup(game=game, seats=seats, mode=mode, config=config, time_control=time_control)


def _checked_setup(*, game, seats, mode, config, time_control):
    """(engine, normalised config, first state, clock) of a match these seats may start; MatchError if not."""
    try:
        engine = registry.get(game)
    except registry.UnknownEngine as exc:
        raise MatchError(str(exc), code="unknown_game", status=400) from None
    if mode not in Match.Mode.values:
        raise MatchError("Mode must be 'server' or 'tabletop'.", code="bad_mode")
    for i, spec in enumerate(seats):
        if (spec.user is None) == (not spec.bot):
            raise MatchError(f"Seat {i} needs exactly one of a user or a bot.", code="bad_seat")
        if spec.bot and spec.bot not in engine_bots(engine):
            raise MatchError(
                f"There is no {quoted(spec.bot, otherwise='such')} bot for {engine.title}.", code="unknown_bot"
            )
    if mode == Match.Mode.TABLETOP and any(s.bot for s in seats):
        raise MatchError("A tabletop match is played by people at a table: no bots.", code="bot_at_tabletop")
    user_ids = [u.pk for s in seats for u in ((s.user,) if s.user else ()) + tuple(s.partners)]
    if any(s.partners and s.user is None for s in seats):
        raise MatchError("A team seat needs a first player as well as partners.", code="bad_seat")
    if len(user_ids) != len(set(user_ids)):
        raise MatchError("A user can hold only one seat in a match.", code="duplicate_user")
    try:
        clock = check_time_control(time_control)
    except BadTimeControl as exc:
        raise MatchError(str(exc), code="bad_time_control") from None
    people = bool(seats) and all(s.user is not None for s in seats)
    normalised, state = _config_setup(engine, config, len(seats), people=people)
    return engine, normalised, state, clock


def match_config_check(*, engine: Engine, config: dict[str, Any] | None, seats: int) -> None:
    """The check ``match_create`` makes of a config, for a match of ``seats`` people, writing
    nothing: a tournament asks it of the config every pairing's match will be created with."""
    _config_setup(engine, config, seats, people=True)


def _config_setup(engine, config, seats: int, *, people: bool):
    """(normalised config, first state) of ``engine`` for ``seats`` seats; MatchError if the
    engine refuses the config."""
    if people:
        # Between people the bound that ends bot games is off (their clocks end a stalled game).
        config = {**engine.people_config, **(config or {})}
    try:
        normalised = engine.validate_config(config or {}, seats)
        return normalised, engine.setup(normalised, seats)
    except EngineError as exc:
        raise MatchError(exc.message, code=exc.code) from None


def match_create_retry(
    *,
    event_id,
    game: str,
    seats: list[SeatSpec],
    created_by,
    mode: str,
    config: dict[str, Any] | None = None,
    origin: dict[str, Any] | None = None,
    time_control: dict[str, Any] | None = None,
) -> Match | None:
    """The match an earlier create with this ``event_id`` made, if it asked for the same thing;
    None if the id is new; MatchError event_id_reused if it was used for anything else."""
    existing = eventstore.event_find(event_id=event_id)
    if existing is None:
        return None
    same = _same_create(
        existing,
        game=game,
        seats=seats,
        created_by=created_by,
        mode=mode,
        origin=origin,
        config=config,
        clock=time_control,
        checked=False,
    )
    if not same:
        raise _event_id_reused()
    return Match.objects.get(stream_id=existing.stream_id)


def _event_id_reused() -> MatchError:
    return MatchError(
        "This event_id was already used for a different command. Use a new id for a new command.",
        code=eventstore.EventIdReused.code,
        status=409,
    )


def _same_create(
    existing: Event,
    *,
    game: str,
    seats: list[SeatSpec],
    created_by,
    mode: str,
    origin: dict[str, Any] | None,
    config: dict[str, Any] | None,
    clock: dict[str, Any] | None,
    checked: bool,
) -> bool:
    """Whether the stored create asked for this very match: game, mode, creator, seats, origin,
    configuration and clock. A different one under the same id is a mistake, not a retry.

    ``checked``: ``config`` and ``clock`` are as the setup check normalised them. False for a
    retry whose setup the server would now refuse: they are compared as given (every option it
    names has the recorded value; its clock, read if it still reads, is the recorded one)."""
    data = existing.data if existing.type == "match.created" else {}
    recorded_config, recorded_clock = data.get("config") or {}, data.get("time_control") or {}
    if checked:
        same_settings = recorded_config == eventstore.as_stored(
            config or {}
        ) and recorded_clock == eventstore.as_stored(clock or {})
    else:
        try:
            clock = check_time_control(clock)
        except BadTimeControl:
            pass
        try:
            given, clock = eventstore.as_stored(config or {}), eventstore.as_stored(clock or {})
        except (TypeError, ValueError):  # what JSON cannot hold was never stored
            return False
        same_settings = (
            recorded_clock == clock
            and isinstance(given, dict)
            and all(recorded_config.get(key, _ABSENT) == value for key, value in given.items())
        )
    return (
        data.get("game") == game
        and data.get("mode") == mode
        and existing.actor == (user_actor(created_by) if created_by else "system")
        and [(s.get("user_id"), s.get("bot"), _recorded_partners(s)) for s in data.get("seats", [])]
        == [
            (spec.user.pk if spec.user else None, spec.bot or None, _partners_as_recorded(spec, data)) for spec in seats
        ]
        and (data.get("origin") or {}) == eventstore.as_stored(origin or {})
        and same_settings
    )


_ABSENT = object()


def _recorded_partners(seat: dict) -> list:
    """A recorded seat's partners by id where the created event has them (a partner renamed since
    is the same partner), by username in a match created before it recorded ids."""
    return seat["partner_ids"] if "partner_ids" in seat else seat.get("partners", [])


def _partners_as_recorded(spec: SeatSpec, data: dict) -> list:
    """A seat's partners as ``_recorded_partners`` reads the stored create's: by id if it has any."""
    by_id = any("partner_ids" in seat for seat in data.get("seats", []))
    return [p.pk if by_id else p.get_username() for p in spec.partners]


def engine_bots(engine) -> tuple[str, ...]:
    return tuple(engine.bots)


# -- act -----------------------------------------------------------------------


def match_act(
    *,
    match_id: uuid.UUID | str,
    user: AbstractBaseUser,
    seat: int,
    action: dict[str, Any],
    expected_seq: int,
    event_id: uuid.UUID | None = None,
) -> CommandOutcome:
    """A seat's move. Refused (nothing written) unless the user holds the seat, the
    command is based on the current head and the engine allows the action now."""
    return _command(
        match_id=match_id,
        user=user,
        seat=seat,
        expected_seq=expected_seq,
        event_id=event_id,
        body={"kind": "action", "seat": seat, "action": action},
    )


def match_record_chance(
    *,
    match_id: uuid.UUID | str,
    user: AbstractBaseUser,
    seat: int,
    outcome: Any,
    expected_seq: int,
    event_id: uuid.UUID | None = None,
) -> CommandOutcome:
    """A tabletop seat records a real-world random outcome (dice shown, deck order)."""
    return _command(
        match_id=match_id,
        user=user,
        seat=seat,
        expected_seq=expected_seq,
        event_id=event_id,
        body={"kind": "chance", "seat": seat, "outcome": outcome},
    )


def match_act_on_behalf(
    *,
    match_id: uuid.UUID | str,
    seat: int,
    action: dict[str, Any],
    expected_seq: int,
    actor: str,
    event_id: uuid.UUID | None = None,
) -> CommandOutcome:
    """An action taken for a seat by the platform itself (a pick clock running out, an
    organiser's ruling). Callers check their own authority first; the engine still
    checks the action, and the event records who acted (``actor``, e.g. "clock")."""
    return _command(
        match_id=match_id,
        user=None,
        seat=seat,
        expected_seq=expected_seq,
        event_id=event_id,
        body={"kind": "action", "seat": seat, "action": action},
        actor=actor,
    )


def _command(*, match_id, user, seat, expected_seq, event_id, body, actor: str | None = None) -> CommandOutcome:
    def authorize(match: Match) -> None:
        if actor is None:
            check_seat_holder(match=match, user=user, seat=seat)
        else:
            _check_trusted_actor(actor)

    def same(existing: Event) -> bool:
        # The same event_id again is a retry only if it is the same command by the same hand.
        return existing.actor == (actor or user_actor(user)) and _command_matches(existing, body)

    done = command_run(
        stream_id=lambda match: match.stream_id,
        expected_seq=expected_seq,
        event_id=event_id,
        lock=lambda: _match_for_update(match_id),
        stream_of=lambda match: match.stream,
        authorize=authorize,
        same=same,
        execute=lambda match, appender: _command_execute(match, appender, user, seat, body, actor),
    )
    return CommandOutcome(match=done.subject, events=done.events, created=done.created)


def _command_execute(match: Match, appender: Appender, user, seat, body, actor: str | None) -> list[Event]:
    engine = registry.get(match.game, match.engine_version)
    state = match.state
    if match.status == Match.Status.FINISHED:
        raise MatchError("This match is over.", code="match_finished", status=409)
    if body["kind"] == "chance":
        new, state = _checked_tabletop_chance(match, engine, state, body["outcome"], user, seat)
    else:
        new, state = _checked_action(engine, state, seat, body["action"], actor or user_actor(user))
    if match.time_control and (body["kind"] == "action" or entry_clocks(match)):
        # One instant for the check and the record, so the verifier sees what the server saw (a
        # draw's too where the drawer's clock runs while it is due: matches recorded with
        # entry_clocks; in one recorded before, a late drawer was no fault, as its verifier has it).
        new.recorded_at = eventstore.stream_now(appender.stream)
        if seat in Clocks.from_dict(match.clocks).expired_at(micros(new.recorded_at)):
            raise MatchError(
                "Your time is up: the match ends on time once anyone claims it.", code="time_up", status=409
            )
    writes = _Writes(match, appender)
    writes.add(new, engine.describe(match.state, engine_event(new.type, new.data), state), engine=engine, after=state)
    return _advance(match=match, writes=writes, engine=engine, state=state, after_append=True)


def check_seat_holder(*, match: Match, user: AbstractBaseUser, seat: int) -> Seat:
    if not user or not user.is_authenticated:
        raise MatchError("Sign in to play.", code="not_authenticated", status=401)
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise MatchError("Seat must be a whole number.", code="bad_seat")
    holder = next((s for s in match_seats(match=match) if s.index == seat), None)
    if holder is None:
        raise MatchError(f"This match has no seat {seat}.", code="no_such_seat", status=404)
    if not holder.held_by(user):
        raise MatchError(f"Seat {seat} is not yours to play.", code="not_your_seat", status=403)
    return holder


def match_seats(*, match: Match) -> list[Seat]:
    """The match's seats with their users, read once per command: the seat check, the bots'
    turn, the closing line and the broadcast share this one read (seats never change once a
    match exists).

    The read also tells which seats have partners (a team sharing a seat), and a seat without
    any is given its empty partners at once: a command's broadcast labels every seat
    (``Seat.label``), and asking for partners nobody has was a query of its own after the commit
    in every action POST (issue 17, P5). A team's seat reads its partners when they are asked for.

    One hand-written statement, its rows put where ``prefetch_related`` would put them
    (``match.seats.all()``, each seat's ``user`` and ``match``, a lone seat's ``partners``): the
    prefetch built the same read anew for every POST, 1.5 ms of CPU against 0.1 ms for the
    statement (config/rows.py)."""
    cache = match.__dict__.setdefault("_prefetched_objects_cache", {})
    if "seats" not in cache:
        connection = connections[match._state.db or router.db_for_read(Seat, instance=match)]
        with connection.cursor() as cursor:
            cursor.execute(_seats_sql(connection.alias), [_SEAT_MATCH.get_db_prep_value(match.pk, connection)])
            _keep_seats(match, connection, cursor.fetchall())
    return list(cache["seats"])


def _keep_seats(match: Match, connection, rows: list[tuple]) -> None:
    """Put the rows of ``_seats_sql`` where ``match_seats`` reads them."""
    seats = []
    width = len(_SEAT)
    for row in rows:
        seat = _SEAT.build(connection, row[:width])
        _SEAT_MATCH.set_cached_value(seat, match)
        _SEAT_USER.set_cached_value(seat, None if seat.user_id is None else _USER.build(connection, row[width + 1 :]))
        if not row[width]:
            seat.__dict__.setdefault("_prefetched_objects_cache", {})["partners"] = _no_partners()
        seats.append(seat)
    queryset = match.seats.get_queryset()
    queryset._result_cache, queryset._prefetch_done = seats, True
    match.__dict__.setdefault("_prefetched_objects_cache", {})["seats"] = queryset


_SEAT = Columns(Seat, "seat")
_USER = Columns(get_user_model(), "user")
_SEAT_MATCH, _SEAT_USER = Seat._meta.get_field("match"), Seat._meta.get_field("user")


def _no_partners() -> QuerySet:
    """A seat's partners when it has none: answered at once, never sent to the database (an
    empty queryset), as the prefetch of ``User.objects.none()`` left them."""
    partners = QuerySet(model=_USER.model)
    partners.query.set_empty()
    partners._result_cache, partners._prefetch_done = [], True
    return partners


@functools.cache
def _seats_sql(alias: str) -> str:
    """A match's seats in order, each with whether it has partners and its user's columns."""
    connection = connections[alias]
    qn = connection.ops.quote_name
    partners = Seat.partners.field
    return (
        f"SELECT {_SEAT.select(connection)},"
        f" EXISTS (SELECT 1 FROM {qn(partners.m2m_db_table())} team"
        f" WHERE team.{qn(partners.m2m_column_name())} = seat.{qn('id')}),"
        f" {_USER.select(connection)}"
        f" FROM {qn(Seat._meta.db_table)} seat"
        f" LEFT JOIN {qn(_USER.model._meta.db_table)} {qn('user')}"
        f" ON {qn('user')}.{qn(_USER.model._meta.pk.column)} = seat.{qn(_SEAT_USER.column)}"
        f" WHERE seat.{qn(_SEAT_MATCH.column)} = %s ORDER BY seat.{qn('index')}"
    )


def _seat_names(match: Match) -> dict[int, str]:
    seats = match_seats(match=match)
    # A person's seat may be a team: its partners, read here in one query (not one per seat).
    prefetch_related_objects([s for s in seats if s.user_id], "partners")
    return {s.index: s.label for s in seats}


def _match_for_update(match_id) -> Match:
    """The match and its stream row in one statement: FOR UPDATE locks the joined rows in the
    order every match command takes them (match, then stream), and after a wait returns their
    newest versions. Written by hand, as ``select_for_update().select_related("stream")`` would
    write it, and built the same way (config/rows.py): compiling it was a third of its CPU.

    Where one execute takes two statements (``statements_together``: PostgreSQL, binding on the
    client) the match's seats (``match_seats``, which every command on a match reads next, for its
    seat check) come back in the same round trip: one query less in every action POST (issue 17,
    P5), and so does the database's clock, read once the locks are held: the command's time
    (``eventstore.stream_now``). Elsewhere ``match_seats`` reads the seats when asked, and
    ``stream_now`` the clock."""
    connection = connections[router.db_for_write(Match)]
    try:
        # Converted as the ORM's lookup converts it, refusals included (a string that is no UUID
        # raises ValidationError, as it did); what cannot be converted at all finds no match.
        key = Match._meta.pk.get_db_prep_value(match_id, connection)
    except (ValueError, TypeError):
        key = None
    seats = now = None
    with connection.cursor() as cursor:
        if statements_together(connection):
            lock_sql, seats_sql = (prepared(cursor, sql(connection.alias)) for sql in (_lock_sql, _seats_sql))
            cursor.execute(f"{lock_sql}; {seats_sql}; {eventstore.DATABASE_CLOCK}", [key, key])
            row = cursor.fetchone()
            cursor.nextset()
            seats = cursor.fetchall()
            cursor.nextset()
            (now,) = cursor.fetchone()
        else:
            cursor.execute(_lock_sql(connection.alias), [key])
            row = cursor.fetchone()
    if row is None:
        raise MatchError("No such match.", code="match_not_found", status=404)
    match = _MATCH.build(connection, row[: len(_MATCH)])
    if seats is not None:
        _keep_seats(match, connection, seats)
    stream = _STREAM.build(connection, row[len(_MATCH) :])
    if now is not None:
        eventstore.stream_now_is(stream, now)
    _MATCH_STREAM.set_cached_value(match, stream)
    _MATCH_STREAM.remote_field.set_cached_value(stream, match)
    return match


_MATCH, _STREAM = Columns(Match, "match"), Columns(Stream, "stream")
_MATCH_STREAM = Match._meta.get_field("stream")


@functools.cache
def _lock_sql(alias: str) -> str:
    connection = connections[alias]
    qn = connection.ops.quote_name
    return (
        f"SELECT {_MATCH.select(connection)}, {_STREAM.select(connection)}"
        f" FROM {qn(Match._meta.db_table)} {qn('match')}"
        f" INNER JOIN {qn(Stream._meta.db_table)} {qn('stream')}"
        f" ON {qn('stream')}.{qn(Stream._meta.pk.column)} = {qn('match')}.{qn(_MATCH_STREAM.column)}"
        f" WHERE {qn('match')}.{qn(Match._meta.pk.column)} = %s"
        + (" FOR UPDATE" if connection.features.has_select_for_update else "")
    )


def _check_trusted_actor(actor: str) -> str:
    # "server" is reserved for chance and the match's closing; people are "user:<id>".
    if not actor or actor == "server" or actor.startswith("user:"):
        raise ValueError(f"'{actor}' cannot act on a seat's behalf")
    return actor


def _command_matches(existing: Event, body: dict) -> bool:
    if body["kind"] == "action":
        return existing.type == "action" and existing.data == {"seat": body["seat"], "action": body["action"]}
    if existing.type != "chance":
        return False
    outcome = body["outcome"]
    if isinstance(outcome, dict):
        # Entered as cards: which indices they were depends on the pool just before the event.
        try:
            state = _state_before(existing)
            outcome = _outcome_from_cards(registry.get(*_engine_key(existing)), state, existing.data["spec"], outcome)
        except (EngineError, KeyError, ValueError):
            return False
    return existing.data.get("outcome") == outcome


def _engine_key(event: Event) -> tuple[str, str]:
    match = event.stream.match
    return match.game, match.engine_version


def _state_before(event: Event):
    match = event.stream.match
    earlier = eventstore.stream_events(stream_id=event.stream_id, upto=event.seq - 1)
    engine = registry.get(match.game, match.engine_version)
    return replay_stream(
        engine,
        match.config,
        match.seats.count(),
        engine_events(earlier),
    )


def _checked_action(engine, state, seat, action, actor: str):
    if not isinstance(action, dict):
        raise MatchError("An action must be a JSON object.", code="bad_action")
    if engine.to_move(state) == [CHANCE]:
        raise MatchError("A random outcome is due before anyone can act.", code="chance_pending", status=409)
    event = {"kind": "action", "seat": seat, "action": action}
    try:
        check_action_numbers(action)
        engine.check_sent_action(action)
        new_state = engine.apply(state, event)
    except IllegalAction as exc:
        raise MatchError(exc.message, code=exc.code, status=422) from None
    return NewEvent(type="action", data={"seat": seat, "action": action}, actor=actor), new_state


def _checked_tabletop_chance(match, engine, state, outcome, user, seat):
    if match.mode != Match.Mode.TABLETOP:
        raise MatchError(
            "In a server-dealt match the server draws every random outcome.", code="server_deals_chance", status=403
        )
    spec = engine.chance(state) if engine.to_move(state) == [CHANCE] else None
    if spec is None:
        raise MatchError("No random outcome is due now.", code="no_chance_due", status=409)
    if not chance_enterable(spec, seat):
        # A private draw is entered by the seat that draws it: anyone else would either learn
        # the card or choose it for them.
        raise MatchError("Only the player who may see this outcome can enter it.", code="outcome_not_yours", status=403)
    if not engine.in_game(state, seat):
        # Whoever enters a roll at a real table picks it: a seat out of the game (one that left, a
        # caster retired) would still be steering the game it no longer plays.
        raise MatchError(
            "Your seat is out of this game: the players still in it enter its random outcomes.",
            code="seat_out_of_game",
            status=409,
        )
    try:
        outcome = _outcome_from_cards(engine, state, spec, outcome)
        check_outcome(spec, outcome)
        new_state = engine.apply(state, {"kind": "chance", "outcome": outcome})
    except IllegalAction as exc:
        raise MatchError(exc.message, code=exc.code, status=422) from None
    return NewEvent(type="chance", data={"spec": spec, "outcome": outcome}, actor=user_actor(user)), new_state


def _outcome_from_cards(engine, state, spec, outcome):
    """A draw may be entered as the cards drawn, ``{"cards": [...]}``: people at a table know
    which cards came up, never where those cards stood in the engine's ordering of the pool."""
    if spec.get("kind") == "draw" and isinstance(outcome, dict) and set(outcome) == {"cards"}:
        cards, count = outcome["cards"], int(spec["count"])
        # The size first: matching names to the pool tells a card left to draw from one out of it
        # (in a hand, unseen), so an entry that can never be taken must be refused the same way
        # whatever it names, or it is a free probe of another wizard's hand. An entry of the right
        # size naming a card out of the pool must still be refused, and the refusal names the card:
        # a drawer testing one name beside two cards they drew learns as much from any refusal
        # (and risks having the entry taken), and one who mistyped needs to know which card it was.
        if not isinstance(cards, list) or len(cards) != count:
            raise IllegalAction(
                f"Name the {count} card{'s' if count != 1 else ''} drawn, as a list.", code="bad_chance_outcome"
            )
        return indices_for_cards(engine.draw_pool(state), cards)
    return outcome


class _Writes:
    """What one match command decides, written when it has decided all of it: the events in one
    statement that also moves the stream's head, their log lines in one INSERT, however many cards
    the server dealt and bots moved (each event was two round trips of its own)."""

    def __init__(self, match: Match, appender: Appender):
        self.match, self.appender = match, appender
        self.new: list[NewEvent] = []
        self.lines: list[str] = []
        #: (seq, text) of every log line written so far: the command's broadcast sends them.
        self.logged: list[tuple[int, str]] = []
        self._saved = 0  # how many of them ``save`` has stored
        #: Set by ``_advance`` when it stopped at ``BOT_MOVES_PER_COMMAND`` with bots still to move:
        #: the command records the message that has a later one play on (``match.bots_move``).
        self.bots_due = False

    @property
    def head_seq(self) -> int:
        """The seq of the last event decided so far, written or not."""
        return self.appender.stream.head_seq + len(self.new)

    def add(self, new: NewEvent, line: str, *, engine=None, after=None) -> None:
        """Queue an event and its log line and move the clocks on: ``after`` is the state the
        event leaves, whose seats to move have their clocks running (none once the match closes)."""
        match = self.match
        # Stamped with the command's time, as the append will stamp it: the clocks step by it.
        new.recorded_at = new.recorded_at or eventstore.stream_now(self.appender.stream)
        if match.time_control:
            at = micros(new.recorded_at)
            clocks = (
                Clocks.start(match.time_control, len(match_seats(match=match)), at, entries=entry_clocks(match))
                if self.head_seq == 0
                else Clocks.from_dict(match.clocks)
            )
            running = [] if after is None else _clock_seats(clocks, engine, after)
            # A bot moves in the very command that makes it one to move, unless a person moves with
            # it (a simultaneous step): then it waits on them, and the wait is theirs, not the bot's.
            # Its clock stands still (it ran and went below zero). The verifier's runs, and ignores
            # it: a bot's move is never late, and no claim times a bot out while a person's runs.
            bots = {s.index for s in match_seats(match=match) if s.bot}
            running = [s for s in running if s not in bots]
            clocks.step(at, new.data.get("seat") if new.type == "action" else None, running)
            match.clocks = clocks.as_dict()
        self.new.append(new)
        self.lines.append(line)

    def write(self) -> list[Event]:
        """Append what is queued (salted in salted streams); ``save`` writes their log lines."""
        match = self.match
        events = self.appender.append(self.new, secret=self._secret())
        self.logged += [(event.seq, line) for event, line in zip(events, self.lines, strict=True)]
        self.new, self.lines = [], []
        if match.status == Match.Status.FINISHED:
            match.head_hash = self.appender.stream.head_hash
        return events

    def write_and_save(self, fields: list[str], *, state: Any = None, after_append: bool = False) -> list[Event]:
        """``write``; the match moved to the new head (and to ``state``, if given) and ``save``d;
        then, with ``after_append``, ``_after_append``'s messages recorded. Where one execute
        takes several statements (PostgreSQL) the match's UPDATE and the outbox's INSERT go in the
        events' own round trip: two fewer in every action POST, each with its cursor about 3% of
        the POST's CPU, and the locks held that much less long (issue 17, P5)."""
        match, stream = self.match, self.appender.stream
        connection = connections[router.db_for_write(Match, instance=match)]
        if not (self.new and connection.vendor == "postgresql" and statements_together(connection)):
            events = self.write()
            if state is not None:
                match.state = state
            match.state_seq = stream.head_seq
            self.save(fields)
            if after_append:
                _after_append(match, events, self)
            return events
        lines = self.lines

        def then(rows: list[Event]) -> list[Statement]:
            # What ``write`` and the lines after it leave once the append is in, from its rows.
            if match.status == Match.Status.FINISHED:
                match.head_hash = rows[-1].hash
            if state is not None:
                match.state = state
            match.state_seq = rows[-1].seq
            self.logged += [(event.seq, line) for event, line in zip(rows, lines, strict=True)]
            statements = [self._save_statement(connection, fields)]
            if after_append:
                statements.append(outbox_add_all_statement(**_after_append_messages(match, rows, self)))
            return statements

        events = self.appender.append(self.new, secret=self._secret(), then=then)
        self.new, self.lines = [], []
        return events

    def _secret(self) -> bytes | None:
        match = self.match
        return bytes.fromhex(match.seed_hex) if match.hash_scheme == SALTED_SCHEME else None

    def save(self, fields: list[str]) -> None:
        """Save the match's ``fields`` and write the log lines of what was appended since the
        last save: on PostgreSQL one statement, the lines inserted by the match's UPDATE (a
        data-modifying WITH), where ``bulk_create`` and ``save(update_fields=...)`` were two, each
        built by the ORM anew (0.8 ms of an action POST's CPU; issue 17, P5)."""
        match = self.match
        connection = connections[router.db_for_write(Match, instance=match)]
        if connection.vendor != "postgresql":
            lines = self.logged[self._saved :]
            self._saved = len(self.logged)
            MatchLog.objects.bulk_create([MatchLog(match=match, seq=seq, text=text) for seq, text in lines])
            match.save(update_fields=fields)
            return
        statement = self._save_statement(connection, fields)
        with connection.cursor() as cursor:
            cursor.execute(statement.sql, statement.params)
            statement.read(cursor)

    def _save_statement(self, connection, fields: list[str]) -> Statement:
        """``save``'s statement on PostgreSQL, and the check of what it changed."""
        match, lines = self.match, self.logged[self._saved :]
        self._saved = len(self.logged)
        qn = connection.ops.quote_name
        columns = [Match._meta.get_field(name) for name in fields]
        params: list[Any] = []
        log = ""
        if lines:
            into = ", ".join(qn(MatchLog._meta.get_field(name).column) for name in ("match", "seq", "text"))
            log = f"WITH log AS (INSERT INTO {qn(MatchLog._meta.db_table)} ({into}) VALUES "
            log += ", ".join(["(%s, %s, %s)"] * len(lines)) + ") "
            for seq, text in lines:
                params += [match.pk, seq, text]
        # What the ORM's UPDATE sends for each field (SQLUpdateCompiler): its value as saved.
        params += [f.get_db_prep_save(f.pre_save(match, False), connection) for f in columns]
        params.append(match.pk)
        sets = ", ".join(f"{qn(f.column)} = %s" for f in columns)
        table, key = qn(Match._meta.db_table), qn(Match._meta.pk.column)

        def read(cursor) -> None:
            if cursor.rowcount != 1:
                raise DatabaseError("Save with update_fields did not affect any rows.")

        return Statement(f"{log}UPDATE {table} SET {sets} WHERE {key} = %s", params, read, prepare=True)


def entry_clocks(match: Match) -> bool:
    """Whether a new timed match runs a drawer's clock while their draw is due (audit/clocks.py):
    at a real table the drawer alone enters it, so without a clock they could hold the match up
    for ever. A server-dealt match owes no draw for longer than a command."""
    return bool(match.time_control) and match.mode == Match.Mode.TABLETOP


def _clock_seats(clocks: Clocks, engine, state) -> list[int]:
    to_move = engine.to_move(state)
    return clocks.seats_to_run(to_move, engine.chance(state) if to_move == [CHANCE] else None)


def _advance(
    *, match: Match, writes: _Writes, engine, state, also: tuple[str, ...] = (), after_append: bool = False
) -> list[Event]:
    """After a command: deal server chance, let bots move, close a finished match; then write
    every event the command decided and save the match's projection (and the fields ``also``
    names, which the command changed; and, with ``after_append``, record ``_after_append``'s
    messages). Returns those events.

    All in the caller's transaction. Bots play only while no person is to move, and at most
    ``BOT_MOVES_PER_COMMAND`` events are dealt and moved here: past it, the rest is left to later
    commands (``writes.bots_due``, ``match_bots_move``), so a game of bots alone is never played
    out in one request and one transaction (the stream then rests, for as long as the queued
    command takes, where only bots, or the server's draw, are due)."""
    stream = writes.appender.stream
    bot_seats = {s.index: s.bot for s in match_seats(match=match) if s.bot}
    rng = _BotRng(match.seed_hex or match.stream_id, writes.head_seq)
    left = settings.BOT_MOVES_PER_COMMAND
    while True:
        to_move = engine.to_move(state)
        if not to_move or not _server_moves(match, to_move, bot_seats):
            break
        if not left:
            writes.bots_due = True
            break
        left -= 1
        if to_move == [CHANCE]:
            spec = engine.chance(state)
            outcome = derive(spec, bytes.fromhex(match.seed_hex), stream.id, writes.head_seq + 1)
            new = NewEvent(type="chance", data={"spec": spec, "outcome": outcome}, actor="server")
        else:
            bot_seat = next(s for s in to_move if s in bot_seats)
            action = bot_action(engine, bot_seats[bot_seat], state, bot_seat, rng)
            new = NewEvent(type="action", data={"seat": bot_seat, "action": action}, actor=f"bot:{bot_seats[bot_seat]}")
        before = state
        state = engine.apply(state, engine_event(new.type, new.data))
        writes.add(new, engine.describe(before, engine_event(new.type, new.data), state), engine=engine, after=state)
    if not engine.to_move(state):
        _close(match, writes, engine.result(state))
    fields = ["state", "state_seq", "status", "result", "finished_at", "head_hash", "clocks", *also]
    if writes.bots_due or match.bots_due_at is not None:
        # Written only when it changes or is renewed: every other command's UPDATE stays as it was.
        match.bots_due_at = eventstore.stream_now(stream) if writes.bots_due else None
        fields.append("bots_due_at")
    return writes.write_and_save(fields, state=state, after_append=after_append)


def _server_moves(match: Match, to_move: list[int], bot_seats: dict[int, str]) -> bool:
    """Whether what ``to_move`` waits on is the server's to play: a draw it deals (server-dealt
    matches), or bots' moves with no person moving at the same time (bots wait for people)."""
    if to_move == [CHANCE]:
        return match.mode == Match.Mode.SERVER
    return all(s in bot_seats for s in to_move)


def _close(match: Match, writes: _Writes, result: dict) -> None:
    data = {"result": result}
    if match.mode == Match.Mode.SERVER or match.hash_scheme == SALTED_SCHEME:
        # The reveal: anyone can now re-derive every outcome and recompute every salt.
        data["seed"] = match.seed_hex
    writes.add(NewEvent(type="match.finished", data=data, actor="server"), _result_line(match, result))
    match.status = Match.Status.FINISHED
    match.result = result
    match.finished_at = eventstore.stream_now(writes.appender.stream)


# -- time --------------------------------------------------------------------------


def match_claim_timeout(
    *,
    match_id: uuid.UUID | str,
    user: AbstractBaseUser | None,
    expected_seq: int,
    event_id: uuid.UUID | None = None,
) -> CommandOutcome:
    """End a match whose running clock is out: that seat loses on time (the engine's rules for
    the others' places), or, where two other seats still play and the engine plays on without it
    (the ruling "Leaving"), leaves the game while the others play on. Anyone may claim it; the server checks it against the recorded times,
    and so does the verifier. ``user`` None is the platform's own sweep (actor "clock")."""
    actor = user_actor(user) if user is not None else "clock"

    def authorize(match: Match) -> None:
        if user is not None and not user.is_authenticated:
            raise MatchError("Sign in to claim a win on time.", code="not_authenticated", status=401)

    def execute(match: Match, appender: Appender) -> None:
        if match.status == Match.Status.FINISHED:
            raise MatchError("This match is over.", code="match_finished", status=409)
        if not match.time_control:
            raise MatchError("This match has no clock.", code="untimed", status=409)
        clocks = Clocks.from_dict(match.clocks)
        # The database's clock, as every event was stamped with: never this host's own.
        now = micros(eventstore.stream_now(appender.stream))
        expired = clocks.expired_at(now)
        # A bot moves as soon as no person moves with it: its clock ran out only while it waited on
        # a person, whose stalling must not win them the match. Such a person loses once theirs is out.
        # (A bot's clock no longer runs while it waits, _Writes.add, but one stored before may.)
        bots = {s.index for s in match_seats(match=match) if s.bot}
        if any(s not in bots for s in clocks.running):
            expired = [s for s in expired if s not in bots]
        if not expired:
            left = {s: round(clocks.left_at(now)[s] / SECOND, 1) for s in clocks.running}
            raise MatchError(f"No clock has run out: seconds left {left}.", code="time_not_up", status=409)
        # Running clocks have all run since the same moment: the least left ran out first (a
        # claim made after several ran out must not time out whichever seat comes first).
        left = clocks.left_at(now)
        seat = min(expired, key=lambda s: left[s])
        engine = registry.get(match.game, match.engine_version)
        names = _seat_names(match)
        line = f"{names.get(seat, f'Seat {seat}')} ran out of time."
        _seat_goes(match, appender, engine, "timeout", seat=seat, actor=actor, line=line, at=datetime_from_micros(now))

    return _match_command(
        match_id=match_id,
        expected_seq=expected_seq,
        event_id=event_id,
        authorize=authorize,
        execute=execute,
        same=lambda existing: existing.type == "match.timeout" and existing.actor == actor,
    )


def _end_off_board(match: Match, appender: Appender, engine: Engine, event: NewEvent, line: str, result) -> None:
    """Append ``event`` (a claim on time, a resignation) with its log line, and close the match with
    ``result``: the game ends off the board, with nothing but the close after it (docs/AUDIT.md 6)."""
    writes = _Writes(match, appender)
    writes.add(event, line, engine=engine, after=match.state)
    _close(match, writes, result)
    writes.write_and_save(["state_seq", "status", "result", "finished_at", "head_hash", "clocks"], after_append=True)


def _seat_goes(
    match: Match, appender: Appender, engine: Engine, kind: str, *, seat: int, actor: str, line: str, at=None
):
    """A resignation (``kind`` "resigned") or a loss on time ("timeout") of ``seat``: it leaves a
    game the others play on (the ruling "Leaving", ``"plays_on": true``), or the match ends off the
    board with the engine's result for it."""
    seats = len(match_seats(match=match))
    after = _left_state(engine, match.state, seat, seats)
    data = {"seat": seat, "plays_on": True} if after is not None else {"seat": seat}
    event = NewEvent(type=f"match.{kind}", data=data, actor=actor, recorded_at=at)
    if after is not None:
        _play_on(match, appender, engine, event, f"{line} The others play on.", after, seat=seat, why=kind)
        return
    result = (engine.result_on_time if kind == "timeout" else engine.result_on_resign)(match.state, seat, seats)
    _end_off_board(match, appender, engine, event, line, result)


def _left_state(engine: Engine, state, seat: int, seats: int):
    """The state after ``seat`` leaves a game the others play on, or None when its resignation or
    loss on time ends the match: the ruling "Leaving" plays on only with at least two other seats
    still in the game, and only under an engine version whose ``leave`` does (docs/AUDIT.md 6)."""
    if sum(1 for s in range(seats) if s != seat and engine.in_game(state, s)) < 2:
        return None
    try:
        return engine.leave(state, seat)
    except IllegalAction:
        return None  # the rules refuse this leave: the match ends, as the verifier expects then


def _play_on(match: Match, appender: Appender, engine: Engine, event: NewEvent, line: str, state, *, seat, why):
    """Append ``event`` (a claim on time, a resignation, with ``plays_on``) with its log line: the
    seat has left, and the others play on from ``state``. Its clock stops and whoever moves now
    has theirs running (``_Writes.add``); a bot that now moves moves, as after any move."""
    writes = _Writes(match, appender)
    writes.add(event, line, engine=engine, after=state)
    left = list(match.left) or [None] * len(match_seats(match=match))
    left[seat] = why
    match.left = left
    _advance(match=match, writes=writes, engine=engine, state=state, also=("left",), after_append=True)


def match_bots_move(*, match_id: uuid.UUID | str, head_seq: int) -> list[Event]:
    """The bots' next moves (and the draws dealt between them) in a match a command left them to
    play on at ``head_seq`` (``BOT_MOVES_PER_COMMAND``, ``_advance``): at most that many more
    under the match's lock, in a transaction of their own, broadcast like any command's; past it,
    the next such command is queued again. Returns the events written.

    Writes nothing for a delivery that is not due: the head has moved past ``head_seq`` (a
    repeated or late delivery, or a resignation meanwhile, whose command played the bots on
    itself), the match is over, or a person is to move. The moves are as the one command would
    have made them, but for each command's bot randomness being keyed by the head it starts at
    (``_BotRng``): the verifier checks a bot's move for legality only, as any seat's."""

    def execute(match: Match, appender: Appender) -> list[Event]:
        engine = registry.get(match.game, match.engine_version)
        bots = {s.index: s.bot for s in match_seats(match=match) if s.bot}
        to_move = [] if match.status == Match.Status.FINISHED else engine.to_move(match.state)
        if not to_move or not _server_moves(match, to_move, bots):
            raise MatchError("Nobody but a person, or nobody, is to move.", code="bots_not_due", status=409)
        return _advance(
            match=match, writes=_Writes(match, appender), engine=engine, state=match.state, after_append=True
        )

    try:
        done = command_run(
            stream_id=lambda match: match.stream_id,
            expected_seq=head_seq,
            event_id=None,
            lock=lambda: _match_for_update(match_id),
            stream_of=lambda match: match.stream,
            execute=execute,
        )
    except eventstore.StaleSequence:
        return []
    except MatchError as refused:
        if refused.code != "bots_not_due":
            raise  # no such match, or a bot that chose a move the rules refuse: an error to see
        return []
    return done.events


def matches_bots_move_stalled() -> int:
    """Queue again the bots' next moves in every live match whose bots were left to play on
    (``Match.bots_due_at``) and have waited ``BOTS_STALLED_SECONDS`` since: its queued command was
    lost (a broker that dropped it, an outbox message given up on). Returns how many it queued.
    A match whose chain is merely slow gets a second command for the same head: one of the two
    finds the head moved and writes nothing."""
    cutoff = eventstore.database_now() - dt.timedelta(seconds=settings.BOTS_STALLED_SECONDS)
    stalled = Match.objects.filter(status=Match.Status.LIVE, bots_due_at__lte=cutoff).values_list("pk", "state_seq")
    queued = 0
    for match_id, head_seq in stalled:
        outbox_add_all(messages=[("match.bots_move", {"match_id": str(match_id), "head_seq": head_seq})])
        queued += 1
    return queued


def _match_command(*, match_id, expected_seq: int, event_id, authorize, execute, same) -> CommandOutcome:
    """``command_run`` for a command on one match under its lock (a claim on time, a resignation)."""
    done = command_run(
        stream_id=lambda match: match.stream_id,
        expected_seq=expected_seq,
        event_id=event_id,
        lock=lambda: _match_for_update(match_id),
        stream_of=lambda match: match.stream,
        authorize=authorize,
        execute=execute,
        same=same,
    )
    return CommandOutcome(match=done.subject, events=done.events, created=done.created)


def match_resign(
    *,
    match_id: uuid.UUID | str,
    user: AbstractBaseUser,
    expected_seq: int,
    event_id: uuid.UUID | None = None,
) -> CommandOutcome:
    """A person concedes the match for the seat they play: it ends at once, that seat losing as
    it would on time (``Engine.result_on_resign``: in a game of sides, its whole side), unless
    two other seats still play and the engine plays on without it (the ruling "Leaving",
    ``_left_state``): then the seat leaves the game, and the others play on. Any person
    seated may resign their seat, its holder or a partner alike: a partner plays the seat in every
    other command too, and a team concedes together. Bots never resign. A two-coach draft may be
    resigned: that coach forfeits it, and the draft ends with no match made from it (a season
    fixture's goes to the other club as a walkover, league.seasons). A draft of more coaches may
    not: the others' teams are still being drafted, and the pick clock drafts for one who leaves."""

    def authorize(match: Match) -> None:
        if not user or not user.is_authenticated:
            raise MatchError("Sign in to resign.", code="not_authenticated", status=401)
        if _seat_of(match, user) is None:
            raise MatchError("Only a player in this match can resign it.", code="not_your_seat", status=403)

    def execute(match: Match, appender: Appender) -> None:
        if match.status == Match.Status.FINISHED:
            raise MatchError("This match is over.", code="match_finished", status=409)
        engine = registry.get(match.game, match.engine_version)
        if engine.draft and len(match_seats(match=match)) != 2:
            raise MatchError(
                "A draft of more than two coaches cannot be resigned: the other teams are still being "
                "drafted. The pick clock drafts for a coach who leaves.",
                code="draft_not_resignable",
                status=409,
            )
        seat = _seat_of(match, user)
        if not engine.in_game(match.state, seat.index):
            raise MatchError(
                "Your seat is already out of this game: the others play on, and your place stands.",
                code="seat_out_of_game",
                status=409,
            )
        names = _seat_names(match)
        label = names.get(seat.index, f"Seat {seat.index}")
        line = f"{label} resigned." if seat.user_id == user.pk else f"{user.get_username()} resigned for {label}."
        _seat_goes(match, appender, engine, "resigned", seat=seat.index, actor=user_actor(user), line=line)

    return _match_command(
        match_id=match_id,
        expected_seq=expected_seq,
        event_id=event_id,
        authorize=authorize,
        execute=execute,
        same=lambda existing: existing.type == "match.resigned" and existing.actor == user_actor(user),
    )


def _seat_of(match: Match, user: AbstractBaseUser) -> Seat | None:
    """The seat ``user`` plays in ``match`` (as its holder or a partner), or None. A person holds
    at most one seat in a match (``duplicate_user``)."""
    return next((s for s in match_seats(match=match) if s.held_by(user)), None)


def datetime_from_micros(value: int):
    import datetime as dt

    return dt.datetime(1970, 1, 1, tzinfo=dt.UTC) + dt.timedelta(microseconds=value)


def matches_claim_timeouts() -> int:
    """The platform's sweep: end every live timed match whose running clock is out (a player who
    left and never came back). Returns how many claims it made: one in a game the others play on
    (the ruling "Leaving") takes the seat out and ends nothing, and the match's clocks run on."""
    ended = 0
    # A first sift by the database's clock (each claim checks again under its match's lock).
    now = micros(eventstore.database_now())
    for match in Match.objects.filter(status=Match.Status.LIVE).exclude(time_control={}).only("pk", "clocks"):
        clocks = Clocks.from_dict(match.clocks) if match.clocks else None
        if clocks is None or not clocks.expired_at(now):
            continue
        try:
            match_claim_timeout(match_id=match.pk, user=None, expected_seq=Match.objects.get(pk=match.pk).state_seq)
            ended += 1
        except (MatchError, eventstore.EventStoreError):
            continue  # someone moved or claimed first
    return ended


def bot_action(engine, bot: str, state, seat: int, rng) -> dict:
    try:
        return engine.bot_action(bot, state, seat, rng)
    except IllegalAction as exc:
        raise MatchError(exc.message, code=exc.code) from None


class _BotRng:
    """Bots need only random(); derive it from the match so bot play is reproducible."""

    def __init__(self, key: str, seq: int):
        self._key = hashlib.sha256(f"bot:{key}:{seq}".encode()).digest()
        self._n = 0

    def random(self) -> float:
        self._n += 1
        digest = hashlib.sha256(self._key + self._n.to_bytes(8, "big")).digest()
        return int.from_bytes(digest[:7], "big") / float(1 << 56)


def _result_line(match: Match, result: dict | None) -> str:
    if not result:
        return "Match over."
    names = _seat_names(match)
    winners = ", ".join(names.get(w, f"seat {w}") for w in result.get("winners", []))
    return f"Match over. Winner: {winners}." if winners else "Match over."


def _after_append(match: Match, events: list[Event], writes: _Writes | None = None, *, bots_due: bool = False) -> None:
    """Broadcast, verification and the other apps' hooks: recorded in the outbox with the events,
    delivered after the commit, so a committed move is never reported as failed (matches.outbox).
    With ``writes`` (a command on a match that exists, after its last change to ``match``) the
    broadcast's first delivery is built from the match and events in hand (live.broadcast_held),
    not read back; a new match's has nobody to reach yet and reads. ``bots_due``: the bots play on
    in a later command (``_Writes.bots_due``, which ``writes`` carries when given)."""
    if not events:
        return
    # One INSERT for all of them (a finished match's three were three round trips).
    outbox_add_all(**_after_append_messages(match, events, writes, bots_due=bots_due))


def _after_append_messages(
    match: Match, events: list[Event], writes: _Writes | None, *, bots_due: bool = False
) -> dict[str, Any]:
    """``outbox_add_all``'s arguments for ``_after_append``."""
    messages = [
        ("match.broadcast", {"match_id": str(match.id), "head_seq": events[-1].seq, "after": events[0].seq - 1})
    ]
    if bots_due or (writes is not None and writes.bots_due):
        # After the broadcast: watchers get this command's events before the next command's.
        messages.append(("match.bots_move", {"match_id": str(match.id), "head_seq": events[-1].seq}))
    if match.status == Match.Status.FINISHED and events[-1].type == "match.finished":
        messages += [
            ("match.verify", {"match_id": str(match.id)}),
            ("match.finished", {"match_id": str(match.id), "game": match.game}),
        ]
    held = None if writes is None else {0: live.broadcast_held(match=match, events=events, log=writes.logged)}
    return {"messages": messages, "deliver_first": held}
