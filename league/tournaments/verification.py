"""The tournament verifier (registered for stream kind "tournament" in league/apps.py).

In stream order, so the first problem is the earliest bad seq: the hash chain; the creation
fact names this tournament; every fact folds (projection.apply refuses nothing it should
accept); every platform match a pairing cites is that pairing's, and every result taken from
a match equals the result the match gives, its verdict is verified, and the head hash recorded
with it (required once results carry one: see ``verify_tournament``) is the match's published
head (unless the result was retracted, or replaced by the organiser's correction, after it and
the match is disputed: see ``_check_match_result``). Then the cached projection on the
Tournament row (pairings, brackets, players) against a fresh fold.
"""

from __future__ import annotations

import copy

from matches import eventstore
from matches.models import Match, Stream
from matches.stream_verifiers import StreamVerdict

from . import projection
from .formats import registry as formats
from .models import Tournament
from .projection import event_dict
from .services import result_from_match


def _by(events, type: str, key: str) -> dict[str, list]:
    """The facts of ``type``, grouped by ``data[key]``."""
    found: dict[str, list] = {}
    for e in events:
        if e.type == type:
            found.setdefault(e.data.get(key), []).append(e)
    return found


def _replaced_later(result, retractions: dict[str, list], corrections: dict[str, list]) -> bool:
    """Does a fact after ``result`` take it back: a retraction of the same pairing, match and
    result, or an organiser's correction of the same pairing that replaced (``before``) it?"""
    d = result.data
    return any(
        e.seq > result.seq and e.data.get("pairing") == d.get("pairing") and e.data.get("retracted") == d.get("result")
        for e in retractions.get(d.get("match_id"), ())
    ) or any(
        e.seq > result.seq and e.data.get("before") == d.get("result") for e in corrections.get(d.get("pairing"), ())
    )


def _check_match_result(
    tournament_id: str, state: dict, data: dict, retracted_later: bool, head_required: bool
) -> str | None:
    match = Match.objects.filter(pk=data.get("match_id")).first()
    if match is None:
        return "The result cites a match that does not exist."
    origin = match.origin or {}
    if origin.get("tournament") != tournament_id or origin.get("pairing") != data.get("pairing"):
        return "The result cites a match that was not played for this pairing."
    record = state["pairings"].get(data.get("pairing"))
    if record is None or record["match_id"] != str(match.id):
        return "The result cites a match the pairing never started."
    if retracted_later and match.verdict == Match.Verdict.DISPUTED:
        # Found disputed, the match's published verdict, result and head are the very things in
        # doubt (the README's demo alters the published result), so they are no measure of a
        # result the stream has since retracted or replaced and no longer counts. That is all a
        # retraction (or an organiser's correction: RULES.md "A corrected result stands when its
        # match is later disputed") excuses: it must come after this result and name this pairing
        # and result (a retraction, this match too), and a match that verifies (never disputed,
        # or put right since) must still give exactly the result recorded, so neither can hide a
        # wrong result of an honest match.
        return None
    if match.verdict != Match.Verdict.VERIFIED:
        never = "" if retracted_later else ", and the result was never retracted"
        return f"The match behind this result is {match.verdict}, not verified{never}."
    if match.status != Match.Status.FINISHED or not match.result:
        return "The match behind this result has not finished."
    if "head_hash" not in data and head_required:
        return "The result records no head hash, though this tournament's results record their match's head."
    if "head_hash" in data and data["head_hash"] != match.head_hash:
        return "The head hash recorded with the result differs from the match's published head."
    if data.get("result") != result_from_match(record, match, pod=formats.of(state).reports_finish(record)):
        return "The result recorded differs from the result of the match it cites."
    return None


# --------------------------------------------------------------------------------------
# Whose hand each fact is in (docs/AUDIT.md 8.1)
#
# The services write a fact's actor as ``access.actor_of``: ``user:<pk>`` of whoever ran the
# command, or ``system`` for the platform's own facts. Who may run each command is read from the
# stream as it stood before the fact: the organiser is ``tournament.created``'s ``organiser`` (no
# fact changes it), a pairing's players are the fold's. Staff are the exception: a staff user acts
# as the organiser everywhere (``access.is_organiser``) and no fact records who is staff. Today's
# ``is_staff`` is no measure of yesterday's: a fact by a staff user demoted (or deleted) since
# would be disputed, though the platform wrote it honestly, and a forger who can rewrite the
# stream can set ``is_staff`` as easily. So where the organiser or staff may act, the hand is
# checked as far as the stream can say: a person's (``user:``), never the platform's or a bot's.
#
# Old streams: every rule below is what the services allow now, and none has ever been narrower
# in what it accepted (``git log -S`` on the guards of league/tournaments/services): the platform's
# facts were always ``system`` (839e75e, b6750ed), confirm-entry always the player's alone
# (c090832, c8cd12f), results reported, confirmed and disputed always by a pairing's player, the
# organiser's commands always the organiser's or staff's. Check-in was the player's alone until
# the desk check-in (c303ce5) let the organiser do it too: a wider rule, so older streams pass.

