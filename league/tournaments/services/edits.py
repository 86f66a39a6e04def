"""The organiser's day: editing the current round's pairings before its results, bringing a
dropped player back, and byes a player asks for in advance.

Each command appends one fact (a re-pair two: ``round.unpaired`` then the format's own
``round.paired``) and carries the organiser's reason, which the page shows to everyone.
Only rounds paired round by round are edited: an elimination bracket and a round robin's
schedule are fixed at the start, so an edit there is refused and says so.

A requested bye (Swiss and pods): the player is left out of that round's pairing and takes
the tournament's ``requested_bye_points`` (default 0); the tie-breaks count the round as
unplayed, as FIDE's do. It is never the pairing's own bye, so the Swiss may still give one
later. A player holds at most ``MAX_REQUESTED_BYES`` of them in one tournament.
"""

from __future__ import annotations

from .. import projection
from ..errors import refuse
from ..formats import registry as formats
from ..standings import progress
from ..states import PairingStatus, PlayerStatus, ResultSource, RoundKind
from .commands import Outcome, _acting_for, _need_organiser, _pid_in, _run

#: Requested byes one player may hold in a tournament: enough for a weekend away, not a way
#: to sit out the event.
MAX_REQUESTED_BYES = 2


# --------------------------------------------------------------------------------------
# Shared guards


def _current_round(state, number: int) -> dict:
    """The round being edited: the newest one, paired round by round, with results to come."""
    if not state["started"] or not state["rounds"]:
        raise refuse("No round has been paired yet.", "not_started")
    current = state["rounds"][-1]
    if number != current["number"]:
        raise refuse(
            f"Only the current round (round {current['number']}) can be edited; round {number} is not it.",
            "not_current_round",
        )
    if current["kind"] == RoundKind.BRACKET or state["bracket"] is not None:
        raise refuse("An elimination bracket is fixed: its pairings cannot be edited.", "bracket_fixed")
    if state["schedule"] is not None:
        raise refuse("A round robin's schedule is fixed at the start: its pairings cannot be edited.", "schedule_fixed")
    if progress(state)["finished"]:
        raise refuse("The tournament is over.", "tournament_finished")
    return current


def _player(state, ref) -> str:
    pid = _pid_in(state, ref)
    if pid is None:
        raise refuse(f"There is no player {ref} in this tournament.", "player_not_found", 404)
    return pid


def _pairing_of(state, current: dict, pid: str) -> dict:
    for key in current["pairings"]:
        record = state["pairings"][key]
        if pid in record["players"]:
            return record
    name = state["players"][pid]["name"]
    raise refuse(f"{name} is not paired in round {current['number']}.", "not_in_round")


def _untouched(state, record) -> None:
    """A pairing may change hands only while nothing has happened in it."""
    names = " v ".join(state["players"][p]["name"] for p in record["players"])
    if record["source"] == ResultSource.REQUESTED_BYE:
        raise refuse(f"{names} asked for this round off; that bye is not the organiser's to move.", "requested_bye")
    if record["match_id"]:
        raise refuse(f"A platform match was already created for {names}.", "match_created")
    if record["reports"] or record["result"] is not None or record["status"] != PairingStatus.PENDING:
        raise refuse(f"A result is already recorded for {names}.", "result_recorded")


def _is_round_bye(record) -> bool:
    return len(record["players"]) == 1 and record["source"] == ResultSource.BYE


def _reason(reason: str) -> str:
    reason = (reason or "").strip()[:500]
    if not reason:
        raise refuse("Say why: the reason is shown to every player.", "reason_required", 400)
    return reason


# --------------------------------------------------------------------------------------
# Editing the current round


