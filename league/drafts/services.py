"""Drafts: create a draft room, run its pick clock, hand a finished draft off to a match."""

from __future__ import annotations

import logging
import uuid
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from engines import registry
from engines.base import CHANCE
from engines.iwdl_draft.engine import match_config
from matches import eventstore
from matches import services as match_services
from matches.models import Event, Match
from matches.outbox import outbox_add, outbox_death_horizon
from matches.services import SeatSpec

from ..errors import LeagueError
from .models import Draft

log = logging.getLogger(__name__)

DRAFT_GAME = "iwdl-draft"
MATCH_GAME = "wizard-dodgeball"
MATCH_BOT = "heuristic"


def draft_create(
    *,
    seats: list[SeatSpec],
    created_by: AbstractBaseUser | None,
    config: dict | None = None,
    clock_seconds: int = 60,
    origin: dict | None = None,
    event_id: uuid.UUID | None = None,
) -> Draft:
    """Open a draft room. ``seats`` in pick order: seat 0 is player 1. Bots ("auto") draft
    as the clock would; ``origin`` (e.g. a season fixture) passes on to the match. With
    ``event_id`` a retried create returns the room the first one opened (``draft_create_or_get``)."""
    return draft_create_or_get(
        seats=seats, created_by=created_by, config=config, clock_seconds=clock_seconds, origin=origin, event_id=event_id
    )[0]


def draft_create_or_get(
    *,
    seats: list[SeatSpec],
    created_by: AbstractBaseUser | None,
    config: dict | None = None,
    clock_seconds: int = 60,
    origin: dict | None = None,
    event_id: uuid.UUID | None = None,
) -> tuple[Draft, bool]:
    """``draft_create``, saying whether this call opened the room (False: a retry of an earlier
    create with the same ``event_id``, answered with the room that one opened)."""
    _check_opener(seats=seats, created_by=created_by, clock_seconds=clock_seconds)
    with transaction.atomic():
        draft_match, created = match_services.match_create_or_get(
            game=DRAFT_GAME,
            seats=seats,
            created_by=created_by,
            config=config or {},
            origin=origin,
            event_id=event_id,
        )
        if not created:
            # The draft stream and its room are made in one transaction: the room is there. The
            # stream's first event records no pick clock (the room holds it), so the match create
            # took a retry with another clock for the same command: the room tells them apart.
            # (Its hand-off follows from the seats, which the match create compared.)
            draft = Draft.objects.filter(draft_match=draft_match).first()
            if draft is None or draft.clock_seconds != clock_seconds:
                raise LeagueError(
                    "This event_id was already used for a different command. Use a new id for a new command.",
                    code="event_id_reused",
                    status=409,
                )
            return draft, False
        # A tournament draft's teams meet in pairings the tournament makes, not in one match.
        draft = Draft.objects.create(draft_match=draft_match, clock_seconds=clock_seconds, hand_off=len(seats) == 2)
        return draft, True


def draft_create_check(
    *,
    seats: list[SeatSpec],
    created_by: AbstractBaseUser | None,
    config: dict | None = None,
    clock_seconds: int = 60,
) -> None:
    """Every check ``draft_create`` makes, writing nothing (an invitation asks before inviting)."""
    _check_opener(seats=seats, created_by=created_by, clock_seconds=clock_seconds)
    match_services.match_create_check(game=DRAFT_GAME, seats=seats, config=config or {})


def _check_opener(*, seats, created_by, clock_seconds) -> None:
    if not 5 <= clock_seconds <= 24 * 3600:
        raise LeagueError("The pick clock must be between 5 seconds and a day.", code="bad_clock")
    coaches = [u for s in seats for u in ((s.user,) if s.user else ()) + tuple(s.partners)]
    if created_by is not None and not created_by.is_staff and created_by not in coaches:
        raise LeagueError(
            "You can open a draft only as one of its coaches (organisers excepted).",
            code="permission_denied",
            status=403,
        )


def draft_deadline(*, draft: Draft) -> timezone.datetime | None:
    """When the coach on the clock runs out of time (None once the draft is over)."""
    match = draft.draft_match
    if match.status == Match.Status.FINISHED:
        return None
    last = Event.objects.filter(stream_id=match.stream_id).order_by("-seq").values_list("recorded_at", flat=True)[0]
    return last + timedelta(seconds=draft.clock_seconds)


