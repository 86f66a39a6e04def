from django.dispatch import receiver

from config.celery import app
from engines import registry
from league.drafts.services import draft_forfeited
from matches.models import Match
from matches.selectors import match_for_followups
from matches.signals import match_verified, matches_verified

from .services import result_retract
from .tasks import rate_result, record_result, verdicts_followups


@app.task(name="league.retract_result", acks_late=True)
def retract_result(match_id: str) -> bool:
    """Idempotent: the retraction's event id is derived from the match id."""
    return result_retract(match_id=match_id)


@receiver(match_verified)
def on_match_verified(sender, match_id, game, verdict, **kwargs):
    match = match_for_followups(match_id=match_id)
    origin, disputed_at = (match.origin or {}, match.disputed_at) if match is not None else ({}, None)
    if verdict == Match.Verdict.VERIFIED and disputed_at is not None and "fixture" in origin:
        # Verified again after a dispute, which is final: its retraction may have been lost.
        retract_result.delay(str(match_id))
    if verdict == Match.Verdict.DISPUTED:
        # A result recorded before the match was found disputed is retracted, never kept.
        if "fixture" in origin:
            retract_result.delay(str(match_id))
        # A result already in the ratings comes out (a rewind to just before it); else nothing.
        rate_result.delay(str(match_id))
        return
    # Only verified results move standings and ratings (ARCHITECTURE.md "Verification").
    if verdict != Match.Verdict.VERIFIED:
        return
    # A fixture's draft has no result of its own, only a forfeit when a coach resigned it.
    if "fixture" in origin and (
        not registry.get(game).draft or (match is not None and draft_forfeited(draft_match=match))
    ):
        record_result.delay(str(match_id))
    # One result folded into the stored ratings: constant in the history's length (issue 17, P4a).
    rate_result.delay(str(match_id))


@receiver(matches_verified)
def on_matches_verified(sender, verdicts, **kwargs):
    # Many verdicts recorded together (a season's verification run): their results and ratings
    # in one task, one transaction per season and per game, not three tasks per verdict.
    verdicts_followups.delay(verdicts)
