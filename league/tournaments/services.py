"""Tournament commands: check, decide, append facts to the tournament's stream.

Every command runs in one transaction holding the stream's lock and the tournament row:
the idempotency lookup (``event_id``), the ``expected_seq`` check, permissions and the
rules all run against the projection of everything before, and only then are the facts
appended. A refusal raises ``MatchError`` (HTTP status, stable code, a sentence) and
writes nothing. Decisions that need the outside world (pairings, seeds by rating, the
clock for the check-in window) are made here and recorded in the event, so replaying the
stream never needs anything but the events.

The organiser is the tournament's creator or a staff user; players act for themselves.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from audit.clocks import BadTimeControl, check_time_control
from engines import registry
from league.streams import stream_followups
from matches import eventstore
from matches.commands import AT_HEAD, Appender, command_create, command_run
from matches.eventstore import NewEvent
from matches.models import Event, Match
from matches.services import MatchError, SeatSpec, match_create

from . import brackets, projection
from .models import Tournament
from .projection import ELIMINATION, FORMATS
from .standings import pod_standings, progress, round_standings, swiss_field
from .swiss import SwissOptions, as_fraction, pair_round
from .tiebreaks import TIEBREAKS
from .timer import DEFAULT_MINUTES as DEFAULT_ROUND_MINUTES
from .timer import MAX_MINUTES as MAX_ROUND_MINUTES

NAMESPACE = uuid.UUID("5f0e7a52-2b0e-4a3c-9d55-6f4a1d1c7e01")


@dataclass
class Outcome:
    tournament: Tournament
    state: dict
    events: list[Event]
    created: bool


def pid_of(user) -> str:
    return str(user.pk)


def actor_of(user) -> str:
    return f"user:{user.pk}" if user is not None else "system"


def is_organiser(state_or_tournament, user) -> bool:
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    organiser = (
        state_or_tournament["organiser"] if isinstance(state_or_tournament, dict) else state_or_tournament.created_by_id
    )
    return organiser == user.pk


def _refuse(message: str, code: str, status: int = 409, **extra) -> MatchError:
    return MatchError(message, code=code, status=status, **extra)


def _need_user(user) -> None:
    if user is None or not user.is_authenticated:
        raise _refuse("Sign in first.", "not_authenticated", 401)


def _need_organiser(state, user) -> None:
    _need_user(user)
    if not is_organiser(state, user):
        raise _refuse("Only the tournament's organiser may do this.", "not_organiser", 403)


def event_dict(event: Event) -> dict[str, Any]:
    return {"seq": event.seq, "type": event.type, "data": event.data, "actor": event.actor}


# --------------------------------------------------------------------------------------
# The command runner


def current_state(tournament: Tournament, head_seq: int | None = None) -> dict:
    """The projection at the stream's head: the cached copy, caught up with any events
    it has not folded yet (and saved back)."""
    state = tournament.state or projection.initial()
    seq = tournament.state_seq
    if head_seq is None or head_seq != seq:
        newer = eventstore.stream_events(stream_id=tournament.stream_id, after=seq)
        if newer:
            state = projection.fold([event_dict(e) for e in newer], state)
            _save_cache(tournament, state)
    return copy.deepcopy(state)


def _save_cache(tournament: Tournament, state: dict) -> None:
    tournament.state = state
    tournament.state_seq = state["seq"]
    tournament.status = progress(state)["status"] if state["id"] else "registration"
    Tournament.objects.filter(pk=tournament.pk).update(state=state, state_seq=state["seq"], status=tournament.status)


def _run(
    *,
    tournament: Tournament | uuid.UUID | str,
    user,
    decide: Callable[[dict], list[tuple[str, dict]]],
    expected_seq: int | object = AT_HEAD,
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
            raise _refuse("No such tournament.", "tournament_not_found", 404) from None

    def execute(row: Tournament, appender: Appender) -> dict:
        state = current_state(row, appender.stream.head_seq)
        facts = decide(copy.deepcopy(state))
        for i, (kind, data) in enumerate(facts):
            # A command's later facts take ids derived from its own: a retry finds them all.
            eid = event_id if i == 0 else (uuid.uuid5(event_id, str(i)) if event_id else None)
            [event] = appender.append([NewEvent(type=kind, data=data, actor=actor or actor_of(user), event_id=eid)])
            projection.apply(state, event_dict(event))
        stream_followups(appender)
        _save_cache(row, state)
        return state

    done = command_run(
        stream_id=lambda row: row.stream_id,
        expected_seq=expected_seq,
        event_id=event_id,
        lock=lock,
        execute=execute,
        # A retry is the same hand's: event ids are public, another's is a reused id, not a replay.
        same=lambda existing: existing.actor == (actor or actor_of(user)),
        replay=lambda row, stream, existing: current_state(row, stream.head_seq),
    )
    return Outcome(done.subject, done.value, done.events, done.created)


# --------------------------------------------------------------------------------------
# Creating a tournament


def _bool(options, key, default=False):
    value = options.get(key, default)
    if not isinstance(value, bool):
        raise _refuse(f"Option '{key}' must be true or false.", "bad_options", 400)
    return value


def _int(options, key, default, low, high=None, allow_none=False):
    value = options.get(key, default)
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bounds = f"from {low}" + (f" to {high}" if high is not None else "")
        raise _refuse(f"Option '{key}' must be a whole number {bounds}.", "bad_options", 400)
    return value


def _score(value, key):
    try:
        score = as_fraction(value)
    except (ValueError, ZeroDivisionError, TypeError):
        raise _refuse(f"Option '{key}' must be a number.", "bad_options", 400) from None
    return score


def _user_pid(ref) -> str:
    User = get_user_model()
    user = User.objects.filter(username=str(ref)).first()
    if user is None and str(ref).isdigit():
        user = User.objects.filter(pk=int(ref)).first()
    if user is None:
        raise _refuse(f"No user called {ref}.", "unknown_user", 400)
    return pid_of(user)


SEAT_BALANCE = ("balanced", "strict")


def pod_largest(engine) -> int:
    """The largest pod a game allows: five, or fewer when the game seats fewer."""
    return min(5, engine.max_seats)


def clean_options(fmt: str, game: str, options: dict | None) -> dict:
    """Validate and complete a format's options (a refusal names the bad one)."""
    options = dict(options or {})
    allowed = {
        "cap",
        "check_in_required",
        "check_in_opens",
        "check_in_closes",
        "seeding",
        "tiebreaks",
        "third_place",
        "bracket_reset",
        "rounds",
        "bye_score",
        "forbidden_pairs",
        "avoid_same_club",
        "double",
        "groups",
        "advance",
        "pod_size",
        "placement_points",
        "match_config",
        "seat_balance",
        "time_control",
        "round_minutes",
    }
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise _refuse(f"Unknown option(s): {', '.join(unknown)}.", "bad_options", 400)
    out: dict[str, Any] = {
        "cap": _int(options, "cap", None, 2, 4096, allow_none=True),
        "check_in_required": _bool(options, "check_in_required", False),
        "seeding": options.get("seeding", "registration"),
        "match_config": options.get("match_config") or {},
        # The organiser's round timer starts at this many minutes unless told otherwise (timer.py).
        "round_minutes": _int(options, "round_minutes", DEFAULT_ROUND_MINUTES, 1, MAX_ROUND_MINUTES),
    }
    if out["seeding"] not in ("registration", "rating", "manual"):
        raise _refuse("Seeding is 'registration', 'rating' or 'manual'.", "bad_options", 400)
    if not isinstance(out["match_config"], dict):
        raise _refuse("Option 'match_config' must be an object.", "bad_options", 400)
    try:
        # The clock every platform match of the event is played with (audit.clocks).
        out["time_control"] = check_time_control(options.get("time_control"))
    except BadTimeControl as exc:
        raise _refuse(f"Option 'time_control': {exc}", "bad_options", 400) from None
    for key in ("check_in_opens", "check_in_closes"):
        value = options.get(key)
        if value:
            when = parse_datetime(str(value)) if not isinstance(value, datetime) else value
            if when is None:
                raise _refuse(f"Option '{key}' must be a date and time (ISO 8601).", "bad_options", 400)
            if timezone.is_naive(when):
                when = timezone.make_aware(when)
            out[key] = when.isoformat()
            out["check_in_required"] = True
        else:
            out[key] = None
    if out["check_in_opens"] and out["check_in_closes"] and out["check_in_opens"] >= out["check_in_closes"]:
        raise _refuse("The check-in window must close after it opens.", "bad_options", 400)
    if fmt in ("swiss", "round_robin", "groups_playoff"):
        names = options.get("tiebreaks")
        if names is not None:
            if not isinstance(names, list) or any(n not in TIEBREAKS for n in names) or len(set(names)) != len(names):
                raise _refuse(f"Tie-breaks are chosen once each from {', '.join(TIEBREAKS)}.", "bad_options", 400)
            out["tiebreaks"] = names
    if fmt in ("single_elimination", "groups_playoff"):
        out["third_place"] = _bool(options, "third_place", False)
    if fmt == "double_elimination":
        out["bracket_reset"] = _bool(options, "bracket_reset", True)
    if fmt in ("swiss", "pods"):
        out["rounds"] = _int(options, "rounds", None, 1, 30, allow_none=True)
    if fmt == "swiss":
        bye = _score(options.get("bye_score", "1"), "bye_score")
        if not 0 <= bye <= 1:
            raise _refuse("The bye is worth from 0 to 1 point.", "bad_options", 400)
        out["bye_score"] = str(bye)
        out["avoid_same_club"] = _bool(options, "avoid_same_club", True)
        pairs = options.get("forbidden_pairs", [])
        if not isinstance(pairs, list) or any(not isinstance(p, (list, tuple)) or len(p) != 2 for p in pairs):
            raise _refuse("Forbidden pairs are a list of two players each.", "bad_options", 400)
        out["forbidden_pairs"] = [sorted([_user_pid(a), _user_pid(b)]) for a, b in pairs]
        out["seat_balance"] = options.get("seat_balance", "balanced")
        if out["seat_balance"] not in SEAT_BALANCE:
            raise _refuse(
                "Seat balance is 'balanced' (seat wishes weigh against score groups) or 'strict' "
                "(FIDE's colour limits: never three in a row, never more than two apart).",
                "bad_options",
                400,
            )
    if fmt == "round_robin":
        out["double"] = _bool(options, "double", False)
    if fmt == "groups_playoff":
        out["groups"] = _int(options, "groups", 2, 2, 64)
        out["advance"] = _int(options, "advance", 2, 1, 16)
    if fmt == "pods":
        engine = registry.get(game)
        if engine.max_seats < 3:
            raise _refuse(
                f"{engine.title} is a two-player game; pods need a game for three to five.",
                "pods_need_multiplayer_game",
                400,
            )
        # A pod is one game: it can never seat more players than the game does.
        largest = pod_largest(engine)
        size = options.get("pod_size", min(4, largest))
        if isinstance(size, int) and not isinstance(size, bool) and largest < size <= 5:
            raise _refuse(
                f"{engine.title} seats at most {engine.max_seats} players, so a pod holds at most {largest}.",
                "pod_larger_than_game",
                400,
                max_seats=engine.max_seats,
            )
        out["pod_size"] = _int(options, "pod_size", min(4, largest), 3, largest)
        table = options.get("placement_points", [3, 2, 1, 0, 0])
        if not isinstance(table, list) or not table:
            raise _refuse("Placement points are a list, first place first.", "bad_options", 400)
        values = [_score(v, "placement_points") for v in table]
        if any(a < b for a, b in zip(values, values[1:])):
            raise _refuse("Placement points must not rise for a worse place.", "bad_options", 400)
        out["placement_points"] = [str(v) for v in values]
    return out


