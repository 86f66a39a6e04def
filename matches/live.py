"""Live updates: every send happens after commit.

Fan-out (issue 17, P5): after each commit the frames are built once, by the broadcast, not by
every socket: one public frame for all the match's spectators (group ``match.<id>``) and one
frame per seat for the sockets of that seat (group ``match.<id>.seat.<n>``), so a seat never
receives another's secrets and a spectator socket reads nothing from the database to pass its
frame on. Each frame is also encoded once, by the broadcast (``frame_message``), and a socket
that has sent everything before it sends that text as it is. A frame carries the last
``FRAME_WINDOW`` events and log lines; a socket that already sent some of them keeps those after
the last seq it sent. A socket further behind than that (or whose frame was lost)
reads what it missed from the database, as it does on connect and on a resync.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import hashlib
import json
import logging
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator
from importlib import import_module
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.signals import user_logged_out
from django.db import connections, router
from django.db.models import Prefetch, prefetch_related_objects
from django.dispatch import receiver
from django.http import HttpRequest

from config.rows import copied, prepared, statements_together

from . import eventstore, selectors
from .layers import group_send_all
from .models import Event, Match, MatchLog, Seat

log = logging.getLogger(__name__)

#: The most events and log lines a broadcast frame carries, counting back from its head.
FRAME_WINDOW = 64


def group_name(match_id) -> str:
    """The match's spectators (and, through ``broadcast_match``, the target of every update)."""
    return f"match.{match_id}"


def seat_group(match_id, seat: int) -> str:
    return f"match.{match_id}.seat.{seat}"


def viewer_group(match_id, seat: int | None) -> str:
    return group_name(match_id) if seat is None else seat_group(match_id, seat)


def user_group(user_id) -> str:
    """A signed-in user's seat sockets, told when one of the user's sessions ends."""
    return f"user.{user_id}"


def session_tag(session_key: str | None) -> str | None:
    """What names a session on the channel layer: a digest, so that Redis, which holds the group
    messages, never holds a key that would sign anyone in."""
    return hashlib.sha256(session_key.encode()).hexdigest() if session_key else None


@receiver(user_logged_out)
def _seat_sockets_of_the_session_end(sender, request, user, **kwargs) -> None:
    """A player who signs out stops receiving their seat's frames on the pages that session opened
    (consumers.py closes those sockets; the pages reconnect as spectators). Sent before Django
    flushes the session, while its key is known. A Redis that is away fails nothing here: the
    socket's own check at its next renewal ends it (consumers.py)."""
    tag = session_tag(getattr(request, "session", None) and request.session.session_key)
    layer = get_channel_layer()
    if user is None or tag is None or layer is None:
        return
    try:
        send_messages(layer, [(user_group(user.pk), {"type": "session.ended", "session": tag})])
    except Exception as error:
        log.warning("sign-out of user %s: telling its seat sockets failed (%r)", user.pk, error)


def session_holds(*, session_key: str, user_id) -> bool:
    """Whether the session still signs ``user_id`` in: not signed out, not expired, its password
    hash unchanged, the account still active (Django's own checks, as on every request)."""
    request = HttpRequest()
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return auth.get_user(request).pk == user_id


def frames_for(match: Match, after: int | None = None) -> dict[int | None, dict[str, Any]]:
    """The frames of the match's current head: None -> the spectators', n -> seat n's. With
    ``after`` (the head before the commit being broadcast) a frame carries that commit's events
    and any since, not the whole window: every move pays for this, watched or not, and a socket
    that missed an earlier frame sees the gap (``after`` past its last seq) and reads the database."""
    return dict(_frames_read(match, after))


def _frames_read(match: Match, after: int | None) -> Iterator[tuple[int | None, dict[str, Any]]]:
    head = match.state_seq
    start = _window_start(head, after)
    # A verdict's frame starts at the head (it adds no event): nothing to read for it.
    events = eventstore.stream_events(stream_id=match.stream_id, after=start, upto=head) if start < head else []
    log = (
        [
            {"seq": line.seq, "text": line.text}
            for line in MatchLog.objects.filter(match=match, seq__gt=start, seq__lte=head).order_by("seq")
        ]
        if start < head
        else []
    )
    return _frames(match, start, events, log)


def _window_start(head: int, after: int | None) -> int:
    start = max(0, head - FRAME_WINDOW)
    return start if after is None else max(start, min(after, head))