def draft_clock_expire(*, draft: Draft, expected_seq: int, event_id: uuid.UUID | None = None) -> list[int]:
    """If the clock has run out, let it act for the coaches it is waiting on.

    Anyone may call this (the draft room's pages do when their countdown reaches zero);
    it refuses before the deadline, and a stale ``expected_seq`` acts on nothing, so two
    pages calling at once produce one auto-pick. At a pick the clock picks once (the next
    coach gets a fresh clock); in team building it finishes every unready coach's team.
    With ``event_id`` (its later acts take ids derived from it) a retry reports what the first did."""
    if event_id is not None and Event.objects.filter(event_id=event_id).exists():
        return _clock_replay(draft=draft, event_id=event_id)
    deadline = draft_deadline(draft=draft)
    if deadline is None:
        raise LeagueError("The draft is over.", code="match_finished", status=409)
    # By the clock that stamped the pick the deadline runs from: the database's, not this host's.
    if eventstore.database_now() < deadline:
        raise LeagueError(
            "The pick clock has not run out yet.", code="clock_running", status=409, deadline=deadline.isoformat()
        )
    acted: list[int] = []
    seq = expected_seq
    with transaction.atomic():
        while True:
            match = Match.objects.get(pk=draft.draft_match_id)
            engine = registry.get(match.game, match.engine_version)
            to_move = engine.to_move(match.state)
            if not to_move or to_move == [CHANCE]:
                break
            seat = to_move[0]
            action = engine.auto_action(match.state, seat)
            if action is None:
                break
            building = match.state["phase"] == "building"
            outcome = match_services.match_act_on_behalf(
                match_id=match.id,
                seat=seat,
                action=action,
                expected_seq=seq,
                actor="clock",
                event_id=_clock_event_id(event_id, len(acted)),
            )
            if not outcome.created:  # a concurrent retry with this id got there first
                return _clock_replay(draft=draft, event_id=event_id)
            seq = outcome.events[-1].seq
            acted.append(seat)
            if not building:
                break
    return acted


def _clock_event_id(event_id: uuid.UUID | None, step: int) -> uuid.UUID | None:
    if event_id is None:
        return None
    return event_id if step == 0 else uuid.uuid5(event_id, f"clock:{step}")


def _clock_replay(*, draft: Draft, event_id: uuid.UUID) -> list[int]:
    """The seats an earlier clock call with this ``event_id`` acted for (its stored events)."""
    acted = []
    while True:
        event = Event.objects.filter(event_id=_clock_event_id(event_id, len(acted))).first()
        if event is None:
            break
        if event.stream_id != draft.draft_match.stream_id or event.actor != "clock":
            raise LeagueError(
                "This event_id was already used for a different command.", code="event_id_reused", status=409
            )
        acted.append(event.data["seat"])
    return acted


def draft_forfeited(*, draft_match: Match) -> bool:
    """Whether a coach resigned this draft (``match_resign``): it ended before its picks did, and
    its result names the seat that forfeited it. (A draft room has no match clock to run out:
    its pick clock drafts for a coach who does not, so no draft room ends on time.)"""
    result = draft_match.result or {}
    return draft_match.status == Match.Status.FINISHED and result.get("reason") == "resigned"


def draft_hand_off(*, draft_match_id) -> Match | None:
    """Create the Wizard Dodgeball match for a finished two-coach draft (once). A draft that
    ended before its picks did (a coach resigned it) makes none: it has no teams to play."""
    with transaction.atomic():
        # Only the draft's row is locked (of=self): the draft match is finished, and a lock on it
        # would wait behind its verification's writes for nothing.
        draft = (
            Draft.objects.select_for_update(of=("self",))
            .select_related("draft_match")
            .filter(draft_match_id=draft_match_id)
            .first()
        )
        if draft is None or not draft.hand_off or draft.match_id is not None:
            return draft.match if draft else None
        draft_match = draft.draft_match
        if draft_match.status != Match.Status.FINISHED:
            return None
        engine = registry.get(draft_match.game, draft_match.engine_version)
        if not engine.is_terminal(draft_match.state):
            # Ended off the board (draft_forfeited): building a config from the picks so far
            # raised, and the outbox retried the finished draft's message for ever.
            return None
        config = match_config(draft_match.state)
        # Coaches play their own teams; a drafting bot hands its team to the match's best bot.
        seats = {
            s.index: SeatSpec(user=s.user, partners=tuple(s.partners.all())) if s.user_id else SeatSpec(bot=MATCH_BOT)
            for s in draft_match.seats.select_related("user").prefetch_related("partners")
        }
        order = draft_match.state["seat_order"]  # team i is played by draft seat order[i]
        match = match_services.match_create(
            game=MATCH_GAME,
            seats=[seats[order[0]], seats[order[1]]],
            created_by=draft_match.created_by,
            config=config,
            origin={**draft_match.origin, "draft": str(draft_match.id)},
            time_control=draft_match.origin.get("time_control") or {},
        )
        draft.match = match
        draft.save(update_fields=["match"])
        # Tell the draft room: its pages show the way to the new match.
        outbox_add(
            topic="match.broadcast", payload={"match_id": str(draft_match.id), "head_seq": draft_match.state_seq}
        )
        return match


