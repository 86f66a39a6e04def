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
    for event in events:
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
