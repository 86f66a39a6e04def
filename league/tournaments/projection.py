"""A tournament's state as a pure fold over its stream's events.

``fold(events)`` replays a list of ``{"seq", "type", "data", "actor"}`` dicts and returns
plain JSON (dicts, lists, strings, ints, bools), so the cached copy on the Tournament row
equals a fresh replay byte for byte and can be dropped and rebuilt at any time. Nothing
here reads the database or the clock: the services decide (pairings, seeds, time windows)
and record the decision in an event; the fold only applies it.

Derived, not stored: standings, places and exports (see ``standings.py``), computed from
this state on read.

Players are identified by ``pid`` = the user's primary key as a string (JSON object keys
are strings, so any other type would not survive the round trip).

Results of a two-player pairing, always in terms of player ids:
``{"winner": pid}`` (``"forfeit": true`` when not played), ``{"draw": true}``,
``{"double_forfeit": true}``, ``{"bye": true}``; of a pod: ``{"finish": [[pid, ...], ...]}``
(places best first; players tied on a place share it).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from . import brackets, timer
from .states import OPEN, PairingStatus, PlayerStatus, ResultSource, RoundKind


def event_dict(event) -> dict[str, Any]:
    """A stored event (``matches.models.Event``) as the fold takes it."""
    return {"seq": event.seq, "type": event.type, "data": event.data, "actor": event.actor}


def initial() -> dict[str, Any]:
    return {
        "seq": 0,
        "id": None,
        "name": "",
        "game": "",
        "format": "",
        "options": {},
        "organiser": None,
        "started": False,
        "players": {},
        "entry_order": [],
        "waitlist": [],
        "seeds": None,
        "seeding": None,
        "rounds": [],
        "pairings": {},
        "bracket": None,
        "groups": None,
        "schedule": None,
        "draft": None,
        "log": [],
    }


def fold(events: Iterable[dict[str, Any]], state: dict[str, Any] | None = None) -> dict[str, Any]:
    state = copy.deepcopy(state) if state is not None else initial()
    for event in events:
        apply(state, event)
    return state


def apply(state: dict[str, Any], event: dict[str, Any]) -> None:
    """Apply one event in place (callers fold over a copy)."""
    handler = _HANDLERS.get(event["type"])
    if handler is None:
        raise ValueError(f"Unknown tournament event {event['type']!r}")
    handler(state, event["data"], event)
    state["seq"] = event["seq"]
    if state["bracket"] is not None:
        _sync_bracket(state)
    state["log"].append({"seq": event["seq"], "type": event["type"], "actor": event.get("actor", "")})


# --------------------------------------------------------------------------------------
# Registration


def _created(state, data, event):
    state.update(
        id=data["id"],
        name=data["name"],
        game=data["game"],
        format=data["format"],
        options=data["options"],
        organiser=data["organiser"],
    )


def _player(pid: str, data: dict, status: str) -> dict:
    return {
        "id": pid,
        "name": data.get("name", pid),
        "status": status,
        "checked_in": False,
        "rating": data.get("rating"),
        "club": data.get("club"),
        "joined_round": 1,
        "dropped_after": None,
    }


def _entered(player: dict, event: dict) -> dict:
    """Note who entered the player when it was someone else (the organiser at the desk): such an
    entry is not the player's own asking until they confirm it (``asked_to_play``). Only then is the
    key set, so a stream whose players all registered themselves folds to the state it always did."""
    actor = event.get("actor") or ""
    if actor and actor != f"user:{player['id']}":
        player["entered_by"] = actor.removeprefix("user:")
    return player


def asked_to_play(player: dict) -> bool:
    """Whether the player asked to be in the tournament themselves: they entered themselves, or
    confirmed the organiser's entry (``player.entry_confirmed``: confirm-entry, or a result command of
    their own, services/results.py; or checking in themselves). Only such players are sent the
    tournament's emails (reach/followups.py)."""
    return "entered_by" not in player or bool(player.get("entry_confirmed"))