#: How long after a draft ends its hand-off may still be on its way (the ``match.finished``
#: message, then the queued ``league.hand_off_draft``): the sweep leaves it to them till then.
HAND_OFF_GRACE = timedelta(minutes=2)
#: How far back the sweep looks at least: longer than an outage of the broker (which stops the beat
#: as well) is likely to last, a long weekend included; a draft that ended before it needs an
#: operator (``draft_hand_off`` by hand). The drafts read are those without a match, few at any time.
HAND_OFF_WINDOW_MIN = timedelta(days=7)


def hand_off_window() -> timedelta:
    """How far back ``drafts_hand_off_lost`` looks: the week, or past the death of a draft's
    ``match.finished`` message (``outbox_death_horizon``) if OUTBOX_MAX_ATTEMPTS makes that later,
    so that a draft whose message went dead is still handed off."""
    return max(HAND_OFF_WINDOW_MIN, outbox_death_horizon())


#: After the sweep fails to hand a draft off it waits this long before trying it again, doubled
#: after each failure up to the cap: a draft that always fails (bad data, a bug) is tried, and
#: logged, about once an hour rather than every minute for the week of the window, and it does
#: not fill every batch ahead of the lost hand-offs behind it. Still tried: once its cause is
#: fixed, the next try makes its match.
HAND_OFF_RETRY_START, HAND_OFF_RETRY_CAP = timedelta(minutes=5), timedelta(hours=1)


def _hand_off_failed(*, pk: int, failures: int, now: datetime, exc: Exception) -> None:
    retry_at = now + min(HAND_OFF_RETRY_CAP, HAND_OFF_RETRY_START * 2 ** (failures - 1))
    Draft.objects.filter(pk=pk).update(hand_off_failures=failures, hand_off_retry_at=retry_at)
    if failures == 1:
        log.exception("Drafts: the lost hand-off of draft %s failed; it is tried again at %s.", pk, retry_at)
        return
    log.error(
        "Drafts: the lost hand-off of draft %s failed again (%s times): %s: %s; it is tried again at %s.",
        pk,
        failures,
        type(exc).__name__,
        exc,
        retry_at,
    )


#: Drafts one sweep hands off at most, oldest first: a backlog (after an outage) is worked off a
#: batch a minute rather than in one task that holds a worker for as long as it takes.
HAND_OFF_BATCH = 50


def drafts_hand_off_lost(*, now: datetime | None = None, batch: int = HAND_OFF_BATCH) -> int:
    """Make the match of each draft that finished its picks and should have handed off but has no
    match (its ``match.finished`` message went dead, or the broker lost the queued task): nothing
    else would, and a season fixture drafted that way would wait for ever. The beat's backstop
    (``league.hand_off_lost_drafts``); returns how many matches this call made.

    Only a draft that ended with its picks done is due (a resigned one makes no match): one that
    makes none would otherwise come back first in every batch and hold back a lost one behind it.
    So is one whose hand-off failed, until its backoff has passed (``_hand_off_failed``).
    Each is taken under its row's lock, skipped if another process holds it (the normal task, or
    another sweep, making its match now: the next sweep finds it made), and handed off by
    ``draft_hand_off`` under that lock, so a match is made once."""
    now = now or timezone.now()
    due = list(
        Draft.objects.filter(
            Q(hand_off_retry_at__isnull=True) | Q(hand_off_retry_at__lte=now),
            hand_off=True,
            match__isnull=True,
            draft_match__status=Match.Status.FINISHED,
            # The draft engine's word for a draft that ended with its picks (engines/iwdl_draft).
            draft_match__result__reason="draft_complete",
            draft_match__finished_at__range=(now - hand_off_window(), now - HAND_OFF_GRACE),
        )
        .order_by("draft_match__finished_at", "pk")
        .values_list("pk", "hand_off_failures")[:batch]
    )
    made = 0
    for pk, failures in due:
        # One draft whose hand-off fails (a bug, bad data) must not hold back the others behind
        # it: it is logged, and a later sweep tries it again.
        try:
            with transaction.atomic():
                # The row draft_hand_off locks (the draft's), so that taking it again there waits
                # for nothing; skip_locked: this never waits either.
                held = (
                    Draft.objects.select_for_update(skip_locked=True, of=("self",))
                    .select_related("draft_match")
                    .filter(pk=pk, match__isnull=True)
                    .first()
                )
                if held is not None and draft_hand_off(draft_match_id=held.draft_match_id) is not None:
                    made += 1
        except Exception as exc:
            _hand_off_failed(pk=pk, failures=failures + 1, now=now, exc=exc)
    if made:
        log.warning("Drafts: %s finished drafts had lost their hand-off; their matches are made.", made)
    return made