#: Facts only the organiser (or staff) makes.
_ORGANISERS = {
    "player.check_in_undone": "An undone check-in",
    "player.seeded": "The seeding",
    "tournament.started": "The start",
    "round.paired": "A round's pairing",
    "stage.advanced": "A cut to the next stage",
    "options.changed": "A change of options",
    "draft.opened": "The draft's opening",
    "player.readmitted": "A readmission",
    "result.ruled": "A ruling",
    "result.corrected": "A correction",
    "match.no_show": "A no-show",
    "round.timer_started": "The round timer's start",
    "round.timer_paused": "The round timer's pause",
    "round.timer_resumed": "The round timer's resumption",
    "round.timer_extended": "The round timer's extension",
    "pairing.swapped": "A swap of players",
    "pairing.bye_set": "A bye given by the organiser",
    "round.unpaired": "A round's un-pairing",
}
#: Facts about ``data["player"]`` made by that player or by the organiser for them (``_acting_for``).
_PLAYER_OR_ORGANISER = {
    "player.registered": "A registration",
    "player.waitlisted": "A place on the waiting list",
    "player.withdrew": "A withdrawal",
    "player.checked_in": "A check-in",
    "player.dropped": "A drop",
    "player.joined_late": "A late entry",
    "bye.requested": "A requested bye",
}
#: A pairing's player's own result commands (``_need_player``): ``data["by"]`` is the actor.
_PAIRING_PLAYERS = {
    "result.reported": "A result report",
    "result.confirmed": "A result confirmation",
    "result.disputed": "A dispute of a result",
}
#: The platform's own facts about a pairing's match (record, retract, hold unfinished).
_PLATFORMS = {
    "result.verified": "A result taken from a match",
    "result.match_disputed": "A match's dispute",
}
#: Facts that name who ran the command in ``data["by"]`` (the desk's check-in, an undone
#: check-in, a requested bye): that is the actor.
_NAMES_ITS_HAND = ("player.checked_in", "player.check_in_undone", "bye.requested")
#: Every fact type with a rule here (the rest below: the creation, an entry's confirmation, a
#: promotion); a fact type the fold learns without one would go unchecked.
HANDS_CHECKED = frozenset(
    {*_ORGANISERS, *_PLAYER_OR_ORGANISER, *_PAIRING_PLAYERS, *_PLATFORMS, "match.created"}
    | {"tournament.created", "player.entry_confirmed", "player.promoted"}
)


def _actor_problem(state: dict, event, previous) -> str | None:
    """Why ``event``'s actor is one the services would never write, on ``state`` (the fold of
    every fact before it; ``previous`` is the fact just before), or None."""
    kind, data, actor = event.type, event.data if isinstance(event.data, dict) else {}, event.actor or ""
    who = actor or "nobody"
    # The organiser, or a staff user: a person, as far as the stream can say (see above).
    person = actor.startswith("user:")

    def own(pid) -> bool:
        return pid is not None and actor == f"user:{pid}"

    if kind == "tournament.created":
        if not own(data.get("organiser")):
            return f"The creation names organiser {data.get('organiser')}, but is by {who}."
        return None
    if kind in _NAMES_ITS_HAND and "by" in data and not own(data["by"]):
        return f"The fact says user {data['by']} made it, but it is by {who}."
    if kind in _ORGANISERS and not person:
        return f"{_ORGANISERS[kind]} is the organiser's (or staff's) to make, but this one is by {who}."
    if kind in _PLAYER_OR_ORGANISER and not person:
        return f"{_PLAYER_OR_ORGANISER[kind]} is made by its player or the organiser, but this one is by {who}."
    if kind == "player.entry_confirmed" and not own(data.get("player")):
        # The organiser cannot confirm for the player: that confirmation is what lets the
        # tournament email them (services/registration.py tournament_confirm_entry).
        return f"An entry is confirmed only by its player ({data.get('player')}), but this one is by {who}."
    if kind == "player.promoted" and not (
        previous is not None and previous.type == "player.withdrew" and previous.actor == event.actor
    ):
        # Only a withdrawal promotes, in the same command and so the same hand, just after it.
        return f"A promotion from the waiting list comes with a withdrawal, in its hand, but this one is by {who}."
    record = state["pairings"].get(data.get("pairing")) if isinstance(data.get("pairing"), str) else None
    if kind in _PAIRING_PLAYERS:
        if not own(data.get("by")):
            return f"{_PAIRING_PLAYERS[kind]} names player {data.get('by')}, but is by {who}."
        if record is not None and data["by"] not in record["players"]:
            return f"{_PAIRING_PLAYERS[kind]} is made by one of the pairing's players, but this one is by {who}."
    if kind == "match.created" and record is not None:
        if not person:
            return f"A pairing's match is started by its players or the organiser, but this one is by {who}."
    if kind in _PLATFORMS and actor != "system":
        return f"{_PLATFORMS[kind]} is the platform's to record, but this one is by {who}."
    return None