def _frames(match: Match, start: int, events: list, log: list[dict]) -> Iterator[tuple[int | None, dict[str, Any]]]:
    """The spectators' frame first, then each seat's. The summary is the same for every viewer
    but its ``your_seat``: it is built once (its seats' labels, whose turn, the clocks as of one
    instant), not once per frame."""
    engine = selectors.engine_for(match)
    summary = selectors.match_summary(match=match, seat=None)
    for seat in [None, *sorted(s.index for s in match.seats.all())]:
        yield (
            seat,
            {
                "type": "update",
                "after": start,
                "head_seq": match.state_seq,
                "match": summary if seat is None else {**summary, "your_seat": seat},
                "events": [selectors.event_public(match=match, event=e, seat=seat, engine=engine) for e in events],
                "log": log,
                "view": selectors.match_view(match=match, seat=seat),
            },
        )


def broadcast_match(*, match_id, head_seq: int, after: int | None = None) -> None:
    """Send every connection on the match its frame: the spectators' built once for all of them,
    each seat's once for its sockets. ``after``: the head before the commit (frames_for)."""
    layer = get_channel_layer()
    if layer is None:
        return
    match = selectors.match_get(match_id=match_id)
    if match is None:
        return
    send_frames(layer, match_id, _frames_read(match, after))


def broadcast_held(*, match: Match, events: list[Event], log: list[tuple[int, str]]) -> Callable[[], None]:
    """The broadcast of a command's commit from what the command holds (its locked match as it
    saved it, the events and log lines it wrote), for the outbox's first delivery
    (``outbox_add_all``'s ``deliver_first``): the frames ``broadcast_match`` would read back
    after the commit, byte for byte, with none of its queries but the seats' when the command
    had no reason to read them (a POST's outbox delivery was 9.4 ms of its ~20 ms of CPU, 4.1 ms
    of it ``match_get``'s three queries and more in the events' and log's reads). Call it once
    the command has made its last change to ``match``; the frames are built when it is called,
    after the commit."""

    def deliver() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        frames = frames_held(match=match, events=events, log=log)
        if frames is None:  # what memory cannot give exactly as the database would: read it
            broadcast_match(match_id=match.pk, head_seq=events[-1].seq, after=events[0].seq - 1)
            return
        send_frames(layer, match.pk, frames)

    return deliver


def frames_held(
    *, match: Match, events: list[Event], log: list[tuple[int, str]]
) -> Iterator[tuple[int | None, dict[str, Any]]] | None:
    """``_frames_read`` of the commit that wrote ``events`` and ``log`` (seq, text), from memory;
    None if it cannot be exact. The JSON fields go through what PostgreSQL's jsonb does to them
    (``_as_stored``), so the engine sees, and the frame spells, the values read back would."""
    head = match.state_seq
    after = events[0].seq - 1 if events else head
    if not events or events[-1].seq != head or [e.seq for e in events] != list(range(after + 1, head + 1)):
        return None
    # Only jsonb reorders keys: SQLite's JSONField keeps the text json.dumps wrote, in its order.
    as_stored = _as_stored if connections[match._state.db or "default"].vendor == "postgresql" else _as_json
    try:
        stored = copied(match)  # the command's match (its answer's) stays as it is
        stored.state, stored.result, stored.clocks = (as_stored(v) for v in (match.state, match.result, match.clocks))
        start = _window_start(head, after)
        held = []
        for event in events[start - after :]:
            event = copied(event)
            event.data = as_stored(event.data)
            held.append(event)
    except _Inexact:
        return None
    if "seats" not in getattr(stored, "_prefetched_objects_cache", {}):
        prefetch_related_objects([stored], Prefetch("seats", queryset=Seat.objects.select_related("user")))
    # Every frame's summary labels every seat with its partners (Seat.label): read here once for
    # all of them, as match_get does, not once per seat per frame (six queries a duel's move). A
    # seat whose partners the command's read already holds (``services.match_seats``: none) is
    # left out: the prefetch would find them kept, after working out how to fetch them.
    prefetch_related_objects(
        [
            s
            for s in stored.seats.all()
            if s.user_id and "partners" not in s.__dict__.get("_prefetched_objects_cache", {})
        ],
        "partners",
    )
    return _frames(stored, start, held, [{"seq": seq, "text": text} for seq, text in log if start < seq <= head])


class _Inexact(Exception):
    """A value that would not come back from jsonb as it is in memory."""


