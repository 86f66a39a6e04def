"""Tournament commands from the start on: starting (the format fixes what the start decides),
pairing the next round (the format pairs it), drops and late entries."""

from __future__ import annotations

import copy

from .. import projection
from ..access import pid_of
from ..errors import refuse
from ..formats import registry as formats
from ..standings import progress
from ..states import ENTERED, PlayerStatus
from .commands import Outcome, _acting_for, _need_organiser, _registered, _run
from .registration import _rating_of, _seeds

# --------------------------------------------------------------------------------------
# Starting and pairing


def tournament_start(*, tournament, by, expected_seq, event_id=None) -> Outcome:
    def decide(state):
        _need_organiser(state, by)
        if state["started"]:
            raise refuse("The tournament has already started.", "already_started")
        registered = _registered(state)
        if state["options"].get("check_in_required"):
            field = [p for p in registered if state["players"][p]["checked_in"]]
        else:
            field = registered
        fmt = formats.of(state)
        minimum = fmt.minimum_players(state["options"])
        if len(field) < minimum:
            raise refuse(f"At least {minimum} players are needed to start ({len(field)} ready).", "too_few_players")
        draft = state.get("draft")
        if draft and sorted(field) != sorted(draft["seats"]):
            raise refuse("The players ready to start are not the draft's four coaches.", "draft_field_changed")
        seeds = _seeds(state, field)
        started = {"field": field, "seeds": seeds, "not_checked_in": [p for p in registered if p not in field]}
        started.update(fmt.start(state, seeds))
        after = copy.deepcopy(state)
        projection.apply(after, {"seq": state["seq"] + 1, "type": "tournament.started", "data": started})
        return [("tournament.started", started), ("round.paired", fmt.next_round(after, len(after["rounds"]) + 1))]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_pair_next(*, tournament, by, expected_seq, event_id=None) -> Outcome:
    def decide(state):
        _need_organiser(state, by)
        if not state["started"]:
            raise refuse("Start the tournament first.", "not_started")
        if state["bracket"] is not None:
            raise refuse("The bracket moves on by itself as results come in.", "bracket_advances_itself")
        info = progress(state)
        if info["finished"]:
            raise refuse("Every round has been played.", "tournament_finished")
        if not info["round_complete"]:
            raise refuse(
                f"Round {info['round']} still has {len(info['open_pairings'])} open pairing(s).",
                "round_not_complete",
                open_pairings=info["open_pairings"],
            )
        if info["reopened_pairings"]:
            # A result retracted after its round was over (its match found disputed): the
            # next round would be paired on standings missing it (RULES.md).
            raise refuse(
                info["reopened_words"],
                "earlier_result_open",
                open_pairings=info["reopened_pairings"],
            )
        return formats.of(state).pair(state)

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


# --------------------------------------------------------------------------------------
# Drops and late joins


def tournament_drop(*, tournament, user, by=None, expected_seq, event_id=None) -> Outcome:
    by = by or user

    def decide(state):
        _acting_for(state, user, by)
        pid = pid_of(user)
        current = state["players"].get(pid)
        if not state["started"]:
            raise refuse("The tournament has not started: withdraw instead.", "not_started")
        if not current or current["status"] != PlayerStatus.ACTIVE:
            raise refuse(f"{user.get_username()} is not playing in this tournament.", "not_playing")
        if progress(state)["finished"]:
            raise refuse("The tournament is over.", "tournament_finished")
        return [("player.dropped", {"player": pid, "after_round": len(state["rounds"])})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_join_late(*, tournament, user, by=None, club: str | None = None, expected_seq, event_id=None) -> Outcome:
    by = by or user

    def decide(state):
        _acting_for(state, user, by)
        if not formats.of(state).late_entry or state.get("stage"):
            raise refuse(
                "Only Swiss and pod tournaments take late entries; a bracket or schedule is fixed.",
                "late_join_not_allowed",
            )
        if not state["started"]:
            raise refuse("The tournament has not started: register instead.", "not_started")
        if progress(state)["finished"]:
            raise refuse("The tournament is over.", "tournament_finished")
        pid = pid_of(user)
        current = state["players"].get(pid)
        if current and current["status"] in ENTERED:
            raise refuse(f"{user.get_username()} is already in this tournament.", "already_registered")
        cap = state["options"].get("cap")
        active = sum(1 for p in state["players"].values() if p["status"] in ENTERED)
        if cap is not None and active >= cap:
            raise refuse("The tournament is full.", "tournament_full")
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