def _first_difference(stored, folded, path="") -> str:
    if isinstance(stored, dict) and isinstance(folded, dict):
        for key in sorted(set(stored) | set(folded), key=str):
            if stored.get(key, KeyError) != folded.get(key, KeyError):
                return _first_difference(stored.get(key), folded.get(key), f"{path}.{key}" if path else str(key))
    if isinstance(stored, list) and isinstance(folded, list) and len(stored) == len(folded):
        for i, (a, b) in enumerate(zip(stored, folded)):
            if a != b:
                return _first_difference(a, b, f"{path}[{i}]")
    return path or "(the whole state)"


def verify_tournament(stream: Stream) -> StreamVerdict:
    def bad(seq, reason):
        return StreamVerdict(False, "tournament", seq, reason, stream.id)

    events = eventstore.stream_events(stream_id=stream.id)
    chain = eventstore.chain_check(events)
    if not chain.ok:
        return bad(chain.seq, chain.reason)
    tournament_id = stream.id.partition(":")[2]
    tournament = Tournament.objects.filter(pk=tournament_id).first() if tournament_id else None
    if tournament is None:
        return bad(1, "No tournament is built from this stream.")
    if not events or events[0].type != "tournament.created" or events[0].data.get("id") != str(tournament.pk):
        return bad(1, "The stream does not start with this tournament's creation.")

    retractions = _by(events, "result.match_disputed", "match_id")
    corrections = _by(events, "result.corrected", "pairing")
    # Results carry their match's head hash since the tournament verifier came (commit 0f94cf9);
    # a result recorded before carries none. Required of every result of a tournament whose
    # creation says its results carry one, and, in a tournament created before that flag, of
    # every result after the first that carries one (the platform writes results in stream
    # order, and once it wrote the head it always did): a head deleted from a result (the stream
    # rehashed) is then found, and a tournament recorded before verifies as it did.
    head_required = events[0].data.get("result_head_hashes") is True
    state = projection.initial()
    cached_at = copy.deepcopy(state) if tournament.state_seq == 0 else None
    previous = None
    for event in events:
        problem = _actor_problem(state, event, previous)
        if problem:
            return bad(event.seq, problem)
        previous = event
        if event.type == "result.verified":
            later = _replaced_later(event, retractions, corrections)
            problem = _check_match_result(str(tournament.pk), state, event.data, later, head_required)
            if problem:
                return bad(event.seq, problem)
            head_required = head_required or "head_hash" in event.data
        elif event.type in ("match.created", "result.match_disputed"):
            match = Match.objects.filter(pk=event.data.get("match_id")).first()
            origin = (match.origin or {}) if match else {}
            if origin.get("tournament") != str(tournament.pk) or origin.get("pairing") != event.data.get("pairing"):
                return bad(event.seq, "The fact cites a match that was not created for this pairing.")
        try:
            projection.apply(state, event_dict(event))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            return bad(event.seq, f"The fact cannot be folded ({exc!r}).")
        if event.seq == tournament.state_seq:
            cached_at = copy.deepcopy(state)
    if cached_at is None:
        return bad(events[-1].seq, f"The cached projection claims event {tournament.state_seq}, beyond the stream.")
    if tournament.state != cached_at:
        where = _first_difference(tournament.state, cached_at)
        seq = tournament.state_seq or events[-1].seq
        return bad(seq, f"The stored projection differs from a fresh fold of the tournament's facts at {where}.")
    return StreamVerdict(True, "tournament", label=stream.id)