def _as_stored(value):
    """``value`` as a JSONField on PostgreSQL gives it back: through JSON (tuples become lists,
    int keys strings) and jsonb, which keeps an object's keys shortest first, then bytewise
    (PostgreSQL's jsonb ordering, checked against the server in tests/matches/test_broadcast_held.py). jsonb prints a
    number as it was written, except in exponent form or as -0 (1e+16 comes back as an int):
    such a float raises _Inexact. The decoder's hooks do it as it parses, not a walk of the
    whole value after it in Python: objects and floats are all there is to change."""
    return json.loads(
        json.dumps(value), object_pairs_hook=_jsonb_object, parse_float=_jsonb_float, parse_constant=_not_finite
    )


def _as_json(value):
    """``value`` as a JSONField stored as text gives it back (SQLite): through JSON alone."""
    return json.loads(json.dumps(value))


def _jsonb_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    return dict(sorted(pairs, key=_jsonb_key))


def _jsonb_float(text: str) -> float:
    # json.dumps wrote the float as its repr, which is what the check was of.
    if "e" in text or text == "-0.0":
        raise _Inexact(text)
    return float(text)


def _not_finite(text: str):
    raise _Inexact(text)  # NaN, Infinity, -Infinity: jsonb has none of them


def _jsonb_key(pair: tuple[str, Any]) -> tuple[int, bytes]:
    encoded = pair[0].encode()
    return len(encoded), encoded


def send_frames(layer, match_id, frames: Iterable[tuple[int | None, dict[str, Any]]]) -> None:
    """Sends each frame to its group (the spectators' first) and waits for them all."""
    send_messages(layer, [(viewer_group(match_id, seat), frame_message(frame)) for seat, frame in frames])


def send_messages(layer, sends: list[tuple[str, dict[str, Any]]]) -> None:
    """Sends each (group, message) and waits for them all. On channels-redis the sends run on
    the sender loop (``run_sends``), pipelined together (``layers.group_send_all``): two round
    trips for a duel's three groups, not four for each."""
    if isinstance(layer, RedisChannelLayer):
        run_sends(layer, lambda: group_send_all(layer, sends))
        return

    async def send_all():
        for group, message in sends:
            await layer.group_send(group, message)

    run_sends(layer, send_all)


#: The event loop that sends broadcasts on channels-redis, in a thread of its own (``run_sends``).
_sender: tuple[asyncio.AbstractEventLoop, threading.Thread] | None = None
_sender_lock = threading.Lock()


def run_sends(layer, send_all: Callable[[], Awaitable[None]]) -> None:
    """Runs a broadcast's sends and waits for them. On channels-redis they run on a loop of their
    own, not on the server's: a request thread's ``async_to_sync`` hands them to daphne's loop,
    which is busy writing the frames of every other move to its sockets, and each of a
    group_send's three Redis round trips then waited behind that queue (the live fan-out
    benchmark at 10 x 100: 80-760 ms from the frames built to the sends done, for 1 ms of the
    request's CPU). Only the consumers, which must, stay on daphne's loop; channels-redis keeps
    its connections per loop, so the two share no connection. Any other layer (the in-memory one
    of tests without Redis) is used on the caller's loop, as it requires."""
    if not isinstance(layer, RedisChannelLayer):
        async_to_sync(send_all)()
        return
    sent = asyncio.run_coroutine_threadsafe(send_all(), _sender_loop())
    # A Redis that takes the connection and never answers would hold the request that committed a
    # move until the socket timeout (30 s, for the sockets' blocking pops). Bounded here instead:
    # the sends are cancelled and the error leaves the outbox message pending, so the write is
    # answered at once and the sweeper sends the frames later.
    bound = settings.LIVE_BROADCAST_TIMEOUT
    try:
        sent.result(timeout=bound)
    except TimeoutError:
        sent.cancel()
        raise BroadcastTimeout(f"the broadcast's sends took longer than {bound} s") from None


class BroadcastTimeout(Exception):
    """A broadcast's sends did not finish in ``LIVE_BROADCAST_TIMEOUT`` seconds (``run_sends``)."""


def _sender_loop() -> asyncio.AbstractEventLoop:
    global _sender
    with _sender_lock:
        # A forked child (a Celery worker) inherits the variable but not the thread: start another.
        if _sender is None or not _sender[1].is_alive():
            loop = asyncio.new_event_loop()
            thread = threading.Thread(target=loop.run_forever, name="broadcast-sender", daemon=True)
            thread.start()
            _sender = (loop, thread)
        return _sender[0]


