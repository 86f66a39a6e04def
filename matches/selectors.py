"""Reads for matches: who is asking decides what they see while a match is live."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connections, router
from django.db.models import Exists, OuterRef, Prefetch

from config.rows import Columns, prepared, statements_together
from engines import registry
from engines.base import CHANCE, chance_enterable

from . import eventstore
from .models import Event, Match, MatchLog, Seat
from .replay import engine_events, replay_stream


def match_get(*, match_id) -> Match | None:
    """The match with its stream and its seats' people: three queries (the match and stream, the
    seats joined to their users, the partners). Every move reads it for its broadcast."""
    try:
        return (
            Match.objects.select_related("stream")
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")), "seats__partners")
            .get(pk=match_id)
        )
    except (Match.DoesNotExist, ValueError, TypeError, ValidationError):
        return None


#: What a verdict's receivers decide by (league/seasons and league/tournaments receivers.py).
FOLLOWUP_FIELDS = ("id", "status", "result", "origin", "disputed_at")
_FOLLOWUP = Columns(Match, "match", only=FOLLOWUP_FIELDS)


def match_for_followups(*, match_id) -> Match | None:
    """The match with ``FOLLOWUP_FIELDS`` read (the rest deferred, as ``only()`` leaves them), or
    None. Every verdict's receivers read it: where statements are prepared it is one, built as the
    ORM would build it without compiling a query each time (issue 17, P7)."""
    connection = connections[router.db_for_read(Match)]
    if not statements_together(connection):
        return Match.objects.filter(pk=match_id).only(*FOLLOWUP_FIELDS).first()
    key = Match._meta.pk.get_db_prep_value(match_id, connection)  # ValidationError, as the ORM's
    with connection.cursor() as cursor:
        cursor.execute(prepared(cursor, _FOLLOWUP.by_pk(connection)), [key])
        row = cursor.fetchone()
    return None if row is None else _FOLLOWUP.build(connection, row)


def viewer_seat(*, match: Match, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    for seat in match.seats.all():
        if seat.held_by(user):
            return seat.index
    return None


def engine_for(match: Match):
    return registry.get(match.game, match.engine_version)


def match_view(*, match: Match, seat: int | None) -> dict[str, Any]:
    engine = engine_for(match)
    view_seat = None if match.status == Match.Status.FINISHED else seat
    return engine.view(match.state, view_seat)


def event_public(*, match: Match, event: Event, seat: int | None, engine=None) -> dict[str, Any]:
    """An event as ``seat`` may see it: everything once finished, redacted while live."""
    engine = engine or engine_for(match)
    data = event.data
    whole = True
    if match.status != Match.Status.FINISHED:
        if event.type == "action" and data.get("seat") != seat:
            action = engine.redact_action(data["seat"], data["action"], seat)
            whole = action == data["action"]
            data = {**data, "action": action}
        elif event.type == "chance":
            outcome = engine.redact_chance(data.get("spec", {}), data.get("outcome"), seat)
            whole = outcome == data.get("outcome")
            data = {**data, "outcome": outcome, "hidden": not whole}
    return {
        "stream": event.stream_id,
        "seq": event.seq,
        "event_id": str(event.event_id),
        "type": event.type,
        "data": data,
        "actor": event.actor,
        "recorded_at": event.recorded_at.isoformat(),
        "prev_hash": event.prev_hash,
        "hash": event.hash,
        # The salt only to a viewer who sees the whole event: with it and the hash, anyone
        # could test guesses at what was redacted (docs/AUDIT.md).
        "salt": event.salt if whole else None,
    }


def match_events(*, match: Match, seat: int | None, after: int = 0, upto: int | None = None) -> list[dict]:
    engine = engine_for(match)
    return [
        event_public(match=match, event=e, seat=seat, engine=engine)
        for e in eventstore.stream_events(stream_id=match.stream_id, after=after, upto=upto)
    ]


def match_log(*, match: Match, after: int = 0) -> list[dict]:
    return [
        {"seq": line.seq, "text": line.text}
        for line in MatchLog.objects.filter(match=match, seq__gt=after).order_by("seq")
    ]


def match_state_at(*, match: Match, seat: int | None, at: int) -> dict[str, Any]:
    """The view as it stood after event ``at`` (replayed from the stream)."""
    engine = engine_for(match)
    events = eventstore.stream_events(stream_id=match.stream_id, upto=at)
    seats = match.seats.count()
    state = replay_stream(engine, match.config, seats, engine_events(events))
    if match.status == Match.Status.FINISHED:
        # An auditor stepping through a finished match sees every seat's hand as it was.
        return {**engine.view(state, None), "seat_views": [engine.view(state, s) for s in range(seats)]}
    return engine.view(state, seat)


def match_summary(*, match: Match, seat: int | None) -> dict[str, Any]:
    engine = engine_for(match)
    seats = list(match.seats.all())
    to_move = engine.to_move(match.state)
    spec = engine.chance(match.state) if to_move == [CHANCE] else None
    live = match.status != Match.Status.FINISHED
    return {
        "id": str(match.id),
        "game": match.game,
        "game_title": engine.title,
        "engine_version": match.engine_version,
        "mode": match.mode,
        "status": match.status,
        "created_at": match.created_at.isoformat(),
        "finished_at": match.finished_at.isoformat() if match.finished_at else None,
        "seats": [
            {
                "seat": s.index,
                "username": s.user.username if s.user_id else None,
                "bot": s.bot or None,
                "label": s.label,
                # False once the rules put the seat out while others play on (a knocked-out wizard):
                # such a seat neither moves nor resigns, so the page offers it no Resign.
                "in_game": live and engine.in_game(match.state, s.index),
                "left": _left(match, s.index),
            }
            for s in seats
        ],
        "your_seat": seat,
        "head_seq": match.state_seq,
        "to_move": ["chance" if s == CHANCE else s for s in to_move],
        # What a tabletop seat must enter next (dice ranges, a shuffle size, how many cards to draw),
        # and which seats may enter it (a private draw: only the drawer; never a seat out of the game).
        "chance": spec,
        "chance_entered_by": (
            [s.index for s in seats if chance_enterable(spec, s.index) and engine.in_game(match.state, s.index)]
            if spec
            else []
        ),
        "result": match.result,
        "clocks": match_clocks(match=match, bots={s.index for s in seats if s.bot}),
        "head_hash": match.head_hash or None,
        "seed_commitment": match.seed_commitment or None,
        "seed": match.seed_hex if match.status == Match.Status.FINISHED and match.seed_hex else None,
        "verification": {
            "verdict": match.verdict,
            "seq": match.verdict_seq,
            "reason": match.verdict_reason or None,
            "verified_at": match.verified_at.isoformat() if match.verified_at else None,
            # Set once a verification found the match disputed, whatever later ones found: its
            # result then counts in no rating, standing or bracket (a dispute is final).
            "disputed_at": match.disputed_at.isoformat() if match.disputed_at else None,
        },
    }


def _left(match: Match, seat: int) -> str | None:
    """Why ``seat`` left the match ("resigned", "timeout"), or None: a seat that left a game the
    others played on (``Match.left``), or the seat whose resignation or timeout ended it."""
    left = match.left or []
    if seat < len(left) and left[seat]:
        return left[seat]
    result = match.result or {}
    if result.get("reason") == "resigned" and result.get("resigned") == seat:
        return "resigned"
    if result.get("reason") == "timeout" and result.get("timed_out") == seat:
        return "timeout"
    return None


def match_clocks(*, match: Match, bots: Collection[int]) -> dict[str, Any] | None:
    """The seats' time left now (seconds) and whose clock runs; None for an untimed match.

    ``bots``: the bot seats. A bot's clock is shown standing and never below zero: a bot moves the
    moment no person moves with it, so it is never the one holding a match up (its clock no longer
    runs while it waits, services._Writes.add; one stored before may still run, or be spent past zero)."""
    if not match.time_control or not match.clocks:
        return None
    from django.utils import timezone

    from audit.clocks import SECOND, Clocks, micros

    clocks = Clocks.from_dict(match.clocks)
    # A running clock is counted by the clock that stamped the events and judges claims, the
    # database's: by this host's, one running ahead showed a clock out (and offered a claim that is
    # refused) before it was. One statement, for a live timed match only.
    running = match.status != Match.Status.FINISHED and bool(set(clocks.running) - set(bots))
    now = eventstore.database_now() if running else timezone.now()
    left = [max(0, clocks.left[s]) if s in bots else v for s, v in enumerate(clocks.left_at(micros(now)))]
    return {
        "control": match.time_control,
        "left": [round(v / SECOND, 3) for v in left],
        "running": [] if match.status == Match.Status.FINISHED else [s for s in clocks.running if s not in bots],
        "as_of": now.isoformat(),
    }


#: Rows per page of the match list; pages past MATCH_LIST_MAX_PAGE are not served (bounded work).
MATCH_LIST_PER_PAGE = 30
MATCH_LIST_MAX_PAGE = 200


def match_list(
    *, game: str = "", status: str = "", player: str = "", page: int = 1, per_page: int = MATCH_LIST_PER_PAGE
) -> tuple[list[Match], bool]:
    """One page of matches, newest first, filtered by game, status and a player's username
    (exact, case-insensitive); returns the page's matches and whether a next page exists."""
    page = max(1, min(page, MATCH_LIST_MAX_PAGE))
    qs = Match.objects.all()
    if game:
        qs = qs.filter(game=game)
    if status:
        qs = qs.filter(status=status)
    if player:
        qs = qs.filter(seats__user__username__iexact=player).distinct()
    start = (page - 1) * per_page
    rows = list(qs.order_by("-created_at", "id").prefetch_related("seats__user")[start : start + per_page + 1])
    return rows[:per_page], len(rows) > per_page and page < MATCH_LIST_MAX_PAGE


def open_bot_match_count(*, user) -> int:
    """How many unfinished matches and drafts ``user`` started with no other person seated (bots,
    or nobody but ``user``): the ones ``MAX_OPEN_BOT_MATCHES_PER_USER`` bounds. Only those started
    on the account's own say (no ``origin``): a season's or tournament's fixture is its organiser's."""
    other_player = Seat.objects.filter(match=OuterRef("pk"), user__isnull=False).exclude(user=user)
    other_partner = Seat.partners.through.objects.filter(seat__match=OuterRef("pk")).exclude(user=user)
    return (
        Match.objects.filter(created_by=user, status=Match.Status.LIVE, origin={})
        .exclude(Exists(other_player))
        .exclude(Exists(other_partner))
        .count()
    )