def _registered(state, data, event):
    pid = data["player"]
    existing = state["players"].get(pid)
    # A new entry: whoever makes it decides whether it is the player's own (a player who withdrew
    # and is entered again by the organiser has not asked for this entry).
    player = _entered(_player(pid, data, PlayerStatus.REGISTERED), event)
    if existing:  # re-registering after a withdrawal
        player["checked_in"] = False
    state["players"][pid] = player
    if pid not in state["entry_order"]:
        state["entry_order"].append(pid)


def _waitlisted(state, data, event):
    pid = data["player"]
    state["players"][pid] = _entered(_player(pid, data, PlayerStatus.WAITLISTED), event)
    state["waitlist"].append(pid)


def _promoted(state, data, event):
    pid = data["player"]
    state["players"][pid]["status"] = PlayerStatus.REGISTERED
    state["waitlist"].remove(pid)
    if pid not in state["entry_order"]:
        state["entry_order"].append(pid)


def _withdrew(state, data, event):
    pid = data["player"]
    player = state["players"][pid]
    if player["status"] == PlayerStatus.WAITLISTED:
        state["waitlist"].remove(pid)
    elif pid in state["entry_order"]:
        state["entry_order"].remove(pid)
    player["status"] = PlayerStatus.WITHDRAWN
    player["checked_in"] = False


def _checked_in(state, data, event):
    player = state["players"][data["player"]]
    player["checked_in"] = True
    if data.get("by"):
        # Checked in at the desk by the organiser (the player's own check-in names nobody).
        player["checked_in_by"] = data["by"]
    elif "entered_by" in player and event.get("actor") == f"user:{data['player']}":
        # Checking in oneself is asking to play: it confirms the organiser's entry.
        player["entry_confirmed"] = True


def _entry_confirmed(state, data, event):
    # The player confirmed the organiser's entry themselves (the service refuses anyone else).
    state["players"][data["player"]]["entry_confirmed"] = True


def _check_in_undone(state, data, event):
    player = state["players"][data["player"]]
    player["checked_in"] = False
    player.pop("checked_in_by", None)


def _seeded(state, data, event):
    state["seeds"] = list(data["order"])
    state["seeding"] = data["method"]


def _stage_advanced(state, data, event):
    # The stage a cut feeds: who qualified, how they were seeded, into what. Set only when it
    # happens (a stream without a cut folds to exactly the state it always did).
    state["stage"] = {k: data[k] for k in ("stage", "from", "format", "cut", "seeding", "qualified", "seeds")}


def _options_changed(state, data, event):
    # The service validated the new values; later pairings and standings read them.
    state["options"].update(data["options"])


def _draft_opened(state, data, event):
    # ``draft_id`` is the draft's match id (its room is /drafts/<draft_id>/); ``seats``
    # lists the coaches' player ids in draft seat order.
    state["draft"] = {"draft_id": data["draft_id"], "seats": list(data["seats"])}


def _started(state, data, event):
    state["started"] = True
    for pid in data["field"]:
        state["players"][pid]["status"] = PlayerStatus.ACTIVE
    for pid in data.get("not_checked_in", []):
        state["players"][pid]["status"] = PlayerStatus.NOT_CHECKED_IN
    state["seeds"] = list(data["seeds"])
    state["entry_order"] = [p for p in state["entry_order"] if p in set(data["field"])]
    if data.get("groups"):
        state["groups"] = data["groups"]
    if data.get("schedule"):
        state["schedule"] = data["schedule"]


def _dropped(state, data, event):
    player = state["players"][data["player"]]
    player["status"] = PlayerStatus.DROPPED
    player["dropped_after"] = len(state["rounds"])
    # Pairings of later rounds already published stand; open round-based pairings of a
    # dropped player are the organiser's to rule (no-show). Bracket matches are forfeited
    # by ``_sync_bracket``.


def _joined_late(state, data, event):
    pid = data["player"]
    player = _entered(_player(pid, data, PlayerStatus.ACTIVE), event)
    player["joined_round"] = data["round"]
    state["players"][pid] = player
    if pid not in state["entry_order"]:
        state["entry_order"].append(pid)