def warm_sender(*, sends: int) -> concurrent.futures.Future | None:
    """Starts the sender loop and opens ``sends`` Redis connections on it to each host, in the
    background, for a new process to have them before its first broadcasts: those opened them
    themselves, one after another on that loop (the live fan-out benchmark's first round at
    10 x 100: 18 connections, 9-24 ms each in turn, the round's first broadcasts 34-68 ms against
    10-25 ms after). Returns what to wait on, if anything does (None when the layer is not
    channels-redis'); its errors stay there: with Redis away, the broadcasts open their
    connections as before."""
    layer = get_channel_layer()
    if not isinstance(layer, RedisChannelLayer):
        return None

    async def warm():
        for index in range(layer.ring_size):
            connection = layer.connection(index)
            # Side by side, so each PING takes a connection of its own from the loop's pool.
            await asyncio.gather(*(connection.ping() for _ in range(sends)))

    return asyncio.run_coroutine_threadsafe(warm(), _sender_loop())


def frame_message(frame: dict[str, Any]) -> dict[str, Any]:
    """A broadcast frame as its group's message: its text encoded here, once for every socket of
    the group, which sends it as it is when it has sent everything up to the frame's ``after``
    (consumers.py); ``after`` and ``head_seq`` ride beside it so a socket decides without decoding.
    The text is what the socket's own encoding of the frame would be (``json.dumps``)."""
    return {"type": "match.frame", "after": frame["after"], "head_seq": frame["head_seq"], "text": json.dumps(frame)}


#: Matches whose verdict frames ``broadcast_matches`` reads and sends at once (bounds the memory).
BROADCAST_CHUNK = 100


def verdict_frame(*, match_id, head_seq: int, verification: dict[str, Any]) -> dict[str, Any]:
    """A verdict's frame, the same for every viewer: a verdict adds no event and hides nothing, so
    what an open page must change is the summary's ``verification`` alone (match.js). It passes
    through a socket like any frame (``frame_for_socket``): "after" is the head, so a socket that
    has not sent everything up to it reads the database instead (which holds the verdict)."""
    return {
        "type": "verdict",
        "match_id": str(match_id),
        "after": head_seq,
        "head_seq": head_seq,
        "events": [],
        "log": [],
        "verification": verification,
    }


def broadcast_matches(*, items: list[dict[str, Any]]) -> None:
    """A batch of verdicts (``matches_verify``: {match_id, ...} each): one verdict frame per match,
    sent to its spectators and to each seat, read a hundred matches per query with no engine and
    no view (issue 17, P6: building every seat's summary and view was most of a verdict's
    broadcast, for finished matches that nobody is probably watching). A page that connects later
    reads the verdict with the rest of the match (``update_for``)."""
    layer = get_channel_layer()
    if layer is None:
        return
    for start in range(0, len(items), BROADCAST_CHUNK):
        ids = [str(item["match_id"]) for item in items[start : start + BROADCAST_CHUNK]]
        rows, seats = _verdicts_read(ids)
        sends = []
        for match_id in dict.fromkeys(ids):
            row = rows.get(match_id)
            if row is None:
                continue
            message = {
                "type": "match.frame",
                "frame": verdict_frame(
                    match_id=match_id,
                    head_seq=row["state_seq"],
                    # As the summary spells it (selectors.match_summary), so a page shows the same.
                    verification={
                        "verdict": row["verdict"],
                        "seq": row["verdict_seq"],
                        "reason": row["verdict_reason"] or None,
                        "verified_at": row["verified_at"].isoformat() if row["verified_at"] else None,
                        "disputed_at": row["disputed_at"].isoformat() if row["disputed_at"] else None,
                    },
                ),
            }
            for seat in [None, *sorted(seats.get(match_id, []))]:
                sends.append((viewer_group(match_id, seat), message))

        async def send_all(sends=sends):
            watched = await groups_watched(layer, [group for group, _ in sends])
            for group, message in sends:
                if watched is None or group in watched:
                    await layer.group_send(group, message)

        run_sends(layer, send_all)


_VERDICT_COLUMNS = ("state_seq", "verdict", "verdict_seq", "verdict_reason", "verified_at", "disputed_at")


