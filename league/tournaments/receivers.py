from django.dispatch import receiver

from matches.models import Match
from matches.signals import match_finished

from .tasks import record_tournament_match


@receiver(match_finished)
def on_match_finished(sender, match_id, game, **kwargs):
    if Match.objects.filter(pk=match_id, origin__has_key="tournament").exists():
        record_tournament_match.delay(str(match_id))