# --------------------------------------------------------------------------------------
# Rounds and results


def _pairing(pid: str, rnd: int, board: int, players: list, **extra) -> dict:
    record = {
        "id": pid,
        "round": rnd,
        "board": board,
        "players": list(players),
        "status": PairingStatus.PENDING,
        "reports": {},
        "result": None,
        "source": None,
        "match_id": None,
        "history": [],
        "group": None,
        "bracket_match": None,
    }
    record.update(extra)
    return record


def _round_paired(state, data, event):
    number = data["round"]
    ids = []
    if "bracket" in data:
        # An elimination bracket (or the playoff after groups): its matches become
        # pairings as their players become known (see ``_sync_bracket``).
        state["bracket"] = {**data["bracket"], "seeds": list(data["seeds"]), "round": number}
    for p in data.get("pairings", []):
        record = _pairing(p["id"], number, p["board"], p["players"], group=p.get("group"))
        if p.get("bye"):
            record.update(status=PairingStatus.FINAL, result={"bye": True}, source=ResultSource.BYE)
        elif p.get("auto"):
            # A scheduled game of a player who had already dropped: forfeited at pairing.
            record.update(status=PairingStatus.FINAL, result=p["auto"], source=ResultSource.DROP)
        state["pairings"][p["id"]] = record
        ids.append(p["id"])
    state["rounds"].append(
        {
            "number": number,
            "pairings": ids,
            "kind": RoundKind.BRACKET if "bracket" in data else RoundKind.ROUND,
            "method": data.get("method"),
        }
    )


def _history(record, event, kind, **extra):
    record["history"].append({"seq": event["seq"], "event": kind, "actor": event.get("actor", ""), **extra})


def _reported(state, data, event):
    record = state["pairings"][data["pairing"]]
    record["reports"][data["by"]] = data["result"]
    record["status"] = PairingStatus.REPORTED
    _history(record, event, "reported", by=data["by"], result=data["result"])


def _finalise(record, result, source):
    record.update(result=result, source=source, status=PairingStatus.FINAL)


def _confirmed(state, data, event):
    record = state["pairings"][data["pairing"]]
    _finalise(record, data["result"], ResultSource.PLAYERS)
    _history(record, event, "confirmed", by=data["by"], result=data["result"])


def _disputed(state, data, event):
    record = state["pairings"][data["pairing"]]
    if data.get("result") is not None:
        record["reports"][data["by"]] = data["result"]
    record["status"] = PairingStatus.DISPUTED
    _history(record, event, "disputed", by=data["by"], reason=data.get("reason", ""))


def _ruled(state, data, event):
    record = state["pairings"][data["pairing"]]
    _finalise(record, data["result"], ResultSource.RULING)
    _history(record, event, "ruled", result=data["result"], reason=data.get("reason", ""))


def _corrected(state, data, event):
    record = state["pairings"][data["pairing"]]
    _history(record, event, "corrected", before=record["result"], result=data["result"], reason=data.get("reason", ""))
    _finalise(record, data["result"], ResultSource.CORRECTION)


def _no_show(state, data, event):
    record = state["pairings"][data["pairing"]]
    _finalise(record, data["result"], ResultSource.NO_SHOW)
    _history(record, event, "no_show", absent=data["absent"], result=data["result"])


def _match_created(state, data, event):
    record = state["pairings"][data["pairing"]]
    record["match_id"] = data["match_id"]
    _history(record, event, "match_created", match_id=data["match_id"])


def _verified(state, data, event):
    record = state["pairings"][data["pairing"]]
    _finalise(record, data["result"], ResultSource.MATCH)
    _history(record, event, "verified", match_id=data["match_id"], result=data["result"])


def _match_disputed(state, data, event):
    record = state["pairings"][data["pairing"]]
    record["status"] = PairingStatus.DISPUTED
    if "retracted" in data:
        # A result recorded before its match was found disputed no longer stands anywhere:
        # not in the standings, not in the bracket, not on the page.
        record["result"] = None
        record["source"] = None
    _history(record, event, "match_disputed", match_id=data["match_id"], reason=data.get("reason", ""))