def _verdicts_read(ids: list[str]) -> tuple[dict[str, dict[str, Any]], dict[str, list[int]]]:
    """For ``broadcast_matches``: each match's verdict columns by match id (as text), and its
    seats' indexes. Where one execute takes two statements (``statements_together``) both reads go
    in one round trip by their prepared forms, with no query compiled: a finished match's
    verification broadcasts its verdict from the worker (issue 17, P7)."""
    connection = connections[router.db_for_read(Match)]
    seats: dict[str, list[int]] = {}
    if not statements_together(connection):
        found = Match.objects.filter(pk__in=ids).values_list("pk", *_VERDICT_COLUMNS)
        pairs = Seat.objects.filter(match_id__in=ids).order_by().values_list("match_id", "index")
    else:
        keys = [Match._meta.pk.get_db_prep_value(m, connection) for m in ids]
        with connection.cursor() as cursor:
            statements = [prepared(cursor, sql) for sql in _verdicts_sql(connection.alias)]
            cursor.execute("; ".join(statements), [keys, keys])
            found = cursor.fetchall()
            cursor.nextset()
            pairs = cursor.fetchall()
    rows = {str(row[0]): dict(zip(_VERDICT_COLUMNS, row[1:], strict=True)) for row in found}
    for match_id, index in pairs:
        seats.setdefault(str(match_id), []).append(index)
    return rows, seats


@functools.cache
def _verdicts_sql(alias: str) -> tuple[str, str]:
    qn = connections[alias].ops.quote_name
    columns = ", ".join(qn(Match._meta.get_field(name).column) for name in _VERDICT_COLUMNS)
    ids = "ANY(%s::uuid[])"
    return (
        f"SELECT {qn(Match._meta.pk.column)}, {columns} FROM {qn(Match._meta.db_table)}"
        f" WHERE {qn(Match._meta.pk.column)} = {ids}",
        f"SELECT {qn('match_id')}, {qn('index')} FROM {qn(Seat._meta.db_table)} WHERE {qn('match_id')} = {ids}",
    )


async def groups_watched(layer, groups: list[str]) -> set[str] | None:
    """Which of ``groups`` have a member, asked in one pipelined round trip per Redis host; None
    when the layer is not channels-redis' (then every group is sent to). A group_send to a group
    nobody is in still costs two round trips and most of a verdict's broadcast, and a season's
    finished matches are mostly unwatched. Skipping them loses nothing: a socket joins its group
    before it reads the match (consumers.py), so one that joins after this check, which runs after
    the verdicts' commit, reads the verdict. Uses channels-redis' group key and connection
    helpers (its own group_send's), pinned below 4.4 in pyproject.toml."""
    if not isinstance(layer, RedisChannelLayer):
        return None
    by_host: dict[int, list[str]] = {}
    for group in groups:
        by_host.setdefault(layer.consistent_hash(group), []).append(group)
    watched = set()
    for index, names in by_host.items():
        pipe = layer.connection(index).pipeline(transaction=False)
        for group in names:
            pipe.zcard(layer._group_key(group))
        watched.update(group for group, members in zip(names, await pipe.execute(), strict=True) if members)
    return watched


def update_for(*, match_id, user, after: int) -> dict | None:
    """Everything a connection needs to move from ``after`` to the current head (on connect, on a
    resync, and for a socket that fell behind a broadcast frame's window)."""
    match = selectors.match_get(match_id=match_id)
    if match is None:
        return None
    seat = selectors.viewer_seat(match=match, user=user)
    return {
        "type": "update",
        "after": after,
        "head_seq": match.state_seq,
        "match": selectors.match_summary(match=match, seat=seat),
        "events": selectors.match_events(match=match, seat=seat, after=after),
        "log": selectors.match_log(match=match, after=after),
        "view": selectors.match_view(match=match, seat=seat),
    }


def frame_for_socket(frame: dict, last_seq: int) -> dict | None:
    """What of a broadcast frame a socket that has sent everything up to ``last_seq`` sends on:
    only the events and log lines after it. None when the frame is older than what the socket
    has sent (frames from two commits can cross); KeyError-free, pure, no database."""
    if frame["head_seq"] < last_seq:
        return None
    return {
        **frame,
        "after": last_seq,
        "events": [e for e in frame["events"] if e["seq"] > last_seq],
        "log": [line for line in frame["log"] if line["seq"] > last_seq],
    }


def viewer(match_id, user) -> tuple[bool, int | None]:
    """(the match exists, the seat ``user`` holds in it or None): read once, when a socket connects."""
    match = selectors.match_get(match_id=match_id)
    if match is None:
        return False, None
    return True, selectors.viewer_seat(match=match, user=user)