def tournament_create(
    *, created_by, name: str, game: str, format: str, options: dict | None = None, event_id: uuid.UUID | None = None
) -> Tournament:
    """Create a tournament (its creator is the organiser). With ``event_id`` a retried create
    returns the tournament the first one made (``tournament_create_or_get``)."""
    return tournament_create_or_get(
        created_by=created_by, name=name, game=game, format=format, options=options, event_id=event_id
    )[0]


def tournament_create_or_get(
    *, created_by, name: str, game: str, format: str, options: dict | None = None, event_id: uuid.UUID | None = None
) -> tuple[Tournament, bool]:
    """``tournament_create``, saying whether this call made it (False: a retry of an earlier
    create with the same ``event_id``, which gets what that one made, even when the two race)."""
    _need_user(created_by)
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise _refuse("A tournament needs a name of at most 120 characters.", "bad_name", 400)
    if format not in FORMATS:
        raise _refuse(f"Format is one of {', '.join(FORMATS)}.", "bad_format", 400)
    try:
        engine = registry.get(game)
    except registry.UnknownEngine as exc:
        raise _refuse(str(exc), "unknown_game", 400) from None
    cleaned = clean_options(format, engine.name, options)
    tournament_id = uuid.uuid4()

    def execute(appender: Appender) -> Tournament:
        tournament = Tournament.objects.create(
            id=tournament_id, name=name, game=engine.name, format=format, created_by=created_by
        )
        [event] = appender.append(
            [
                NewEvent(
                    type="tournament.created",
                    actor=actor_of(created_by),
                    data={
                        "id": str(tournament.id),
                        "name": name,
                        "game": engine.name,
                        "format": format,
                        "options": cleaned,
                        "organiser": created_by.pk,
                    },
                )
            ]
        )
        stream_followups(appender)
        _save_cache(tournament, projection.fold([event_dict(event)]))
        return tournament

    def same(existing: Event) -> bool:
        data = existing.data if existing.type == "tournament.created" else {}
        return (
            existing.actor == actor_of(created_by)
            and data.get("name") == name
            and data.get("game") == engine.name
            and data.get("format") == format
        )

    return command_create(
        stream_id=f"tournament:{tournament_id}",
        kind="tournament",
        event_id=event_id,
        execute=execute,
        same=same,
        found=lambda existing: Tournament.objects.get(pk=existing.data["id"]),
    )


