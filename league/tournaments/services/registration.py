"""Tournament commands before the first round: creating a tournament and validating its options,
registration, the waiting list, check-in (the player's own or at the desk), seeding, options
changed later, and the IWDL tournament draft.

Decisions that need the outside world (ratings, the clock for the check-in window, usernames
named in options) are made here and recorded in the event, so replay needs only the events."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from audit.clocks import BadTimeControl, check_time_control
from engines import registry
from league.names import name_problem
from league.streams import stream_followups
from matches.commands import Appender, command_create
from matches.eventstore import NewEvent, as_stored
from matches.models import Event
from matches.services import MatchError, SeatSpec, match_config_check

from .. import projection
from ..access import actor_of, is_organiser, pid_of
from ..errors import refuse
from ..formats import registry as formats
from ..formats.base import option_bool, option_int
from ..models import Tournament
from ..projection import event_dict
from ..standings import progress
from ..states import PlayerStatus, TournamentStatus
from ..timer import DEFAULT_MINUTES as DEFAULT_ROUND_MINUTES
from ..timer import MAX_MINUTES as MAX_ROUND_MINUTES
from .commands import Outcome, _acting_for, _need_organiser, _need_user, _pid_in, _registered, _run, _save_cache

# --------------------------------------------------------------------------------------
# Creating a tournament


def _user_pid(ref) -> str:
    User = get_user_model()
    user = User.objects.filter(username=str(ref)).first()
    if user is None and str(ref).isdigit():
        user = User.objects.filter(pk=int(ref)).first()
    if user is None:
        raise refuse(f"No user called {ref}.", "unknown_user", 400)
    return pid_of(user)


COMMON_OPTIONS = (
    "cap",
    "check_in_required",
    "check_in_opens",
    "check_in_closes",
    "seeding",
    "match_config",
    "time_control",
    "round_minutes",
)


def clean_options(format: str, game: str, options: dict | None) -> dict:
    """Validate and complete a format's options (a refusal names the bad one)."""
    options = dict(options or {})
    try:
        fmt = formats.get(format)
    except formats.UnknownFormat as exc:
        raise refuse(str(exc), "bad_format", 400) from None
    # Another format's options are ignored (a form sends them all); an option no format has
    # is a mistake worth saying.
    allowed = set(COMMON_OPTIONS).union(*(f.option_keys for f in formats.all_formats()))
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise refuse(f"Unknown option(s): {', '.join(unknown)}.", "bad_options", 400)
    out: dict[str, Any] = {
        "cap": option_int(options, "cap", None, 2, 4096, allow_none=True),
        "check_in_required": option_bool(options, "check_in_required", False),
        "seeding": options.get("seeding", "registration"),
        "match_config": options.get("match_config") or {},
        # The organiser's round timer starts at this many minutes unless told otherwise (timer.py).
        "round_minutes": option_int(options, "round_minutes", DEFAULT_ROUND_MINUTES, 1, MAX_ROUND_MINUTES),
    }
    if out["seeding"] not in ("registration", "rating", "manual"):
        raise refuse("Seeding is 'registration', 'rating' or 'manual'.", "bad_options", 400)
    if not isinstance(out["match_config"], dict):
        raise refuse("Option 'match_config' must be an object.", "bad_options", 400)
    try:
        # The clock every platform match of the event is played with (audit.clocks).
        out["time_control"] = check_time_control(options.get("time_control"))
    except BadTimeControl as exc:
        raise refuse(f"Option 'time_control': {exc}", "bad_options", 400) from None
    window: dict[str, datetime] = {}
    for key in ("check_in_opens", "check_in_closes"):
        value = options.get(key)
        if value:
            try:
                # Shaped like a time but not one (month 13, an offset of 99 hours): ValueError.
                when = parse_datetime(str(value)) if not isinstance(value, datetime) else value
            except ValueError:
                when = None
            if when is None:
                raise refuse(f"Option '{key}' must be a date and time (ISO 8601).", "bad_options", 400)
            if timezone.is_naive(when):
                when = timezone.make_aware(when)
            window[key] = when
            out[key] = when.isoformat()
            out["check_in_required"] = True
        else:
            out[key] = None
    # Compared as instants: the two may be written with different UTC offsets.
    if len(window) == 2 and window["check_in_opens"] >= window["check_in_closes"]:
        raise refuse("The check-in window must close after it opens.", "bad_options", 400)
    engine = registry.get(game)
    out.update(fmt.clean_options(options, engine=engine, user_pid=_user_pid))
    if out["match_config"]:
        # Every pairing's match is created with it, and the created event cannot be changed:
        # checked now as match_create will check it, not refused by every match later. An
        # empty one is the game's defaults, which need no check.
        for seats in fmt.table_sizes(out):
            try:
                match_config_check(engine=engine, config=out["match_config"], seats=seats)
            except MatchError as exc:
                raise refuse(f"Option 'match_config': {exc.message}", "bad_options", 400, reason=exc.code) from None
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
        raise refuse("A tournament needs a name of at most 120 characters.", "bad_name", 400)
    if problem := name_problem(name):
        raise refuse(f"The tournament's name cannot be used: {problem}.", "bad_name", 400)
    if format not in formats.names():
        raise refuse(f"Format is one of {', '.join(formats.names())}.", "bad_format", 400)
    try:
        engine = registry.get(game)
    except registry.UnknownEngine as exc:
        raise refuse(str(exc), "unknown_game", 400) from None
    cleaned = clean_options(format, engine.name, options)
    tournament_id = uuid.uuid4()

    def execute(appender: Appender) -> Tournament:
        # In the create's transaction, with the organiser's row locked: two creates at once count
        # one after the other. A retry refused here still gets its tournament (command_create
        # answers from the stored event).
        get_user_model().objects.select_for_update().get(pk=created_by.pk)
        cap = settings.MAX_TOURNAMENTS_PER_USER
        if Tournament.objects.filter(created_by=created_by).exclude(status=TournamentStatus.FINISHED).count() >= cap:
            raise refuse(
                f"You organise {cap} tournaments that have not finished, as many as one account may: "
                "finish one before you create another.",
                "too_many_tournaments",
                409,
            )
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
                        # Every result.verified of this stream carries its match's head hash:
                        # the verifier then requires it (a tournament created before this flag
                        # has it required from its first result that carries one).
                        "result_head_hashes": True,
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
            # Options as cleaned (JSON as stored): another event under a used id is no retry.
            and data.get("options") == as_stored(cleaned)
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