# --------------------------------------------------------------------------------------
# Elimination brackets: pairings follow brackets.resolve


def bracket_of(state) -> brackets.Bracket:
    return brackets.from_shape(state["bracket"])


def bracket_results(state) -> dict[str, tuple[str, str]]:
    results = {}
    for m in bracket_of(state).matches:
        record = state["pairings"].get(m.id)
        if record and record["status"] == PairingStatus.FINAL and record["result"].get("winner"):
            winner = record["result"]["winner"]
            loser = next(p for p in record["players"] if p != winner)
            results[m.id] = (winner, loser)
    return results


def bracket_state(state) -> dict[str, brackets.MatchState]:
    return brackets.resolve(bracket_of(state), state["bracket"]["seeds"], bracket_results(state))


def _sync_bracket(state) -> None:
    """Make the pairing records agree with the bracket after any change.

    A record whose players changed (a corrected result upstream) loses its result and
    reports (kept in its history as voided) and waits for a new result from its new
    players. A ready match with a dropped player is forfeited to the other one.
    """
    bracket = bracket_of(state)
    number = state["bracket"]["round"]
    for _ in range(len(bracket.matches) + 2):
        resolved = brackets.resolve(bracket, state["bracket"]["seeds"], bracket_results(state))
        changed = False
        for board, m in enumerate(bracket.matches, start=1):
            s = resolved[m.id]
            players = list(s.players)
            record = state["pairings"].get(m.id)
            if record is None:
                if None in players or s.status == "not_needed":
                    continue
                record = _pairing(m.id, number, board, players, bracket_match=m.id)
                state["pairings"][m.id] = record
                state["rounds"][-1]["pairings"].append(m.id)
                changed = True
            if s.status == "not_needed":
                if record["status"] != PairingStatus.NOT_NEEDED:
                    if record["result"] is not None:
                        record["history"].append({"seq": state["seq"], "event": "voided", "result": record["result"]})
                    record.update(status=PairingStatus.NOT_NEEDED, result=None, reports={}, source=None)
                    changed = True
                continue
            if record["players"] != players or record["status"] == PairingStatus.NOT_NEEDED:
                if record["result"] is not None or record["reports"]:
                    record["history"].append(
                        {
                            "seq": state["seq"],
                            "event": "voided",
                            "players": record["players"],
                            "result": record["result"],
                        }
                    )
                record.update(
                    players=players,
                    result=None,
                    reports={},
                    source=None,
                    match_id=None,
                    status=PairingStatus.WAITING if None in players else PairingStatus.PENDING,
                )
                changed = True
            if record["status"] in OPEN and None not in players:
                dropped = [p for p in players if state["players"][p]["status"] == PlayerStatus.DROPPED]
                if dropped:
                    stays = [p for p in players if p not in dropped]
                    winner = stays[0] if stays else players[0]
                    _finalise(record, {"winner": winner, "forfeit": True}, ResultSource.DROP)
                    changed = True
        if not changed:
            return


# --------------------------------------------------------------------------------------
# The organiser's day: edited pairings, readmitted players, requested byes (services/edits.py)


def requested_byes(state, number: int) -> list[str]:
    """Players who asked for round ``number`` off, in the order they asked (still active)."""
    asked = state.get("requested_byes", {}).get(str(number), [])
    return [p for p in asked if state["players"][p]["status"] == PlayerStatus.ACTIVE]


def _round_paired_with_requested_byes(state, data, event):
    _round_paired(state, data, event)
    rnd = state["rounds"][-1]
    if rnd["kind"] != RoundKind.ROUND:
        return
    # A requested bye is a pairing of its own: the player sits the round out and scores the
    # tournament's requested-bye points (an unplayed round for the tie-breaks). The format left
    # them out of the pairing; anyone it paired after all plays.
    seated = {p for key in rnd["pairings"] for p in state["pairings"][key]["players"]}
    board = max((state["pairings"][key]["board"] for key in rnd["pairings"]), default=0)
    for pid in requested_byes(state, rnd["number"]):
        if pid in seated:
            continue
        board += 1
        key = f"r{rnd['number']}-rb{board}"
        record = _pairing(key, rnd["number"], board, [pid])
        record.update(
            status=PairingStatus.FINAL, result={"bye": True, "requested": True}, source=ResultSource.REQUESTED_BYE
        )
        state["pairings"][key] = record
        rnd["pairings"].append(key)