# --------------------------------------------------------------------------------------
# Registration, check-in, seeding


def _rating_of(game: str, user) -> float | None:
    from league.ratings.models import Rating

    row = Rating.objects.filter(game=game, competitor=f"user:{user.pk}").first()
    return round(row.rating, 1) if row else None


def _registered(state) -> list[str]:
    return [p for p in state["entry_order"] if state["players"][p]["status"] == "registered"]


def _acting_for(state, user, by) -> None:
    _need_user(by)
    if user.pk != by.pk and not is_organiser(state, by):
        raise _refuse("Players act for themselves; only the organiser acts for others.", "not_your_place", 403)


def tournament_register(
    *,
    tournament,
    user,
    by=None,
    club: str | None = None,
    rating: float | None = None,
    expected_seq=AT_HEAD,
    event_id=None,
) -> Outcome:
    by = by or user

    def decide(state):
        _acting_for(state, user, by)
        if state["started"]:
            raise _refuse("Registration has closed: the tournament has started.", "registration_closed")
        if state.get("draft"):
            raise _refuse("Registration has closed: the draft has seated its four coaches.", "draft_seated")
        pid = pid_of(user)
        current = state["players"].get(pid)
        if current and current["status"] in ("registered", "waitlisted"):
            raise _refuse(f"{user.get_username()} is already {current['status']}.", "already_registered")
        snapshot = rating if rating is not None and is_organiser(state, by) else _rating_of(state["game"], user)
        data = {"player": pid, "name": user.get_username(), "rating": snapshot, "club": (club or None)}
        cap = state["options"].get("cap")
        if cap is not None and len(_registered(state)) >= cap:
            return [("player.waitlisted", data)]
        return [("player.registered", data)]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_withdraw(*, tournament, user, by=None, expected_seq=AT_HEAD, event_id=None) -> Outcome:
    by = by or user

    def decide(state):
        _acting_for(state, user, by)
        pid = pid_of(user)
        current = state["players"].get(pid)
        if state["started"]:
            raise _refuse("The tournament has started: drop out instead.", "already_started")
        if state.get("draft"):
            raise _refuse("The draft has seated its four coaches: nobody withdraws now.", "draft_seated")
        if not current or current["status"] not in ("registered", "waitlisted"):
            raise _refuse(f"{user.get_username()} is not registered.", "not_registered")
        facts = [("player.withdrew", {"player": pid})]
        if current["status"] == "registered" and state["waitlist"]:
            facts.append(("player.promoted", {"player": state["waitlist"][0]}))
        return facts

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_check_in(
    *, tournament, user, by=None, now: datetime | None = None, expected_seq=AT_HEAD, event_id=None
) -> Outcome:
    """A registered player checks in, or the organiser checks them in at the desk.

    A player checks in only inside the check-in window; the organiser at the desk may do
    it at any time before the start (a player who reached the venue just as the window
    closed is still let in by the person running the event). The event says who did it."""
    now = now or timezone.now()
    by = by or user

    def decide(state):
        _acting_for(state, user, by)
        options = state["options"]
        pid = pid_of(user)
        current = state["players"].get(pid)
        desk = by.pk != user.pk
        if state["started"]:
            raise _refuse("Check-in has closed: the tournament has started.", "check_in_closed")
        if not options.get("check_in_required"):
            raise _refuse("This tournament has no check-in.", "no_check_in")
        if not current or current["status"] != "registered":
            status = current["status"] if current else "not registered"
            raise _refuse(f"Only registered players check in ({user.get_username()} is {status}).", "not_registered")
        if current["checked_in"]:
            who = f"{user.get_username()} has" if desk else "You have"
            raise _refuse(f"{who} already checked in.", "already_checked_in")
        if not desk:
            opens, closes = options.get("check_in_opens"), options.get("check_in_closes")
            if opens and now < parse_datetime(opens):
                raise _refuse(f"Check-in opens at {opens}.", "check_in_not_open", opens=opens)
            if closes and now > parse_datetime(closes):
                raise _refuse(f"Check-in closed at {closes}.", "check_in_closed", closes=closes)
        data = {"player": pid, "at": now.isoformat()}
        if desk:
            data["by"] = pid_of(by)
        return [("player.checked_in", data)]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_check_in_undo(*, tournament, user, by, reason: str = "", expected_seq=AT_HEAD, event_id=None) -> Outcome:
    """The organiser takes back a check-in made by mistake (the wrong name ticked at the
    desk, a player who has left), before the start. The check-in stays in the stream;
    the undo is a fact of its own, with its reason."""

    def decide(state):
        _need_organiser(state, by)
        pid = pid_of(user)
        current = state["players"].get(pid)
        if state["started"]:
            raise _refuse("The tournament has started: drop the player instead.", "check_in_closed")
        if not current or current["status"] != "registered" or not current["checked_in"]:
            raise _refuse(f"{user.get_username()} is not checked in.", "not_checked_in")
        return [("player.check_in_undone", {"player": pid, "by": pid_of(by), "reason": (reason or "")[:500]})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_seed(
    *, tournament, by, method: str, order: list | None = None, expected_seq=AT_HEAD, event_id=None
) -> Outcome:
    def decide(state):
        _need_organiser(state, by)
        if state["started"]:
            raise _refuse("Seeds are set before the start.", "already_started")
        field = _registered(state)
        if method == "rating":
            refreshed = {}
            User = get_user_model()
            for pid in field:
                refreshed[pid] = _rating_of(state["game"], User.objects.get(pk=int(pid)))
                if refreshed[pid] is None:
                    refreshed[pid] = state["players"][pid].get("rating")
            seeds = sorted(field, key=lambda p: (-(refreshed[p] or 0), field.index(p)))
            return [("player.seeded", {"method": "rating", "order": seeds, "ratings": refreshed})]
        if method == "manual":
            if not isinstance(order, list):
                raise _refuse("Give the seeds in order.", "bad_seeding", 400)
            seeds = []
            for ref in order:
                pid = _pid_in(state, ref)
                if pid is None or pid not in field:
                    raise _refuse(f"{ref} is not a registered player.", "bad_seeding", 400)
                seeds.append(pid)
            if sorted(seeds) != sorted(field):
                raise _refuse("List every registered player exactly once.", "bad_seeding", 400)
            return [("player.seeded", {"method": "manual", "order": seeds})]
        raise _refuse("Seed 'rating' or 'manual'.", "bad_seeding", 400)

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def _pid_in(state, ref) -> str | None:
    ref = str(ref)
    if ref in state["players"]:
        return ref
    for pid, p in state["players"].items():
        if p["name"] == ref:
            return pid
    return None


# --------------------------------------------------------------------------------------
# Starting and pairing


def _minimum(state) -> int:
    fmt, options = state["format"], state["options"]
    if fmt == "pods":
        return 3
    if fmt == "groups_playoff":
        return max(2 * options["groups"], options["groups"] * options["advance"], 4)
    return 2


def tournament_start(*, tournament, by, expected_seq=AT_HEAD, event_id=None) -> Outcome:
    def decide(state):
        _need_organiser(state, by)
        if state["started"]:
            raise _refuse("The tournament has already started.", "already_started")
        registered = _registered(state)
        if state["options"].get("check_in_required"):
            field = [p for p in registered if state["players"][p]["checked_in"]]
        else:
            field = registered
        if len(field) < _minimum(state):
            raise _refuse(
                f"At least {_minimum(state)} players are needed to start ({len(field)} ready).", "too_few_players"
            )
        draft = state.get("draft")
        if draft and sorted(field) != sorted(draft["seats"]):
            raise _refuse("The players ready to start are not the draft's four coaches.", "draft_field_changed")
        seeds = _seeds(state, field)
        started = {"field": field, "seeds": seeds, "not_checked_in": [p for p in registered if p not in field]}
        fmt = state["format"]
        if fmt == "round_robin":
            started["schedule"] = _schedule([seeds], double=state["options"].get("double", False))
        if fmt == "groups_playoff":
            count = state["options"]["groups"]
            groups: list[list[str]] = [[] for _ in range(count)]
            for i, pid in enumerate(seeds):  # snake: 1..g, then g..1
                lap, pos = divmod(i, count)
                groups[pos if lap % 2 == 0 else count - 1 - pos].append(pid)
            if min(len(g) for g in groups) < max(2, state["options"]["advance"]):
                raise _refuse(
                    "Every group needs at least two players and as many as advance from it.", "too_few_players"
                )
            started["groups"] = groups
            started["schedule"] = _schedule(groups)
        after = copy.deepcopy(state)
        projection.apply(after, {"seq": state["seq"] + 1, "type": "tournament.started", "data": started})
        return [("tournament.started", started), ("round.paired", _next_round(after))]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def _seeds(state, field: list[str]) -> list[str]:
    if state["seeds"]:
        seeds = [p for p in state["seeds"] if p in field]
        return seeds + [p for p in field if p not in seeds]
    if state["options"].get("seeding") == "rating":
        return sorted(field, key=lambda p: (-(state["players"][p].get("rating") or 0), field.index(p)))
    return list(field)


def _schedule(groups: list[list[str]], double: bool = False) -> list[list[dict]]:
    """Round robin fixtures for every group, merged round by round."""
    per_group = [brackets.round_robin(g, double=double) for g in groups]
    rounds = max(len(s) for s in per_group)
    schedule = []
    for r in range(rounds):
        fixtures = []
        for g, sched in enumerate(per_group):
            if r < len(sched):
                fixtures += [
                    {"group": g if len(groups) > 1 else None, "players": [f.home, f.away]} for f in sched[r].fixtures
                ]
        schedule.append(fixtures)
    return schedule


def _next_round(state) -> dict:
    """Compute the next round's pairings from the projection of everything before."""
    fmt = state["format"]
    number = len(state["rounds"]) + 1
    if fmt in ELIMINATION:
        shape = {"format": fmt, "entrants": len(state["seeds"])}
        if fmt == "single_elimination":
            shape["third_place"] = state["options"].get("third_place", False)
        else:
            shape["bracket_reset"] = state["options"].get("bracket_reset", True)
        return {"round": number, "bracket": shape, "seeds": state["seeds"]}
    if fmt == "swiss":
        return _swiss_round(state, number)
    if fmt == "pods":
        return _pod_round(state, number)
    # Round robin and groups: the schedule fixed at the start.
    if number > len(state["schedule"]):
        return _playoff(state, number)
    pairings = []
    for board, fixture in enumerate(state["schedule"][number - 1], start=1):
        entry = {"id": f"r{number}-{board}", "board": board, "players": fixture["players"], "group": fixture["group"]}
        dropped = [p for p in fixture["players"] if state["players"][p]["status"] == "dropped"]
        if dropped:
            entry["auto"] = _drop_result(fixture["players"], dropped)
        pairings.append(entry)
    return {"round": number, "pairings": pairings, "method": "schedule"}


def _drop_result(players, dropped) -> dict:
    if len(dropped) == len(players):
        return {"double_forfeit": True}
    return {"winner": next(p for p in players if p not in dropped), "forfeit": True}


def _swiss_round(state, number: int) -> dict:
    field = swiss_field(state)
    if len(field) < 2:
        raise _refuse("Fewer than two players are left to pair.", "too_few_players")
    options = SwissOptions(
        bye_score=as_fraction(state["options"].get("bye_score", "1")),
        avoid_same_club=state["options"].get("avoid_same_club", True),
        strict_seats=state["options"].get("seat_balance") == "strict",
    )
    paired = pair_round(field, options)
    pairings = []
    for p in paired.pairings:
        players = [p.first] if p.is_bye else [p.first, p.second]
        pairings.append({"id": f"r{number}-{p.board}", "board": p.board, "players": players, "bye": p.is_bye})
    return {
        "round": number,
        "pairings": pairings,
        "method": paired.method,
        "rematches": paired.rematches,
        "forbidden": paired.forbidden,
    }


def _pod_round(state, number: int) -> dict:
    ranked = [r["player"] for r in pod_standings(state) if state["players"][r["player"]]["status"] == "active"]
    ranked += [p for p in state["entry_order"] if state["players"][p]["status"] == "active" and p not in ranked]
    if len(ranked) < 3:
        raise _refuse("Fewer than three players are left for a pod.", "too_few_players")
    met = []
    firsts: dict[str, int] = {p: 0 for p in ranked}
    for record in state["pairings"].values():
        players = record["players"]
        met += [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
        if len(players) > 1 and players[0] in firsts:
            firsts[players[0]] += 1
    pods = brackets.seat_pods(ranked, met, **pod_shape(state, len(ranked)))
    # Seat order is play order: the first seat goes to whoever has held it least (then
    # the standings), so it moves round the pod instead of staying with the leader.
    rank = {p: i for i, p in enumerate(ranked)}
    pods = [sorted(pod, key=lambda p: (firsts[p], rank[p])) for pod in pods]
    pairings = [{"id": f"r{number}-{board}", "board": board, "players": pod} for board, pod in enumerate(pods, start=1)]
    return {"round": number, "pairings": pairings, "method": "pods", "repeats": brackets.repeat_pairs(pods, met)}


def pod_shape(state, players: int) -> dict:
    """Pod sizes for ``players``: the preferred size, never more than the game seats.

    Pods are three to five players; a game for at most three (Dueling Wizards) cannot
    split every field into threes, so it falls back to pods as small as the game allows
    (ten players: 3, 3, 2, 2)."""
    engine = registry.get(state["game"])
    largest = pod_largest(engine)
    preferred = min(state["options"].get("pod_size", 4), largest)
    for smallest in (min(3, largest), max(2, engine.min_seats)):
        try:
            brackets.pod_sizes(players, preferred, smallest, largest)
        except ValueError:
            continue
        return {"preferred": preferred, "smallest": smallest, "largest": largest}
    raise _refuse(f"{players} players cannot be seated in pods of {engine.title}.", "too_few_players")


def _playoff(state, number: int) -> dict:
    advance = state["options"]["advance"]
    qualified = []
    for g in range(len(state["groups"])):
        rows = [r for r in round_standings(state, g) if r["status"] == "active"]
        qualified.append([r["player"] for r in rows[:advance]])
    if sum(len(q) for q in qualified) < 2:
        raise _refuse("Too few players are left to play the playoff.", "too_few_players")
    # Seeds by place, then group order: A1, B1, A2, B2 ... so the standard bracket order
    # sends group winners against the other groups' runners-up.
    seeds = [q[place] for place in range(advance) for q in qualified if place < len(q)]
    shape = {
        "format": "single_elimination",
        "entrants": len(seeds),
        "third_place": state["options"].get("third_place", False),
    }
    # With three groups (or any count that is not a power of two) the standard order can
    # still pit a group's winner against its own runner-up in the first round: re-seed
    # within each place until no first-round match is between players of one group.
    group_of = {p: g for g, q in enumerate(qualified) for p in q}
    tiers = [sum(1 for q in qualified if place < len(q)) for place in range(advance)]
    tiers = [t for t in tiers if t]
    bracket = brackets.single_elimination(len(seeds), third_place=shape["third_place"])
    seeds = brackets.separate_groups(bracket, seeds, group_of, tiers)
    return {"round": number, "bracket": shape, "seeds": seeds}


def tournament_pair_next(*, tournament, by, expected_seq=AT_HEAD, event_id=None) -> Outcome:
    def decide(state):
        _need_organiser(state, by)
        if not state["started"]:
            raise _refuse("Start the tournament first.", "not_started")
        if state["bracket"] is not None:
            raise _refuse("The bracket moves on by itself as results come in.", "bracket_advances_itself")
        info = progress(state)
        if info["finished"]:
            raise _refuse("Every round has been played.", "tournament_finished")
        if not info["round_complete"]:
            raise _refuse(
                f"Round {info['round']} still has {len(info['open_pairings'])} open pairing(s).",
                "round_not_complete",
                open_pairings=info["open_pairings"],
            )
        return [("round.paired", _next_round(state))]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


# --------------------------------------------------------------------------------------
# Drops and late joins


def tournament_drop(*, tournament, user, by=None, expected_seq=AT_HEAD, event_id=None) -> Outcome:
    by = by or user

    def decide(state):
        _acting_for(state, user, by)
        pid = pid_of(user)
        current = state["players"].get(pid)
        if not state["started"]:
            raise _refuse("The tournament has not started: withdraw instead.", "not_started")
        if not current or current["status"] != "active":
            raise _refuse(f"{user.get_username()} is not playing in this tournament.", "not_playing")
        if progress(state)["finished"]:
            raise _refuse("The tournament is over.", "tournament_finished")
        return [("player.dropped", {"player": pid, "after_round": len(state["rounds"])})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_join_late(
    *, tournament, user, by=None, club: str | None = None, expected_seq=AT_HEAD, event_id=None
) -> Outcome:
    by = by or user

    def decide(state):
        _acting_for(state, user, by)
        if state["format"] not in ("swiss", "pods"):
            raise _refuse(
                "Only Swiss and pod tournaments take late entries; a bracket or schedule is fixed.",
                "late_join_not_allowed",
            )
        if not state["started"]:
            raise _refuse("The tournament has not started: register instead.", "not_started")
        if progress(state)["finished"]:
            raise _refuse("The tournament is over.", "tournament_finished")
        pid = pid_of(user)
        current = state["players"].get(pid)
        if current and current["status"] in ("active", "dropped"):
            raise _refuse(f"{user.get_username()} is already in this tournament.", "already_registered")
        cap = state["options"].get("cap")
        active = sum(1 for p in state["players"].values() if p["status"] in ("active", "dropped"))
        if cap is not None and active >= cap:
            raise _refuse("The tournament is full.", "tournament_full")
        return [
            (
                "player.joined_late",
                {
                    "player": pid,
                    "name": user.get_username(),
                    "rating": _rating_of(state["game"], user),
                    "club": club or None,
                    "round": len(state["rounds"]) + 1,
                },
            )
        ]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


# --------------------------------------------------------------------------------------
# Results


def _pairing(state, pairing_id: str) -> dict:
    record = state["pairings"].get(pairing_id)
    if record is None:
        raise _refuse("No such pairing.", "pairing_not_found", 404)
    return record


def clean_result(state, record, result) -> dict:
    """A result in player ids, checked against the pairing. Names or ids are accepted."""
    if not isinstance(result, dict):
        raise _refuse("A result is an object: {winner}, {draw: true} or {finish: [[...], ...]}.", "bad_result", 400)
    players = record["players"]
    pod = len(players) > 2 or (state["format"] == "pods" and len(players) == 2)
    if pod or "finish" in result:
        finish = result.get("finish")
        if not pod or not isinstance(finish, list) or not finish:
            raise _refuse("A pod reports its finish: places best first, tied players together.", "bad_result", 400)
        places = []
        for place in finish:
            place = place if isinstance(place, list) else [place]
            pids = [_pid_in(state, ref) for ref in place]
            if not pids or None in pids:
                raise _refuse("Every place names players of this pod.", "bad_result", 400)
            places.append(pids)
        flat = [p for place in places for p in place]
        if sorted(flat) != sorted(players):
            raise _refuse("The finish must place every player of the pod exactly once.", "bad_result", 400)
        return {"finish": places}
    if result.get("draw"):
        if record["bracket_match"]:
            raise _refuse("A bracket match needs a winner.", "draw_not_allowed", 400)
        return {"draw": True}
    winner = _pid_in(state, result.get("winner", ""))
    if winner is None or winner not in players:
        raise _refuse("The winner must be one of the pairing's players.", "bad_result", 400)
    return {"winner": winner}


def _open(record) -> None:
    status = record["status"]
    if status == "final":
        raise _refuse("This result is final; the organiser can correct it.", "result_final")
    if status in ("waiting", "not_needed"):
        raise _refuse("This match is not ready to be played.", "not_ready")
    if len(record["players"]) < 2:
        raise _refuse("A bye has no result to report.", "bye")


def _need_player(state, record, user) -> str:
    _need_user(user)
    pid = pid_of(user)
    if pid not in record["players"]:
        raise _refuse("Only the pairing's players report its result.", "not_your_pairing", 403)
    return pid


def tournament_report(*, tournament, pairing: str, user, result: dict, expected_seq=AT_HEAD, event_id=None) -> Outcome:
    """A player reports. When the opponent already reported the same result it is
    confirmed; a different one puts the pairing in dispute for the organiser to rule."""

    def decide(state):
        record = _pairing(state, pairing)
        pid = _need_player(state, record, user)
        _open(record)
        if record["status"] == "disputed":
            raise _refuse("This result is disputed; the organiser rules on it.", "disputed")
        cleaned = clean_result(state, record, result)
        others = {p: r for p, r in record["reports"].items() if p != pid}
        if others:
            if any(r == cleaned for r in others.values()):
                return [("result.confirmed", {"pairing": pairing, "by": pid, "result": cleaned})]
            return [
                (
                    "result.disputed",
                    {
                        "pairing": pairing,
                        "by": pid,
                        "result": cleaned,
                        "reason": "The players reported different results.",
                    },
                )
            ]
        return [("result.reported", {"pairing": pairing, "by": pid, "result": cleaned})]

    return _run(tournament=tournament, user=user, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_confirm(*, tournament, pairing: str, user, expected_seq=AT_HEAD, event_id=None) -> Outcome:
    def decide(state):
        record = _pairing(state, pairing)
        pid = _need_player(state, record, user)
        _open(record)
        others = [r for p, r in record["reports"].items() if p != pid]
        if record["status"] != "reported" or not others:
            code = "nothing_to_confirm" if not record["reports"] else "cannot_confirm_own_report"
            raise _refuse("Only another player's report can be confirmed.", code)
        return [("result.confirmed", {"pairing": pairing, "by": pid, "result": others[0]})]

    return _run(tournament=tournament, user=user, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_dispute(
    *, tournament, pairing: str, user, reason: str = "", expected_seq=AT_HEAD, event_id=None
) -> Outcome:
    def decide(state):
        record = _pairing(state, pairing)
        pid = _need_player(state, record, user)
        _open(record)
        if record["status"] == "disputed":
            raise _refuse("This result is already disputed.", "disputed")
        return [("result.disputed", {"pairing": pairing, "by": pid, "result": None, "reason": reason[:500]})]

    return _run(tournament=tournament, user=user, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_rule(
    *, tournament, pairing: str, by, result: dict, reason: str = "", expected_seq=AT_HEAD, event_id=None
) -> Outcome:
    """The organiser decides an open result (reported, disputed or never reported)."""

    def decide(state):
        _need_organiser(state, by)
        record = _pairing(state, pairing)
        _open(record)
        cleaned = clean_result(state, record, result)
        return [("result.ruled", {"pairing": pairing, "result": cleaned, "reason": reason[:500]})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_correct(
    *, tournament, pairing: str, by, result: dict, reason: str = "", expected_seq=AT_HEAD, event_id=None
) -> Outcome:
    """Change a final result, even after later rounds. A bracket re-routes the corrected
    winner and voids the matches that no longer stand; Swiss keeps its pairings and
    recomputes the standings."""

    def decide(state):
        _need_organiser(state, by)
        record = _pairing(state, pairing)
        if record["status"] != "final":
            raise _refuse("Only a final result is corrected; rule on an open one.", "result_not_final")
        if (record["result"] or {}).get("bye"):
            raise _refuse("A bye has no result to correct.", "bye")
        cleaned = clean_result(state, record, result)
        if cleaned == {k: v for k, v in record["result"].items() if k != "forfeit"} and not record["result"].get(
            "forfeit"
        ):
            raise _refuse("That is already the result.", "same_result")
        return [
            (
                "result.corrected",
                {"pairing": pairing, "result": cleaned, "before": record["result"], "reason": reason[:500]},
            )
        ]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_no_show(*, tournament, pairing: str, by, absent: list, expected_seq=AT_HEAD, event_id=None) -> Outcome:
    """The organiser records who did not turn up: a forfeit win for the other player, or
    a double forfeit (both lose) when nobody came."""

    def decide(state):
        _need_organiser(state, by)
        record = _pairing(state, pairing)
        _open(record)
        pids = [_pid_in(state, a) for a in (absent or [])]
        if not pids or any(p is None or p not in record["players"] for p in pids) or len(set(pids)) != len(pids):
            raise _refuse("Name the absent players of this pairing.", "bad_absent", 400)
        players = record["players"]
        if len(players) > 2 or state["format"] == "pods":
            present = [p for p in players if p not in pids]
            if not present:
                return [("match.no_show", {"pairing": pairing, "absent": pids, "result": {"finish": [players]}})]
            if len(present) == 1:
                return [("match.no_show", {"pairing": pairing, "absent": pids, "result": {"finish": [present, pids]}})]
            raise _refuse(
                "In a pod, report the finish of those who played with the absent players tied last.",
                "report_pod_finish",
            )
        if len(pids) == 2:
            if record["bracket_match"]:
                raise _refuse(
                    "Someone must advance in a bracket: record one player as absent.", "double_forfeit_in_bracket"
                )
            return [("match.no_show", {"pairing": pairing, "absent": pids, "result": {"double_forfeit": True}})]
        winner = next(p for p in players if p not in pids)
        return [("match.no_show", {"pairing": pairing, "absent": pids, "result": {"winner": winner, "forfeit": True}})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


# --------------------------------------------------------------------------------------
# Platform matches


def tournament_match_create(
    *, tournament, pairing: str, by, mode: str = Match.Mode.SERVER, expected_seq=AT_HEAD, event_id=None
) -> Outcome:
    """Create a platform match for a pairing (any engine that seats its players). It
    reports its own result once verification says it is verified."""

    def decide(state):
        record = _pairing(state, pairing)
        _need_user(by)
        if pid_of(by) not in record["players"] and not is_organiser(state, by):
            raise _refuse("Only the pairing's players or the organiser start its match.", "not_your_pairing", 403)
        _open(record)
        if record["status"] != "pending" or record["reports"]:
            raise _refuse("A result is already being reported for this pairing.", "result_reported")
        if record["match_id"]:
            raise _refuse("This pairing already has a match.", "match_exists", match_id=record["match_id"])
        User = get_user_model()
        seats = [SeatSpec(user=User.objects.get(pk=int(p))) for p in record["players"]]
        config = state["options"].get("match_config")
        if state.get("draft"):
            config = _drafted_config(state, record)
        match = match_create(
            game=state["game"],
            seats=seats,
            created_by=by,
            mode=mode,
            config=config,
            origin={"tournament": state["id"], "round": record["round"], "pairing": pairing},
            time_control=state["options"].get("time_control") or {},
        )
        return [("match.created", {"pairing": pairing, "match_id": str(match.id)})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def result_from_match(record, match: Match, pod: bool = False) -> dict:
    placements = match.result["placements"]
    players = record["players"]
    if len(players) > 2 or pod:
        places = sorted(set(placements))
        return {"finish": [[players[s] for s in range(len(players)) if placements[s] == p] for p in places]}
    if placements[0] == placements[1]:
        return {"draw": True}
    return {"winner": players[0] if placements[0] < placements[1] else players[1]}


def tournament_record_match(*, match_id) -> str:
    """Record a finished platform match's result if (and only if) it is verified.

    Returns "recorded", "pending" (no verdict yet: the match_verified signal brings it back),
    "disputed", "drawn" (a level game in a bracket: left to the organiser), or "ignored"
    (not a tournament match, or the pairing moved on).
    Idempotent: event ids are derived from the match id.
    """
    match = Match.objects.filter(pk=match_id).first()
    if match is None or "tournament" not in (match.origin or {}):
        return "ignored"
    if match.status != Match.Status.FINISHED or match.verdict == Match.Verdict.PENDING:
        return "pending"
    origin = match.origin
    verified = match.verdict == Match.Verdict.VERIFIED
    kind = "verified" if verified else "disputed"
    outcome = {"value": "ignored"}

    def decide(state):
        record = state["pairings"].get(origin["pairing"])
        if (
            record is None
            or record["match_id"] != str(match.id)
            or record["status"] in ("final", "waiting", "not_needed")
        ):
            return []
        outcome["value"] = "recorded" if verified else "disputed"
        if verified:
            result = result_from_match(record, match, pod=state["format"] == "pods")
            if result.get("draw") and record["bracket_match"]:
                # A level game (e.g. equal health when the deck runs out) cannot move a bracket on.
                outcome["value"] = "drawn"
                return [
                    (
                        "result.match_disputed",
                        {
                            "pairing": origin["pairing"],
                            "match_id": str(match.id),
                            "reason": "The match was drawn and a bracket match needs a winner: the organiser rules "
                            "or has it replayed.",
                        },
                    )
                ]
            # The head hash ties the result to the exact record that was verified (the
            # tournament verifier and the transparency log check it later).
            return [
                (
                    "result.verified",
                    {
                        "pairing": origin["pairing"],
                        "match_id": str(match.id),
                        "result": result,
                        "head_hash": match.head_hash,
                    },
                )
            ]
        return [
            (
                "result.match_disputed",
                {"pairing": origin["pairing"], "match_id": str(match.id), "reason": match.verdict_reason},
            )
        ]

    done = _run(
        tournament=origin["tournament"],
        user=None,
        decide=decide,
        actor="system",
        event_id=uuid.uuid5(NAMESPACE, f"{match.id}:{kind}"),
    )
    if not done.created:
        return "disputed" if not verified else ("drawn" if outcome["value"] == "drawn" else "recorded")
    return outcome["value"]


def _drafted_config(state, record) -> dict:
    """The Wizard Dodgeball config for a pairing of a drafted tournament: the two
    players' drafted teams, each played by the coach who drafted it."""
    from engines.iwdl_draft.engine import match_config

    draft_match = Match.objects.filter(pk=state["draft"]["draft_id"]).first()
    if draft_match is None or draft_match.status != Match.Status.FINISHED:
        raise _refuse(
            "The tournament draft has not finished: every coach must be ready first.",
            "draft_not_finished",
            draft_id=state["draft"]["draft_id"],
        )
    seat_of = {pid: i for i, pid in enumerate(state["draft"]["seats"])}
    a, b = record["players"]
    return match_config(draft_match.state, seats=(seat_of[a], seat_of[b]))


# --------------------------------------------------------------------------------------
# Options the organiser changes after creation, and the IWDL tournament draft

UNSET = object()


def tournament_configure(
    *,
    tournament,
    by,
    tiebreaks=UNSET,
    forbidden_pairs=UNSET,
    check_in_opens=UNSET,
    check_in_closes=UNSET,
    expected_seq=AT_HEAD,
    event_id=None,
) -> Outcome:
    """Change options after creation: the tie-breaks and their order (any time: standings
    are derived on read), Swiss forbidden pairs (until the last round is paired; they
    apply to rounds paired after), and the check-in window (before the start).
    Only the options given change; they are validated as at creation."""

    def decide(state):
        _need_organiser(state, by)
        fmt = state["format"]
        given: dict[str, Any] = {}
        changed: dict[str, Any] = {}
        if tiebreaks is not UNSET:
            if fmt not in ("swiss", "round_robin", "groups_playoff"):
                raise _refuse("Only Swiss, round-robin and group tournaments rank by tie-breaks.", "no_tiebreaks")
            if not tiebreaks:
                raise _refuse("Choose at least one tie-break.", "bad_options", 400)
            given["tiebreaks"] = tiebreaks
        if forbidden_pairs is not UNSET:
            if fmt != "swiss":
                raise _refuse("Forbidden pairs are for Swiss pairing.", "no_forbidden_pairs")
            if progress(state)["finished"]:
                raise _refuse("The tournament is over.", "tournament_finished")
            given["forbidden_pairs"] = forbidden_pairs or []
        if check_in_opens is not UNSET or check_in_closes is not UNSET:
            if state["started"]:
                raise _refuse("Check-in is over: the tournament has started.", "already_started")
            given["check_in_opens"] = (
                check_in_opens if check_in_opens is not UNSET else state["options"].get("check_in_opens")
            )
            given["check_in_closes"] = (
                check_in_closes if check_in_closes is not UNSET else state["options"].get("check_in_closes")
            )
        if not given:
            raise _refuse("Name an option to change.", "nothing_to_change", 400)
        cleaned = clean_options(fmt, state["game"], given)
        for key in given:
            changed[key] = cleaned[key]
        if "check_in_opens" in given and (cleaned["check_in_opens"] or cleaned["check_in_closes"]):
            changed["check_in_required"] = True
        for a, b in changed.get("forbidden_pairs", []):
            if a == b:
                raise _refuse("A player cannot be kept from playing themselves.", "bad_options", 400)
        if all(state["options"].get(k) == v for k, v in changed.items()):
            raise _refuse("Those are already the tournament's options.", "nothing_to_change")
        return [("options.changed", {"options": changed})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


DRAFT_GAME_FOR_TOURNAMENT = "wizard-dodgeball"


def tournament_draft_open(
    *, tournament, by, order: str = "snake", clock_seconds: int = 60, expected_seq=AT_HEAD, event_id=None
) -> Outcome:
    """Open the IWDL tournament draft for a Wizard Dodgeball tournament of four coaches:
    each drafts six wizards (``order`` snake or straight, seats in seed order). Its teams
    then meet in the tournament's pairings: every pairing's platform match is set up
    from the two coaches' drafted teams."""
    from league.drafts.services import draft_create

    def decide(state):
        _need_organiser(state, by)
        if state["game"] != DRAFT_GAME_FOR_TOURNAMENT:
            raise _refuse("Only Wizard Dodgeball tournaments start with the IWDL draft.", "not_iwdl")
        if state.get("draft"):
            raise _refuse(
                "This tournament's draft is already open.", "draft_exists", draft_id=state["draft"]["draft_id"]
            )
        if state["started"]:
            raise _refuse("The tournament has started: the draft comes first.", "already_started")
        if order not in ("snake", "straight"):
            raise _refuse("The pick order is 'snake' or 'straight'.", "bad_options", 400)
        registered = _registered(state)
        if state["options"].get("check_in_required"):
            registered = [p for p in registered if state["players"][p]["checked_in"]]
        if len(registered) != 4:
            raise _refuse(
                f"The tournament draft seats exactly four coaches ({len(registered)} ready).", "four_coaches_needed"
            )
        seats = _seeds(state, registered)
        User = get_user_model()
        # The organiser need not be a coach: the tournament opens the room (created_by None).
        draft = draft_create(
            seats=[SeatSpec(user=User.objects.get(pk=int(p))) for p in seats],
            created_by=None,
            config={"format": "tournament", "order": order},
            clock_seconds=clock_seconds,
            origin={"tournament_draft": state["id"]},
        )
        return [("draft.opened", {"draft_id": str(draft.draft_match_id), "seats": seats})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_retract_match(*, match_id) -> str:
    """A platform match whose verified result a pairing recorded has since been found
    disputed: retract that result by a fact in the tournament's stream. The pairing goes back
    before the organiser (status "disputed", the verifier's reason in its history); standings
    and the bracket stop counting it, and bracket matches that depended on it are voided.

    Recorded as ``result.match_disputed`` (the fact the fold already knows for "this pairing's
    match is disputed"), carrying the retracted result. Returns "retracted" or "ignored".
    Idempotent: the event id derives from the match id."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or "tournament" not in (match.origin or {}) or match.verdict != Match.Verdict.DISPUTED:
        return "ignored"
    origin = match.origin
    where = f" (event {match.verdict_seq})" if match.verdict_seq else ""

    def decide(state):
        record = state["pairings"].get(origin["pairing"])
        if (
            record is None
            or record["match_id"] != str(match.id)
            or record["status"] != "final"
            or record["source"] != "match"
        ):
            return []
        return [
            (
                "result.match_disputed",
                {
                    "pairing": origin["pairing"],
                    "match_id": str(match.id),
                    "retracted": record["result"],
                    "reason": f"Result retracted: the match was disputed{where}: {match.verdict_reason}",
                },
            )
        ]

    done = _run(
        tournament=origin["tournament"],
        user=None,
        decide=decide,
        actor="system",
        event_id=uuid.uuid5(NAMESPACE, f"{match.id}:retracted"),
    )
    return "retracted" if done.events else "ignored"
