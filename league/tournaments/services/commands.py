"""The tournament command runner and the guards every command shares.

Every command runs in one transaction holding the stream's lock and the tournament row:
the idempotency lookup (``event_id``), the ``expected_seq`` check, permissions and the
rules all run against the projection of everything before, and only then are the facts
appended. A refusal raises ``LeagueError`` (HTTP status, stable code, a sentence) and
writes nothing.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction

from league.streams import stream_followups
from matches.commands import Appender, command_run
from matches.errors import Refusal
from matches.eventstore import NewEvent, as_stored
from matches.models import Event

from .. import projection
from ..access import actor_of, is_organiser, pid_of
from ..errors import refuse
from ..models import Entrant, Tournament
from ..projection import event_dict
from ..reach import followups as reach
from ..selectors import state_at_head
from ..standings import progress
from ..states import PairingStatus, PlayerStatus, TournamentStatus

NAMESPACE = uuid.UUID("5f0e7a52-2b0e-4a3c-9d55-6f4a1d1c7e01")

# The historical private name, kept for the modules that import it.
_refuse = refuse


@dataclass
class Outcome:
    tournament: Tournament
    state: dict
    events: list[Event]
    created: bool


def _need_user(user) -> None:
    if user is None or not user.is_authenticated:
        raise refuse("Sign in first.", "not_authenticated", 401)


def _need_organiser(state, user) -> None:
    _need_user(user)
    if not is_organiser(state, user):
        raise refuse("Only the tournament's organiser may do this.", "not_organiser", 403)


def _acting_for(state, user, by) -> None:
    _need_user(by)
    if user.pk != by.pk and not is_organiser(state, by):
        raise refuse("Players act for themselves; only the organiser acts for others.", "not_your_place", 403)


def _registered(state) -> list[str]:
    return [p for p in state["entry_order"] if state["players"][p]["status"] == PlayerStatus.REGISTERED]


def _pid_in(state, ref) -> str | None:
    ref = str(ref)
    if ref in state["players"]:
        return ref
    for pid, p in state["players"].items():
        if p["name"] == ref:
            return pid
    return None


def _pairing(state, pairing_id: str) -> dict:
    record = state["pairings"].get(pairing_id)
    if record is None:
        raise refuse("No such pairing.", "pairing_not_found", 404)
    return record


def _open(record) -> None:
    status = record["status"]
    if status == PairingStatus.FINAL:
        raise refuse("This result is final; the organiser can correct it.", "result_final")
    if status in (PairingStatus.WAITING, PairingStatus.NOT_NEEDED):
        raise refuse("This match is not ready to be played.", "not_ready")
    if len(record["players"]) < 2:
        raise refuse("A bye has no result to report.", "bye")


# --------------------------------------------------------------------------------------
# The command runner


def current_state(tournament: Tournament, head_seq: int | None = None) -> dict:
    """The projection at the stream's head, caught up with any events the cached copy has
    not folded yet, and the cache saved back (commands only: reads use ``state_at_head``)."""
    state = state_at_head(tournament, head_seq)
    if state["seq"] != tournament.state_seq:
        _save_cache(tournament, state)
        return copy.deepcopy(state)
    return state


def _save_cache(tournament: Tournament, state: dict) -> None:
    tournament.state = state
    tournament.state_seq = state["seq"]
    tournament.status = progress(state)["status"] if state["id"] else TournamentStatus.REGISTRATION
    Tournament.objects.filter(pk=tournament.pk).update(state=state, state_seq=state["seq"], status=tournament.status)
    entrants_save(tournament_id=tournament.pk, state=state)


def _user_pk(pid: str) -> int | None:
    """The user id a player id names (``pid_of``: the id as text), or None."""
    try:
        pk = int(pid)
    except ValueError:
        return None
    return pk if str(pk) == pid else None


def entrants_save(*, tournament_id, state: dict) -> None:
    """The tournament's Entrant rows made to name the users among ``state``'s players, as the
    cache beside them is saved (one small read when nobody joined or left the players)."""
    wanted = {pk for pk in map(_user_pk, state.get("players") or {}) if pk is not None}
    have = set(Entrant.objects.filter(tournament_id=tournament_id).values_list("user_id", flat=True))
    if have - wanted:
        Entrant.objects.filter(tournament_id=tournament_id, user_id__in=have - wanted).delete()
    if wanted - have:
        # Only users that exist: a player id may outlive its account (asked again next time).
        users = get_user_model().objects.filter(pk__in=wanted - have).values_list("pk", flat=True)
        Entrant.objects.bulk_create(
            [Entrant(tournament_id=tournament_id, user_id=pk) for pk in users], ignore_conflicts=True
        )


def _run(
    *,
    tournament: Tournament | uuid.UUID | str,
    user,
    decide: Callable[[dict], list[tuple[str, dict]]],
    expected_seq: int | object,
    event_id: uuid.UUID | None = None,
    actor: str | None = None,
) -> Outcome:
    """A tournament command through the one command runner (matches.commands): the row and the
    stream locked, a retried ``event_id`` answered with the stored event, ``expected_seq`` checked,
    then ``decide`` runs on the projection and its facts are appended. Every client sends
    ``expected_seq`` (the API requires it); ``AT_HEAD`` is for in-process callers and the
    platform's own facts (a verified result, whose ``event_id`` derives from the match)."""
    tournament_id = tournament.pk if isinstance(tournament, Tournament) else tournament

    def lock() -> Tournament:
        try:
            return Tournament.objects.select_for_update().get(pk=tournament_id)
        except (Tournament.DoesNotExist, ValueError, TypeError, ValidationError):
            raise refuse("No such tournament.", "tournament_not_found", 404) from None

    def execute(row: Tournament, appender: Appender) -> dict:
        state = current_state(row, appender.stream.head_seq)
        facts = decide(copy.deepcopy(state))
        # Emails and webhooks (reach/followups.py): what the facts change, noted in this transaction.
        before = reach.snapshot(state) if reach.wants_snapshot(kind for kind, _ in facts) else None
        for i, (kind, data) in enumerate(facts):
            # A command's later facts take ids derived from its own: a retry finds them all.
            eid = event_id if i == 0 else (uuid.uuid5(event_id, str(i)) if event_id else None)
            [event] = appender.append([NewEvent(type=kind, data=data, actor=actor or actor_of(user), event_id=eid)])
            projection.apply(state, event_dict(event))
        stream_followups(appender)
        reach.command_followups(appender, tournament=row, before=before, state=state)
        _save_cache(row, state)
        return state

    done = command_run(
        stream_id=lambda row: row.stream_id,
        expected_seq=expected_seq,
        event_id=event_id,
        lock=lock,
        execute=execute,
        same=lambda existing: _same_command(existing, decide, actor or actor_of(user), platform=actor is not None),
        replay=lambda row, stream, existing: current_state(row, stream.head_seq),
    )
    return Outcome(done.subject, done.value, done.events, done.created)


