from django.dispatch import receiver

from config.celery import app
from matches.models import Match
from matches.signals import match_verified

from .services import tournament_retract_match
from .tasks import record_tournament_match


@app.task(name="tournaments.retract_match", acks_late=True)
def retract_tournament_match(match_id: str) -> str:
    """Idempotent: the retraction's event id derives from the match id."""
    return tournament_retract_match(match_id=match_id)


@receiver(match_verified)
def on_match_verified(sender, match_id, game, verdict, **kwargs):
    # A verdict (verified or not) settles a pairing's platform match: a verified one
    # records its result, any other puts the pairing before the organiser. The task is
    # idempotent, so a verdict sent twice records once.
    if Match.objects.filter(pk=match_id, origin__has_key="tournament").exists():
        record_tournament_match.delay(str(match_id))
        if verdict == Match.Verdict.DISPUTED:
            # A result recorded before the match was found disputed is retracted, never kept.
            retract_tournament_match.delay(str(match_id))
