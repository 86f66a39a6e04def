"""Corrections: the organiser changes a final result (a bracket re-routes), a verified
result whose match is later found disputed is retracted, and the cached projection is
rebuilt from the stream."""

from __future__ import annotations

from django.db import transaction

from matches import eventstore
from matches.commands import AT_HEAD, platform_event_id
from matches.models import Match

from .. import projection
from ..errors import refuse
from ..models import Tournament
from ..projection import event_dict
from ..standings import progress
from ..states import PairingStatus
from .commands import NAMESPACE, Outcome, _need_organiser, _pairing, _run, entrants_save
from .results import clean_result


def tournament_correct(
    *, tournament, pairing: str, by, result: dict, reason: str = "", expected_seq, event_id=None
) -> Outcome:
    """Change a final result, even after later rounds. A bracket re-routes the corrected
    winner and voids the matches that no longer stand; Swiss keeps its pairings and
    recomputes the standings."""

    def decide(state):
        _need_organiser(state, by)
        record = _pairing(state, pairing)
        if record["status"] != PairingStatus.FINAL:
            raise refuse("Only a final result is corrected; rule on an open one.", "result_not_final")
        if (record["result"] or {}).get("bye"):
            raise refuse("A bye has no result to correct.", "bye")
        cleaned = clean_result(state, record, result)
        if cleaned == {k: v for k, v in record["result"].items() if k != "forfeit"} and not record["result"].get(
            "forfeit"
        ):
            raise refuse("That is already the result.", "same_result")
        return [
            (
                "result.corrected",
                {"pairing": pairing, "result": cleaned, "before": record["result"], "reason": reason[:500]},
            )
        ]

    return _run(tournament=tournament, user=by, decide=decide, expected_seq=expected_seq, event_id=event_id)


def tournament_retract_match(*, match_id) -> str:
    """A platform match whose verified result a pairing recorded has since been found
    disputed: retract that result by a fact in the tournament's stream. The pairing goes back
    before the organiser (status PairingStatus.DISPUTED, the verifier's reason in its history); standings
    and the bracket stop counting it, and bracket matches that depended on it are voided.

    Recorded as ``result.match_disputed`` (the fact the fold already knows for "this pairing's
    match is disputed"), carrying the retracted result. Returns "retracted" or "ignored".
    Idempotent: the event id derives from the match id.

    Only a result still taken from the match is retracted. One the organiser has corrected since
    is the organiser's ruling, no longer the match's, and stands (RULES.md "A corrected result
    stands when its match is later disputed"): reopening it would undo a ruling nobody withdrew.
    The tournament verifier knows the correction replaced the match's result."""
    match = Match.objects.filter(pk=match_id).first()
    # A dispute is final (Match.disputed_at): a match verified again since its dispute still loses
    # the result, or a retraction lost before the re-verification would never be made.
    disputed = match is not None and (match.verdict == Match.Verdict.DISPUTED or match.disputed_at is not None)
    if not disputed or "tournament" not in (match.origin or {}):
        return "ignored"
    origin = match.origin
    where = f" (event {match.verdict_seq})" if match.verdict_seq else ""
    why = (
        f"the match was disputed{where}: {match.verdict_reason}"
        if match.verdict == Match.Verdict.DISPUTED
        else "an earlier verification found the match disputed."
    )

    def decide(state):
        record = state["pairings"].get(origin["pairing"])
        if (
            record is None
            or record["match_id"] != str(match.id)
            or record["status"] != PairingStatus.FINAL
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
                    "reason": f"Result retracted: {why}",
                },
            )
        ]

    done = _run(
        tournament=origin["tournament"],
        user=None,
        decide=decide,
        actor="system",
        # The platform's own fact, at whatever head it finds: its id derives from the match.
        expected_seq=AT_HEAD,
        event_id=platform_event_id(NAMESPACE, f"{match.id}:retracted"),
    )
    return "retracted" if done.events else "ignored"


def projection_rebuild(*, tournament: Tournament) -> dict:
    """Drop the cached projection and fold it again from every event of the stream."""
    with transaction.atomic():
        eventstore.stream_lock(stream_id=tournament.stream_id)
        events = eventstore.stream_events(stream_id=tournament.stream_id)
        state = projection.fold(event_dict(e) for e in events)
        Tournament.objects.filter(pk=tournament.pk).update(
            state=state, state_seq=state["seq"], status=progress(state)["status"]
        )
        entrants_save(tournament_id=tournament.pk, state=state)
    tournament.refresh_from_db()
    return state
