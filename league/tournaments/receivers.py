from django.dispatch import receiver

from config.celery import app
from matches.commands import AT_HEAD, platform_event_id
from matches.models import Match
from matches.selectors import match_for_followups
from matches.signals import match_verified, matches_verified

from .services import NAMESPACE, _run, tournament_retract_match
from .states import PairingStatus
from .tasks import record_tournament_match


@app.task(name="tournaments.retract_match", acks_late=True)
def retract_tournament_match(match_id: str) -> str:
    """Idempotent: the retraction's event id derives from the match id."""
    return tournament_retract_match(match_id=match_id)


def tournament_hold_unfinished(*, match_id) -> str:
    """A pairing's platform match ended unfinished (a bound on turns: no winner; see
    engines/wizard_dodgeball/RULES.md "Unfinished games"). It records no result: the pairing
    goes before the organiser with the reason, as a drawn bracket match does, and the
    organiser rules or has it replayed. Returns "held" or "ignored".
    Idempotent: the event id derives from the match id."""
    match = Match.objects.filter(pk=match_id).first()
    origin = (match.origin or {}) if match is not None else {}
    if (
        match is None
        or "tournament" not in origin
        or match.verdict != Match.Verdict.VERIFIED
        or not (match.result or {}).get("unfinished")
    ):
        return "ignored"
    detail = match.result.get("detail") or "The match ended without a winner."

    def decide(state):
        record = state["pairings"].get(origin["pairing"])
        if (
            record is None
            or record["match_id"] != str(match.id)
            or record["status"]
            in (PairingStatus.FINAL, PairingStatus.WAITING, PairingStatus.NOT_NEEDED, PairingStatus.DISPUTED)
        ):
            return []
        return [
            (
                "result.match_disputed",
                {
                    "pairing": origin["pairing"],
                    "match_id": str(match.id),
                    "reason": f"The match ended unfinished, with no winner: {detail} It records no result: the "
                    "organiser rules or has it replayed.",
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
        event_id=platform_event_id(NAMESPACE, f"{match.id}:unfinished"),
    )
    return "held" if done.events else "ignored"


@app.task(name="tournaments.hold_unfinished_match", acks_late=True)
def hold_unfinished_tournament_match(match_id: str) -> str:
    return tournament_hold_unfinished(match_id=match_id)


@receiver(match_verified)
def on_match_verified(sender, match_id, game, verdict, **kwargs):
    # A verdict (verified or not) settles a pairing's platform match: a verified one
    # records its result, any other puts the pairing before the organiser. The task is
    # idempotent, so a verdict sent twice records once.
    match = match_for_followups(match_id=match_id)
    if match is not None and isinstance(match.origin, dict) and "tournament" in match.origin:
        _settle_pairing(match, verdict)


@receiver(matches_verified)
def on_matches_verified(sender, verdicts, **kwargs):
    # Many verdicts recorded together: one read finds the few that are a pairing's, if any.
    by_id = {str(v["match_id"]): v["verdict"] for v in verdicts}
    order = {match_id: n for n, match_id in enumerate(by_id)}
    ours = Match.objects.filter(pk__in=list(by_id), origin__has_key="tournament").only("result", "disputed_at")
    for match in sorted(ours, key=lambda m: order[str(m.pk)]):
        _settle_pairing(match, by_id[str(match.pk)])


def _settle_pairing(match: Match, verdict: str) -> None:
    match_id = match.pk
    if verdict == Match.Verdict.VERIFIED and (match.result or {}).get("unfinished"):
        # No winner: counted nowhere; the pairing waits for the organiser.
        hold_unfinished_tournament_match.delay(str(match_id))
        return
    record_tournament_match.delay(str(match_id))
    if verdict == Match.Verdict.DISPUTED or match.disputed_at is not None:
        # A result recorded before the match was found disputed is retracted, never kept; asked
        # again on a later verdict (a dispute is final), in case the first retraction was lost.
        retract_tournament_match.delay(str(match_id))