# What a command records from the world outside the stream at the moment it ran (the clock, a
# rating, the row it made): decided again later, these differ without the command differing.
_FROM_OUTSIDE = frozenset({"at", "rating", "ratings", "draft_id", "match_id"})


class _Decided(Exception):
    """Carries the facts a command decides again out of the savepoint that undoes its side effects."""

    def __init__(self, facts: list[tuple[str, dict]]) -> None:
        self.facts = facts


def _same_command(
    existing: Event, decide: Callable[[dict], list[tuple[str, dict]]], actor: str, *, platform: bool
) -> bool:
    """Whether the event stored under a command's ``event_id`` is this command's own (a retry).

    A retry is the same hand's: event ids are public, another's is a reused id, not a replay. A
    platform fact's id derives from what it records, so its hand is enough. A person's is decided
    again on the state the stored event was decided on: the same command decides the same first
    fact there, while another command (a different result, another verb under the same id) does
    not, and is 409 event_id_reused rather than told that what it asked for was stored."""
    if existing.actor != actor:
        return False
    if platform:
        return True
    events = Event.objects.filter(stream_id=existing.stream_id, seq__lt=existing.seq).order_by("seq")
    before = projection.fold(event_dict(e) for e in events)
    try:
        # Deciding may make rows (a pairing's match, the draft's room): undone with the savepoint.
        with transaction.atomic():
            raise _Decided(decide(before))
    except _Decided as decided:
        facts = decided.facts
    except Refusal:
        return False  # refused where the stored event was accepted: not the command that made it
    if not facts:
        return False
    kind, data = facts[0]

    def recorded(value: dict) -> dict:
        # As stored (JSON: tuples become lists), less what the outside world decided.
        return {k: v for k, v in as_stored(value).items() if k not in _FROM_OUTSIDE}

    return kind == existing.type and recorded(data) == recorded(existing.data)


__all__ = ["NAMESPACE", "Outcome", "current_state", "event_dict", "pid_of", "actor_of", "is_organiser"]
