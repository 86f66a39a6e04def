from django.dispatch import receiver

from engines import registry
from matches.signals import match_finished

from .tasks import hand_off_draft


@receiver(match_finished)
def on_match_finished(sender, match_id, game, **kwargs):
    if registry.get(game).draft:
        hand_off_draft.delay(str(match_id))
