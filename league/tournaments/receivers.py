from django.dispatch import receiver

from matches.models import Match
from matches.signals import match_verified

from .tasks import record_tournament_match


@receiver(match_verified)
def on_match_verified(sender, match_id, game, verdict, **kwargs):
    # A verdict (verified or not) settles a pairing's platform match: a verified one
    # records its result, any other puts the pairing before the organiser. The task is
    # idempotent, so a verdict sent twice records once.
    if Match.objects.filter(pk=match_id, origin__has_key="tournament").exists():
        record_tournament_match.delay(str(match_id))
