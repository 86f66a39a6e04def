"""The tournament state's vocabulary, typed: statuses as string enums and the shapes of the
folded state as typed dicts.

The enums are ``StrEnum``: each member *is* its string, so the fold's output, the cached
JSON on the row and every stored event stay exactly what they were (an old stream replays to
the same bytes), while the code names a status instead of spelling it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NotRequired, TypedDict


class TournamentStatus(StrEnum):
    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"


class PlayerStatus(StrEnum):
    REGISTERED = "registered"
    WAITLISTED = "waitlisted"
    WITHDRAWN = "withdrawn"
    ACTIVE = "active"
    NOT_CHECKED_IN = "not_checked_in"  # registered, but the start came before their check-in
    DROPPED = "dropped"


#: Players who took part after the start (a dropped player keeps their results).
ENTERED = (PlayerStatus.ACTIVE, PlayerStatus.DROPPED)


class PairingStatus(StrEnum):
    WAITING = "waiting"  # a bracket match whose players are not both known
    PENDING = "pending"
    REPORTED = "reported"
    DISPUTED = "disputed"
    FINAL = "final"
    NOT_NEEDED = "not_needed"  # a bracket match the results made unnecessary (a grand-final reset)


#: A pairing still waiting for its result.
OPEN = (PairingStatus.PENDING, PairingStatus.REPORTED, PairingStatus.DISPUTED)
#: A pairing nothing more will happen to (unless corrected).
SETTLED = (PairingStatus.FINAL, PairingStatus.NOT_NEEDED)


class ResultSource(StrEnum):
    """Where a final result came from."""

    BYE = "bye"
    DROP = "drop"  # forfeited because a player had dropped
    PLAYERS = "players"  # reported and confirmed
    RULING = "ruling"
    CORRECTION = "correction"
    NO_SHOW = "no_show"
    MATCH = "match"  # a verified platform match
    REQUESTED_BYE = "requested_bye"  # a round the player asked to sit out


class RoundKind(StrEnum):
    ROUND = "round"  # paired round by round
    BRACKET = "bracket"  # a bracket's matches, appearing as their players are known


class PlayerState(TypedDict, total=False):
    id: str
    name: str
    status: PlayerStatus
    checked_in: bool
    checked_in_by: str
    entered_by: str  # who entered the player, when not the player (the organiser): see asked_to_play
    entry_confirmed: bool  # the player confirmed that entry themselves
    rating: float | None
    club: str | None
    joined_round: int
    dropped_after: int | None
    readmitted_round: int  # brought back after a drop: plays again from this round


class PairingRecord(TypedDict):
    id: str
    round: int
    board: int
    players: list[str | None]
    status: PairingStatus
    reports: dict[str, dict[str, Any]]
    result: dict[str, Any] | None
    source: ResultSource | None
    match_id: str | None
    history: list[dict[str, Any]]
    group: int | None
    bracket_match: str | None


class RoundRecord(TypedDict):
    number: int
    pairings: list[str]
    kind: RoundKind
    method: str | None


class TournamentState(TypedDict):
    seq: int
    id: str | None
    name: str
    game: str
    format: str
    options: dict[str, Any]
    organiser: int | None
    started: bool
    players: dict[str, PlayerState]
    entry_order: list[str]
    waitlist: list[str]
    seeds: list[str] | None
    seeding: str | None
    rounds: list[RoundRecord]
    pairings: dict[str, PairingRecord]
    bracket: dict[str, Any] | None
    groups: list[list[str]] | None
    schedule: list[list[dict[str, Any]]] | None
    draft: dict[str, Any] | None
    log: list[dict[str, Any]]
    stage: NotRequired[dict[str, Any]]  # the stage a cut fed (stage.advanced), once paired
    timer: NotRequired[dict[str, Any]]  # the round timer (timer.py), once started
    edits: NotRequired[list[dict[str, Any]]]  # the organiser's pairing edits (services/edits.py), once made
    requested_byes: NotRequired[dict[str, list[str]]]  # round number -> players who asked to sit it out