def tournament_register(
    *,
    tournament,
    user,
    by=None,
    club: str | None = None,
    rating: float | None = None,
    expected_seq,
    event_id=None,
) -> Outcome:
    by = by or user

    def decide(state):
        _acting_for(state, user, by)
        if state["started"]:
            raise refuse("Registration has closed: the tournament has started.", "registration_closed")
        if state.get("draft"):
            raise refuse("Registration has closed: the draft has seated its four coaches.", "draft_seated")
        pid = pid_of(user)
        current = state["players"].get(pid)
        if current and current["status"] in (PlayerStatus.REGISTERED, PlayerStatus.WAITLISTED):
            raise refuse(f"{user.get_username()} is already {current['status']}.", "already_registered")
        snapshot = rating if rating is not None and is_organiser(state, by) else _rating_of(state["game"], user)
        data = {"player": pid, "name": user.get_username(), "rating": snapshot, "club": (club or None)}
        cap = state["options"].get("cap")
        if cap is not None and len(_registered(state)) >= cap:
            return [("player.waitlisted", data)]
        return [("player.registered", data)]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_withdraw(*, tournament, user, by=None, expected_seq, event_id=None) -> Outcome:
    by = by or user

    def decide(state):
        _acting_for(state, user, by)
        pid = pid_of(user)
        current = state["players"].get(pid)
        if state["started"]:
            raise refuse("The tournament has started: drop out instead.", "already_started")
        if state.get("draft"):
            raise refuse("The draft has seated its four coaches: nobody withdraws now.", "draft_seated")
        if not current or current["status"] not in (PlayerStatus.REGISTERED, PlayerStatus.WAITLISTED):
            raise refuse(f"{user.get_username()} is not registered.", "not_registered")
        facts = [("player.withdrew", {"player": pid})]
        if current["status"] == PlayerStatus.REGISTERED and state["waitlist"]:
            facts.append(("player.promoted", {"player": state["waitlist"][0]}))
        return facts

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_check_in(
    *, tournament, user, by=None, now: datetime | None = None, expected_seq, event_id=None
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
            raise refuse("Check-in has closed: the tournament has started.", "check_in_closed")
        if not options.get("check_in_required"):
            raise refuse("This tournament has no check-in.", "no_check_in")
        if not current or current["status"] != PlayerStatus.REGISTERED:
            status = current["status"] if current else "not registered"
            raise refuse(f"Only registered players check in ({user.get_username()} is {status}).", "not_registered")
        if current["checked_in"]:
            who = f"{user.get_username()} has" if desk else "You have"
            raise refuse(f"{who} already checked in.", "already_checked_in")
        if not desk:
            opens, closes = options.get("check_in_opens"), options.get("check_in_closes")
            if opens and now < parse_datetime(opens):
                raise refuse(f"Check-in opens at {opens}.", "check_in_not_open", opens=opens)
            if closes and now > parse_datetime(closes):
                raise refuse(f"Check-in closed at {closes}.", "check_in_closed", closes=closes)
        data = {"player": pid, "at": now.isoformat()}
        if desk:
            data["by"] = pid_of(by)
        return [("player.checked_in", data)]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_confirm_entry(*, tournament, user, by=None, expected_seq, event_id=None) -> Outcome:
    """The player confirms an entry the organiser made for them: from then on they are sent the
    tournament's emails (``projection.asked_to_play``). Only the player may: an organiser who could
    confirm for them could write to anyone. Open before the start and while the tournament runs;
    once it is over there is nothing left to email, and its stream takes no new fact."""
    by = by or user

    def decide(state):
        _need_user(by)
        if by.pk != user.pk:
            raise refuse("Only the player confirms their own entry.", "not_your_entry", 403)
        pid = pid_of(user)
        current = state["players"].get(pid)
        if not current or current["status"] == PlayerStatus.WITHDRAWN:
            raise refuse("You are not entered in this tournament.", "not_registered")
        if projection.asked_to_play(current):
            raise refuse("Your entry is already your own: nothing to confirm.", "already_confirmed")
        if progress(state)["finished"]:
            raise refuse("The tournament is over.", "tournament_finished")
        return [("player.entry_confirmed", {"player": pid})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_check_in_undo(*, tournament, user, by, reason: str = "", expected_seq, event_id=None) -> Outcome:
    """The organiser takes back a check-in made by mistake (the wrong name ticked at the
    desk, a player who has left), before the start. The check-in stays in the stream;
    the undo is a fact of its own, with its reason."""

    def decide(state):
        _need_organiser(state, by)
        pid = pid_of(user)
        current = state["players"].get(pid)
        if state["started"]:
            raise refuse("The tournament has started: drop the player instead.", "check_in_closed")
        if not current or current["status"] != PlayerStatus.REGISTERED or not current["checked_in"]:
            raise refuse(f"{user.get_username()} is not checked in.", "not_checked_in")
        return [("player.check_in_undone", {"player": pid, "by": pid_of(by), "reason": (reason or "")[:500]})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_seed(*, tournament, by, method: str, order: list | None = None, expected_seq, event_id=None) -> Outcome:
    def decide(state):
        _need_organiser(state, by)
        if state["started"]:
            raise refuse("Seeds are set before the start.", "already_started")
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
                raise refuse("Give the seeds in order.", "bad_seeding", 400)
            seeds = []
            for ref in order:
                pid = _pid_in(state, ref)
                if pid is None or pid not in field:
                    raise refuse(f"{ref} is not a registered player.", "bad_seeding", 400)
                seeds.append(pid)
            if sorted(seeds) != sorted(field):
                raise refuse("List every registered player exactly once.", "bad_seeding", 400)
            return [("player.seeded", {"method": "manual", "order": seeds})]
        raise refuse("Seed 'rating' or 'manual'.", "bad_seeding", 400)

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def _seeds(state, field: list[str]) -> list[str]:
    if state["seeds"]:
        seeds = [p for p in state["seeds"] if p in field]
        return seeds + [p for p in field if p not in seeds]
    if state["options"].get("seeding") == "rating":
        return sorted(field, key=lambda p: (-(state["players"][p].get("rating") or 0), field.index(p)))
    return list(field)


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
    best_of=UNSET,
    match_points=UNSET,
    points_from=UNSET,
    requested_bye_points=UNSET,
    expected_seq,
    event_id=None,
) -> Outcome:
    """Change options after creation: the tie-breaks and their order (any time: standings
    are derived on read), Swiss forbidden pairs (until the last round is paired; they
    apply to rounds paired after), the check-in window and the scoring (games a match, match
    points, where points come from, a requested bye's worth: before the start, since a
    result once recorded was played and checked under them).
    Only the options given change; they are validated as at creation."""

    def decide(state):
        _need_organiser(state, by)
        fmt = formats.of(state)
        given: dict[str, Any] = {}
        changed: dict[str, Any] = {}
        if tiebreaks is not UNSET:
            if not fmt.ranks_by_tiebreaks:
                raise refuse("Only Swiss, round-robin and group tournaments rank by tie-breaks.", "no_tiebreaks")
            if not tiebreaks:
                raise refuse("Choose at least one tie-break.", "bad_options", 400)
            given["tiebreaks"] = tiebreaks
        if forbidden_pairs is not UNSET:
            if "forbidden_pairs" not in fmt.option_keys:
                raise refuse("Forbidden pairs are for Swiss pairing.", "no_forbidden_pairs")
            if progress(state)["finished"]:
                raise refuse("The tournament is over.", "tournament_finished")
            given["forbidden_pairs"] = forbidden_pairs or []
        if check_in_opens is not UNSET or check_in_closes is not UNSET:
            if state["started"]:
                raise refuse("Check-in is over: the tournament has started.", "already_started")
            given["check_in_opens"] = (
                check_in_opens if check_in_opens is not UNSET else state["options"].get("check_in_opens")
            )
            given["check_in_closes"] = (
                check_in_closes if check_in_closes is not UNSET else state["options"].get("check_in_closes")
            )
        scoring = {
            key: value
            for key, value in (
                ("best_of", best_of),
                ("match_points", match_points),
                ("points_from", points_from),
                ("requested_bye_points", requested_bye_points),
            )
            if value is not UNSET
        }
        if scoring:
            if state["started"]:
                raise refuse("Scoring is settled at the start: results already count under it.", "already_started")
            other = sorted(set(scoring) - set(fmt.option_keys))
            if other:
                raise refuse(f"This format has no option '{other[0]}'.", "bad_options", 400)
            # Validated with the tournament's other options: a requested bye may not end up worth
            # more than a win, nor a bye more than a win.
            # Forbidden pairs are stored as player ids, not the names they were given as: left out.
            own = {k: v for k, v in state["options"].items() if k in fmt.option_keys and k != "forbidden_pairs"}
            if "match_points" in scoring:
                # The stored bye's worth was derived from the old match points; the new ones decide it.
                own.pop("bye_score", None)
            cleaned = clean_options(fmt.name, state["game"], {**own, **scoring})
            changed.update({key: cleaned[key] for key in scoring})
            if "bye_score" in cleaned and cleaned["bye_score"] != state["options"].get("bye_score"):
                changed["bye_score"] = cleaned["bye_score"]
        if not given and not scoring:
            raise refuse("Name an option to change.", "nothing_to_change", 400)
        if given:
            cleaned = clean_options(fmt.name, state["game"], given)
            for key in given:
                changed[key] = cleaned[key]
        if "check_in_opens" in given and (cleaned["check_in_opens"] or cleaned["check_in_closes"]):
            changed["check_in_required"] = True
        for a, b in changed.get("forbidden_pairs", []):
            if a == b:
                raise refuse("A player cannot be kept from playing themselves.", "bad_options", 400)
        if all(state["options"].get(k) == v for k, v in changed.items()):
            raise refuse("Those are already the tournament's options.", "nothing_to_change")
        return [("options.changed", {"options": changed})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


DRAFT_GAME_FOR_TOURNAMENT = "wizard-dodgeball"


def tournament_draft_open(
    *, tournament, by, order: str = "snake", clock_seconds: int = 60, expected_seq, event_id=None
) -> Outcome:
    """Open the IWDL tournament draft for a Wizard Dodgeball tournament of four coaches:
    each drafts six wizards (``order`` snake or straight, seats in seed order). Its teams
    then meet in the tournament's pairings: every pairing's platform match is set up
    from the two coaches' drafted teams."""
    from league.drafts.services import draft_create

    def decide(state):
        _need_organiser(state, by)
        if state["game"] != DRAFT_GAME_FOR_TOURNAMENT:
            raise refuse("Only Wizard Dodgeball tournaments start with the IWDL draft.", "not_iwdl")
        if state.get("draft"):
            raise refuse(
                "This tournament's draft is already open.", "draft_exists", draft_id=state["draft"]["draft_id"]
            )
        if state["started"]:
            raise refuse("The tournament has started: the draft comes first.", "already_started")
        if order not in ("snake", "straight"):
            raise refuse("The pick order is 'snake' or 'straight'.", "bad_options", 400)
        registered = _registered(state)
        if state["options"].get("check_in_required"):
            registered = [p for p in registered if state["players"][p]["checked_in"]]
        if len(registered) != 4:
            raise refuse(
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