def _edit_line(state, event, kind: str, rnd: int, reason: str, **extra) -> None:
    # What the organiser changed in a round and why, for everyone reading the page.
    state.setdefault("edits", []).append(
        {"seq": event["seq"], "round": rnd, "event": kind, "actor": event.get("actor", ""), "reason": reason, **extra}
    )


def _exchange(state, event, kind, first: tuple[str, str], second: tuple[str, str], reason: str) -> None:
    """Two players change places: each takes the other's seat in the other's pairing."""
    (a, pa), (b, pb) = first, second
    ra, rb = state["pairings"][pa], state["pairings"][pb]
    ra["players"] = [b if p == a else p for p in ra["players"]]
    rb["players"] = [a if p == b else p for p in rb["players"]]
    _history(ra, event, kind, out=a, into=b, reason=reason)
    _history(rb, event, kind, out=b, into=a, reason=reason)


def _pairing_swapped(state, data, event):
    (a, pa), (b, pb) = data["swap"]
    _exchange(state, event, "swapped", (a, pa), (b, pb), data["reason"])
    _edit_line(state, event, "swapped", data["round"], data["reason"], players=[a, b])


def _pairing_bye_set(state, data, event):
    # The player takes the round's bye; whoever held it takes the player's place.
    player, holder = data["player"], data["holder"]
    _exchange(state, event, "bye_set", (player, data["pairing"]), (holder, data["bye_pairing"]), data["reason"])
    _edit_line(state, event, "bye_set", data["round"], data["reason"], players=[player, holder])


def _round_unpaired(state, data, event):
    rnd = state["rounds"].pop()
    for key in rnd["pairings"]:
        del state["pairings"][key]
    _edit_line(state, event, "unpaired", data["round"], data["reason"])


def _readmitted(state, data, event):
    player = state["players"][data["player"]]
    player["status"] = PlayerStatus.ACTIVE
    player["dropped_after"] = None
    player["readmitted_round"] = data["round"]


def _bye_requested(state, data, event):
    state.setdefault("requested_byes", {}).setdefault(str(data["round"]), []).append(data["player"])


_HANDLERS = {
    "tournament.created": _created,
    "player.registered": _registered,
    "player.waitlisted": _waitlisted,
    "player.promoted": _promoted,
    "player.withdrew": _withdrew,
    "player.checked_in": _checked_in,
    "player.check_in_undone": _check_in_undone,
    "player.entry_confirmed": _entry_confirmed,
    "player.seeded": _seeded,
    "tournament.started": _started,
    "options.changed": _options_changed,
    "draft.opened": _draft_opened,
    "player.dropped": _dropped,
    "player.joined_late": _joined_late,
    "round.paired": _round_paired_with_requested_byes,  # a requested bye becomes a pairing of its own
    "stage.advanced": _stage_advanced,
    "result.reported": _reported,
    "result.confirmed": _confirmed,
    "result.disputed": _disputed,
    "result.ruled": _ruled,
    "result.corrected": _corrected,
    "match.no_show": _no_show,
    "match.created": _match_created,
    "result.verified": _verified,
    "result.match_disputed": _match_disputed,
    **timer.HANDLERS,  # the organiser's round timer (timer.py)
    # The organiser's edits of a round's pairings, readmissions and requested byes.
    "pairing.swapped": _pairing_swapped,
    "pairing.bye_set": _pairing_bye_set,
    "round.unpaired": _round_unpaired,
    "player.readmitted": _readmitted,
    "bye.requested": _bye_requested,
}

EVENT_TYPES = tuple(_HANDLERS)