def tournament_pairing_swap(
    *, tournament, by, round: int, players: list, reason: str, expected_seq, event_id=None
) -> Outcome:
    """Two players of different pairings of the current round change places (the first
    takes the second's seat and the reverse). Swiss and pods."""

    def decide(state):
        _need_organiser(state, by)
        current = _current_round(state, round)
        if len(players) != 2:
            raise refuse("Name the two players who change places.", "two_players", 400)
        a, b = (_player(state, ref) for ref in players)
        if a == b:
            raise refuse("A player cannot be swapped with themselves.", "same_player", 400)
        ra, rb = _pairing_of(state, current, a), _pairing_of(state, current, b)
        if ra["id"] == rb["id"]:
            raise refuse("Both players are in the same pairing; nothing would change.", "same_pairing")
        for record in (ra, rb):
            if _is_round_bye(record):
                raise refuse("To move the round's bye, give the bye to a player instead.", "use_set_bye")
            _untouched(state, record)
        data = {"round": current["number"], "swap": [[a, ra["id"]], [b, rb["id"]]], "reason": _reason(reason)}
        return [("pairing.swapped", data)]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_bye_set(*, tournament, by, round: int, player, reason: str, expected_seq, event_id=None) -> Outcome:
    """Give a player the current round's bye: whoever held it takes the player's place in
    their pairing. A round without a bye (an even field) has none to give: giving one would
    leave the player's opponent with nobody, so that is refused (re-pair the round instead)."""

    def decide(state):
        _need_organiser(state, by)
        current = _current_round(state, round)
        pid = _player(state, player)
        record = _pairing_of(state, current, pid)
        if _is_round_bye(record):
            raise refuse(f"{state['players'][pid]['name']} already has the bye.", "already_has_bye")
        _untouched(state, record)
        if len(record["players"]) != 2:
            raise refuse("Pods have no bye to give.", "no_bye_in_round")
        bye = next((state["pairings"][k] for k in current["pairings"] if _is_round_bye(state["pairings"][k])), None)
        if bye is None:
            raise refuse(
                f"Round {current['number']} has no bye (every player is paired): giving one would leave "
                "the opponent without a game. Swap players or re-pair the round instead.",
                "no_bye_in_round",
            )
        data = {
            "round": current["number"],
            "player": pid,
            "pairing": record["id"],
            "holder": bye["players"][0],
            "bye_pairing": bye["id"],
            "reason": _reason(reason),
        }
        return [("pairing.bye_set", data)]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_round_repair(*, tournament, by, round: int, reason: str, expected_seq, event_id=None) -> Outcome:
    """Un-pair the current round and pair it again with the format's own pairing (after a
    late check-in, a late entry or a drop). Only while nothing has happened in it."""

    def decide(state):
        _need_organiser(state, by)
        current = _current_round(state, round)
        for key in current["pairings"]:
            record = state["pairings"][key]
            if record["source"] in (ResultSource.BYE, ResultSource.REQUESTED_BYE):
                continue  # decided by the pairing itself: paired again with it
            _untouched(state, record)
        unpaired = {"round": current["number"], "reason": _reason(reason)}
        after = projection.fold([{"seq": state["seq"] + 1, "type": "round.unpaired", "data": unpaired}], state)
        return [("round.unpaired", unpaired), *formats.of(after).pair(after)]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


# --------------------------------------------------------------------------------------
# Readmitting a dropped player


def tournament_readmit(*, tournament, user, by, expected_seq, event_id=None) -> Outcome:
    """Bring a dropped player back: active again from the next round paired. Rounds missed
    count as for a late entry (Swiss: unplayed rounds worth nothing)."""

    def decide(state):
        _need_organiser(state, by)
        pid = str(user.pk)
        current = state["players"].get(pid)
        if formats.of(state).elimination or state["bracket"] is not None:
            raise refuse("An elimination bracket is fixed: a dropped player cannot come back.", "bracket_fixed")
        if not current or current["status"] != PlayerStatus.DROPPED:
            raise refuse(f"{user.get_username()} has not dropped out of this tournament.", "not_dropped")
        if progress(state)["finished"]:
            raise refuse("The tournament is over.", "tournament_finished")
        return [("player.readmitted", {"player": pid, "round": len(state["rounds"]) + 1})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


# --------------------------------------------------------------------------------------
# Requested byes


def tournament_bye_request(*, tournament, user, by=None, round: int, expected_seq, event_id=None) -> Outcome:
    """A player asks to sit out a future round (or the organiser grants it for them)."""
    by = by or user

    def decide(state):
        _acting_for(state, user, by)
        fmt = formats.of(state)
        if not fmt.late_entry or state["schedule"] is not None or state["bracket"] is not None:
            raise refuse(
                "Requested byes are for Swiss and pod tournaments, paired round by round.", "requested_bye_not_offered"
            )
        pid = str(user.pk)
        player = state["players"].get(pid)
        playing = (PlayerStatus.ACTIVE,) if state["started"] else (PlayerStatus.REGISTERED, PlayerStatus.WAITLISTED)
        if not player or player["status"] not in playing:
            raise refuse(f"{user.get_username()} is not playing in this tournament.", "not_playing")
        if progress(state)["finished"]:
            raise refuse("The tournament is over.", "tournament_finished")
        if round <= len(state["rounds"]):
            raise refuse(
                f"Round {round} is already paired; a bye is requested for a round still to come.", "round_not_future"
            )
        planned = fmt.planned_rounds(state) if state["started"] else state["options"].get("rounds")
        if round < 1 or (planned and round > planned):
            raise refuse(f"There is no round {round} to sit out.", "no_such_round", 400)
        byes = state.get("requested_byes", {})
        if pid in byes.get(str(round), []):
            raise refuse(f"{player['name']} already has a bye for round {round}.", "bye_already_requested")
        if sum(pid in asked for asked in byes.values()) >= MAX_REQUESTED_BYES:
            raise refuse(
                f"A player may ask for at most {MAX_REQUESTED_BYES} byes in one tournament.", "too_many_requested_byes"
            )
        return [("bye.requested", {"player": pid, "round": round, "by": str(by.pk)})]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)
