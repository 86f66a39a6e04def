"""The organiser's round timer: start, pause, resume, extend (commands).

Each is one fact appended through the tournament's command runner (``services._run``:
``expected_seq``, ``event_id``, organiser only, refusals with stable codes, nothing written on
a refusal). The server's time goes into the event as ``at``; the fold (timer.py) never reads
the clock. The timer belongs to the current round: starting it again for that round is
refused (a bracket's next wave of matches gets a new clock: a bracket is one round); a new
round's timer starts when the organiser starts it.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from .services import Outcome, _need_organiser, _refuse, _run
from .standings import progress
from .timer import DEFAULT_MINUTES, MAX_MINUTES


def _minutes(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_MINUTES:
        raise _refuse(f"The {what} is a whole number of minutes from 1 to {MAX_MINUTES}.", "bad_minutes", 400)
    return value


def _current_round(state) -> int:
    if not state["started"] or not state["rounds"]:
        raise _refuse("The round timer runs once the tournament has started.", "not_started")
    if progress(state)["finished"]:
        raise _refuse("The tournament is over.", "tournament_finished")
    return len(state["rounds"])


def _current_timer(state) -> dict:
    number = _current_round(state)
    timer = state.get("timer")
    if not timer or timer["round"] != number:
        raise _refuse(f"Round {number}'s timer has not been started.", "timer_not_started")
    return timer


def _now(now: datetime | None) -> str:
    return (now or timezone.now()).isoformat()


def tournament_timer_start(
    *, tournament, by, minutes: int | None = None, now: datetime | None = None, expected_seq, event_id=None
) -> Outcome:
    """Start the current round's clock: ``minutes`` or the tournament's ``round_minutes``."""

    def decide(state):
        _need_organiser(state, by)
        number = _current_round(state)
        timer = state.get("timer")
        # A bracket is one round whose matches become ready wave by wave: each wave gets a new
        # clock. A round of pairings played at once has one clock, paused or extended as needed.
        if timer and timer["round"] == number and state["rounds"][-1]["kind"] != "bracket":
            raise _refuse(f"Round {number}'s timer is already running; pause or extend it.", "timer_already_started")
        chosen = minutes if minutes is not None else state["options"].get("round_minutes", DEFAULT_MINUTES)
        seconds = _minutes(chosen, "round's length") * 60
        return [("round.timer_started", {"round": number, "seconds": seconds, "at": _now(now)})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_timer_pause(*, tournament, by, now: datetime | None = None, expected_seq, event_id=None) -> Outcome:
    def decide(state):
        _need_organiser(state, by)
        timer = _current_timer(state)
        if timer["paused"]:
            raise _refuse("The round timer is already paused.", "timer_paused")
        return [("round.timer_paused", {"round": timer["round"], "at": _now(now)})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_timer_resume(*, tournament, by, now: datetime | None = None, expected_seq, event_id=None) -> Outcome:
    def decide(state):
        _need_organiser(state, by)
        timer = _current_timer(state)
        if not timer["paused"]:
            raise _refuse("The round timer is running, not paused.", "timer_not_paused")
        return [("round.timer_resumed", {"round": timer["round"], "at": _now(now)})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_timer_extend(
    *, tournament, by, minutes, now: datetime | None = None, expected_seq, event_id=None
) -> Outcome:
    """Give the round more time (running or paused): the deadline moves by ``minutes``."""

    def decide(state):
        _need_organiser(state, by)
        timer = _current_timer(state)
        seconds = _minutes(minutes, "extension") * 60
        return [("round.timer_extended", {"round": timer["round"], "seconds": seconds, "at": _now(now)})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)
