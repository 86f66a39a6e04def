from django.dispatch import receiver

from matches.signals import match_finished

from .tasks import hand_off_draft


@receiver(match_finished)
def on_match_finished(sender, match_id, game, **kwargs):
    if game == "iwdl-draft":
        hand_off_draft.delay(str(match_id))
