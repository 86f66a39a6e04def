from django.utils import timezone

from config.celery import app

from .services import tournament_record_match


@app.task(name="tournaments.record_match", acks_late=True)
def record_tournament_match(match_id: str) -> str:
    """A tournament pairing's platform match has its verdict: record it (once).

    Sent by ``matches.signals.match_verified`` after the verdict commits, so nothing
    waits on verification here. Idempotent (event ids derive from the match id)."""
    return tournament_record_match(match_id=match_id)


@app.task(name="tournaments.requeue_followups", acks_late=True)
def requeue_tournament_followups(now=None) -> int:
    """The beat's backstop for a pairing match's verdict whose follow-up tasks a broker lost, as
    ``league.requeue_followups`` is for fixtures and ratings: the ``match.verified`` outbox message
    counts as delivered once ``record_match`` and ``retract_match`` are queued, so a task lost after
    that would leave a pairing waiting for a verified result for good, or a disputed match's
    result standing in the standings and the bracket.

    Over the verdicts of the same window (after the same grace), in their order: a pairing still
    open on its match gets the verdict's fact, and a result still taken from a match now disputed
    (or verified again since a dispute: a dispute is final) is retracted. Each call is the task's
    own idempotent service, so a follow-up that was only late is done once. Returns how many
    pairings it changed."""
    from league.seasons.tasks import FOLLOWUPS_GRACE, followups_window
    from matches.models import Match

    from .models import Tournament
    from .receivers import tournament_hold_unfinished
    from .selectors import tournament_state
    from .services import tournament_retract_match
    from .states import PairingStatus

    now = now or timezone.now()
    settled = (
        Match.objects.filter(
            origin__has_key="tournament",
            status=Match.Status.FINISHED,
            verdict__in=[Match.Verdict.VERIFIED, Match.Verdict.DISPUTED],
            verified_at__range=(now - followups_window(), now - FOLLOWUPS_GRACE),
        )
        .order_by("verified_at", "pk")
        .values_list("pk", "origin", "verdict", "result", "disputed_at")
    )
    states: dict[str, dict | None] = {}
    changed = 0
    for match_id, origin, verdict, result, disputed_at in settled:
        key = str(origin["tournament"])
        if key not in states:
            tournament = Tournament.objects.filter(pk=key).first()
            states[key] = tournament_state(tournament=tournament) if tournament is not None else None
        record = (states[key] or {}).get("pairings", {}).get(origin.get("pairing"))
        if record is None or record["match_id"] != str(match_id):
            continue  # the pairing has another match now, or none
        waiting = record["status"] in (PairingStatus.PENDING, PairingStatus.REPORTED)
        head = states[key]["seq"]
        if waiting and verdict == Match.Verdict.VERIFIED and (result or {}).get("unfinished"):
            tournament_hold_unfinished(match_id=match_id)
        elif waiting:
            tournament_record_match(match_id=match_id)
        elif (verdict == Match.Verdict.DISPUTED or disputed_at) and record["status"] == PairingStatus.FINAL:
            # Verified again since a dispute, it still loses its result (a dispute is final): the
            # retraction its dispute sent may be the lost one. Only a result still taken from the match.
            tournament_retract_match(match_id=match_id)
        else:
            continue
        states[key] = tournament_state(tournament=Tournament.objects.get(pk=key))
        changed += states[key]["seq"] != head  # a fact whose derived id was taken changes nothing
    return changed
